/**
 * One round of tool calls of the agent loop: run concurrently (at most `maxParallelToolCalls` at once), each reported
 * as it ends, one tool message each.
 */
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
import { ToolFailure, type ToolErrorInfo } from '../tools/tool-failure.js';
import { ToolResult, type ToolResultJSON } from '../tools/tool-result.js';
import { errorJSON, safeEmit } from './agent-events.js';
import { cutOffRun } from './cut-off-calls.js';
import type { LoopContext } from './loop-context.js';
import type { AgentRunItem, AgentToolOutcome } from './types.js';

type Settled = { ok: true; run: ToolRun } | { ok: false; error: unknown };

/**
 * @internal Runs the calls of one round concurrently and yields each result as its tool ends (with the retries on
 * the way); the transcript gets the tool messages in call order once all have ended. Returns the first failure in call
 * order that ends the run (an abort, `onToolCrash: 'throw'`), if any. The calls in `noRepair` get no argument repair
 * (a tool that needs approval: repaired arguments would run unasked).
 */
export async function* runTools(
  context: Pick<LoopContext, 'settings' | 'runId' | 'abort' | 'emitter' | 'span' | 'waker'>,
  calls: readonly ToolCall[],
  iteration: number,
  conversation: ChatMessage[],
  added: ChatMessage[],
  queue: AgentRunItem[],
  cutByLimit = false,
  noRepair?: ReadonlySet<string>,
): AsyncGenerator<AgentRunItem[], { error: unknown } | undefined, undefined> {
  const { settings, abort, waker } = context;
  const agent = settings.name;
  // Every output names a call's tool in one form (see tool-call-name.ts); the transcript keeps the provider's own.
  const names = calls.map((call) => shownToolName(settings.tools, call.name, settings.secrets));
  const outcomes: Settled[] = [];
  const ended: number[] = []; // call indexes, in the order their tools ended
  const start = (index: number): void => {
    const call = calls[index] as ToolCall;
    const toolName = names[index] as string;
    safeEmit(context, queue, 'tool-start', () => ({ runId: context.runId, agent, iteration, callId: call.id, toolName, arguments: truncate(redactText(call.arguments, settings.secrets), 2000) }));
    const cut = cutByLimit ? cutOffRun(call, toolName, settings.toolErrorFormat) : undefined; // not run: its arguments were cut off
    const run = cut
      ? Promise.resolve(cut)
      : runToolCallUnder(settings.tools, call, {
          logger: settings.toolLogger,
          secrets: settings.secrets,
          onToolCrash: settings.onToolCrash,
          repair: noRepair?.has(call.id) ? undefined : settings.repairArguments,
          telemetry: settings.telemetry,
          parentSpan: context.span,
          onRetry: (notice) => {
            const error = redactValue(notice.error, settings.secrets) as Record<string, unknown>;
            const budget = notice.budgetExhausted ? { budgetExhausted: true } : {};
            queue.push({ type: 'retry', iteration, source: 'tool', attempt: notice.attempt, delayMs: notice.delayMs, error, callId: call.id, toolName: notice.toolName, ...budget });
            safeEmit(context, queue, 'retry', () => ({ runId: context.runId, agent, source: 'tool', attempt: notice.attempt, delayMs: notice.delayMs, error, callId: call.id, toolName: notice.toolName, ...budget }));
            waker.wake();
          },
        }, abort);
    run.then(
      (done): void => void (outcomes[index] = { ok: true, run: done }),
      (error: unknown): void => void (outcomes[index] = { ok: false, error }),
    ).then(() => {
      ended.push(index);
      if (started < calls.length) start(started++); // the next call waiting for a free place
      waker.wake();
    });
  };
  // At most maxParallelToolCalls tools run at once: a model asking for thousands in one turn starts no thousands of
  // requests; the rest start, in call order, as earlier ones end.
  let started = Math.min(calls.length, settings.maxParallelToolCalls);
  for (let index = 0; index < started; index++) start(index);
  const messages: ChatMessage[] = [];
  for (let reported = 0; reported < calls.length; ) {
    if (reported >= ended.length) {
      if (queue.length > 0) yield queue.splice(0);
      else await waker.next();
      continue;
    }
    const index = ended[reported++] as number;
    const { items, message } = reportTool(context, queue, calls[index] as ToolCall, names[index] as string, outcomes[index] as Settled, iteration);
    messages[index] = message;
    yield [...queue.splice(0), ...items];
  }
  conversation.push(...messages);
  added.push(...messages);
  const failed = outcomes.find((settled) => !settled.ok);
  return failed && !failed.ok ? { error: failed.error } : undefined;
}

/** The items of one ended tool call (a crash also as a recoverable error), its events, and its tool message. */
function reportTool(
  context: Pick<LoopContext, 'settings' | 'runId' | 'abort' | 'emitter'>,
  queue: AgentRunItem[],
  call: ToolCall,
  toolName: string,
  settled: Settled,
  iteration: number,
): { items: AgentRunItem[]; message: ChatMessage } {
  const { settings, abort } = context;
  const agent = settings.name;
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
    const aborted = abort.aborted || isAbortError(settled.error);
    outcome = aborted ? 'aborted' : ToolError.isInstance(settled.error) ? 'crash' : 'interrupted';
    cause = settled.error;
    result = ToolResult.error(
      aborted
        ? { type: 'Aborted', message: `The run was cancelled before the tool '${toolName}' finished; its outcome is unknown.` }
        : { type: 'ToolInternalError', message: `The tool '${toolName}' failed with an unexpected internal error.` },
    );
  }
  // A finished run carries the text runTool checked: the model gets exactly that, nothing is serialized again — but
  // without the agent's secrets: a tool's failure may quote the key it was refused with, and the model provider, the
  // session, the Runner's events and every screen downstream get this text as it is.
  const secrets = settings.secrets;
  let content = settled.ok ? toolRunContent(settled.run, settings.toolErrorFormat) : serializeToolResult(result, { errorFormat: settings.toolErrorFormat });
  let json: ToolResultJSON = result.toJSON();
  if (secrets.length > 0) {
    content = redactText(content, secrets);
    json = redactValue(json, secrets) as ToolResultJSON;
  }
  const item: AgentRunItem = { type: 'tool-result', iteration, callId: call.id, toolName, outcome, ok: result.ok, result: json, content, attempts, durationMs, synthetic: !settled.ok };
  if (ToolFailure.isInstance(cause)) {
    item.retryable = cause.retryable;
    if (cause.retryAfterMs !== undefined) item.retryAfterMs = cause.retryAfterMs;
  }
  if (cause !== undefined) item.cause = redactError(cause, settings.secrets);
  items.push(item);
  safeEmit(context, queue, 'tool-end', () => ({ runId: context.runId, agent, iteration, callId: call.id, toolName, outcome, ok: result.ok, attempts, durationMs, result: json }));
  if (json.error && outcome !== 'success' && outcome !== 'partial') {
    safeEmit(context, queue, 'tool-error', () => ({ runId: context.runId, agent, iteration, callId: call.id, toolName, outcome, error: json.error as ToolErrorInfo, ...(cause !== undefined ? { cause: redactValue(describeError(cause), settings.secrets) } : {}) }));
  }
  return { items, message: { role: 'tool', content, toolCallId: call.id } };
}
