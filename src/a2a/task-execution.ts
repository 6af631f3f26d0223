/**
 * One A2A task run through the runner (seed-systems §4): a `submitted` Task first; streamed text as artifact updates; a
 * structured terminal error as ONE final failed (or canceled) status update; a normal end as a final `lastChunk`
 * artifact update then `completed`; a run that stopped to ask ends `input-required` (final), naming what it waits on.
 * Graph-internal error events are not forwarded. A resume (a follow-up with decisions) changes nothing until the agent
 * accepts it. Every status transition and chunk goes to the task's journal first and is published once written.
 */
import { ErrorType } from '../errors/constants.js';
import type { ResponseError } from '../errors/response-error.js';
import { isoTimestamp } from '../internal/clock.js';
import { isAbortError, messageOf } from '../internal/error-chain.js';
import { cloneJSONLike, truncate } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import { encodeJSON } from '../wire/safe-json.js';
import { createId } from '../internal/ids.js';
import { ObjectType } from '../runner/constants.js';
import { createErrorEvent, isRunnerCompletion, isTerminalError, type RunEvent } from '../runner/event.js';
import { withoutMetadata } from '../runner/state-delta.js';
import { ErrorMetadataKey, GENERIC_FAILURE_TEXT, TASK_FAILED_INTERNALLY, TaskState, TERMINAL_STATES } from './constants.js';
import { partsText } from './event-converter.js';
import { buildTaskErrorMessage, buildTaskErrorMetadata, encodeStateDeltaMetadata, errorMetadata, failureState } from './server-payloads.js';
import { agentMessage, artifactUpdate, CANCELED_TEXT, completedMetadata, scrubEvent } from './task-run-events.js';
import type { A2AMessage, A2AMetadata, A2AStreamEvent, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from './types.js';
import type { TaskExecutionOptions } from './task-execution-options.js';
import { interruptMetadata, interruptText, withoutQuestions } from './task-interrupts.js';
import { startTimer } from '../internal/delay.js';

/** @internal Streams one running task serves at once (its own and `tasks/resubscribe`s); past it a resubscription is refused. */
export const MAX_STREAMS_PER_TASK = 100;

export type { TaskExecutionOptions } from './task-execution-options.js';

export class TaskExecution {
  task: Task;
  /** The unary answer once done: the task, or a plain message when structured errors are off and the run failed. */
  result: Task | A2AMessage;
  readonly invocationId: string;
  readonly controller = new AbortController();
  readonly done: Promise<void>;
  private readonly listeners = new Set<(event: A2AStreamEvent) => void>();
  private readonly history: A2AMessage[];
  private readonly message: A2AMessage;
  /** A cancel was asked for (the task ends, or ended, `canceled`). */
  cancelRequested = false;
  private requestCancel: () => void = () => {};
  private readonly artifactId: string;
  private streamedText = '';
  private finalText = '';
  private responseId: string | undefined;
  /** A resume not yet accepted or refused by the agent: nothing is written or published until it is. */
  private deciding: boolean;
  private decide: (refusal: ResponseError | undefined) => void = () => {};
  /** Resolves once the run is under way (undefined) or its resume was refused (the refusal; the task is unchanged). */
  readonly accepted: Promise<ResponseError | undefined>;

  /**
   * A new task for `message`, or — with `resumed` — the continuation of a stored, still running task whose run ended
   * with its process (its run is started again with the same invocation id; a checkpointed graph resumes from there).
   */
  constructor(message: A2AMessage, private readonly options: TaskExecutionOptions, resumed?: Task) {
    this.invocationId = options.resume?.runId ?? options.invocationId ?? createId('invocation');
    this.deciding = options.resume !== undefined && options.accepted !== true;
    this.accepted = new Promise((resolve) => (this.decide = resolve));
    if (!this.deciding) this.decide(undefined);
    if (resumed) {
      this.task = cloneJSONLike(resumed);
      this.history = [...(this.task.history ?? [])];
      this.message = options.resume ? { ...message, taskId: this.task.id, contextId: this.task.contextId } : message;
      const artifact = this.task.artifacts?.[0];
      this.artifactId = artifact?.artifactId ?? createId('artifact');
      this.streamedText = partsText(artifact?.parts ?? []);
    } else {
      const contextId = message.contextId ?? createId('ctx');
      const taskId = options.taskId ?? createId('task');
      this.message = { ...message, taskId, contextId };
      this.history = [this.message];
      this.artifactId = createId('artifact');
      this.task = { kind: 'task', id: taskId, contextId, status: { state: TaskState.Submitted, timestamp: isoTimestamp() }, history: [this.message] };
    }
    this.result = this.task;
    void new Promise<void>((resolve) => (this.requestCancel = resolve)).then(() => this.controller.abort(new DOMException('The task was canceled by request', 'AbortError')));
    this.done = this.run(resumed !== undefined);
  }

  /**
   * Receives every A2A event from now on; returns the function that stops it, or `undefined` when the task already has
   * {@link MAX_STREAMS_PER_TASK} streams (the handler then refuses the resubscription).
   */
  subscribe(listener: (event: A2AStreamEvent) => void): (() => void) | undefined {
    if (this.listeners.size >= MAX_STREAMS_PER_TASK) return undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get terminal(): boolean {
    return TERMINAL_STATES.has(this.task.status.state);
  }

  /**
   * Stops the run; the task ends `canceled`. The abort itself happens in the run's own request context (a promise
   * continuation registered there): Cloudflare Workers forbid aborting another request's signal.
   */
  cancel(): void {
    if (this.terminal || this.cancelRequested) return;
    this.cancelRequested = true;
    this.requestCancel();
  }

  private publish(event: A2AStreamEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener); // a broken subscriber must not stop the task
      }
    }
  }

  private saveStatus(): Promise<void> {
    return this.write(() => this.options.journal.status(this.task));
  }

  private saveChunk(update: TaskArtifactUpdateEvent): Promise<void> {
    return this.write(() => this.options.journal.chunk(this.task, update));
  }

  /**
   * One journal write. A journal that throws (synchronously or not) or does not answer within `journalTimeoutMs`
   * never stops the task: what it sends next still goes out, the final event included, so every stream closes.
   */
  private async write(call: () => Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const given = new Promise<void>((resolve) => (timer = startTimer(resolve, this.options.journalTimeoutMs ?? 10_000)));
    await Promise.race([Promise.resolve().then(call).catch(() => {}), given]);
    clearTimeout(timer);
  }

  /**
   * The whole task, with one rule: it always ends in a terminal state that is saved and published (its final event
   * closes every stream). Anything that throws outside the runner's own error path — a message that cannot be read, a
   * clone or an encoding that fails — ends the task `failed` with `run_error` metadata naming the problem.
   */
  private async run(resumed: boolean): Promise<void> {
    try {
      await this.execute(resumed);
    } catch (error) {
      this.decide(undefined);
      if (this.terminal) return;
      const failure: ResponseError = { type: ErrorType.RunError, code: TASK_FAILED_INTERNALLY, message: `The task could not be run: ${truncate(redactText(messageOf(error), this.options.secrets), 500)}` };
      await this.finishFailed(createErrorEvent({ invocationId: this.task.id, author: 'a2a-handler' }, failure), undefined).catch(() => this.finishBare(failure));
    }
  }

  /** The last resort: a failed status with the message alone, published even if saving fails. */
  private finishBare(error: ResponseError): void {
    this.task.status = { state: TaskState.Failed, timestamp: isoTimestamp(), message: agentMessage(this.task, error.message) };
    this.publish({ kind: 'status-update', taskId: this.task.id, contextId: this.task.contextId, status: this.task.status, final: true, metadata: errorMetadata(error) });
  }

  private async execute(resumed: boolean): Promise<void> {
    if (!resumed) {
      await this.saveStatus();
      this.publish(cloneJSONLike(this.task));
      this.task.status = { state: TaskState.Working, timestamp: isoTimestamp() };
      await this.saveStatus();
    }
    let failure: { event: RunEvent; error: ResponseError } | undefined;
    let unstructuredError: ResponseError | undefined;
    let completion: RunEvent | undefined;
    try {
      const text = partsText(this.message.parts) || this.message.parts.filter((part) => part.kind === 'data').map((part) => encodeJSON(part.data, 'data part of the message')).join('\n');
      const invocationId = this.invocationId;
      const { resume, userId, traceparent } = this.options;
      const base = { userId, sessionId: this.task.contextId, signal: this.controller.signal, invocationId, traceparent };
      for await (const raw of this.options.runner.run(resume ? { ...base, resume } : { ...base, message: text })) {
        const event = scrubEvent(raw, this.options.secrets);
        if (this.cancelRequested || event.invocationId !== invocationId) continue; // child agents' events are their parent's business
        if (this.deciding) {
          const refusal = isTerminalError(event) ? event.response?.error : undefined;
          if (refusal?.type === 'resume') return this.decide(refusal); // refused: the task stays as it was
          if (event.response?.object !== 'graph.resume') await this.accept();
        }
        if (isRunnerCompletion(event)) completion = event;
        const response = event.response;
        if (!response) continue;
        if (isTerminalError(event) && response.error && !failure && !unstructuredError) {
          if (response.error.type === ErrorType.Cancelled && this.controller.signal.aborted) continue;
          if (this.options.structured) failure = { event, error: response.error };
          else unstructuredError = response.error;
          continue;
        }
        if (failure) continue; // nothing follows a structured terminal error
        await this.forward(event);
      }
    } catch (error) {
      if (!this.cancelRequested && !isAbortError(error)) {
        const internal: ResponseError = { type: ErrorType.RunError, message: `The agent failed: ${truncate(redactText(messageOf(error), this.options.secrets), 500)}` };
        failure ??= { event: createErrorEvent({ invocationId: this.task.id, author: 'a2a-handler' }, internal), error: internal };
      }
    }
    await this.accept();
    const waiting = this.cancelRequested || failure ? undefined : interruptMetadata(completion?.response?.interrupts, this.invocationId, this.options.secrets);
    if (this.cancelRequested) await this.finishCanceled();
    else if (failure) await this.finishFailed(failure.event, completion);
    else if (waiting) await this.finishInputRequired(waiting);
    else await this.finishCompleted(completion, unstructuredError);
  }

  /** The resume was accepted: the follow-up message joins the history, the task works again (its questions answered). */
  private async accept(): Promise<void> {
    if (!this.deciding) return;
    this.deciding = false;
    this.history.push(this.message);
    this.task.history = [...this.history];
    if (this.task.metadata) this.task.metadata = withoutQuestions(this.task.metadata);
    this.task.status = { state: TaskState.Working, timestamp: isoTimestamp() };
    await this.saveStatus();
    this.publish({ kind: 'status-update', taskId: this.task.id, contextId: this.task.contextId, status: cloneJSONLike(this.task.status), final: false });
    this.decide(undefined);
  }

  /** The run stopped to ask: `input-required`, final, the status message naming what it waits on. */
  private async finishInputRequired(metadata: A2AMetadata): Promise<void> {
    const message = agentMessage(this.task, interruptText(metadata), metadata);
    await this.finish({ state: TaskState.InputRequired, message, timestamp: isoTimestamp() }, metadata, message);
  }

  /**
   * Streamed text → artifact updates (the task's artifact grows with them, so `tasks/get` and a resubscription see
   * what was streamed); recoverable structured errors → non-final status updates (the task's status too).
   */
  private async forward(event: RunEvent): Promise<void> {
    const response = event.response;
    if (!response) return;
    if (response.partial && response.object === ObjectType.ChatCompletionChunk) {
      const text = response.choices?.[0]?.delta?.content ?? '';
      if (text === '') return;
      const update = artifactUpdate(this.task, this.artifactId, [{ kind: 'text', text }], this.streamedText !== '', false);
      this.streamedText += text;
      this.task.artifacts = [{ artifactId: this.artifactId, name: 'response', parts: [{ kind: 'text', text: this.streamedText }] }];
      await this.saveChunk(update);
      this.publish(update);
      return;
    }
    const message = response.choices?.[0]?.message;
    if (response.done && !response.error && message?.role === 'assistant' && response.object === ObjectType.ChatCompletion) {
      this.finalText = message.content;
      if (response.id) this.responseId = response.id;
      return;
    }
    if (response.error && response.object === ObjectType.ChatCompletion && this.options.structured) {
      const metadata = { ...errorMetadata(response.error), [ErrorMetadataKey.TaskState]: TaskState.Working };
      const status = { state: TaskState.Working, timestamp: isoTimestamp(), message: agentMessage(this.task, message?.content || response.error.message, metadata) };
      this.task.status = status;
      await this.saveStatus();
      this.publish({ kind: 'status-update', taskId: this.task.id, contextId: this.task.contextId, status: cloneJSONLike(status), final: false, metadata });
    }
  }

  private async finish(status: Task['status'], metadata: A2AMetadata | undefined, extraHistory: A2AMessage | undefined): Promise<void> {
    this.task.status = status;
    if (metadata) this.task.metadata = metadata;
    if (extraHistory) this.history.push(extraHistory);
    this.task.history = [...this.history];
    const update: TaskStatusUpdateEvent = { kind: 'status-update', taskId: this.task.id, contextId: this.task.contextId, status, final: true };
    if (metadata) update.metadata = metadata;
    await this.saveStatus();
    this.publish(update);
  }

  private async finishFailed(event: RunEvent, completion: RunEvent | undefined): Promise<void> {
    const metadata = buildTaskErrorMetadata(event) as A2AMetadata;
    const message = buildTaskErrorMessage(event, this.task.id, this.task.contextId, metadata);
    // Our addition: the fallback state (with its execution-error records) travels in the outer metadata only, so a
    // remote failure can reach a parent's collector like a local one.
    const stateDelta = encodeStateDeltaMetadata(withoutMetadata(event.stateDelta ?? completion?.stateDelta));
    if (stateDelta) metadata[ErrorMetadataKey.StateDelta] = stateDelta;
    await this.finish({ state: failureState(event.response?.error as ResponseError), message, timestamp: isoTimestamp() }, metadata, message);
  }

  private async finishCanceled(): Promise<void> {
    const message = agentMessage(this.task, CANCELED_TEXT);
    await this.finish({ state: TaskState.Canceled, message, timestamp: isoTimestamp() }, undefined, message);
  }

  private async finishCompleted(completion: RunEvent | undefined, unstructuredError: ResponseError | undefined): Promise<void> {
    const text = this.finalText || this.streamedText || (completion?.response?.choices?.[0]?.message?.content ?? '');
    const metadata = completedMetadata(completion, this.responseId, unstructuredError);
    const finalParts = this.streamedText === '' && text !== '' ? [{ kind: 'text' as const, text }] : [];
    const last = artifactUpdate(this.task, this.artifactId, finalParts, this.streamedText !== '', true, metadata);
    this.task.artifacts = [{ artifactId: this.artifactId, name: 'response', parts: text === '' ? [] : [{ kind: 'text', text }], ...(Object.keys(metadata).length > 0 ? { metadata } : {}) }];
    await this.saveChunk(last);
    this.publish(last);
    const answer = agentMessage(this.task, unstructuredError ? GENERIC_FAILURE_TEXT : text);
    await this.finish({ state: TaskState.Completed, message: answer, timestamp: isoTimestamp() }, undefined, answer);
    if (unstructuredError) this.result = agentMessage(this.task, GENERIC_FAILURE_TEXT);
  }
}
