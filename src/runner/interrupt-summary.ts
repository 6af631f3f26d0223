/**
 * What a stopped run's questions look like once they leave the process (a UI stream, an A2A task's metadata): each
 * field read by shape and bounded, strings redacted, and the tool call's arguments never — they may hold anything
 * the model wrote, and the person deciding sees them in the tool call itself.
 */
import { isPlainObject, truncate, tryStringify } from '../internal/json.js';
import { redactText, redactValue } from '../internal/redact.js';

/**
 * One pending interrupt as it is shown outside the process: ids, kind, the tool or node it is about, why it asks,
 * when it expires, the schema its answer must match, and (for a graph node's question) what the node showed — never
 * the tool call's arguments.
 * @example `{ id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_1', toolName: 'refund', reason: 'Refunds need a yes', expiresAt: '2026-12-05T11:00:00.000Z' }`
 */
export interface InterruptSummary {
  id: string;
  runId: string;
  kind: 'approval' | 'input';
  toolCallId?: string;
  toolName?: string;
  nodeId?: string;
  /** Why the approval is needed (at most 1,024 characters, redacted). */
  reason?: string;
  createdAt?: string;
  expiresAt?: string;
  /** The JSON Schema an answer's `value` must match (left out when its JSON is over 16,384 characters). */
  responseSchema?: Record<string, unknown>;
  /** What a graph node showed the person (left out when its JSON is over 16,384 characters). */
  value?: unknown;
}

/** The most interrupts named one by one; the rest are counted. */
export const MAX_NAMED_INTERRUPTS = 50;
const MAX_JSON = 16_384;

/** A redacted JSON copy of `value`, or undefined when it is not JSON or over {@link MAX_JSON} characters. */
function boundedJSON(value: unknown, secrets: readonly string[]): unknown {
  const json = value === undefined ? undefined : tryStringify(value);
  if (json === undefined || json.length > MAX_JSON) return undefined;
  return redactValue(JSON.parse(json) as unknown, secrets);
}

/** One interrupt summarised, or undefined when `value` is not an interrupt (no string id). */
function summaryOf(value: unknown, secrets: readonly string[]): InterruptSummary | undefined {
  if (!isPlainObject(value) || typeof value.id !== 'string' || value.id === '') return undefined;
  const text = (item: unknown, limit: number) => (typeof item === 'string' ? truncate(redactText(item, secrets), limit) : undefined);
  const summary: InterruptSummary = { id: truncate(value.id, 200), runId: text(value.runId, 200) ?? '', kind: value.kind === 'input' ? 'input' : 'approval' };
  for (const key of ['toolCallId', 'toolName', 'nodeId'] as const) {
    const item = text(value[key], 200);
    if (item !== undefined) summary[key] = item;
  }
  const reason = text(value.reason, 1_024);
  if (reason !== undefined) summary.reason = reason;
  for (const key of ['createdAt', 'expiresAt'] as const) {
    const item = text(value[key], 64);
    if (item !== undefined) summary[key] = item;
  }
  const schema = isPlainObject(value.responseSchema) ? boundedJSON(value.responseSchema, secrets) : undefined;
  if (isPlainObject(schema)) summary.responseSchema = schema;
  if (summary.kind === 'input') {
    const shown = boundedJSON(value.value, secrets);
    if (shown !== undefined) summary.value = shown;
  }
  return summary;
}

/**
 * The pending interrupts of a run (a completion's `response.interrupts`, an agent's `interrupted` item), summarised:
 * at most `limit` ({@link MAX_NAMED_INTERRUPTS} by default) named, `count` all of them (entries that are not
 * interrupts are skipped).
 * @example `const { interrupts, count } = summarizeInterrupts(completion.response.interrupts, secrets)`
 */
export function summarizeInterrupts(interrupts: unknown, secrets: readonly string[] = [], limit = MAX_NAMED_INTERRUPTS): { interrupts: InterruptSummary[]; count: number } {
  if (!Array.isArray(interrupts)) return { interrupts: [], count: 0 };
  const named: InterruptSummary[] = [];
  let count = 0;
  for (const each of interrupts) {
    if (named.length >= limit) {
      count++;
      continue;
    }
    const summary = summaryOf(each, secrets);
    if (summary === undefined) continue;
    named.push(summary);
    count++;
  }
  return { interrupts: named, count };
}
