/**
 * @internal How an agent refuses a resume: every refusal is redacted and reported (`resume-refused`) the same way, and
 * an agent built without `toolApprovals()` — whose runs never stop to ask — refuses every resume with
 * `RUN_NOT_INTERRUPTED`, without the approval machinery.
 */
import { ResumeCode, ResumeError } from '../errors/resume-error.js';
import { preview } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import { safeEmit } from './agent-events.js';
import type { LoopContext, ResumeStart } from './loop-context.js';

/** Reports `error` when it is a refusal (`ResumeError`), its message and fields redacted first; other errors pass as they are. */
export function reportRefusal(context: LoopContext, error: unknown): void {
  if (!ResumeError.isInstance(error)) return;
  redactRefusal(error, context.settings.secrets);
  safeEmit(context, context.queue, 'resume-refused', () => ({ runId: context.runId, agent: context.settings.name, code: error.code }));
}

/** The resume of an agent that asks nobody: refused, as a resume of a run that never stopped is. */
export function notResumable(runId: string): ResumeStart {
  return {
    async claim(context) {
      const agent = preview(context.settings.name, 80);
      const error = new ResumeError(`Run ${preview(context.runId, 200)} of agent ${agent} is not waiting on anything: agent ${agent} has no tool approvals (toolApprovals()), so none of its runs stop to ask.`, { code: ResumeCode.NotInterrupted, runId });
      reportRefusal(context, error);
      throw error;
    },
  };
}

/** A refusal may quote what the caller sent (bounded): the agent's secrets never leave in its message or fields. */
function redactRefusal(error: ResumeError, secrets: readonly string[]): void {
  for (const key of Object.getOwnPropertyNames(error)) {
    const value: unknown = (error as unknown as Record<string, unknown>)[key];
    let clean: unknown;
    if (typeof value === 'string') clean = redactText(value, secrets);
    else if (Array.isArray(value) && value.every((each) => typeof each === 'string')) clean = Object.freeze(value.map((each: string) => redactText(each, secrets)));
    else continue;
    Object.defineProperty(error, key, { value: clean, writable: true, configurable: true, enumerable: Object.getOwnPropertyDescriptor(error, key)?.enumerable ?? false });
  }
}
