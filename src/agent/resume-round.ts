/**
 * @internal The first thing a claimed resume does: answer the round its run stopped in — approved calls run once,
 * refused and expired ones answered, a call marked `started` without a result answered as of unknown outcome — with
 * each answer kept in the record (and, for those the framework gave, how, on the resume's entry), so a resume that
 * takes a dead one's run over gives the same answers again instead of leaving them out of its stream.
 */
import type { ChatMessage, ToolCall } from '../chat/core/types.js';
import { ResumeCode, ResumeError } from '../errors/resume-error.js';
import { executionUnknown } from '../interrupts/execution-unknown.js';
import { preview } from '../internal/json.js';
import { shownToolName } from '../tools/tool-call-name.js';
import { ToolResult, type ToolResultJSON } from '../tools/tool-result.js';
import { safeEmit } from './agent-events.js';
import type { LoopContext } from './loop-context.js';
import type { RunStateHandle } from './run-state.js';
import { runTools } from './run-tools.js';
import { syntheticAnswer } from './synthetic-answer.js';
import type { AgentRunItem, AgentToolOutcome, AgentSettings } from './types.js';

/** A call the resume answers without running it: refused or expired. */
export interface FreshAnswer {
  outcome: 'denied' | 'expired';
  content: string;
  item: AgentRunItem;
}

/** Answers the stopped round: yields its items, appends its tool messages in call order, returns a failure that ends the run. */
export async function* answerRound(
  context: LoopContext,
  handle: RunStateHandle,
  key: string,
  run: ReadonlySet<string>,
  fresh: ReadonlyMap<string, FreshAnswer>,
  conversation: ChatMessage[],
  added: ChatMessage[],
  queue: AgentRunItem[],
): AsyncGenerator<AgentRunItem[], { error: unknown } | undefined, undefined> {
  const { settings } = context;
  const { calls, iteration, answered } = handle.record.round;
  // What an earlier holder of this resume answered before its process died: given again, as the model gets it.
  const given = handle.record.resumes.find((each) => each.key === key)?.calls ?? {};
  const contents = new Map<string, string>();
  const done: Record<string, string> = {};
  const outcomes: Record<string, string> = {};
  for (const call of calls) {
    const kept = handle.record.executions[call.id];
    const answer = fresh.get(call.id);
    const earlier = answer === undefined ? given[call.id] : undefined;
    if (answer !== undefined) queue.push(answer.item);
    if (answered[call.id] !== undefined) {
      contents.set(call.id, answered[call.id] as string);
      if (earlier !== undefined) queue.push(keptAnswer(settings, call, iteration, earlier, answered[call.id] as string));
    } else if (kept?.state === 'done') {
      // Executions start empty at each stop: a result already here is the dead holder's, never seen on this stream.
      contents.set(call.id, kept.content);
      queue.push(keptAnswer(settings, call, iteration, kept.outcome, kept.content));
    } else if (!run.has(call.id)) {
      // Marked started, never finished: it may have run, so it never runs again.
      const name = shownToolName(settings.tools, call.name, settings.secrets);
      const unknown = syntheticAnswer(settings, call.id, name, iteration, 'unknown', executionUnknown(name));
      queue.push(unknown.item);
      contents.set(call.id, unknown.content);
      done[call.id] = unknown.content;
      outcomes[call.id] = 'unknown';
      safeEmit(context, queue, 'execution-unknown', () => ({ runId: context.runId, agent: settings.name, callId: call.id, toolName: name }));
    }
  }
  const runnable = calls.filter((call) => run.has(call.id));
  const scratch: ChatMessage[] = [];
  const failure = runnable.length > 0 ? yield* noting(runTools(context, runnable, iteration, scratch, [], queue, false, run), outcomes) : undefined;
  for (const item of queue) if (item.type === 'tool-result') outcomes[item.callId] = item.outcome;
  for (const message of scratch) {
    contents.set(message.toolCallId as string, message.content as string);
    done[message.toolCallId as string] = message.content as string;
  }
  if (Object.keys(done).length > 0) {
    const written = await writeDone(handle, done, outcomes);
    if (written !== true) {
      const error = new ResumeError(`The results of run ${preview(context.runId, 200)}'s approved calls could not be recorded: ${written === 'lost' ? 'another process took the run over' : 'the store failed'}.`, { code: ResumeCode.Conflict, runId: context.runId });
      // Refused: the run is another process's now, and stops here. Failed: it goes on; a takeover would answer them unknown.
      if (written === 'lost') return failure ?? { error };
      queue.push({ type: 'error', iteration, terminal: false, error });
    }
  }
  const messages = calls.map((call): ChatMessage => ({ role: 'tool', content: contents.get(call.id) as string, toolCallId: call.id }));
  conversation.push(...messages);
  added.push(...messages);
  if (queue.length > 0) yield queue.splice(0);
  return failure;
}

/** `batches` as they are, noting the outcome of each `tool-result` they carry. */
async function* noting<R>(batches: AsyncGenerator<AgentRunItem[], R, undefined>, outcomes: Record<string, string>): AsyncGenerator<AgentRunItem[], R, undefined> {
  try {
    for (;;) {
      const step = await batches.next();
      if (step.done === true) return step.value;
      for (const item of step.value) if (item.type === 'tool-result') outcomes[item.callId] = item.outcome;
      yield step.value;
    }
  } finally {
    await batches.return(undefined as R); // a consumer that stopped early stops the tools too (a no-op once they ended)
  }
}

/** Records the round's results with how each ended: true, `lost` (refused: another process holds the run) or `failed`. */
async function writeDone(handle: RunStateHandle, done: Record<string, string>, outcomes: Record<string, string>): Promise<true | 'lost' | 'failed'> {
  try {
    const written = await handle.write((record) => {
      for (const [callId, content] of Object.entries(done)) record.executions[callId] = { state: 'done', content, ...(outcomes[callId] !== undefined ? { outcome: outcomes[callId] } : {}) };
    });
    return written || 'lost';
  } catch {
    return 'failed';
  }
}

/**
 * The `tool-result` of an answer kept in the record, given again by the resume that took its run over, with how the
 * call ended as kept (a record without it: `success` or `error_result`, from the result itself).
 */
function keptAnswer(settings: AgentSettings, call: ToolCall, iteration: number, kept: string | undefined, content: string): AgentRunItem {
  const result = resultOf(content);
  const outcome = kept ?? (result.ok ? 'success' : 'error_result');
  const synthetic = outcome === 'denied' || outcome === 'expired' || outcome === 'unknown';
  const toolName = shownToolName(settings.tools, call.name, settings.secrets);
  return { type: 'tool-result', iteration, callId: call.id, toolName, outcome: outcome as AgentToolOutcome, ok: result.ok, result, content, attempts: 0, durationMs: 0, synthetic };
}

/** A tool message's content read back as its result (what is not one is an error result saying so). */
function resultOf(content: string): ToolResultJSON {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    // not JSON: `fromJSON` answers it as no result
  }
  return ToolResult.fromJSON(parsed as ToolResultJSON).toJSON();
}
