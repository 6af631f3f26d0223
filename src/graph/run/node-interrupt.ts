/**
 * `interrupt()`: a node stops its run to ask a person, and gets the answer when the run is resumed. The question is
 * recorded by the run (`run-questions.ts`) before the throw that stops the node, so a node that catches the throw
 * still stops the run at the end of its step; the throw itself is not a failure (no retry, no error event, no
 * `afterNode` callback, no record).
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { hasMarker } from '../../internal/brand.js';
import { truncate } from '../../internal/json.js';
import type { StandardSchemaV1 } from '../../tools/standard-schema.js';
import { INTERRUPT_NEEDS_CHECKPOINTER } from '../core/constants.js';
import { EXECUTION, type NodeCallbackContext } from '../core/node-context.js';
import type { State } from '../core/state-schema.js';

/** Options of {@link interrupt}. */
export interface InterruptOptions<T = unknown> {
  /**
   * What the answer's value must be: a JSON Schema object, or `jsonSchema<T>(…)` (any Standard Schema that gives
   * its JSON Schema). Kept as JSON Schema in the checkpoint; a resume whose value fails it is refused
   * (`ResumePayloadError`, with the issues) and nothing runs. @default any JSON value
   */
  responseSchema?: Record<string, unknown> | StandardSchemaV1<unknown, T> | undefined;
  /**
   * How long the question stays open, in ms (a whole number from 1 to 31,536,000,000, a year): the interrupt's
   * `expiresAt`. A decision sent after it is refused (`InterruptExpiredError`), a resume needs none for it, and the
   * node's `interrupt()` call then throws `InterruptExpiredError` — catch it to take the "nobody answered" path.
   * @default never expires
   */
  expiresInMs?: number | undefined;
}

const symbol = Symbol.for('faultline.graph.NodeInterrupt');

/** @internal The throw that stops a node that asked (not a failure: the executor lets it through every handler). */
export class NodeInterrupt extends Error {
  override readonly name = 'GraphInterrupt';
  constructor(nodeId: string) {
    super(`node ${truncate(nodeId, 200)} stopped its run to ask (interrupt()): this is not a failure — let it pass (rethrow it from a catch), and the run resumes with the answer`);
    Object.defineProperty(this, symbol, { value: true });
  }
}

/**
 * @internal The outcome of a node that asked (a `NodeOutcome`): not a failure — no record, no event, no fallback
 * state — and not a result either; the step is saved with the node to run again.
 */
export function interruptedOutcome<N extends { id: string }>(node: N, attempts: number): { ok: false; node: N; error: NodeInterrupt; attempts: number; fallbackUpdates: State[] } {
  return { ok: false, node, error: new NodeInterrupt(node.id), attempts, fallbackUpdates: [] };
}

/** @internal Whether `value` is the throw of a node that asked (from any copy of the package). */
export function isNodeInterrupt(value: unknown): boolean {
  return hasMarker(value, symbol);
}

/**
 * Stops the run to ask a person, from inside a node: the run ends `interrupted` with its checkpoint holding the
 * question (`{ id, runId, kind: 'input', nodeId, value, createdAt, expiresAt?, responseSchema? }`); resume it with
 * `compiled.resume(runId, { checkpointer, decisions: [{ id, value }] })`. The resumed node RUNS AGAIN FROM ITS START,
 * and this call then returns the answer: the n-th `interrupt()` call of the node gets the answer to its n-th question
 * (keep the calls in the same order), the first call without an answer asks the next question. So anything the node
 * does before `interrupt()` is done again on resume: put side effects after it, or in a node of their own.
 *
 * Needs a checkpointed run (`{ checkpointer, runId }`); without one the node fails with `INTERRUPT_NEEDS_CHECKPOINTER`.
 * `value` (what the person is shown) must be JSON, at most 1 MiB of it (else the node fails with a `SerializeError` or
 * a `WorkflowError`); a node asks at most 1,000 questions per step. Several nodes of one step may ask: the run waits
 * on all their questions, and the step's nodes that finished keep their results.
 *
 * @example
 * ```ts
 * graph.addNode('approve', (state, context) => {
 *   const answer = interrupt(context, { refund: state.amount }, { responseSchema: jsonSchema<{ ok: boolean }>({ type: 'object', required: ['ok'] }), expiresInMs: 3_600_000 });
 *   return { approved: answer.ok };
 * });
 * const first = await compiled.run(input, { checkpointer, runId: 'order-42' }); // { status: 'interrupted', interrupts: [{ id, … }] }
 * await compiled.resume('order-42', { checkpointer, decisions: [{ id: first.interrupts[0].id, value: { ok: true } }] });
 * ```
 */
export function interrupt<T = unknown>(context: NodeCallbackContext, value?: unknown, options?: InterruptOptions<T>): T {
  const hooks = context?.[EXECUTION];
  const nodeId = typeof context?.nodeId === 'string' ? context.nodeId : '';
  if (hooks?.checkpoint === undefined) {
    const message = hooks
      ? `node ${truncate(nodeId, 200)} called interrupt() in a run without a checkpointer: nothing can keep the question; run the graph with { checkpointer, runId }`
      : 'interrupt(context, value) needs the context a graph node received (a node of a running graph)';
    throw new WorkflowError(message, { code: INTERRUPT_NEEDS_CHECKPOINTER, nodeId: nodeId === '' ? undefined : nodeId });
  }
  return hooks.checkpoint.questions.ask(context, value, options) as T;
}
