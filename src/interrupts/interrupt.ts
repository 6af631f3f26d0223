/** The vocabulary of a run that stopped to ask a person: what it waits on, and the answers it accepts. */

/**
 * One question a stopped run waits on: an approval of a tool call (`kind: 'approval'`: `toolCallId`, `toolName` and the
 * exact `args` the approval is bound to), or a value a graph node asked for (`kind: 'input'`: `nodeId`, `value` — what
 * the node showed — and the `responseSchema` the answer must match). Plain JSON: kept in the session store or the
 * checkpoint, sent over A2A and the UI stream as is.
 *
 * @example
 * ```ts
 * const pending: Interrupt = { id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_1', toolName: 'refund',
 *   args: { orderId: '42', amount: 30 }, createdAt: '2026-12-05T10:00:00.000Z', expiresAt: '2026-12-05T11:00:00.000Z' };
 * ```
 */
export interface Interrupt {
  /** Unique in its run; the id a decision names. */
  id: string;
  runId: string;
  kind: 'approval' | 'input';
  toolCallId?: string;
  toolName?: string;
  /** The arguments the approval is for: a resume whose call carries other arguments is refused. */
  args?: unknown;
  /** The graph node that asked. */
  nodeId?: string;
  /** What the node showed the person (`interrupt(value)`). */
  value?: unknown;
  /** Why the approval is needed, for the person deciding. */
  reason?: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601; after it, a decision is refused and the call is answered as expired. */
  expiresAt?: string;
  /** A JSON Schema the `value` of an answer must match. */
  responseSchema?: Record<string, unknown>;
}

/**
 * A person's answer to one {@link Interrupt}: an approval, a denial with an optional reason the model is shown, or a
 * value for a graph node's question.
 * @example `const decisions: ResumeDecision[] = [{ id: 'int_1', approved: false, reason: 'Refunds over $20 need a manager.' }]`
 */
export type ResumeDecision = { id: string; approved: true } | { id: string; approved: false; reason?: string } | { id: string; value: unknown };
