/**
 * @internal How graph messages quote what a caller gave them (run ids, node ids, keys, stored values): each quote at
 * most 200 characters, a list of ids at most ten named, a list of problems at most twenty — a message stays readable
 * and bounded whatever it was given (a 1 MB run id, a 10,000-node graph with every edge wrong).
 */
import { preview, truncate } from '../../internal/json.js';
import { redactText } from '../../internal/redact.js';

/** Characters of one quoted value. */
const QUOTE_CHARS = 200;
/** Ids named in a list; the rest are counted. */
const IDS_NAMED = 10;
/** Problems named in a message; `problems` keeps up to {@link MAX_PROBLEMS}. */
const PROBLEMS_NAMED = 20;
/** @internal Problems kept in a `WorkflowError`'s `problems`. */
export const MAX_PROBLEMS = 100;

/** @internal A value as a message quotes it: JSON, at most 200 characters, credential shapes masked. */
export function quote(value: unknown): string {
  return redactText(preview(value, QUOTE_CHARS));
}

/** @internal Ids as a message lists them: the first ten quoted, the count of the rest. */
export function quoteIds(ids: readonly string[]): string {
  const named = ids.slice(0, IDS_NAMED).map(quote).join(', ');
  return ids.length > IDS_NAMED ? `${named} and ${ids.length - IDS_NAMED} more` : named;
}

/** @internal Ids as a message names them bare (a node id after "node"): the first ten, each cut at 200 characters. */
export function nameIds(ids: readonly string[]): string {
  const named = redactText(ids.slice(0, IDS_NAMED).map((id) => truncate(id, QUOTE_CHARS)).join(', '));
  return ids.length > IDS_NAMED ? `${named} and ${ids.length - IDS_NAMED} more` : named;
}

/** @internal Problems as a message lists them: the first twenty, the count of the rest. */
export function listProblems(problems: readonly string[]): string {
  const named = problems.slice(0, PROBLEMS_NAMED).join('; ');
  return problems.length > PROBLEMS_NAMED ? `${named}; and ${problems.length - PROBLEMS_NAMED} more` : named;
}
