/**
 * The function-invoking loop (RAF's FunctionInvokingChatClient, seed-systems §6.3, decisions.md points 10–11):
 * call the model; if it asks for tools, run every call of the round concurrently through `runToolCall` (results in
 * call order), append the assistant message and one tool message per call, and loop; stop when the model answers
 * without tools or after `maxIterations` model calls (finish reason `max_iterations`).
 *
 * Every tool call gets exactly one tool message — synthetic when it could not finish — so the transcript is always a
 * valid next request. Every failure becomes an item: recoverable ones as the run goes on, at most one terminal one
 * as the last item.
 */
import type { Emitter } from 'nanoevents';
import { closeChatBatches, openChatBatches, type ChatBatches } from '../chat/chat-batches.js';
import type { ChatMessage, ChatRequest, FinishReason, ToolCall, Usage } from '../chat/types.js';
import { AgentError } from '../errors/agent-error.js';
import { StreamError } from '../errors/stream-error.js';
import { ToolError } from '../errors/tool-error.js';
import { describeError } from '../internal/error-json.js';
import { isAbortError, messageOf } from '../internal/error-chain.js';
import { monotonic } from '../internal/clock.js';
import { truncate } from '../internal/json.js';
import { redactError, redactText, redactValue } from '../internal/redact.js';
import { runToolCall } from '../tools/run-tool-call.js';
import type { ToolRun } from '../tools/run-tool.js';
import { serializeToolResult } from '../tools/serialize-tool-result.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';
import { ToolResult, type ToolResultJSON } from '../tools/tool-result.js';
import { saveSession } from './session-store.js';
import type { AgentEvents, AgentRunItem, AgentSettings, AgentToolOutcome } from './types.js';

/** What one run needs. */
export interface LoopContext {
  settings: AgentSettings;
  runId: string;
  emitter: Emitter<AgentEvents>;
  /** Stored conversation of the session (without the system message). */
  history: ChatMessage[];
  /** The caller's new messages. */
  input: ChatMessage[];
  sessionId?: string | undefined;
  /** Aborts the run: the caller's signal, or the stream being cancelled. */
  signal: AbortSignal;
  /** The first model call, started eagerly so that a request that can never be sent rejects `run()`. */
  first: { request: ChatRequest; call: ChatBatches };
  /** Items produced by callbacks (fallbacks, listener failures), delivered with the next batch. */
  queue: AgentRunItem[];
}

const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** Builds the request of one model call. */
export function modelRequest(settings: AgentSettings, conversation: readonly ChatMessage[], signal: AbortSignal, hooks: Pick<ChatRequest, 'onRetry' | 'onFallback'>): ChatRequest {
  const request: ChatRequest = { messages: [...conversation], signal, ...hooks };
  if (settings.tools.length > 0) {
    request.tools = settings.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.jsonSchema }));
    if (settings.toolChoice !== undefined) request.toolChoice = settings.toolChoice;
  }
  if (settings.temperature !== undefined) request.temperature = settings.temperature;
  return request;
}

/** The conversation sent to the model: instructions, the session so far, the new input. */
export function initialConversation(settings: AgentSettings, history: readonly ChatMessage[], input: readonly ChatMessage[]): ChatMessage[] {
  const system: ChatMessage[] = settings.instructions ? [{ role: 'system', content: settings.instructions }] : [];
  return [...system, ...history, ...input];
}

/** The model-request hooks of a run: retries and fallbacks become events, a fallback also a recoverable item. */
export function requestHooks(context: Pick<LoopContext, 'runId' | 'settings' | 'emitter'>, queue: AgentRunItem[], iteration: () => number): Pick<ChatRequest, 'onRetry' | 'onFallback'> {
  const agent = context.settings.name;
  return {
    onRetry: (notice) =>
      safeEmit(context, queue, 'retry', { runId: context.runId, agent, source: 'model', attempt: notice.attempt, delayMs: notice.delayMs, error: redactValue(notice.error, context.settings.secrets) }),
    onFallback: (notice) => {
      queue.push({ type: 'error', iteration: iteration(), terminal: false, error: notice.error });
      safeEmit(context, queue, 'retry', { runId: context.runId, agent, source: 'model', attempt: 1, delayMs: 0, error: errorJSON(notice.error, context.settings.secrets), fallbackTo: notice.to });
      safeEmit(context, queue, 'error', { runId: context.runId, agent, iteration: iteration(), terminal: false, error: errorJSON(notice.error, context.settings.secrets) });
    },
  };
}

/** An error as plain JSON for events, with the agent's secrets removed from every string. */
function errorJSON(error: unknown, secrets: readonly string[]): Record<string, unknown> {
  const described = redactValue(describeError(error), secrets);
  return typeof described === 'object' && described !== null ? (described as Record<string, unknown>) : { message: String(described) };
}

/** Emits an event; a throwing listener becomes a recoverable error item instead of breaking the run. */
function safeEmit<E extends keyof AgentEvents>(context: Pick<LoopContext, 'emitter'>, queue: AgentRunItem[], event: E, ...payload: Parameters<AgentEvents[E]>): void {
  try {
    context.emitter.emit(event, ...payload);
  } catch (error) {
    const iteration = (payload[0] as { iteration?: unknown } | undefined)?.iteration;
    if (event !== 'error') {
      queue.push({
        type: 'error',
        iteration: typeof iteration === 'number' ? iteration : 0,
        terminal: false,
        error: new AgentError(`An agent "${String(event)}" listener threw: ${messageOf(error)}`, { cause: error }),
      });
    }
  }
}

/** The run itself, as batches of items. */
export async function* agentLoop(context: LoopContext): AsyncGenerator<AgentRunItem[], void, undefined> {
  const { settings, runId, signal } = context;
  const agent = settings.name;
  const queue = context.queue;
  const added: ChatMessage[] = [];
  const conversation = initialConversation(settings, context.history, context.input);
  let iteration = 0;
  let usage: Usage = { ...ZERO_USAGE };
  const hooks = requestHooks(context, queue, () => iteration);
  const take = (items: AgentRunItem[] = []): AgentRunItem[] => {
    const batch = queue.length > 0 ? [...queue.splice(0), ...items] : items;
    return batch;
  };

  const save = async (): Promise<void> => {
    if (context.sessionId === undefined) return;
    const failure = await saveSession(settings.sessionStore, context.sessionId, [...context.history, ...context.input, ...added]);
    if (failure) {
      queue.push({ type: 'error', iteration, terminal: false, error: failure });
      safeEmit(context, queue, 'error', { runId, agent, iteration, terminal: false, error: errorJSON(failure, settings.secrets) });
    }
  };

  const terminal = async (error: unknown): Promise<AgentRunItem[]> => {
    await save();
    safeEmit(context, queue, 'error', { runId, agent, iteration, terminal: true, error: errorJSON(error, settings.secrets) });
    return take([{ type: 'error', iteration, terminal: true, error }]);
  };

  for (;;) {
    if (iteration >= settings.maxIterations) {
      await save();
      yield take([{ type: 'finish', finishReason: 'max_iterations', iterations: iteration, usage, text: '', messages: added }]);
      return;
    }
    iteration++;
    const request = iteration === 1 ? context.first.request : modelRequest(settings, conversation, signal, hooks);
    safeEmit(context, queue, 'model-request', {
      runId,
      agent,
      iteration,
      model: settings.chatClient.name,
      messageCount: request.messages.length,
      tools: settings.tools.map((tool) => tool.name),
    });
    const started = monotonic();
    let call: ChatBatches;
    try {
      call = iteration === 1 ? context.first.call : openChatBatches(settings.chatClient, request);
    } catch (error) {
      yield await terminal(error);
      return;
    }

    let text = '';
    let reasoning = '';
    const calls: ToolCall[] = [];
    let finishReason: FinishReason | undefined;
    let stepUsage: Usage | undefined;
    let settled = false;
    try {
      for (;;) {
        const next = await call.batches.next();
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
              calls.push(toolCall);
              items.push({ type: 'tool-call', iteration, call: toolCall });
              break;
            }
            case 'usage':
              stepUsage = value.usage;
              break;
            case 'finish':
              finishReason = value.reason;
              stepUsage = value.usage ?? stepUsage;
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
      yield await terminal(error);
      return;
    } finally {
      if (!settled) closeChatBatches(call); // the run's consumer stopped mid-call
    }
    if (finishReason === undefined) {
      yield await terminal(new StreamError(`The model stream of ${settings.chatClient.name} ended without a finish`, { reason: 'incomplete', afterOutput: text !== '' || calls.length > 0 }));
      return;
    }
    if (stepUsage) {
      usage = addUsage(usage, stepUsage);
      queue.push({ type: 'usage', iteration, usage: stepUsage });
    }
    safeEmit(context, queue, 'model-response', {
      runId,
      agent,
      iteration,
      finishReason,
      toolCalls: calls.length,
      textLength: text.length,
      ...(stepUsage ? { usage: stepUsage } : {}),
      durationMs: monotonic() - started,
    });

    const assistant: ChatMessage = { role: 'assistant', content: calls.length > 0 && text === '' ? null : text };
    if (calls.length > 0) assistant.toolCalls = calls;
    if (reasoning !== '') assistant.reasoning = reasoning;
    conversation.push(assistant);
    added.push(assistant);

    if (calls.length === 0) {
      await save();
      yield take([{ type: 'finish', finishReason, iterations: iteration, usage, text, messages: added }]);
      return;
    }

    const failure = yield* runTools(context, calls, iteration, conversation, added, queue);
    if (failure !== undefined) {
      yield await terminal(failure.error);
      return;
    }
  }
}

type Settled = { ok: true; run: ToolRun } | { ok: false; error: unknown };

/** Runs the calls of one round concurrently; yields their results in call order. Returns a terminal failure, if any. */
async function* runTools(
  context: LoopContext,
  calls: readonly ToolCall[],
  iteration: number,
  conversation: ChatMessage[],
  added: ChatMessage[],
  queue: AgentRunItem[],
): AsyncGenerator<AgentRunItem[], { error: unknown } | undefined, undefined> {
  const { settings, runId, signal } = context;
  const agent = settings.name;
  const runs: Array<Promise<Settled>> = calls.map((call) => {
    safeEmit(context, queue, 'tool-start', { runId, agent, iteration, callId: call.id, toolName: call.name, arguments: truncate(redactText(call.arguments, settings.secrets), 2000) });
    return runToolCall(settings.tools, call, {
      signal,
      logger: settings.toolLogger,
      secrets: settings.secrets,
      onToolCrash: settings.onToolCrash,
      repair: settings.repairArguments,
      onRetry: (notice) =>
        safeEmit(context, queue, 'retry', { runId, agent, source: 'tool', attempt: notice.attempt, delayMs: notice.delayMs, error: notice.error, callId: call.id }),
    }).then(
      (run): Settled => ({ ok: true, run }),
      (error: unknown): Settled => ({ ok: false, error }),
    );
  });
  let failure: { error: unknown } | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as ToolCall;
    const settled = await (runs[index] as Promise<Settled>);
    const items: AgentRunItem[] = [];
    let result: ToolResult;
    let outcome: AgentToolOutcome;
    let attempts = 0;
    let durationMs = 0;
    let cause: unknown;
    if (settled.ok) {
      ({ result, outcome, attempts, durationMs } = settled.run);
      cause = settled.run.error;
      if (outcome === 'crash' || outcome === 'unserializable') {
        const crash = new ToolError(`Tool '${call.name}' ${outcome === 'crash' ? 'crashed' : 'returned a result that cannot be serialized'}: ${redactText(messageOf(cause), settings.secrets)}`, {
          toolName: call.name,
          callId: call.id,
          cause: redactError(cause, settings.secrets),
        });
        items.push({ type: 'error', iteration, terminal: false, error: crash });
        safeEmit(context, queue, 'error', { runId, agent, iteration, terminal: false, error: errorJSON(crash, settings.secrets) });
      }
    } else {
      failure ??= { error: settled.error };
      const aborted = signal.aborted || isAbortError(settled.error);
      outcome = aborted ? 'aborted' : ToolError.isInstance(settled.error) ? 'crash' : 'interrupted';
      cause = settled.error;
      result = ToolResult.error(
        aborted
          ? { type: 'Aborted', message: `The run was cancelled before the tool '${call.name}' finished; its outcome is unknown.` }
          : { type: 'ToolInternalError', message: `The tool '${call.name}' failed with an unexpected internal error.` },
      );
    }
    const content = serializeToolResult(result, { errorFormat: settings.toolErrorFormat });
    const message: ChatMessage = { role: 'tool', content, toolCallId: call.id };
    conversation.push(message);
    added.push(message);
    const json = JSON.parse(serializeToolResult(result)) as ToolResultJSON;
    items.push({ type: 'tool-result', iteration, callId: call.id, toolName: call.name, outcome, ok: result.ok, result: json, content, attempts, durationMs, synthetic: !settled.ok });
    safeEmit(context, queue, 'tool-end', { runId, agent, iteration, callId: call.id, toolName: call.name, outcome, ok: result.ok, attempts, durationMs, result: redactValue(json, settings.secrets) as ToolResultJSON });
    if (json.error && outcome !== 'success' && outcome !== 'partial') {
      safeEmit(context, queue, 'tool-error', { runId, agent, iteration, callId: call.id, toolName: call.name, outcome, error: redactValue(json.error, settings.secrets) as ToolErrorInfo, ...(cause !== undefined ? { cause: redactValue(describeError(cause), settings.secrets) } : {}) });
    }
    yield [...queue.splice(0), ...items];
  }
  return failure;
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
