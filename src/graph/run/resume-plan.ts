/**
 * @internal A resume with decisions, judged against the checkpoint before anything is written: the same decisions as
 * the run's last accepted resume replay it; other decisions of interrupts that resume decided conflict; a run not
 * interrupted is refused; otherwise `checkDecisions` checks them (each typed refusal) and the plan is the checkpoint
 * the resume claims — `running` again at the interrupted step, each asking node's answer added to its answers, the
 * resume recorded — so a resume retried after a crash finds its answers stored.
 */
import { ResumeError } from '../../errors/resume-error.js';
import { ResumePayloadError } from '../../errors/resume-payload-error.js';
import { argumentsKey } from '../../interrupts/arguments-key.js';
import { checkDecisions, RESUME_LIMITS } from '../../interrupts/check-decisions.js';
import { messageOf } from '../../internal/error-chain.js';
import { isPlainObject, preview } from '../../internal/json.js';
import { encodeJSON } from '../../wire/safe-json.js';
import type { CheckpointAnswer, CheckpointResume, GraphCheckpoint } from '../core/checkpointer.js';
import type { LoadedCheckpoint, RunCheckpoints } from './run-checkpoints.js';
import { emitResume } from './run-events.js';
import { MAX_VALUE_LENGTH, type StepAnswers } from './run-questions.js';
import type { RunScope } from './run-scope.js';

/** @internal What a resume does. */
export type ResumePlan =
  /** No decisions, and none awaited: the resume continues the run as it stands. */
  | { kind: 'continue' }
  /** The decisions of the run's last accepted resume again: nothing is decided anew. */
  | { kind: 'replay' }
  /** Accepted: the checkpoint to claim, the answers of the step's nodes, what was decided and what expired. */
  | { kind: 'answer'; claim: GraphCheckpoint; answers: StepAnswers; decided: string[]; expired: string[] };

/**
 * @internal What a resume of the run with `decisions` does, judged now: announced as a replay, or as refused before
 * the refusal rejects the resume. An accepted one's answers and record are kept for the claim (a claim that loses its
 * race reads the checkpoint again, which resets both).
 */
export async function judgeResume(scope: RunScope, checkpoints: RunCheckpoints, loaded: LoadedCheckpoint, decisions: unknown): Promise<ResumePlan> {
  let plan: ResumePlan;
  try {
    plan = await planResume(checkpoints.runId, loaded, decisions, Date.now());
  } catch (error) {
    emitResume(scope, loaded.step, { refused: error });
    throw error;
  }
  if (plan.kind === 'replay') emitResume(scope, loaded.step, { replay: true });
  if (plan.kind === 'answer') {
    loaded.answers = plan.answers;
    checkpoints.resumed = plan.claim.resumed;
  }
  return plan;
}

/** @internal Judges a resume of run `runId` with `decisions` (`undefined`: none given) at `now`; throws a `ResumeError`. */
export async function planResume(runId: string, loaded: LoadedCheckpoint, decisions: unknown, now: number): Promise<ResumePlan> {
  const interrupted = loaded.status === 'interrupted';
  if (decisions === undefined && !interrupted) return { kind: 'continue' };
  const pending = loaded.interrupts;
  const base = { runId, pendingIds: pending.map((each) => each.id) };
  const given = decisions ?? [];
  if (!Array.isArray(given) || given.length > RESUME_LIMITS.maxDecisions) checkDecisions(runId, pending, given, now); // throws its typed refusal
  const list = given as readonly unknown[];
  const key = await resumeKey(list, base);
  const ids = list.flatMap((entry) => (isPlainObject(entry) && typeof entry.id === 'string' ? [entry.id] : []));
  const last = loaded.checkpoint.resumed;
  if (last !== undefined && ids.length > 0) {
    if (last.key === key) return { kind: 'replay' };
    const decided = new Set(last.ids);
    const taken = ids.find((id) => decided.has(id));
    if (taken !== undefined) {
      throw new ResumeError(
        `Interrupt ${preview(taken, 200)} of run ${preview(runId, 200)} was decided by another resume, with other decisions; the run went on with those. Send the same decisions again to get the run's outcome, or none.`,
        { ...base, code: 'RESUME_CONFLICT' },
      );
    }
  }
  if (!interrupted) {
    throw new ResumeError(`Run ${preview(runId, 200)} is not waiting on anything: its checkpoint is ${loaded.status}. Resume it without decisions, or run it anew.`, { runId, pendingIds: [], code: 'RUN_NOT_INTERRUPTED' });
  }
  const checked = checkDecisions(runId, pending, list, now);
  const answers = new Map<string, readonly CheckpointAnswer[]>(loaded.answers ?? []);
  for (const question of pending) {
    const decision = checked.decisions.get(question.id);
    const answer: CheckpointAnswer = decision === undefined ? { id: question.id, expiredAt: question.expiresAt as string } : { id: question.id, value: answerText(question.id, decision, base) };
    const nodeId = question.nodeId as string;
    answers.set(nodeId, [...(answers.get(nodeId) ?? []), answer]);
  }
  const resumed: CheckpointResume = { key, ids: [...checked.decisions.keys()] };
  const claim: GraphCheckpoint = { ...loaded.checkpoint, version: 2, status: 'running', resumed };
  delete claim.interrupts;
  claim.answers = loaded.pending.flatMap((nodeId, index) => (answers.has(nodeId) ? [{ index, nodeId, answers: [...(answers.get(nodeId) as readonly CheckpointAnswer[])] }] : []));
  return { kind: 'answer', claim, answers, decided: resumed.ids, expired: checked.expired.map((each) => each.id) };
}

type Base = { runId: string; pendingIds: string[] };

/** A decision's value as the JSON text the node is answered with (bounded), or the refusal. */
function answerText(id: string, decision: object, base: Base): string {
  const refuse = (issue: string): never => {
    throw new ResumePayloadError(`The decision for interrupt ${preview(id, 200)} is invalid: ${issue}.`, { ...base, id, issues: [`value: ${issue}`] });
  };
  let text: string;
  try {
    text = encodeJSON((decision as { value: unknown }).value, 'decision value', 'value');
  } catch (error) {
    return refuse(`it must be JSON data (${messageOf(error)})`);
  }
  if (text.length > MAX_VALUE_LENGTH) refuse(`it is ${text.length} characters of JSON; at most ${MAX_VALUE_LENGTH} are accepted`);
  return text;
}

/**
 * The key of a resume's decisions, sorted by id: their canonical JSON (`argumentsKey`), as a SHA-256 digest where the
 * platform has one (the text itself where it has not: an insecure browser page). A value JSON cannot hold is refused
 * here, before a replay or a conflict is judged by the key.
 */
async function resumeKey(decisions: readonly unknown[], base: Base): Promise<string> {
  try {
    encodeJSON(decisions, 'decisions', 'decisions');
  } catch (error) {
    throw new ResumePayloadError(`The decisions of the resume of run ${preview(base.runId, 200)} must be JSON data: ${messageOf(error)}.`, { ...base, issues: [`decisions: ${messageOf(error)}`] });
  }
  const idOf = (entry: unknown): string => (isPlainObject(entry) && typeof entry.id === 'string' ? entry.id : '');
  const text = argumentsKey([...decisions].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0)));
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return text;
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
