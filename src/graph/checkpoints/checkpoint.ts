/**
 * Graph checkpoints as they are read back: the check every stored checkpoint passes (`parseGraphCheckpoint`), its
 * revision, and whether a value is a store at all (the types and the store contract are in `checkpointer.ts`).
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { isPlainObject, truncate } from '../../internal/json.js';
import type { Checkpointer, GraphCheckpoint } from '../core/checkpointer.js';
import { CHECKPOINT_INVALID } from '../core/constants.js';
import { listProblems, MAX_PROBLEMS, quote } from '../core/quote.js';
import { interruptFieldsProblems } from './interrupt-fields.js';

/** @internal True for objects with the three methods of a {@link Checkpointer}. */
export function isCheckpointer(value: unknown): value is Checkpointer {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Partial<Record<keyof Checkpointer, unknown>>;
  return typeof store.get === 'function' && typeof store.put === 'function' && typeof store.delete === 'function';
}

/**
 * @internal Where an `exclusive` store may name the object whose lifetime its writers share (a Durable Object's
 * storage: one per instance of the object); the store itself by default. A run live in this process under another
 * scope is one of a dead instance's.
 */
export const LIVENESS_SCOPE = Symbol.for('faultline.graph.livenessScope');

/** @internal The revision of a stored checkpoint: its `revision`, 0 without a valid one (or without a checkpoint). */
export function storedRevision(value: unknown): number {
  const revision = isPlainObject(value) ? value.revision : undefined;
  return isIndex(revision) ? revision : 0;
}

const STATUSES = new Set(['running', 'failed', 'interrupted', 'completed']);
/** An integer ≥ 0 that +1 still changes (past 2^53 it does not: a revision there could never be written again). */
const isIndex = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < Number.MAX_SAFE_INTEGER;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Problems of one encoded state or update: a plain object of JSON texts (`null` too when `nulls`). */
function textsProblems(value: unknown, where: string, nulls: boolean): string[] {
  if (!isPlainObject(value)) return [`${where} must be an object of JSON texts`];
  return Object.keys(value)
    .filter((key) => !(typeof value[key] === 'string' || (nulls && value[key] === null)))
    .map((key) => `${where} key ${quote(key)} must be a JSON text${nulls ? ' or null' : ''}`);
}

/** Problems of `succeeded` or `failures`: node results naming pending nodes, each index once across both lists. */
function resultsProblems(value: unknown, name: string, pending: unknown, seen: Set<number>): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [`${name} must be a list`];
  const due = isStringList(pending) ? pending : [];
  return value.flatMap((result: unknown, position) => {
    const where = `${name}[${position}]`;
    if (!isPlainObject(result)) return [`${where} must be an object`];
    const problems: string[] = [];
    if (!isIndex(result.index) || result.index >= due.length || due[result.index] !== result.nodeId || seen.has(result.index)) {
      problems.push(`${where} must name a pending node by its index and id, once (got ${quote(result.index)}, ${quote(result.nodeId)})`);
    } else seen.add(result.index);
    if (!Array.isArray(result.updates)) problems.push(`${where}.updates must be a list`);
    else result.updates.forEach((update: unknown, index) => problems.push(...textsProblems(update, `${where}.updates[${index}]`, true)));
    if (result.goto !== undefined && !isStringList(result.goto)) problems.push(`${where}.goto must be a list of node ids`);
    return problems;
  });
}

function checkpointProblems(value: unknown, runId: string | undefined): string[] {
  if (!isPlainObject(value)) return ['a checkpoint must be an object'];
  const problems: string[] = [];
  if (value.version !== 1 && value.version !== 2) problems.push(`version must be 1 or 2 (got ${quote(value.version)})`);
  if (typeof value.runId !== 'string' || value.runId === '') problems.push('runId must be a non-empty string');
  else if (runId !== undefined && value.runId !== runId) problems.push(`runId is ${quote(value.runId)}, not ${quote(runId)}`);
  if (typeof value.status !== 'string' || !STATUSES.has(value.status)) problems.push(`status must be running, failed, interrupted or completed (got ${quote(value.status)})`);
  if (!isIndex(value.step)) problems.push(`step must be an integer ≥ 0 (got ${quote(value.step)})`);
  problems.push(...textsProblems(value.state, 'state', false));
  if (!isStringList(value.pending)) problems.push('pending must be a list of node ids');
  else if (new Set(value.pending).size !== value.pending.length) problems.push('pending must name each node once (a node listed twice would run twice in one step)');
  const seen = new Set<number>();
  problems.push(...resultsProblems(value.succeeded, 'succeeded', value.pending, seen), ...resultsProblems(value.failures, 'failures', value.pending, seen));
  problems.push(...interruptFieldsProblems(value));
  if (typeof value.updatedAt !== 'string') problems.push('updatedAt must be an ISO 8601 string');
  if (value.revision !== undefined && !isIndex(value.revision)) problems.push(`revision must be an integer ≥ 0 (got ${quote(value.revision)})`);
  for (const key of ['owner', 'ownedBy', 'leaseUntil', 'graph'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') problems.push(`${key} must be a string (got ${quote(value[key])})`);
  }
  return problems;
}

/**
 * Checks a checkpoint read back from storage and returns a fresh copy of it; anything else — a wrong shape or
 * version, another run's checkpoint, a value that cannot even be read — throws a `WorkflowError` with code
 * `CHECKPOINT_INVALID` whose `problems` lists the problems found (up to 100; the message names the first 20, and
 * quotes what it read back in at most 200 characters each). (A resume also checks that each state text is JSON,
 * that the nodes exist in the graph and that the checkpoint is this graph's.)
 * @param value what the store returned
 * @param runId the run it was read for, when known
 * @example `const checkpoint = parseGraphCheckpoint(JSON.parse(await storage.get(key)), runId)`
 */
export function parseGraphCheckpoint(value: unknown, runId?: string): GraphCheckpoint {
  let problems: string[];
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value) ?? 'null'); // read once, as data: a getter cannot change what was checked
    problems = checkpointProblems(copy, runId);
  } catch (error) {
    problems = [`it cannot be read as JSON: ${truncate(messageOf(error), 200)}`];
  }
  if (problems.length === 0) return copy as GraphCheckpoint;
  const subject = runId === undefined ? 'the checkpoint' : `the checkpoint of run ${quote(runId)}`;
  throw new WorkflowError(`${subject} is not valid: ${listProblems(problems)}; delete it or resume from a valid one`, { code: CHECKPOINT_INVALID, problems: problems.slice(0, MAX_PROBLEMS) });
}
