/**
 * @internal The context a node function receives for one attempt: a plain object, as it always was. Its `signal` is
 * an own enumerable property (a `{ ...context }` copy carries it): the signal itself when the run has one, else a
 * getter — one function, shared by every context — so that a run without a caller's signal makes its never-firing
 * one only when a node looks (an `AbortController` costs microseconds; a short run never pays it). An object literal
 * with a getter of its own would cost a new hidden class per context: more than the rest of a small step.
 */
import type { GraphNode } from '../core/graph-description.js';
import { EXECUTION, type ExecutionHooks, type NodeContext } from '../core/node-context.js';
import type { SignalSource } from '../core/signal-source.js';

/** The getter of a context's `signal` until the run has one: its hooks know the run (a WeakMap of contexts would tax every GC). */
const DEFERRED_SIGNAL: PropertyDescriptor = {
  get(this: NodeContext): AbortSignal {
    return (this[EXECUTION]?.signalSource as SignalSource).nodeSignal();
  },
  enumerable: true,
  configurable: true,
};

/**
 * An idle context whose `signal` is the getter, kept for good: contexts of that shape then share a hidden class no
 * full GC can drop between runs (with it, the optimized code of every function that builds or reads them).
 */
let deferredShape: NodeContext | undefined;
const IDLE_NODE = { id: '', name: '', type: '' };
const IDLE_SOURCE: SignalSource = {
  nodeSignal: () => AbortSignal.abort(), // never read: the idle context is never given to a node
  signalNow: () => undefined,
};

/**
 * @internal The context of attempt `attempt` of `node` at step `step`; `source` gives its signal now, or else
 * `hooks.signalSource` when a node reads it.
 */
export function attemptContext(node: Pick<GraphNode, 'id' | 'name' | 'type'>, step: number, invocationId: string, hooks: ExecutionHooks | undefined, source: SignalSource, attempt: number, path: readonly string[] | undefined): NodeContext {
  const signal = source.signalNow();
  let context: NodeContext;
  if (signal !== undefined) {
    // The symbol key last: a literal whose computed key comes first keeps a hidden class a full GC may drop (and with
    // it the optimized code of its callers); symbols are listed after strings whatever the order.
    context = { nodeId: node.id, nodeName: node.name, nodeType: node.type, stepNumber: step, invocationId, signal, attempt, [EXECUTION]: hooks };
  } else {
    // The getter added as a new property (turning a data property into one would make a slow, dictionary object).
    const partial = { nodeId: node.id, nodeName: node.name, nodeType: node.type, stepNumber: step, invocationId };
    Object.defineProperty(partial, 'signal', DEFERRED_SIGNAL);
    context = partial as NodeContext;
    context.attempt = attempt;
    (context as { [EXECUTION]?: ExecutionHooks })[EXECUTION] = hooks;
    if (deferredShape === undefined) {
      deferredShape = context; // for the call below, which must not recurse; replaced at once
      deferredShape = attemptContext(IDLE_NODE, 0, '', undefined, IDLE_SOURCE, 1, undefined);
    }
  }
  if (path !== undefined) context.path = path;
  return context;
}
