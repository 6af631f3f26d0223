/**
 * A Runner run that answers a stopped run instead of starting one: `runner.run({ userId, sessionId, resume })`. The
 * run id is the invocation id (what the stopped run's interrupts carry), so the resumed run's events and its
 * completion are the stopped run's. An agent that cannot resume, and every refused resume, end the run with a typed
 * terminal error event (type `resume`, a stable code) and its completion — never a silent new run.
 */
import type { ResponseError } from '../errors/response-error.js';
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import type { ResumeDecision } from '../interrupts/interrupt.js';

/**
 * What a resumed run answers: the run that stopped (its interrupts' `runId`) and a decision per pending interrupt.
 * @example `runner.run({ userId: 'u1', sessionId: 's1', resume: { runId: 'inv-7', decisions: [{ id: 'int_1', approved: true }] } })`
 */
export interface RunnerResume {
  runId: string;
  decisions: readonly ResumeDecision[];
}

/**
 * The `ResponseError` type of every refused or impossible resume (a `ResumeError`'s kind).
 * @example `if (isTerminalError(event) && event.response?.error?.type === RESUME_ERROR_TYPE) showRefusal(event.response.error.code);`
 */
export const RESUME_ERROR_TYPE = 'resume';

/**
 * The code of a resume the agent cannot do (it keeps no stopped runs: a custom one without `resumable`, a graph agent without a checkpointer).
 * @example `if (event.response?.error?.code === RESUME_UNSUPPORTED) showCannotResume();`
 */
export const RESUME_UNSUPPORTED = 'RESUME_UNSUPPORTED';

/** The most decisions one resume may carry (as `RESUME_LIMITS.maxDecisions`). */
const MAX_DECISIONS = 1_000;

/** @internal The problems of a `resume` option (its decisions' contents are the agent's to check: typed refusals). */
export function resumeProblems(resume: unknown, invocationId: unknown): string[] {
  if (!isPlainObject(resume)) return [`resume must be an object { runId, decisions } (got ${refusedValue(resume)})`];
  const problems: string[] = [];
  if (typeof resume.runId !== 'string' || resume.runId === '') problems.push(`resume.runId must be a non-empty string (got ${refusedValue(resume.runId)})`);
  else if (invocationId !== undefined && invocationId !== resume.runId) problems.push(`invocationId ${preview(invocationId, 200)} differs from resume.runId ${preview(resume.runId, 200)}: a resumed run keeps its run id; leave invocationId out`);
  if (!Array.isArray(resume.decisions)) problems.push(`resume.decisions must be an array of decisions (got ${refusedValue(resume.decisions)})`);
  else if (resume.decisions.length > MAX_DECISIONS) problems.push(`resume.decisions holds ${resume.decisions.length} decisions; at most ${MAX_DECISIONS} are accepted`);
  return problems;
}

/** @internal The terminal error of a resume sent to an agent that cannot resume. */
export function resumeUnsupported(agentName: string, runId: string): ResponseError {
  return {
    type: RESUME_ERROR_TYPE,
    code: RESUME_UNSUPPORTED,
    message: `The agent ${preview(agentName, 200)} cannot resume run ${preview(runId, 200)}: it keeps no stopped runs. Resume runs of a graph agent with a checkpointer, an LLM agent that asks for approvals, or a remote A2A agent.`,
  };
}
