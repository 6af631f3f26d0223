/**
 * The function-invoking loop (RAF's FunctionInvokingChatClient, seed-systems §6.3, decisions.md points 10–11):
 * call the model; if it asks for tools, run every call of the round concurrently through `runToolCall` (each result
 * reported as its tool ends), append the assistant message and one tool message per call in call order, and loop;
 * stop when the model answers without tools or after `maxIterations` model calls (finish reason `max_iterations`), or
 * when a call needs a person's approval (the gate of `toolApprovals()`, approval-gate.ts: the run ends `interrupted`; agent-resume.ts goes on).
 *
 * Every tool call gets exactly one tool message — synthetic when it could not finish — so the transcript is always a
 * valid next request. Every failure becomes an item: recoverable ones as the run goes on, at most one terminal one
 * as the last item.
 */
import { closeChatBatches, openChatBatches, type ChatBatches } from '../chat/core/chat-batches.js';
import type { ChatChunk, ChatMessage, FinishReason, ToolCall, Usage } from '../chat/core/types.js';
import { StreamError } from '../errors/stream-error.js';
import { monotonic } from '../internal/clock.js';
import { redactText, redactValue } from '../internal/redact.js';
import { truncate } from '../internal/json.js';
import { errorJSON, safeEmit } from './agent-events.js';
import { cutByOutputLimit } from './cut-off-calls.js';
import { noCallsSent, repeatedCallId, stoppedByProvider } from './provider-stops.js';
import { initialConversation, modelRequest, requestHooks } from './model-request.js';
import { endModelSpan, failSpan, recordModelInput, startModelSpan } from './run-span.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import { checkOutput, outputFeedback, outputFormat } from './structured-output.js';
import { OutputValidationError } from '../errors/output-validation-error.js';
import { runTools } from './run-tools.js';
import { shownToolName } from '../tools/tool-call-name.js';
import { appendSession, loadSession } from './session-store.js';
import type { AgentRunItem, AgentSettings } from './types.js';
import type { ApprovalMachinery, LoopContext, ResumedRun } from './loop-context.js';

const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/**
 * The run itself, as batches of items: the session is loaded first (a session that cannot load, or an aborted signal,
 * is the one item: a terminal error; nothing is saved), then the turns. `context.close` runs once at the end. One
 * generator from the session to the last item: no relay between it and the run's stream.
 */
export async function* agentLoop(context: LoopContext): AsyncGenerator<AgentRunItem[], void, undefined> {
  try {
    let history: ChatMessage[] = [];
    let resumed: ResumedRun | undefined;
    try {
      if (context.resume !== undefined) {
        if (context.abort.aborted) throw context.abort.reason; // before the claim: a cancelled resume changes nothing
        const claimed = await context.resume.claim(context); // a refused resume is this run's one item
        if ('replay' in claimed) {
          yield [...context.queue.splice(0), claimed.replay];
          return;
        }
        resumed = claimed;
      }
      if (context.sessionId !== undefined) history = await loadSession(context.settings.sessionStore, context.sessionId);
      if (context.abort.aborted) throw context.abort.reason;
    } catch (error) {
      const failure = context.abort.aborted ? context.abort.reason : error;
      safeEmit(context, context.queue, 'error', () => ({ runId: context.runId, agent: context.settings.name, iteration: 0, terminal: true, error: errorJSON(failure, context.settings.secrets) }));
      yield [...context.queue.splice(0), { type: 'error', iteration: 0, terminal: true, error: failure }];
      return;
    }
    const { settings, abort } = context;
    const agent = settings.name;
    const queue = context.queue;
    const added: ChatMessage[] = resumed?.added ?? [];
    const conversation = initialConversation(settings, history, context.input);
    let iteration = resumed?.iterations ?? 0;
    let outputRetried = false;
    let usage: Usage = resumed?.usage ?? { ...ZERO_USAGE };
    let modelSpan: SpanHandle | undefined;
    const hooks = requestHooks(context, queue, () => iteration, () => modelSpan);
    const take = (items: AgentRunItem[] = []): AgentRunItem[] => (queue.length > 0 ? [...queue.splice(0), ...items] : items);

    const save = async (): Promise<void> => {
      if (context.sessionId === undefined) return;
      const failure = await appendSession(settings.sessionStore, context.sessionId, [...context.input, ...added]); // this run's turn, atomically
      if (failure) {
        queue.push({ type: 'error', iteration, terminal: false, error: failure });
        safeEmit(context, queue, 'error', () => ({ runId: context.runId, agent, iteration, terminal: false, error: errorJSON(failure, settings.secrets) }));
      }
    };

    const terminal = async (error: unknown): Promise<AgentRunItem[]> => {
      await save();
      safeEmit(context, queue, 'error', () => ({ runId: context.runId, agent, iteration, terminal: true, error: errorJSON(error, settings.secrets) }));
      return take([{ type: 'error', iteration, terminal: true, error }]);
    };

    if (resumed !== undefined) {
      conversation.push(...added);
      const failure = yield* resumed.answer(context, conversation, added, queue);
      if (failure !== undefined) {
        yield await terminal(failure.error);
        return;
      }
    }

    for (;;) {
      if (iteration >= settings.maxIterations) {
        await save();
        yield take([{ type: 'finish', finishReason: 'max_iterations', iterations: iteration, usage, text: '', messages: added }]);
        return;
      }
      iteration++;
      modelSpan = startModelSpan(settings, context.span);
      const request = modelRequest(settings, conversation, abort, hooks, context.output);
      recordModelInput(settings, modelSpan, request.messages);
      safeEmit(context, queue, 'model-request', () => ({
        runId: context.runId,
        agent,
        iteration,
        model: settings.chatClient.name,
        messageCount: request.messages.length,
        tools: settings.tools.map((tool) => tool.name),
      }));
      const started = monotonic();
      let call: ChatBatches;
      try {
        call = openChatBatches(settings.chatClient, request);
      } catch (error) {
        failSpan(modelSpan, error);
        yield await terminal(error);
        return;
      }

      let text = '';
      let reasoning = '';
      let replay: ChatMessage['replay'];
      const calls: ToolCall[] = [];
      let finishReason: FinishReason | undefined;
      let stepUsage: Usage | undefined;
      let requestId: string | undefined;
      let settled = false;
      // Retries and fallbacks happen before a call's first output: their items go out while the call waits for it.
      let first: Promise<IteratorResult<readonly ChatChunk[], void>> | undefined = call.batches.next();
      try {
        for (;;) {
          let next: IteratorResult<readonly ChatChunk[], void>;
          if (first !== undefined) {
            const woken = queue.length > 0 ? undefined : await Promise.race([first, context.waker.next()]);
            if (woken === undefined) {
              if (queue.length > 0) yield take();
              continue;
            }
            next = woken;
            first = undefined;
          } else next = await call.batches.next();
          if (next.done) break;
          const items: AgentRunItem[] = [];
          for (const value of next.value) {
            switch (value.type) {
              case 'text-delta':
                text += value.delta;
                items.push({ type: 'text-delta', iteration, delta: value.delta });
                break;
              case 'reasoning-delta':
                reasoning += value.delta;
                items.push({ type: 'reasoning-delta', iteration, delta: value.delta });
                break;
              case 'tool-call-end': {
                const toolCall = { id: value.id, name: value.name, arguments: value.arguments };
                calls.push(toolCall); // the transcript keeps the call as the provider made it
                const name = shownToolName(settings.tools, toolCall.name, settings.secrets);
                items.push({ type: 'tool-call', iteration, call: name === toolCall.name ? toolCall : { ...toolCall, name } });
                break;
              }
              case 'usage':
                stepUsage = value.usage;
                break;
              case 'finish':
                finishReason = value.reason;
                stepUsage = value.usage ?? stepUsage;
                replay = value.replay;
                requestId = value.requestId;
                break;
              default:
                break;
            }
          }
          if (items.length > 0 || queue.length > 0) yield take(items);
        }
        settled = true;
      } catch (error) {
        settled = true;
        failSpan(modelSpan, error);
        yield await terminal(error);
        return;
      } finally {
        if (!settled) {
          closeChatBatches(call); // the run's consumer stopped mid-call
          modelSpan.end();
        }
      }
      if (finishReason === undefined) {
        const incomplete = new StreamError(`The model stream of ${settings.chatClient.name} ended without a finish`, { reason: 'incomplete', afterOutput: text !== '' || calls.length > 0 });
        failSpan(modelSpan, incomplete);
        yield await terminal(incomplete);
        return;
      }
      endModelSpan(modelSpan, finishReason, stepUsage, requestId, settings.telemetry.recordContent ? text : undefined);
      if (stepUsage) {
        usage = addUsage(usage, stepUsage);
        queue.push({ type: 'usage', iteration, usage: stepUsage });
      }
      safeEmit(context, queue, 'model-response', () => ({
        runId: context.runId,
        agent,
        iteration,
        finishReason,
        toolCalls: calls.length,
        textLength: text.length,
        ...(stepUsage ? { usage: stepUsage } : {}),
        durationMs: monotonic() - started,
      }));

      const assistant: ChatMessage = { role: 'assistant', content: calls.length > 0 && text === '' ? null : text };
      if (calls.length > 0) assistant.toolCalls = calls;
      if (reasoning !== '') assistant.reasoning = reasoning;
      if (replay && replay.length > 0) assistant.replay = replay;
      conversation.push(assistant);
      added.push(assistant);
      queue.push({ type: 'message', iteration, message: assistant });

      const stopped = stoppedByProvider(finishReason, text, settings);
      if (stopped) {
        // A refusal or a content filter is a typed outcome the caller can branch on, never an empty success.
        queue.push({ type: 'error', iteration, terminal: false, error: stopped });
        safeEmit(context, queue, 'error', () => ({ runId: context.runId, agent, iteration, terminal: false, error: errorJSON(stopped, settings.secrets) }));
      }
      const unreadable = calls.length === 0 ? (finishReason === 'tool_calls' ? noCallsSent(settings.chatClient.name) : undefined) : repeatedCallId(settings.chatClient.name, calls, settings.secrets);
      if (unreadable) {
        yield await terminal(unreadable);
        return;
      }
      if (calls.length === 0) {
        if (context.output && !stopped && !cutByOutputLimit(finishReason)) {
          const checked = await checkOutput(context.output, text);
          if (!checked.ok) {
            if (!outputRetried) {
              // Shown to the model once, naming each problem, like invalid tool arguments.
              outputRetried = true;
              const feedback = outputFeedback(checked.issues, outputFormat(context.output));
              conversation.push(feedback);
              added.push(feedback);
              continue;
            }
            yield await terminal(
              new OutputValidationError(`The final answer of ${settings.chatClient.name} does not match the output schema, also after being shown the problems: ${truncate(redactText(checked.issues.map((issue) => `${issue.path || '(the answer)'}: ${issue.message}`).join('; '), settings.secrets), 500)}`, {
                issues: redactValue(checked.issues, settings.secrets) as typeof checked.issues,
                text: truncate(redactText(text, settings.secrets), 10_000),
              }),
            );
            return;
          }
          await save();
          yield take([{ type: 'finish', finishReason, iterations: iteration, usage, text, messages: added, output: checked.value }]);
          return;
        }
        await save();
        yield take([{ type: 'finish', finishReason, iterations: iteration, usage, text, messages: added }]);
        return;
      }

      const cut = cutByOutputLimit(finishReason);
      const failure = settings.approvals && settings.asks ? yield* (settings.approvals as ApprovalMachinery).gate(context, calls, iteration, conversation, added, queue, usage, cut) : yield* runTools(context, calls, iteration, conversation, added, queue, cut);
      if (failure !== undefined) {
        yield 'interrupted' in failure ? take([failure.interrupted]) : await terminal(failure.error);
        return;
      }
      if (cut) {
        // The output limit cut this turn: its calls are answered (a cut-off one with an InputValidationError), and the
        // run ends saying so — the session holds a valid transcript for the next run.
        await save();
        yield take([{ type: 'finish', finishReason, iterations: iteration, usage, text, messages: added }]);
        return;
      }
    }
  } finally {
    context.close();
  }
}


function addUsage(total: Usage, step: Usage): Usage {
  const sum: Usage = {
    promptTokens: total.promptTokens + step.promptTokens,
    completionTokens: total.completionTokens + step.completionTokens,
    totalTokens: total.totalTokens + step.totalTokens,
  };
  if (total.reasoningTokens !== undefined || step.reasoningTokens !== undefined) sum.reasoningTokens = (total.reasoningTokens ?? 0) + (step.reasoningTokens ?? 0);
  if (total.cachedPromptTokens !== undefined || step.cachedPromptTokens !== undefined) sum.cachedPromptTokens = (total.cachedPromptTokens ?? 0) + (step.cachedPromptTokens ?? 0);
  return sum;
}
