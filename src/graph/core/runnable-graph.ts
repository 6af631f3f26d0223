/**
 * How a graph run is asked for and what it answers: its options, its outcome, and the one method a compiled graph
 * offers the code that runs it as a child (a graph agent, a subgraph node) — `start`.
 */
import type { AgentError } from '../../errors/agent-error.js';
import type { WorkflowError } from '../../errors/workflow-error.js';
import type { Interrupt, ResumeDecision } from '../../interrupts/interrupt.js';
import type { RunEvent } from '../../runner/event.js';
import type { SpanHandle, Telemetry } from '../../telemetry/telemetry.js';
import type { TraceParent } from '../../telemetry/traceparent.js';
import type { Checkpointer } from './checkpointer.js';
import type { State } from './state-schema.js';

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
   * With a checkpointer: who the run belongs to (a user id, a session key), kept in its checkpoints. A run or resume
   * with another `owner`, or none, finds no checkpoint there: a resume fails `CHECKPOINT_NOT_FOUND` (its outcome and
   * state never read), a run under that id is refused. A graph agent under the Runner passes its session key. A run
   * started without one may be resumed by anyone holding its id.
   */
  owner?: string | undefined;
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

/** Options of `CompiledGraph.resume`: those of a run, with the checkpointer required. */
export interface GraphResumeOptions extends GraphRunOptions {
  checkpointer: Checkpointer;
  /**
   * The answers to an interrupted run's questions: `{ id, value }` for each pending interrupt (its `responseSchema`
   * checked), at most 1,000. Checked against the checkpoint before anything is written; a wrong resume rejects with
   * a `ResumeError` and changes nothing. An interrupt past its `expiresAt` needs none (its node's `interrupt()` throws
   * `InterruptExpiredError`). Sent again unchanged, the same decisions replay (`replay: true`); other decisions for
   * interrupts already decided are refused (`RESUME_CONFLICT`). @default none: a resume of a run not interrupted
   */
  decisions?: readonly ResumeDecision[] | undefined;
  /**
   * Take the run over at once even when another process's claim on it has not lapsed — for a caller who knows that
   * process is gone (a restart). A run still live in this process is never taken over. @default false
   */
  takeOver?: boolean | undefined;
}

/**
 * How a graph run ended. `steps` counts the supersteps that ran (a failed step counts; an aborted or interrupted one
 * does not). `listenerErrors` is there when the `onEvent` listener threw (the run went on; up to 100 are kept, then a
 * count). `replay: true` on the outcome of a resume whose decisions had been accepted before (the same resume sent
 * again): nothing was decided anew — the outcome is the run's as it stands (completed or interrupted again, as stored;
 * still running elsewhere, `RESUME_IN_PROGRESS`; left unfinished by a process that died, continued).
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
  /**
   * Nodes called `interrupt()`: what the run waits on (resume it with a decision for each), and the state the
   * interrupted step started from (the step's nodes that finished are kept in the checkpoint, not run again).
   */
  | { status: 'interrupted'; interrupts: Interrupt[]; state: S; steps: number }
) & { listenerErrors?: readonly AgentError[]; replay?: true };

/**
 * @internal Where a run starts: `run` anew; from its checkpoint with `resume` (none → `CHECKPOINT_NOT_FOUND`) or
 * `any` (anew only when there is none; a completed one is replayed).
 */
export type StartMode = 'run' | 'resume' | 'any';

/** @internal What a graph agent and a subgraph node need of a compiled graph: a run from `mode`'s starting point. */
export interface RunnableGraph {
  start(input: State, options: GraphRunOptions | GraphResumeOptions, mode: StartMode, child?: boolean, stateHint?: string): Promise<GraphOutcome>;
}
