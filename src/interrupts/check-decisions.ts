import { InterruptExpiredError } from '../errors/interrupt-expired-error.js';
import { InterruptNotFoundError } from '../errors/interrupt-not-found-error.js';
import { ResumeIncompleteError } from '../errors/resume-incomplete-error.js';
import { ResumePayloadError } from '../errors/resume-payload-error.js';
import { isForbiddenKey, isPlainObject, preview, refusedValue } from '../internal/json.js';
import { regexFor } from '../tools/json-schema-bounds.js';
import { createValidator } from '../tools/json-schema-validate.js';
import type { Interrupt, ResumeDecision } from './interrupt.js';

/**
 * The most decisions one resume may carry, and the longest denial reason accepted (the model is shown it).
 * @example `RESUME_LIMITS.maxDecisions // 1000`
 */
export const RESUME_LIMITS = /* @__PURE__ */ Object.freeze({ maxDecisions: 1_000, maxReasonLength: 2_000 });

/** What a valid resume decided: the decision per pending interrupt id, and the pending ones that expired undecided. */
export interface CheckedResume {
  decisions: Map<string, ResumeDecision>;
  expired: Interrupt[];
}

/**
 * Checks `decisions` against what run `runId` waits on at `now` (ms since the epoch), before anything changes, and
 * throws the typed refusal: a wrong form or a value failing its schema → `ResumePayloadError`; an id not pending →
 * `InterruptNotFoundError` (with the pending ids); a decision for an expired interrupt → `InterruptExpiredError`; a
 * pending, unexpired interrupt without a decision → `ResumeIncompleteError`. Expired interrupts need no decision:
 * they come back in `expired`, to be answered as expired.
 *
 * @example
 * ```ts
 * const { decisions, expired } = checkDecisions('run-7', pending, [{ id: 'int_1', approved: true }], Date.now());
 * ```
 */
export function checkDecisions(runId: string, pending: readonly Interrupt[], given: unknown, now: number): CheckedResume {
  return checkDecisionsWith(runId, pending, given, now, schemaIssues);
}

/** The issues of `value` against a JSON Schema, as `path: message` lines. */
function schemaIssues(schema: Record<string, unknown>, value: unknown): string[] {
  return createValidator(schema, regexFor)(value).issues.map((issue) => `${pathOf(issue.path)}: ${issue.message}`);
}

/**
 * {@link checkDecisions} with the check of a value against its interrupt's `responseSchema` given: what a caller whose
 * interrupts are all approvals (an agent run) uses, so the JSON Schema validator is not part of its bundle.
 * @example `checkDecisionsWith(runId, pending, decisions, Date.now(), () => [])`
 */
export function checkDecisionsWith(runId: string, pending: readonly Interrupt[], given: unknown, now: number, validate: (schema: Record<string, unknown>, value: unknown) => string[]): CheckedResume {
  const pendingIds = pending.map((interrupt) => interrupt.id);
  const base = { runId, pendingIds };
  if (!Array.isArray(given)) throw new ResumePayloadError(`The resume of run ${preview(runId, 200)} must be an array of decisions (got ${refusedValue(given)}).`, { ...base, issues: ['decisions: expected an array'] });
  if (given.length > RESUME_LIMITS.maxDecisions) {
    throw new ResumePayloadError(`The resume of run ${preview(runId, 200)} carries ${given.length} decisions; at most ${RESUME_LIMITS.maxDecisions} are accepted.`, { ...base, issues: [`decisions: more than ${RESUME_LIMITS.maxDecisions}`] });
  }
  const byId = new Map(pending.map((interrupt) => [interrupt.id, interrupt]));
  const decisions = new Map<string, ResumeDecision>();
  const unknown: string[] = [];
  for (const [index, entry] of given.entries()) {
    const decision = decisionOf(entry, index, base);
    const interrupt = byId.get(decision.id);
    if (interrupt === undefined) unknown.push(decision.id);
    else {
      const previous = decisions.get(decision.id);
      if (previous !== undefined && !sameDecision(previous, decision)) {
        throw new ResumePayloadError(`The resume decides interrupt ${preview(decision.id, 200)} twice, differently.`, { ...base, id: decision.id, issues: [`[${index}]: a second, different decision for the same id`] });
      }
      checkKind(interrupt, decision, index, base, validate);
      decisions.set(decision.id, decision);
    }
  }
  if (unknown.length > 0) {
    throw new InterruptNotFoundError(
      `Run ${preview(runId, 200)} is not waiting on ${unknown.map((id) => preview(id, 80)).slice(0, 5).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}; it waits on ${pendingIds.length === 0 ? 'nothing' : pendingIds.slice(0, 10).join(', ')}.`,
      { ...base, ids: unknown },
    );
  }
  const expired = pending.filter((interrupt) => interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= now);
  const late = expired.filter((interrupt) => decisions.has(interrupt.id));
  if (late.length > 0) {
    throw new InterruptExpiredError(`Interrupt ${late[0]!.id} of run ${preview(runId, 200)} expired at ${late[0]!.expiresAt}; the decision came too late. Resume without it: the call is answered as expired.`, {
      ...base,
      ids: late.map((interrupt) => interrupt.id),
      expiredAt: late[0]!.expiresAt,
    });
  }
  const lapsed = new Set(expired);
  const undecided = pending.filter((interrupt) => !decisions.has(interrupt.id) && !lapsed.has(interrupt)).map((interrupt) => interrupt.id);
  if (undecided.length > 0) {
    throw new ResumeIncompleteError(`The resume of run ${preview(runId, 200)} leaves ${undecided.length} interrupt(s) undecided: ${undecided.slice(0, 10).join(', ')}. Send one decision for each.`, { ...base, undecidedIds: undecided });
  }
  return { decisions, expired };
}

type Base = { runId: string; pendingIds: string[] };

function decisionOf(entry: unknown, index: number, base: Base): ResumeDecision {
  const refuse = (issue: string): never => {
    throw new ResumePayloadError(`Decision [${index}] of the resume is invalid: ${issue}.`, { ...base, id: isPlainObject(entry) && typeof entry['id'] === 'string' ? entry['id'] : undefined, issues: [`[${index}]: ${issue}`] });
  };
  if (!isPlainObject(entry)) return refuse(`expected { id, approved } or { id, value } (got ${refusedValue(entry)})`);
  const keys = Object.keys(entry);
  const stray = keys.find((key) => isForbiddenKey(key) || !['id', 'approved', 'reason', 'value'].includes(key));
  if (stray !== undefined) return refuse(`unknown field ${preview(stray, 40)}`);
  const { id, approved, reason } = entry;
  if (typeof id !== 'string' || id === '' || id.length > 200) return refuse('id must be a non-empty string of at most 200 characters');
  const hasValue = Object.hasOwn(entry, 'value');
  if (hasValue && approved !== undefined) return refuse('a decision is either { id, approved } or { id, value }, not both');
  if (hasValue) {
    try {
      JSON.stringify(entry['value']); // what the run's records and a replayed resume write
    } catch (error) {
      return refuse(`value must be JSON data: ${error instanceof Error ? error.message.split('\n')[0] : 'it cannot be written as JSON'}`);
    }
    return { id, value: entry['value'] };
  }
  if (approved === true) {
    if (reason !== undefined) return refuse('an approval carries no reason');
    return { id, approved: true };
  }
  if (approved === false) {
    if (reason === undefined) return { id, approved: false };
    if (typeof reason !== 'string') return refuse('reason must be a string');
    if (reason.length > RESUME_LIMITS.maxReasonLength) return refuse(`reason is longer than ${RESUME_LIMITS.maxReasonLength} characters`);
    return { id, approved: false, reason };
  }
  return refuse(`approved must be true or false (got ${refusedValue(approved)})`);
}

function checkKind(interrupt: Interrupt, decision: ResumeDecision, index: number, base: Base, validate: (schema: Record<string, unknown>, value: unknown) => string[]): void {
  const refuse = (issues: string[]): never => {
    throw new ResumePayloadError(`Decision [${index}] for interrupt ${interrupt.id} is invalid: ${issues.slice(0, 3).join('; ')}.`, { ...base, id: interrupt.id, issues });
  };
  if (interrupt.kind === 'approval') {
    if (!('approved' in decision)) refuse(['interrupt asks for an approval: send { id, approved: true } or { id, approved: false, reason? }']);
    return;
  }
  if (!('value' in decision)) return refuse(['interrupt asks for a value: send { id, value }']);
  if (interrupt.responseSchema === undefined) return;
  const issues = validate(interrupt.responseSchema, decision.value);
  if (issues.length > 0) refuse(issues);
}

function pathOf(path: readonly unknown[] | undefined): string {
  if (path === undefined || path.length === 0) return 'value';
  return `value${path.map((segment) => `.${String(isPlainObject(segment) ? (segment as { key: unknown }).key : segment)}`).join('')}`;
}

function sameDecision(a: ResumeDecision, b: ResumeDecision): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
