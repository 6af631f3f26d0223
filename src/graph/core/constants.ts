/** Wire strings of the graph package (tRPC-Agent-Go's, decisions.md point 1). */

/**
 * The virtual node before the entry point.
 * @example `graph.addEdge(START, 'lookup') // same as setEntryPoint('lookup')`
 */
export const START: '__start__' = '__start__'; // typed: a reference keeps its literal type (Command's goto)
/**
 * The virtual node after a finish point; route here to end the run.
 * @example `new Command({ goto: END })`
 */
export const END: '__end__' = '__end__'; // typed: `goto: END` keeps its literal type, as `goto: 'ship'` does

/**
 * Default state key of the execution-error collector.
 * @example `executionErrorsFromStateDelta(event.stateDelta, STATE_KEY_EXECUTION_ERRORS)`
 */
export const STATE_KEY_EXECUTION_ERRORS = 'execution_errors';
/**
 * Default custom event type of the collector's fatal fallback emission.
 * @example `JSON.parse(event.stateDelta._node_custom_metadata).eventType === EXECUTION_ERROR_EVENT_TYPE`
 */
export const EXECUTION_ERROR_EVENT_TYPE = 'execution_error';
/**
 * Default event type of `emitCustomStateDelta`.
 * @example `emitCustomStateDelta(context, delta) // eventType STATE_DELTA_EVENT_TYPE`
 */
export const STATE_DELTA_EVENT_TYPE = 'state_delta';
/**
 * Event type of the executor's own fallback-state event on a fatal termination (decisions.md point 6): its state
 * delta is the whole state reduced so far, every record included.
 * @example `if (JSON.parse(delta._node_custom_metadata).eventType === FALLBACK_STATE_EVENT_TYPE) keep(delta)`
 */
export const FALLBACK_STATE_EVENT_TYPE = 'fallback_state';

/**
 * Severity of an execution-error record.
 * @example `records.filter((record) => record.severity === Severity.Fatal)`
 */
export const Severity = /* @__PURE__ */ Object.freeze({ Recoverable: 'recoverable', Fatal: 'fatal' } as const);
/** `recoverable` or `fatal`. */
export type SeverityName = (typeof Severity)[keyof typeof Severity];

/**
 * Node types, as recorded in `nodeType`.
 * @example `graph.addNode('route', router, { type: NodeType.Router })`
 */
export const NodeType = /* @__PURE__ */ Object.freeze({
  Function: 'function',
  LLM: 'llm',
  Tool: 'tool',
  Agent: 'agent',
  Join: 'join',
  Router: 'router',
} as const);
/** One of the {@link NodeType} strings. */
export type NodeTypeName = (typeof NodeType)[keyof typeof NodeType];

/** Author of node events when no node id is known, and of executor events. */
export const GRAPH_NODE_AUTHOR = 'graph-node';
export const GRAPH_PREGEL_AUTHOR = 'graph-pregel';

// The state-delta vocabulary (metadata keys, the unencodable-key code) belongs to the event model in runner/.
export { COMPLETION_METADATA_KEY, NODE_CUSTOM_METADATA_KEY, NODE_METADATA_KEY, PREGEL_METADATA_KEY, STATE_NOT_SERIALIZABLE } from '../../runner/constants.js';

/**
 * `WorkflowError.code` of a resume whose run id has no checkpoint (never saved, deleted, or forgotten by a bounded
 * store).
 * @example `if (outcome.status === 'failed' && outcome.error.code === CHECKPOINT_NOT_FOUND) await compiled.run(input, options)`
 */
export const CHECKPOINT_NOT_FOUND = 'CHECKPOINT_NOT_FOUND';
/**
 * `WorkflowError.code` of a checkpoint read back that is not one (a wrong shape, a wrong version, state that is not
 * JSON text, nodes this graph does not have); `problems` lists every problem found.
 * @example `if (error.code === CHECKPOINT_INVALID) console.log(error.problems)`
 */
export const CHECKPOINT_INVALID = 'CHECKPOINT_INVALID';
/**
 * `WorkflowError.code` of a run whose checkpoint could not be saved or read (the store threw, or a state key is not
 * JSON): the run stops, its records kept in the fallback state, and its last saved checkpoint stays resumable.
 * @example `if (error.code === CHECKPOINT_FAILED) setTimeout(() => compiled.resume(runId, { checkpointer }), 1000)`
 */
export const CHECKPOINT_FAILED = 'CHECKPOINT_FAILED';
/**
 * `WorkflowError.code` (and the record's `error.code`) of a node attempt that ran past its `timeoutMs`: the node's
 * signal was aborted and its late result, if any, discarded. The error is `retryable`, so a node `retry` policy tries
 * again by default; the default collector policy records it as fatal unless told otherwise.
 * @example `new ExecutionErrorCollector({ recoverable: (error) => WorkflowError.isInstance(error) && error.code === NODE_TIMEOUT })`
 */
export const NODE_TIMEOUT = 'NODE_TIMEOUT';
/**
 * `WorkflowError.code` of a run whose first state (defaults, then the input) does not match the Standard Schema of a
 * `stateSchema(schema)`: the run fails before any node; `problems` lists each issue as `path: message`.
 * @example `if (outcome.status === 'failed' && outcome.error.code === STATE_INVALID) console.log(outcome.error.problems)`
 */
export const STATE_INVALID = 'STATE_INVALID';
/**
 * `WorkflowError.code` of a run or resume that ran nothing because another live run holds the run's checkpoint (its
 * claim's lease has not lapsed), or won the race to claim it first. `retryable`; `retryAfterMs` says when the holder's
 * lease ends, when it is known. A resume of a completed run is never refused: it replays the outcome.
 * @example `if (outcome.status === 'failed' && outcome.error.code === RESUME_IN_PROGRESS) setTimeout(retry, outcome.error.retryAfterMs ?? 1000)`
 */
export const RESUME_IN_PROGRESS = 'RESUME_IN_PROGRESS';
/**
 * `WorkflowError.code` of a run that stopped because its checkpoint changed under it since its last write (another
 * run took it over after its lease lapsed or with `takeOver`, or it was deleted or forgotten by a bounded store): it
 * wrote nothing more, and the run that holds the checkpoint now carries on. The nodes of its last step may have run.
 * @example `if (error.code === RUN_TAKEN_OVER) console.log('another process continues this run')`
 */
export const RUN_TAKEN_OVER = 'RUN_TAKEN_OVER';
/**
 * `WorkflowError.code` of a run (not a resume) under a run id whose checkpoint belongs to another owner (the `owner`
 * option): nothing ran, nothing of that run was read. Run under another id. (A resume finds no checkpoint there:
 * `CHECKPOINT_NOT_FOUND`.)
 * @example `if (error.code === RUN_ID_TAKEN) runAgainWith(crypto.randomUUID())`
 */
export const RUN_ID_TAKEN = 'RUN_ID_TAKEN';
/**
 * What joins a run id and an agent node id into the run id of that node's child graph (`<run id>␟<node id>`, U+001F,
 * the unit separator): run ids and node ids may not contain it, so a child run's checkpoint key is one no run of yours
 * can have. A `Checkpointer.delete(runId)` removes the keys that start with `runId + CHILD_RUN_SEPARATOR` too.
 * @example `for (const id of store.keys()) if (id === runId || id.startsWith(runId + CHILD_RUN_SEPARATOR)) store.delete(id)`
 */
export const CHILD_RUN_SEPARATOR = '\u001f';
/**
 * `WorkflowError.code` of a node that called `interrupt()` in a run without a checkpointer: nothing could keep the
 * question, so the node fails instead of stopping the run. Run the graph with `{ checkpointer, runId }`.
 * @example `if (error.code === INTERRUPT_NEEDS_CHECKPOINTER) await compiled.run(input, { checkpointer, runId })`
 */
export const INTERRUPT_NEEDS_CHECKPOINTER = 'INTERRUPT_NEEDS_CHECKPOINTER';
/**
 * `WorkflowError.code` with which `invoke()` rejects for a run that stopped to ask: `problems` lists the interrupt
 * ids, `fallbackState` holds the state. `run()` gives the interrupts whole, to resume with.
 * @example `if (error.code === RUN_INTERRUPTED) showQuestions(error.problems)`
 */
export const RUN_INTERRUPTED = 'RUN_INTERRUPTED';
/**
 * `WorkflowError.code` of an agent or subgraph node whose child run stopped to ask (an `interrupt()` in the subgraph,
 * an approval in the agent): a child cannot stop its parent to ask, so the node fails, the child's interrupt ids in
 * its message. Ask in a node of the parent graph instead.
 * @example `if (error.code === SUBGRAPH_INTERRUPTED) console.log(error.nodeId, error.message)`
 */
export const SUBGRAPH_INTERRUPTED = 'SUBGRAPH_INTERRUPTED';
/**
 * The `response.object` of the events of interrupts: a run's nodes stopped to ask (`graph.interrupt`, ids and node
 * ids only, never the values), a resume accepted or refused (`graph.resume`: ids, counts, the refusal's code), and
 * the end of an interrupted run as a graph agent reports it (`graph.interrupted`, carrying `interrupts`).
 * @example `if (event.response?.object === InterruptEventType.Resume) log(event.stateDelta)`
 */
export const InterruptEventType = /* @__PURE__ */ Object.freeze({ Interrupt: 'graph.interrupt', Resume: 'graph.resume', Interrupted: 'graph.interrupted' } as const);
