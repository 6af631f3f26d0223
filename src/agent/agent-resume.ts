/**
 * @internal `agent.resume`: checks a resume against the run's record before anything changes, claims the run with a
 * compare-and-swap (the approved calls marked `started` in the same write), answers the stopped round — approved calls
 * run once, refused and expired ones answered, a call marked `started` without a result answered as of unknown
 * outcome — and records how the run ended, so the same resume sent again is answered with that outcome.
 */
import { ResumeCode, ResumeError } from '../errors/resume-error.js';
import { approvalDenied, approvalExpired } from '../interrupts/approval-answers.js';
import { argumentsKey } from '../interrupts/arguments-key.js';
import { checkDecisionsWith } from '../interrupts/check-decisions.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import { isoTimestamp } from '../internal/clock.js';
import { delay } from '../internal/delay.js';
import { isPlainObject, preview } from '../internal/json.js';
import { removeSecrets } from '../internal/redact.js';
import { EVENT_RESUME, FAULTLINE_INTERRUPT_COUNT, FAULTLINE_INTERRUPT_IDS } from '../telemetry/attribute-names.js';
import { traces } from '../telemetry/no-telemetry.js';
import { DEFAULT_MAX_ARGUMENTS_LENGTH, parseToolArguments } from '../tools/tool-arguments.js';
import { findTool, shownToolName } from '../tools/tool-call-name.js';
import { safeEmit } from './agent-events.js';
import { deniedKey } from './approval-gate.js';
import type { ApprovalMachinery, LoopContext, ResumedRun, ResumeStart } from './loop-context.js';
import { reportRefusal } from './not-resumable.js';
import { answerRound, type FreshAnswer } from './resume-round.js';
import { heldElsewhere, liveRun, markLive, outcomeOf, replayOf, RunStateHandle, runStateOf } from './run-state.js';
import { syntheticAnswer } from './synthetic-answer.js';
import type { AgentRunItem } from './types.js';

/** Reads of the record before a resume gives up on a store that keeps changing under it. */
const MAX_CLAIMS = 50;
/** How often the same resume held by another process reads the record again: from 50 ms, doubling, up to 1 s. */
const MIN_PAUSE_MS = 50;
const MAX_PAUSE_MS = 1_000;

/** The resume of `runId` with `given` decisions, as the loop starts it. */
export function resumeStart(runId: string, given: unknown): ResumeStart & { key?: string } {
  const start: ResumeStart & { key?: string } = {
    async claim(context) {
      try {
        return await claim(context, runId, given, (key) => (start.key = key));
      } catch (error) {
        reportRefusal(context, error);
        throw error;
      }
    },
  };
  return start;
}

async function claim(context: LoopContext, runId: string, given: unknown, claimed: (key: string) => void): Promise<{ replay: AgentRunItem } | ResumedRun> {
  const store = context.settings.approvals!.store;
  const { settings } = context;
  // What refusals and events quote of the caller's input has the agent's secrets out before it is cut to a preview (a
  // secret cut in two is no longer found): the run id (Agent.resume redacted it) and the decisions.
  const shown = context.runId;
  const decisions = removeSecrets(given, settings.secrets);
  const key = argumentsKey(Array.isArray(decisions) ? [...decisions].sort(byId) : decisions); // kept in the record: no secret
  const ids = Array.isArray(given) ? given.map((each) => (isPlainObject(each) ? each['id'] : undefined)).filter((id): id is string => typeof id === 'string') : [];
  const leaseMs = (context.settings.approvals as ApprovalMachinery).leaseMs;
  let pause = MIN_PAUSE_MS / 2;
  /** The same resume sent again: the first one's outcome, marked `replay` (an event says so). */
  const replayed = (outcome: Record<string, unknown>): { replay: AgentRunItem } => {
    safeEmit(context, context.queue, 'resume', () => ({ runId: shown, agent: settings.name, approved: 0, denied: 0, expired: 0, replay: true }));
    return { replay: replayOf(outcome) };
  };
  for (let attempt = 0; attempt < MAX_CLAIMS; attempt++) {
    const kept = runStateOf(await store.get(runId), settings.name, `run ${preview(shown, 200)}`);
    // Another owner's run is refused in the words of a run that is not there: its replays and its existence included.
    const record = kept?.owner === undefined || kept.owner === context.owner ? kept : undefined;
    if (record === undefined) throw new ResumeError(`Run ${preview(shown, 200)} of agent ${preview(settings.name, 80)} is not waiting on anything: it never stopped to ask, or it was forgotten.`, { code: ResumeCode.NotInterrupted, runId });
    const base = { runId, pendingIds: record.interrupts.map((each) => each.id) };
    const past = record.resumes.find((each) => each.key === key);
    if (past?.outcome !== undefined) return replayed(past.outcome);
    // Interrupts an earlier resume decided are its: whatever the run does now (waiting again included), other
    // decisions of them conflict.
    const decided = new Set(record.resumes.flatMap((each) => each.interruptIds));
    if (past === undefined && ids.some((id) => decided.has(id))) throw new ResumeError(`Another resume of run ${preview(shown, 200)} already decided ${ids.filter((id) => decided.has(id)).slice(0, 5).join(', ')}; this one, different, is refused.`, { code: ResumeCode.Conflict, ...base });
    // The same resume running here or in another process (which renews its hold), or another one that has just
    // stopped to ask again and not yet recorded it: its outcome comes first.
    if (past !== undefined || record.status === 'interrupted') {
      const running = liveRun(store, runId);
      if (running !== undefined) {
        await running;
        continue;
      }
      const held = heldElsewhere(store, record);
      if (held !== undefined) {
        await delay(Math.min(held, (pause = Math.min(pause * 2, MAX_PAUSE_MS))), context.abort.signal);
        attempt--; // waiting is not a lost write
        continue;
      }
    }
    if (past !== undefined) {
      // Its run stopped without an outcome kept: its process died, or the outcome's write failed.
      if (record.status === 'ended') throw new ResumeError(`Run ${preview(shown, 200)} already ended after this resume; how it ended was not kept. Nothing was run.`, { code: ResumeCode.NotInterrupted, ...base });
      const handle = new RunStateHandle(store, record, leaseMs);
      if (record.status === 'interrupted') {
        // It had stopped to ask again: that stop is its outcome (kept now), and no one decided the new questions.
        const stop = outcomeOf({ type: 'interrupted', runId: record.runId, iteration: record.round.iteration, interrupts: record.interrupts, usage: record.usage }, settings.secrets);
        if (!(await handle.write((next) => void (next.resumes.find((each) => each.key === key)!.outcome = stop)))) continue;
        return replayed(stop);
      }
      // It was resuming: this resume goes on from the record, running nothing again, and gives again the answers
      // the dead one had recorded.
      handle.hold();
      if (!(await handle.write(() => {}))) continue;
      claimed(key);
      return begin(context, handle, key, new Set(), new Map());
    }
    if (record.status !== 'interrupted') {
      if (record.supersededAt !== undefined) throw new ResumeError(`Run ${preview(shown, 200)} is not waiting on anything: a new message on its session answered its pending calls as not run (${record.supersededAt}); nothing was run.`, { code: ResumeCode.NotInterrupted, ...base });
      throw new ResumeError(`Run ${preview(shown, 200)} is not waiting on anything: it already went on.`, { code: ResumeCode.NotInterrupted, ...base });
    }
    const checked = checkDecisionsWith(shown, record.interrupts, decisions, Date.now(), () => []); // approvals carry no value to check
    const run = new Set<string>();
    const fresh = new Map<string, FreshAnswer>();
    const denied: string[] = [];
    for (const interrupt of record.interrupts) {
      const callId = interrupt.toolCallId as string;
      const decision = checked.decisions.get(interrupt.id);
      const name = shownToolName(settings.tools, interrupt.toolName ?? '', settings.secrets);
      if (decision === undefined) fresh.set(callId, { outcome: 'expired', ...syntheticAnswer(settings, callId, name, record.round.iteration, 'expired', approvalExpired(name, interrupt.expiresAt)) });
      else if ('approved' in decision && decision.approved) {
        await checkArguments(context, record.round.calls.find((call) => call.id === callId), interrupt, base);
        run.add(callId);
      } else {
        const reason = 'reason' in decision ? decision.reason : undefined;
        fresh.set(callId, { outcome: 'denied', ...syntheticAnswer(settings, callId, name, record.round.iteration, 'denied', approvalDenied(name, reason)) });
        denied.push(deniedKey(interrupt.toolName ?? '', interrupt.args));
      }
    }
    const handle = new RunStateHandle(store, record, leaseMs);
    handle.hold();
    const written = await handle.write((next) => {
      next.status = 'resuming';
      const calls: Record<string, string> = {};
      for (const [callId, answer] of fresh) calls[callId] = answer.outcome;
      next.resumes.push({ key, interruptIds: record.interrupts.map((each) => each.id), calls });
      next.interrupts = [];
      for (const callId of run) next.executions[callId] = { state: 'started' };
      for (const [callId, answer] of fresh) next.round.answered[callId] = answer.content;
      next.denied.push(...denied);
    });
    if (!written) continue; // another resume wrote first: read again (a replay, a conflict, or a new stop)
    claimed(key);
    safeEmit(context, context.queue, 'resume', () => ({ runId: shown, agent: settings.name, approved: run.size, denied: denied.length, expired: checked.expired.length, replay: false }));
    if (traces(context.span)) {
      const decided = record.interrupts.map((each) => each.id);
      context.span.addEvent(EVENT_RESUME, { [FAULTLINE_INTERRUPT_COUNT]: decided.length, [FAULTLINE_INTERRUPT_IDS]: decided.slice(0, 50).join(',') });
    }
    return begin(context, handle, key, run, fresh);
  }
  throw new ResumeError(`Run ${preview(shown, 200)} kept changing while this resume read it; send it again.`, { code: ResumeCode.Conflict, runId });
}

/** The approval is bound to the arguments it was asked for: the call kept in the record must still carry them. */
async function checkArguments(context: LoopContext, call: { id: string; name: string; arguments: string } | undefined, interrupt: Interrupt, base: { runId: string; pendingIds: string[] }): Promise<void> {
  const tool = call === undefined ? undefined : findTool(context.settings.tools, call.name);
  const parsed = tool === undefined ? undefined : await parseToolArguments(tool, call!.arguments, { maxLength: DEFAULT_MAX_ARGUMENTS_LENGTH });
  if (parsed?.ok === true && tool!.name === interrupt.toolName && argumentsKey(parsed.value) === argumentsKey(interrupt.args)) return;
  throw new ResumeError(`The call ${preview(interrupt.toolCallId, 80)} of run ${preview(context.runId, 200)} no longer carries the arguments approval ${interrupt.id} was asked for; nothing was run.`, { code: ResumeCode.ArgumentsChanged, ...base });
}

function begin(context: LoopContext, handle: RunStateHandle, key: string, run: ReadonlySet<string>, fresh: ReadonlyMap<string, FreshAnswer>): ResumedRun {
  const record = handle.record;
  context.runState = handle;
  context.input = record.input;
  context.sessionId = record.sessionId;
  const release = markLive(handle.store, record.runId);
  // Another process took the run over (this one's hold lapsed): it is that one's now, so this one stops.
  handle.onLost = () => context.abort.abort(new ResumeError(`Run ${preview(context.runId, 200)} was taken over by another process while this resume ran it (its hold lapsed); this one stopped.`, { code: ResumeCode.Conflict, runId: context.runId }));
  const close = context.close;
  context.close = () => {
    release();
    handle.release();
    close();
  };
  return {
    added: [...record.added],
    iterations: record.iterations,
    usage: record.usage,
    answer: (loop, conversation, added, queue) => answerRound(loop, handle, key, run, fresh, conversation, added, queue),
  };
}

/**
 * The run's batches, with how it ended recorded on the resume that claimed it (before that last batch goes out), so
 * the same resume sent again is answered with it.
 */
export async function* recordingOutcome(batches: AsyncGenerator<AgentRunItem[], void, undefined>, context: LoopContext, start: { key?: string }): AsyncGenerator<AgentRunItem[], void, undefined> {
  for await (const batch of batches) {
    const last = batch[batch.length - 1];
    const handle = context.runState;
    if (start.key !== undefined && handle !== undefined && last !== undefined && isLast(last)) await recordOutcome(handle, start.key, last, context.settings.secrets);
    yield batch;
  }
}

function isLast(item: AgentRunItem): boolean {
  return item.type === 'finish' || item.type === 'interrupted' || (item.type === 'error' && item.terminal);
}

async function recordOutcome(handle: RunStateHandle, key: string, item: AgentRunItem, secrets: readonly string[]): Promise<void> {
  const outcome = outcomeOf(item, secrets);
  handle.letGo(); // the outcome's write ends the hold
  try {
    await handle.write((record) => {
      const resume = record.resumes.find((each) => each.key === key);
      if (resume !== undefined) resume.outcome = outcome;
      if (item.type !== 'interrupted') {
        record.status = 'ended';
        record.endedAt = isoTimestamp();
      }
    });
  } catch {
    // The outcome is the stream's own last item either way; only a later replay misses it (and goes on from the record).
  }
}

/** Decisions sorted by their id: the same decisions in another order are the same resume. */
function byId(a: unknown, b: unknown): number {
  const left = String(isPlainObject(a) ? a['id'] : '');
  const right = String(isPlainObject(b) ? b['id'] : '');
  return left < right ? -1 : left > right ? 1 : 0;
}
