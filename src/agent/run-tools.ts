/** One round of tool calls of the agent loop: run concurrently, reported in call order, one tool message each. */
import type { ChatMessage, ToolCall } from '../chat/core/types.js';
import { ToolError } from '../errors/tool-error.js';
import { isAbortError, messageOf } from '../internal/error-chain.js';
import { describeError } from '../internal/error-json.js';
import { truncate } from '../internal/json.js';
import { redactError, redactText, redactValue } from '../internal/redact.js';
import { runToolCallUnder } from '../tools/run-tool-call.js';
import { shownToolName } from '../tools/tool-call-name.js';
import type { ToolRun } from '../tools/run-tool.js';
import { serializeToolResult, toolRunContent } from '../tools/serialize-tool-result.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';
import { ToolResult, type ToolResultJSON } from '../tools/tool-result.js';
import { errorJSON, safeEmit } from './agent-events.js';
import { cutOffRun } from './cut-off-calls.js';
import type { LoopContext } from './loop-context.js';
import type { AgentRunItem, AgentToolOutcome } from './types.js';

type Settled = { ok: true; run: ToolRun } | { ok: false; error: unknown };

/** @internal Runs the calls of one round concurrently; yields their results in call order. Returns a terminal failure, if any. */
export async function* runTools(
  context: Pick<LoopContext, 'settings' | 'runId' | 'abort' | 'emitter' | 'span'>,
  calls: readonly ToolCall[],
  iteration: number,
  conversation: ChatMessage[],
  added: ChatMessage[],
  queue: AgentRunItem[],
  cutByLimit = false,
): AsyncGenerator<AgentRunItem[], { error: unknown } | undefined, undefined> {
  const { settings, abort } = context;
  const agent = settings.name;
  // Every output names a call's tool in one form (see tool-call-name.ts); the transcript keeps the provider's own.
  const names = calls.map((call) => shownToolName(settings.tools, call.name, settings.secrets));
  const runs: Array<Promise<Settled>> = calls.map((call, index) => {
    const toolName = names[index] as string;
    safeEmit(context, queue, 'tool-start', () => ({ runId: context.runId, agent, iteration, callId: call.id, toolName, arguments: truncate(redactText(call.arguments, settings.secrets), 2000) }));
    const cut = cutByLimit ? cutOffRun(call, toolName, settings.toolErrorFormat) : undefined; // not run: its arguments were cut off
    if (cut) return Promise.resolve<Settled>({ ok: true, run: cut });
    return runToolCallUnder(settings.tools, call, {
      logger: settings.toolLogger,
      secrets: settings.secrets,
      onToolCrash: settings.onToolCrash,
      repair: settings.repairArguments,
      telemetry: settings.telemetry,
      parentSpan: context.span,
      onRetry: (notice) =>
        safeEmit(context, queue, 'retry', () => ({
          runId: context.runId,
          agent,
          source: 'tool',
          attempt: notice.attempt,
          delayMs: notice.delayMs,
          error: redactValue(notice.error, settings.secrets),
          callId: call.id,
          toolName: notice.toolName,
          ...(notice.budgetExhausted ? { budgetExhausted: true } : {}),
        })),
    }, abort).then(
      (run): Settled => ({ ok: true, run }),
      (error: unknown): Settled => ({ ok: false, error }),
    );
  });
  let failure: { error: unknown } | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as ToolCall;
    const toolName = names[index] as string;
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
        const crash = new ToolError(`Tool '${toolName}' ${outcome === 'crash' ? 'crashed' : 'returned a result that cannot be serialized'}: ${redactText(messageOf(cause), settings.secrets)}`, {
          toolName,
          callId: call.id,
          cause: redactError(cause, settings.secrets),
        });
        items.push({ type: 'error', iteration, terminal: false, error: crash });
        safeEmit(context, queue, 'error', () => ({ runId: context.runId, agent, iteration, terminal: false, error: errorJSON(crash, settings.secrets) }));
      }
    } else {
      failure ??= { error: settled.error };
      const aborted = abort.aborted || isAbortError(settled.error);
      outcome = aborted ? 'aborted' : ToolError.isInstance(settled.error) ? 'crash' : 'interrupted';
      cause = settled.error;
      result = ToolResult.error(
        aborted
          ? { type: 'Aborted', message: `The run was cancelled before the tool '${toolName}' finished; its outcome is unknown.` }
          : { type: 'ToolInternalError', message: `The tool '${toolName}' failed with an unexpected internal error.` },
      );
    }
    // A finished run carries the text runTool checked: the model gets exactly that, nothing is serialized again.
    const content = settled.ok ? toolRunContent(settled.run, settings.toolErrorFormat) : serializeToolResult(result, { errorFormat: settings.toolErrorFormat });
    const message: ChatMessage = { role: 'tool', content, toolCallId: call.id };
    conversation.push(message);
    added.push(message);
    const json: ToolResultJSON = result.toJSON();
    items.push({ type: 'tool-result', iteration, callId: call.id, toolName, outcome, ok: result.ok, result: json, content, attempts, durationMs, synthetic: !settled.ok });
    safeEmit(context, queue, 'tool-end', () => ({ runId: context.runId, agent, iteration, callId: call.id, toolName, outcome, ok: result.ok, attempts, durationMs, result: redactValue(json, settings.secrets) as ToolResultJSON }));
    if (json.error && outcome !== 'success' && outcome !== 'partial') {
      safeEmit(context, queue, 'tool-error', () => ({ runId: context.runId, agent, iteration, callId: call.id, toolName, outcome, error: redactValue(json.error, settings.secrets) as ToolErrorInfo, ...(cause !== undefined ? { cause: redactValue(describeError(cause), settings.secrets) } : {}) }));
    }
    yield [...queue.splice(0), ...items];
  }
  return failure;
}
