import type { AgentError } from '../errors/agent-error.js';
import { ConfigError } from '../errors/config-error.js';
import type { WorkflowError } from '../errors/workflow-error.js';
import { createId } from '../internal/ids.js';
import type { RunEvent } from '../runner/event.js';
import { isCheckpointer, type Checkpointer } from './checkpoint.js';
import { CHILD_RUN_SEPARATOR } from './constants.js';
import { preview } from '../internal/json.js';
import { GraphRun, type GraphRunSettings, type StartMode } from './executor.js';
import type { ResolvedRetryOptions } from '../internal/retry.js';
import type { NodeCallbacks } from './node-callbacks.js';
import type { NodeFallback, NodeRetryPolicy } from './node-options.js';
import type { NodeFunction, Router } from './node-function.js';
import type { State, StateSchema, StateUpdate } from './state-schema.js';
import { NO_TELEMETRY, telemetryProblems } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import type { TraceParent } from '../telemetry/traceparent.js';
import { endGraphRunSpan, graphRunSpan } from './node-span.js';

/** @internal A compiled node. */
export interface GraphNode {
  id: string;
  name: string;
  type: string;
  run: NodeFunction<any, any>;
  retry?: NodeRetryPolicy | undefined;
  /** Time limit of each attempt (none when absent). */
  timeoutMs?: number | undefined;
  fallback?: NodeFallback | undefined;
  callbacks?: NodeCallbacks | undefined;
  ends: string[];
  /** The keys of the node's last update and an object with them (see `checkResult` in `node-runner.ts`). */
  updateShape?: { keys: readonly string[]; template: State } | undefined;
}

/** @internal A node as the executor runs it: its callbacks in both orders, fixed at compile. */
export interface CompiledNode extends GraphNode {
  /** `beforeNode` / `onNodeError` order: graph-wide callbacks first, then the node's own. */
  callbacksBefore: readonly NodeCallbacks[];
  /** `afterNode` order: the node's own first, then graph-wide callbacks. */
  callbacksAfter: readonly NodeCallbacks[];
  /** The node's retry policy with defaults filled in (`maxAttempts: 1` without one). */
  retryOptions: ResolvedRetryOptions;
  /** No callbacks and no time limit: the executor may run it on its direct path (`direct-step.ts`). */
  direct: boolean;
  /**
   * The next step's nodes when the node ends without a `Command.goto` and is alone in its step: its static edges in
   * order, each once, `END` left out. Absent when it has conditional edges (its routers decide).
   */
  successors?: readonly string[] | undefined;
}

/** @internal A compiled conditional edge. */
export interface GraphBranch {
  from: string;
  router: Router<any>;
  pathMap?: Record<string, string> | undefined;
}

/** @internal */
export interface GraphParts {
  schema: StateSchema<any, any>;
  nodes: Map<string, CompiledNode>;
  /** Edge targets by source node, in declaration order. */
  edgesFrom: Map<string, string[]>;
  /** Conditional edges by source node, in declaration order. */
  branchesFrom: Map<string, GraphBranch[]>;
  entries: string[];
  stepLimit: number;
  /** What checkpoints of this graph carry, so another graph refuses them (`graph-fingerprint.ts`). */
  fingerprint: string;
}

/** Options of a graph run. */
export interface GraphRunOptions {
  signal?: AbortSignal | undefined;
  /** Receives every event as it happens. */
  onEvent?: ((event: RunEvent) => void) | undefined;
  /** @default a new `invocation-<uuid>` */
  invocationId?: string | undefined;
  /** Agent-node ids from the outermost graph down, when this graph runs as a subgraph. */
  path?: readonly string[] | undefined;
  branch?: string | undefined;
  requestId?: string | undefined;
  /**
   * Saves a checkpoint before the first superstep, after every superstep, at the end (`completed`) and on a fatal
   * step (`failed`), so the run can be resumed with `resume(runId, …)`. A checkpoint that cannot be saved fails the
   * run (`CHECKPOINT_FAILED`); the one saved before stays resumable.
   */
  checkpointer?: Checkpointer | undefined;
  /**
   * The id the run's checkpoints are saved under: any non-empty string without `CHILD_RUN_SEPARATOR` (U+001F), which
   * joins a subgraph's run id (`<parent run id>␟<agent node id>`). @default the invocation id
   */
  runId?: string | undefined;
  /**
   * With a checkpointer: how long the run's claim on its checkpoint holds without a renewal, in ms (an integer ≥ 1,000).
   * A live run renews it with every checkpoint it writes and every third of it during a long step; a run whose
   * process died is taken over once it lapses (at once on an `exclusive` store such as `InMemoryCheckpointer`).
   * @default 30000
   */
  leaseMs?: number | undefined;
  /**
   * Where the run's spans go (`openTelemetry(otel)`): one `invoke_workflow` span, one `graph.node <id>` span per node
   * step; a failed node fails its span with its record's severity. @default nothing recorded
   */
  telemetry?: Telemetry | undefined;
  /** The run span's parent: one of ours or a parsed `traceparent`. @default the active OpenTelemetry context */
  parentSpan?: SpanHandle | TraceParent | undefined;
  /** The workflow's name in its span (`gen_ai.workflow.name`). @default 'graph' */
  workflowName?: string | undefined;
}

/** A run's settings from its options (one literal, so every run's settings share one hidden class). */
function runSettings(options: GraphResumeOptions | GraphRunOptions, invocationId: string, telemetry: Telemetry, span: SpanHandle, child: boolean): GraphRunSettings {
  return {
    signal: options.signal,
    emit: options.onEvent,
    invocationId,
    path: options.path ?? [],
    branch: options.branch,
    requestId: options.requestId,
    checkpointer: options.checkpointer,
    runId: options.runId,
    lease: { leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, takeOver: (options as GraphResumeOptions).takeOver === true, child },
    telemetry,
    span,
  };
}

/** How long a run's claim on its checkpoint holds without a renewal. */
const DEFAULT_LEASE_MS = 30_000;

/** The problems of a run's options, as sentences. */
function optionProblems(options: GraphResumeOptions | GraphRunOptions, child: boolean): string[] {
  const problems: string[] = [];
  const { runId, leaseMs } = options;
  if (options.checkpointer !== undefined && !isCheckpointer(options.checkpointer)) problems.push('checkpointer must have get(), put() and delete()');
  if (runId !== undefined && (typeof runId !== 'string' || runId === '')) problems.push('runId must be a non-empty string');
  else if (!child && (runId ?? options.invocationId)?.includes(CHILD_RUN_SEPARATOR) && options.checkpointer !== undefined) {
    problems.push(`runId ${preview(runId ?? options.invocationId, 200)} contains U+001F (CHILD_RUN_SEPARATOR), which only subgraph run ids may contain: choose another`);
  }
  if (leaseMs !== undefined && !(Number.isInteger(leaseMs) && leaseMs >= 1000)) problems.push(`leaseMs must be an integer ≥ 1000 (got ${preview(leaseMs, 40)})`);
  const { takeOver } = options as GraphResumeOptions;
  if (takeOver !== undefined && typeof takeOver !== 'boolean') problems.push('takeOver must be a boolean');
  problems.push(...telemetryProblems(options.telemetry));
  return problems;
}

/** Options of `CompiledGraph.resume`: those of a run, with the checkpointer required. */
export interface GraphResumeOptions extends GraphRunOptions {
  checkpointer: Checkpointer;
  /**
   * Take the run over at once even when another process's claim on it has not lapsed — for a caller who knows that
   * process is gone (a restart). A run still live in this process is never taken over. @default false
   */
  takeOver?: boolean | undefined;
}

/**
 * How a graph run ended. `steps` counts the supersteps that ran (a failed step counts; an aborted one does not).
 * `listenerErrors` is there when the `onEvent` listener threw (the run went on; up to 100 are kept, then a count).
 */
export type GraphOutcome<S extends State = State> = (
  /** The run reached the end: the final state (also emitted as the `graph.execution` snapshot). */
  | { status: 'completed'; state: S; steps: number }
  /**
   * A node failure ended the run: the error, and the fallback state — everything reduced so far plus every record
   * (partial: a run that failed before its first step, e.g. `STATE_INVALID`, may lack fields).
   */
  | { status: 'failed'; error: WorkflowError; fallbackState: Partial<S> & State; steps: number }
  /** The signal aborted the run: its reason, and the state reduced so far. */
  | { status: 'aborted'; reason: unknown; state: S; steps: number }
) & { listenerErrors?: readonly AgentError[] };

/**
 * A validated graph, ready to run any number of times (runs share nothing).
 *
 * @example
 * ```ts
 * const outcome = await compiled.run({ user_input: 'order 42' }, { onEvent: (event) => console.log(event.response?.object) });
 * if (outcome.status === 'failed') console.log(executionErrors(outcome.fallbackState));
 * ```
 */
export class CompiledGraph<S extends State = State, U extends State = StateUpdate<S>> {
  /**
   * An idle run, never started: while the graph lives, so does the hidden class of its runs, and a full GC between
   * runs cannot drop it — with it the optimized code of the executor, which every run after would pay to rebuild.
   */
  readonly #idleRun: GraphRun;

  /** @internal */
  constructor(readonly parts: Readonly<GraphParts>) {
    this.#idleRun = new GraphRun(parts, runSettings({}, '', NO_TELEMETRY, NO_TELEMETRY.startSpan(''), false));
  }

  /**
   * Runs the graph on `input` (an update, reduced into the schema's defaults). Never rejects for node failures: see
   * the outcome.
   */
  run(input: U = {} as U, options: GraphRunOptions = {}): Promise<GraphOutcome<S>> {
    return this.start(input, options, 'run');
  }

  /**
   * Continues the run `runId` from its last checkpoint: after its last completed superstep; a step that failed runs
   * only its failed nodes again (the others' results were kept), so a run that ended on a fatal error resumes once
   * its cause is fixed, its earlier records kept. A completed run returns its outcome again (and its `graph.execution`
   * snapshot) without running a node. No checkpoint → a failed outcome with code `CHECKPOINT_NOT_FOUND`; one that is
   * not valid, or another graph's → `CHECKPOINT_INVALID`; state that no longer matches a typed state's schema →
   * `STATE_INVALID`. A resume claims the run before it runs a node (see `Checkpointer`): while another live run holds
   * it, or when another resume claimed it first, this one runs nothing and fails with `RESUME_IN_PROGRESS`
   * (`retryAfterMs`: when the holder's claim lapses). A rejection is only for invalid options (`ConfigError`).
   *
   * @example
   * ```ts
   * const checkpointer = new InMemoryCheckpointer();
   * const first = await compiled.run({ user_input: 'order 42' }, { checkpointer, runId: 'order-42' });
   * if (first.status !== 'completed') console.log((await compiled.resume('order-42', { checkpointer })).status);
   * ```
   */
  resume(runId: string, options: GraphResumeOptions): Promise<GraphOutcome<S>> {
    if (!isCheckpointer(options?.checkpointer)) return Promise.reject(ConfigError.fromProblems('resume options', ['checkpointer is required: the store the run saved its checkpoints to']));
    return this.start({}, { ...options, runId }, 'resume');
  }

  /** @internal A run from `mode`'s starting point (see `StartMode`); `child`: a subgraph's run, under its parent's claim. */
  start(input: State, options: GraphRunOptions | GraphResumeOptions, mode: StartMode, child = false): Promise<GraphOutcome<S>> {
    const problems = optionProblems(options, child);
    if (problems.length > 0) return Promise.reject(ConfigError.fromProblems('graph run options', problems));
    const invocationId = options.invocationId ?? createId('invocation');
    const telemetry = options.telemetry ?? NO_TELEMETRY;
    const span = graphRunSpan(telemetry, options.workflowName, options.parentSpan, options.runId ?? invocationId);
    const outcome = new GraphRun(this.parts, runSettings(options, invocationId, telemetry, span, child)).start(input, mode) as Promise<GraphOutcome<S>>;
    return outcome.then(
      (done) => {
        endGraphRunSpan(span, done);
        return done;
      },
      (error: unknown) => {
        span.fail(error);
        span.end();
        throw error;
      },
    );
  }

  /**
   * Runs the graph and returns its final state; a failed run rejects with its `WorkflowError` (whose
   * `fallbackState` holds what was reduced so far), an aborted one with the abort reason.
   */
  async invoke(input: U = {} as U, options: GraphRunOptions = {}): Promise<S> {
    const outcome = await this.run(input, options);
    if (outcome.status === 'completed') return outcome.state;
    if (outcome.status === 'aborted') throw outcome.reason;
    throw outcome.error;
  }
}
