/**
 * The superstep executor (the graph's coordinator). Each step runs every triggered node concurrently on the same
 * state, reduces their updates in trigger order, then follows `Command.goto`, static and conditional edges
 * (`superstep.ts`). A node failure that no callback recovered ends the run: the executor emits the fallback state
 * (what succeeded plus the failing nodes' fallback updates), then a `graph.pregel.step` error (tRPC's shape: not
 * terminal itself; the runner's completion carries it). Completion emits the `graph.execution` snapshot. With a
 * checkpointer, the run claims its checkpoint and saves one before the first step, after every step, at the end and
 * on a fatal step (`run-checkpoints.ts`, `run-lease.ts`), and a run can start from one.
 */
import type { AgentError } from '../../errors/agent-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { preview } from '../../internal/json.js';
import { traces } from '../../telemetry/no-telemetry.js';
import type { GraphParts } from '../core/graph-description.js';
import { nameIds } from '../core/quote.js';
import type { GraphOutcome, StartMode } from '../core/runnable-graph.js';
import type { State } from '../core/state-schema.js';
import { checkInitialState } from '../core/typed-state.js';
import { runStepNodes } from './direct-step.js';
import { untilRunAborted } from './node-attempts.js';
import { ListenerErrors } from './listener-errors.js';
import { judgeResume } from './resume-plan.js';
import { RunCheckpoints, type LoadedCheckpoint } from './run-checkpoints.js';
import type { GraphRunSettings } from './run-settings.js';
import { checkpointNotFound, runFailure } from './run-error.js';
import { emitFailedRun, emitInterrupt, emitResume, emitSnapshot } from './run-events.js';
import { RunQuestions } from './run-questions.js';
import { scopeNodeSignal, scopeSignalNow, type RunScope } from './run-scope.js';
import { failuresOf, reduceFallback, reduceStep, route, type FailedNode, type SettledNode } from './superstep.js';


/** @internal One run of a compiled graph. */
export class GraphRun {
  private readonly scope: RunScope;
  private readonly checkpoints: RunCheckpoints | undefined;
  /** The questions of a checkpointed run's nodes (`interrupt()`). */
  private readonly questions: RunQuestions | undefined;
  /** Whether this resume's decisions had been accepted before (its outcome is marked `replay`). */
  private replayed = false;
  /** What the run's listener threw, once it threw. */
  private listenerErrors: ListenerErrors | undefined;

  constructor(
    private readonly parts: Readonly<GraphParts>,
    private readonly settings: GraphRunSettings,
  ) {
    const listener = settings.emit;
    this.scope = {
      parts,
      signal: settings.signal,
      idleSignal: undefined,
      nodeSignal: scopeNodeSignal,
      signalNow: scopeSignalNow,
      invocationId: settings.invocationId,
      path: settings.path,
      branch: settings.branch,
      requestId: settings.requestId,
      telemetry: settings.telemetry,
      span: settings.span,
      listening: listener !== undefined,
      traced: traces(settings.telemetry),
      // A throwing listener must not fail the run (agent listeners are guarded the same way): the run goes on and its
      // outcome lists the failures.
      emit: listener
        ? (event) => {
            try {
              listener(event);
            } catch (error) {
              (this.listenerErrors ??= new ListenerErrors()).add(error, event);
            }
          }
        : () => {},
    };
    if (settings.checkpointer) {
      const runId = settings.runId ?? settings.invocationId;
      this.checkpoints = new RunCheckpoints(settings.checkpointer, runId, settings.signal, settings.lease, parts.fingerprint, parts.schema.executionErrorKeys, settings.owner);
      this.questions = new RunQuestions(runId);
      this.scope.checkpoint = { checkpointer: settings.checkpointer, runId, resuming: false, questions: this.questions };
    }
  }

  /** Runs the graph anew on `input`, or continues from the run's checkpoint (see {@link StartMode}). */
  async start(input: State, mode: StartMode): Promise<GraphOutcome> {
    const checkpoints = this.checkpoints;
    if (!checkpoints) return this.execute(input);
    try {
      const outcome = await this.startCheckpointed(checkpoints, input, mode);
      return this.replayed ? { ...outcome, replay: true } : outcome;
    } finally {
      await checkpoints.end(this.scope.signal?.aborted === true);
    }
  }

  /**
   * A checkpointed run: the checkpoint read first — a fresh run claims it with its first write; a resume's decisions
   * are judged (`resume-plan.ts`: a refusal rejects, nothing written), then it claims the checkpoint before it runs a
   * node (a claim that loses a race reads it again, up to three times); a completed one is replayed.
   */
  private async startCheckpointed(checkpoints: RunCheckpoints, input: State, mode: StartMode): Promise<GraphOutcome> {
    for (let tries = 1; ; tries++) {
      let stored: unknown;
      let loaded: LoadedCheckpoint | undefined;
      try {
        stored = await checkpoints.read();
        if (checkpoints.isOthers(stored)) return this.fail({}, [], 0, mode === 'resume' ? checkpointNotFound(checkpoints.runId) : checkpoints.idTaken(), 0);
        if (mode !== 'run' && stored !== undefined && stored !== null) loaded = checkpoints.decode(stored, this.parts);
      } catch (error) {
        return this.stopped(error, {}, 0, 0);
      }
      if (!loaded) {
        if (mode === 'resume') return this.fail({}, [], 0, checkpointNotFound(checkpoints.runId), 0);
        const refusal = checkpoints.admit(stored, 'run');
        return refusal ? this.fail({}, [], 0, refusal, 0) : this.execute(input);
      }
      const plan = await judgeResume(this.scope, checkpoints, loaded, this.settings.decisions);
      this.replayed = plan.kind === 'replay';
      if (loaded.status === 'completed') {
        emitSnapshot(this.scope, loaded.state, loaded.step);
        return { status: 'completed', state: loaded.state, steps: loaded.step, ...this.listenerReport() };
      }
      if (loaded.status === 'interrupted' && plan.kind === 'replay') return { status: 'interrupted', interrupts: loaded.interrupts, state: loaded.state, steps: loaded.step, ...this.listenerReport() };
      // A typed state is checked as a fresh run's is: a checkpoint from before a schema change fails here, not later.
      const checked = await this.startState(loaded.state, loaded.step, `the state of run ${preview(checkpoints.runId, 200)}'s checkpoint`);
      if ('outcome' in checked) return checked.outcome;
      const refusal = checkpoints.admit(stored, 'resume');
      if (refusal) return this.fail({}, [], 0, refusal, 0);
      let claimed: boolean;
      try {
        claimed = await checkpoints.claim(plan.kind === 'answer' ? plan.claim : loaded.checkpoint);
      } catch (error) {
        return this.stopped(error, loaded.state, loaded.step, 0);
      }
      if (claimed && plan.kind === 'answer') emitResume(this.scope, loaded.step, { decided: plan.decided, expired: plan.expired });
      if (claimed) return this.loop(checked.state, loaded.pending, loaded.step, loaded);
      if (tries === 3) return this.fail({}, [], 0, checkpoints.lease.conflict('resume'), 0);
    }
  }

  private async execute(input: State): Promise<GraphOutcome> {
    let state: State;
    try {
      state = this.parts.schema.initialState(input);
    } catch (error) {
      return this.fail({}, [], 0, new WorkflowError(`the run's input could not be reduced into the state: ${messageOf(error)}`, { stepNumber: 0, cause: error }), 0);
    }
    const checked = await this.startState(state, 0, undefined, this.settings.stateHint);
    if ('outcome' in checked) return checked.outcome;
    state = checked.state;
    const pending = [...this.parts.entries];
    if (this.checkpoints) {
      try {
        await this.checkpoints.save('running', 0, state, pending);
      } catch (error) {
        return this.stopped(error, state, 0, 0);
      }
    }
    return this.loop(state, pending, 0);
  }

  /**
   * Steps from `first` on; `resumed` (a resume) marks the first step as re-run: its nodes that already ran, and the
   * records of those that failed in it before.
   */
  private async loop(initial: State, due: readonly string[], first: number, resumed?: Pick<LoadedCheckpoint, 'replayed' | 'priors' | 'answers'>): Promise<GraphOutcome> {
    const { stepLimit } = this.parts;
    const questions = this.questions;
    let state = initial;
    let pending = due;
    let step = first;
    let replay = resumed?.replayed;
    let priors = resumed?.priors;
    let answers = resumed?.answers;
    try {
      for (; pending.length > 0; step++) {
        this.scope.signal?.throwIfAborted();
        if (step >= stepLimit) {
          return this.fail(state, [], step, new WorkflowError(`The graph did not finish within the step limit of ${stepLimit}; still pending: ${nameIds(pending)}`, { code: 'STEP_LIMIT', stepNumber: step }), step);
        }
        const snapshot = state;
        if (this.scope.checkpoint) this.scope.checkpoint.resuming = replay !== undefined; // children of a re-run step resume
        questions?.beginStep(answers);
        answers = undefined;
        const running = runStepNodes(this.scope, pending, snapshot, step, replay);
        replay = undefined;
        // A step that ran synchronously still yields once, as an awaited node would: other work (an abort among it)
        // gets its turn between steps.
        let outcomes = await running;
        if (questions?.asked !== undefined) outcomes = questions.mark(outcomes);
        const reducing = reduceStep(this.scope, snapshot, outcomes, step, priors);
        priors = undefined;
        const reduced = reducing instanceof Promise ? await reducing : reducing;
        state = reduced.state;
        const failures = failuresOf(reduced.settled);
        if (failures !== undefined) return await this.failStep(snapshot, pending, reduced.settled, failures, state, step);
        if (questions?.asked !== undefined) return await this.interruptStep(snapshot, pending, reduced.settled, step);
        try {
          const routing = route(this.scope, reduced.settled, state, step);
          pending = routing instanceof Promise ? await untilRunAborted(this.scope, routing) : routing; // an async router ends at the run's abort
        } catch (error) {
          if (this.scope.signal?.aborted) throw error;
          return await this.failStep(snapshot, pending, reduced.settled, [], state, step, error as WorkflowError);
        }
        if (this.checkpoints && pending.length > 0) await this.checkpoints.save('running', step + 1, state, pending);
      }
    } catch (error) {
      return this.stopped(error, state, step);
    }
    if (this.checkpoints) {
      try {
        await this.checkpoints.save('completed', step, state, []);
      } catch (error) {
        return this.stopped(error, state, step, step);
      }
    }
    emitSnapshot(this.scope, state, step);
    return { status: 'completed', state, steps: step, ...this.listenerReport() };
  }

  /** An abort (its reason, the state so far) or a run failure (a `WorkflowError`, the fatal path). */
  /**
   * The state a run starts from, checked by a typed state's schema — its async `validate` ends at the run's abort, as
   * a node's code does — or the run's outcome when the check fails or the run aborts during it.
   */
  private async startState(state: State, step: number, subject?: string, hint?: string): Promise<{ state: State } | { outcome: GraphOutcome }> {
    const { validator } = this.parts.schema;
    if (!validator) return { state };
    try {
      const checked = await untilRunAborted(this.scope, checkInitialState(validator, state, subject, step, hint));
      return checked.ok ? { state: checked.state } : { outcome: this.fail(state, [], step, checked.error, 0) };
    } catch (error) {
      return { outcome: this.stopped(error, state, step, 0) }; // only the run's abort rejects here
    }
  }

  private stopped(error: unknown, state: State, step: number, stepsRun = step + 1): GraphOutcome {
    if (this.scope.signal?.aborted) return { status: 'aborted', reason: this.scope.signal.reason, state, steps: step, ...this.listenerReport() };
    return this.fail(state, [], step, error instanceof WorkflowError ? error : new WorkflowError(`the run failed at step ${step}: ${messageOf(error)}`, { stepNumber: step, cause: error }), stepsRun);
  }

  /**
   * A failed step: with a checkpointer, its `failed` checkpoint first — the step's input state, the nodes that
   * succeeded (a resume runs only the failed ones) and the failed ones' records — then the fatal path.
   */
  private async failStep(snapshot: State, pending: readonly string[], settled: readonly SettledNode[], failures: readonly FailedNode[], state: State, step: number, runError?: WorkflowError): Promise<GraphOutcome> {
    let checkpointError: unknown;
    if (this.checkpoints) {
      try {
        await this.checkpoints.save('failed', step, snapshot, pending, settled, { answers: this.questions?.kept(pending, (index) => settled[index]?.outcome.ok === true) });
      } catch (error) {
        if (this.scope.signal?.aborted) return this.stopped(error, state, step);
        checkpointError = error;
      }
    }
    return this.fail(state, failures, step, runError, step + 1, checkpointError);
  }

  /**
   * A step whose nodes stopped to ask: its `interrupted` checkpoint — the step's input state, the nodes that finished
   * (not run again), the questions and the answers the asking nodes had — then the outcome. Not a failure.
   */
  private async interruptStep(snapshot: State, pending: readonly string[], settled: readonly SettledNode[], step: number): Promise<GraphOutcome> {
    const questions = this.questions as RunQuestions;
    const interrupts = questions.pending(pending);
    try {
      const answers = questions.kept(pending, (index) => settled[index]?.outcome.ok === true);
      await (this.checkpoints as RunCheckpoints).save('interrupted', step, snapshot, pending, settled, { interrupts, answers });
    } catch (error) {
      return this.stopped(error, snapshot, step);
    }
    emitInterrupt(this.scope, interrupts, step);
    return { status: 'interrupted', interrupts, state: snapshot, steps: step, ...this.listenerReport() };
  }

  /**
   * The fatal path: fallback state (everything reduced so far + the failing nodes' fallback updates), then the error
   * (`CHECKPOINT_FAILED` when the failed step's checkpoint could not be saved either).
   */
  private fail(state: State, failures: readonly FailedNode[], step: number, runError?: WorkflowError, stepsRun = step + 1, checkpointError?: unknown): GraphOutcome {
    const fallbackState: State = { ...state };
    for (const failure of failures) for (const update of failure.fallbackUpdates) reduceFallback(this.scope, fallbackState, update);
    const error = runFailure(step, failures, runError, fallbackState, checkpointError);
    emitFailedRun(this.scope, fallbackState, error, step);
    return { status: 'failed', error, fallbackState, steps: stepsRun, ...this.listenerReport() };
  }

  /** The listener failures of the run, when there were any. */
  private listenerReport(): { listenerErrors?: readonly AgentError[] } {
    return this.listenerErrors === undefined ? {} : { listenerErrors: this.listenerErrors.report() };
  }
}
