/**
 * @internal The check of a checkpoint's interrupt fields (format version 2): the questions an `interrupted` one waits
 * on, the answers a step's nodes get, the last resume. Every problem as a sentence, values quoted bounded.
 */
import { isTimestamp } from '../../internal/clock.js';
import { isPlainObject } from '../../internal/json.js';
import { quote } from '../core/quote.js';

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 200;

/** @internal Whether a checkpoint uses anything of format version 2. */
export function usesInterrupts(value: Record<string, unknown>): boolean {
  return value.status === 'interrupted' || value.interrupts !== undefined || value.answers !== undefined || value.resumed !== undefined || (value.status === 'running' && value.succeeded !== undefined);
}

/** @internal The problems of a checkpoint's version and interrupt fields. */
export function interruptFieldsProblems(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (value.version === 1 && usesInterrupts(value)) problems.push('version must be 2 for a checkpoint with interrupt fields (status interrupted, interrupts, answers, resumed, or succeeded in a running one)');
  const pending = isStringList(value.pending) ? value.pending : [];
  const { interrupts, answers, resumed } = value;
  if (value.status === 'interrupted' && !(Array.isArray(interrupts) && interrupts.length > 0)) problems.push('interrupts must be a non-empty list in an interrupted checkpoint');
  if (value.status !== 'interrupted' && interrupts !== undefined) problems.push('interrupts must be absent unless the status is interrupted');
  if (interrupts !== undefined && !Array.isArray(interrupts)) problems.push('interrupts must be a list');
  if (Array.isArray(interrupts)) {
    const ids = new Set<string>();
    interrupts.forEach((each: unknown, at) => {
      problems.push(...questionProblems(each, `interrupts[${at}]`, pending));
      const id = isPlainObject(each) ? each.id : undefined;
      if (typeof id === 'string' && ids.has(id)) problems.push(`interrupts[${at}].id ${quote(id)} is not unique`);
      if (typeof id === 'string') ids.add(id);
    });
  }
  if (answers !== undefined && !Array.isArray(answers)) problems.push('answers must be a list');
  if (Array.isArray(answers)) {
    const seen = new Set<number>();
    answers.forEach((each: unknown, at) => {
      const where = `answers[${at}]`;
      if (!isPlainObject(each)) return void problems.push(`${where} must be an object`);
      const index = each.index;
      if (!(typeof index === 'number' && Number.isInteger(index) && index >= 0 && pending[index] === each.nodeId && !seen.has(index))) {
        problems.push(`${where} must name a pending node by its index and id, once (got ${quote(index)}, ${quote(each.nodeId)})`);
      } else seen.add(index);
      if (!Array.isArray(each.answers)) return void problems.push(`${where}.answers must be a list`);
      each.answers.forEach((answer: unknown, position) => {
        const valid = isPlainObject(answer) && isText(answer.id) && (typeof answer.value === 'string' ? answer.expiredAt === undefined && isJSONText(answer.value) : isTimestamp(answer.expiredAt) && answer.value === undefined);
        if (!valid) problems.push(`${where}.answers[${position}] must be { id, value: JSON text } or { id, expiredAt: ISO 8601 }`);
      });
    });
  }
  if (resumed !== undefined && !(isPlainObject(resumed) && typeof resumed.key === 'string' && isStringList(resumed.ids))) problems.push('resumed must be { key: string, ids: string[] }');
  return problems;
}

/** The problems of one pending question (a graph node's `interrupt()`). */
function questionProblems(value: unknown, where: string, pending: readonly string[]): string[] {
  if (!isPlainObject(value)) return [`${where} must be an object`];
  const problems: string[] = [];
  if (!isText(value.id)) problems.push(`${where}.id must be a string of 1 to 200 characters (got ${quote(value.id)})`);
  if (typeof value.runId !== 'string') problems.push(`${where}.runId must be a string`);
  if (value.kind !== 'input') problems.push(`${where}.kind must be input (got ${quote(value.kind)})`);
  if (typeof value.nodeId !== 'string' || !pending.includes(value.nodeId)) problems.push(`${where}.nodeId must be a pending node (got ${quote(value.nodeId)})`);
  if (!isTimestamp(value.createdAt)) problems.push(`${where}.createdAt must be an ISO 8601 time (got ${quote(value.createdAt)})`);
  if (value.expiresAt !== undefined && !isTimestamp(value.expiresAt)) problems.push(`${where}.expiresAt must be an ISO 8601 time (got ${quote(value.expiresAt)})`);
  if (value.responseSchema !== undefined && !isPlainObject(value.responseSchema)) problems.push(`${where}.responseSchema must be a JSON Schema object`);
  return problems;
}

/** Whether `text` is JSON (an answer's value is read back with `JSON.parse`: one that is not must not run the node). */
function isJSONText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
