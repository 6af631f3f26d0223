/**
 * The public compiled graph: the one file that joins a graph's description (`GraphParts`, made by `compile/`) with
 * the executor that runs it (`GraphRun`, in `run/`), so neither room needs the other or this class.
 */
import { ConfigError } from '../errors/config-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { createId } from '../internal/ids.js';
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import { signalProblems } from '../internal/call-options.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { NO_TELEMETRY, telemetryProblems } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import { isCheckpointer } from './checkpoints/checkpoint.js';
import { GraphRun } from './run/executor.js';
import type { GraphRunSettings } from './run/run-settings.js';
import { endGraphRunSpan, graphRunSpan } from './run/node-span.js';
import { CHILD_RUN_SEPARATOR, RUN_INTERRUPTED } from './core/constants.js';
import type { GraphParts } from './core/graph-description.js';
import type { GraphOutcome, GraphResumeOptions, GraphRunOptions, StartMode } from './core/runnable-graph.js';
import type { State, StateUpdate } from './core/state-schema.js';

/** A run's settings from its options (one literal, so every run's settings share one hidden class). */
function runSettings(options: GraphResumeOptions | GraphRunOptions, invocationId: string, telemetry: Telemetry, span: SpanHandle, child: boolean, stateHint?: string): GraphRunSettings {
  return {
    stateHint,
    signal: options.signal,
    emit: options.onEvent,
    invocationId,
    path: options.path ?? [],
    branch: options.branch,
    requestId: options.requestId,
    checkpointer: options.checkpointer,
    runId: options.runId,
    owner: options.owner,
    lease: { leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, takeOver: (options as GraphResumeOptions).takeOver === true, child },
    decisions: (options as GraphResumeOptions).decisions,
    telemetry,
    span,
  };
}

/** How long a run's claim on its checkpoint holds without a renewal. */
const DEFAULT_LEASE_MS = 30_000;

const RUN_KEYS = ['signal', 'onEvent', 'invocationId', 'path', 'branch', 'requestId', 'checkpointer', 'runId', 'owner', 'leaseMs', 'telemetry', 'parentSpan', 'workflowName'];
// Written out: a spread at module scope is code an app bundler keeps (test/package/side-effects.test.ts).
const RESUME_KEYS = ['signal', 'onEvent', 'invocationId', 'path', 'branch', 'requestId', 'checkpointer', 'runId', 'owner', 'leaseMs', 'telemetry', 'parentSpan', 'workflowName', 'decisions', 'takeOver'];

/** The longest claim a run may hold: a run that dies holding it keeps its checkpoint from others this long. */
const MAX_LEASE_MS = 604_800_000;

/** The problems of a run's options, as sentences. */
function optionProblems(options: GraphResumeOptions | GraphRunOptions, child: boolean, mode: StartMode): string[] {
  if (options === null || typeof options !== 'object') return [`options must be an object (got ${refusedValue(options)})`];
  const problems = [...unknownOptionProblems(options, mode === 'run' ? RUN_KEYS : RESUME_KEYS), ...signalProblems(options.signal)];
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function') problems.push('onEvent must be a function');
  const { runId, leaseMs } = options;
  if (options.checkpointer !== undefined && !isCheckpointer(options.checkpointer)) problems.push('checkpointer must have get(), put() and delete()');
  for (const key of ['invocationId', 'branch', 'requestId', 'workflowName'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') problems.push(`${key} must be a string (got ${refusedValue(options[key])})`);
  }
  if (options.path !== undefined && !(Array.isArray(options.path) && options.path.every((part) => typeof part === 'string'))) problems.push(`path must be an array of strings (got ${refusedValue(options.path)})`);
  if (runId !== undefined && (typeof runId !== 'string' || runId === '')) problems.push('runId must be a non-empty string');
  else {
    const id = runId ?? options.invocationId;
    if (!child && typeof id === 'string' && id.includes(CHILD_RUN_SEPARATOR) && options.checkpointer !== undefined) problems.push(`runId ${preview(id, 200)} contains U+001F (CHILD_RUN_SEPARATOR), which only subgraph run ids may contain: choose another`);
  }
  if (options.owner !== undefined && (typeof options.owner !== 'string' || options.owner === '')) problems.push(`owner must be a non-empty string (got ${refusedValue(options.owner)})`);
  if (leaseMs !== undefined && !(Number.isInteger(leaseMs) && leaseMs >= 1000 && leaseMs <= MAX_LEASE_MS)) problems.push(`leaseMs must be an integer from 1000 to ${MAX_LEASE_MS} (7 days) (got ${refusedValue(leaseMs)})`);
  const { takeOver } = options as GraphResumeOptions;
  if (takeOver !== undefined && typeof takeOver !== 'boolean') problems.push('takeOver must be a boolean');
  problems.push(...telemetryProblems(options.telemetry));
  return problems;
}

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
   * (`retryAfterMs`: when the holder's claim lapses).
   *
   * An `interrupted` run resumes with `decisions`, one `{ id, value }` per pending interrupt, checked against the
   * checkpoint before anything is written: the step runs again — its nodes that asked from their start, their
   * `interrupt()` calls returning the answers; its nodes that finished are not run again. A wrong resume rejects
   * with a `ResumeError` and changes nothing: an unknown id (`InterruptNotFoundError`), a decision after its
   * `expiresAt` (`InterruptExpiredError`), a pending interrupt left undecided (`ResumeIncompleteError`), a value that
   * fails its `responseSchema` or is not JSON (`ResumePayloadError`), other decisions for interrupts another resume
   * decided (`RESUME_CONFLICT`), decisions for a run not interrupted (`RUN_NOT_INTERRUPTED`). The same decisions sent
   * again replay (`replay: true`). Otherwise a rejection is only for invalid options (`ConfigError`).
   *
   * @example
   * ```ts
   * const checkpointer = new InMemoryCheckpointer();
   * const first = await compiled.run({ user_input: 'order 42' }, { checkpointer, runId: 'order-42' });
   * if (first.status === 'interrupted') {
   *   const decisions = first.interrupts.map((question) => ({ id: question.id, value: { approved: true } }));
   *   console.log((await compiled.resume('order-42', { checkpointer, decisions })).status);
   * } else if (first.status !== 'completed') console.log((await compiled.resume('order-42', { checkpointer })).status);
   * ```
   */
  resume(runId: string, options: GraphResumeOptions): Promise<GraphOutcome<S>> {
    if (!isCheckpointer(options?.checkpointer)) return Promise.reject(ConfigError.fromProblems('resume options', ['checkpointer is required: the store the run saved its checkpoints to']));
    return this.start({}, { ...options, runId }, 'resume');
  }

  /**
   * @internal A run from `mode`'s starting point (see `StartMode`); `child`: a subgraph's run, under its parent's claim;
   * `stateHint`: how to give the first state, said if a typed state refuses the one given.
   */
  start(input: State, options: GraphRunOptions | GraphResumeOptions, mode: StartMode, child = false, stateHint?: string): Promise<GraphOutcome<S>> {
    const problems = optionProblems(options, child, mode);
    if (!isPlainObject(input)) problems.push(`the input must be an object: an update of the state (got ${refusedValue(input)})`);
    if (problems.length > 0) return Promise.reject(ConfigError.fromProblems('graph run options', problems));
    const invocationId = options.invocationId ?? createId('invocation');
    const telemetry = options.telemetry ?? NO_TELEMETRY;
    const span = graphRunSpan(telemetry, options.workflowName, options.parentSpan, options.runId ?? invocationId);
    const outcome = new GraphRun(this.parts, runSettings(options, invocationId, telemetry, span, child, stateHint)).start(input, mode) as Promise<GraphOutcome<S>>;
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
   * `fallbackState` holds what was reduced so far), an aborted one with the abort reason, an interrupted one with a
   * `WorkflowError` of code `RUN_INTERRUPTED` naming the interrupt ids in `problems` (use `run()` to get them whole).
   */
  async invoke(input: U = {} as U, options: GraphRunOptions = {}): Promise<S> {
    const outcome = await this.run(input, options);
    if (outcome.status === 'completed') return outcome.state;
    if (outcome.status === 'aborted') throw outcome.reason;
    if (outcome.status === 'interrupted') {
      const ids = outcome.interrupts.map((each) => each.id);
      throw new WorkflowError(`the run stopped to ask (interrupt()) and waits on ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}: call run() to get the interrupts, then resume(runId, { checkpointer, decisions })`, {
        code: RUN_INTERRUPTED,
        fallbackState: outcome.state,
        problems: ids.slice(0, 100),
      });
    }
    throw outcome.error;
  }
}
