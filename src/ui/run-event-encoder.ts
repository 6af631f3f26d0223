/**
 * @internal A Runner run's events (an LLM agent's, a graph's, an A2A agent's) as UI message stream chunks: streamed
 * text and reasoning; a complete assistant message's tool calls as tool parts (its text too when it was not
 * streamed); each `tool.response` as the call's output (a failed result also as a typed `data-faultline-error`); a
 * graph's execution-error records as kept `data-faultline-record` parts (each once, however many state deltas repeat
 * it); the `runner.completion` as a kept `data-faultline-completion`, then the ending: `finish`, the failure ending,
 * or `abort` for a cancelled run. A completion with pending interrupts (the run stopped to ask) is not a failure: its
 * approvals as `tool-approval-request`, its questions as `data-faultline-interrupt`, the completion `interrupted`,
 * then `finish`.
 */
import type { ResponseError } from '../errors/response-error.js';
import { StreamError } from '../errors/stream-error.js';
import { executionErrorsFromStateDelta } from '../graph/records/execution-error.js';
import { messageOf } from '../internal/error-chain.js';
import { isPlainObject, truncate, tryStringify } from '../internal/json.js';
import { completionState } from '../runner/completion-state.js';
import { ObjectType } from '../runner/constants.js';
import { isRunnerCompletion, isTerminalError, type RunEvent } from '../runner/event.js';
import type { ChunkWriter } from './chunk-writer.js';
import type { FaultlineCompletionData } from './data-parts.js';
import { writeInterrupts } from './interrupt-parts.js';
import type { RunEncoder } from './stream-pump.js';

/** The most records a stream writes as parts (a graph that records without end still gets a bounded stream). */
const MAX_RECORDS = 1_000;
/** The most distinct codes a completion lists. */
const MAX_CODES = 50;

export class RunEventEncoder implements RunEncoder {
  private steps = 0;
  /** A tool output was written in this step: the next model output opens a new step. */
  private answered = false;
  /** Event origins (invocation and author) that streamed text since their last complete assistant message. */
  private readonly streamed = new Set<string>();
  private readonly toolNames = new Map<string, string>();
  private readonly records = new Set<string>();
  private readonly counts = { recoverable: 0, fatal: 0 };
  private readonly codes = new Set<string>();
  /** The terminal failure of each invocation (the run's is its root's, named by the completion). */
  private readonly failures = new Map<string, ResponseError>();
  private finished = false;

  constructor(private readonly out: ChunkWriter) {}

  item(value: unknown): void {
    const event = value as RunEvent;
    this.recordsOf(event);
    const response = event.response;
    if (!response) return;
    if (isRunnerCompletion(event)) {
      this.complete(event, response.error ?? this.failures.get(event.invocationId));
      return;
    }
    const origin = `${event.invocationId}\n${event.author}`;
    if (response.error) {
      if (isTerminalError(event)) this.failures.set(event.invocationId, response.error);
      else if (response.object !== ObjectType.GraphNodeError && response.object !== ObjectType.GraphPregelStep) {
        this.out.errorPart(this.out.errors.fromResponseError(response.error, response.error.type === 'api_error' || response.error.type === 'stream_error' ? 'model' : 'run'));
      }
      return;
    }
    const choice = response.choices?.[0];
    if (response.object === ObjectType.ChatCompletionChunk) {
      const delta = choice?.delta;
      if (typeof delta?.reasoning === 'string' && delta.reasoning !== '') this.model().reasoningDelta(this.steps, delta.reasoning);
      if (typeof delta?.content === 'string' && delta.content !== '') {
        this.model().textDelta(this.steps, delta.content);
        this.streamed.add(origin);
      }
    } else if (response.object === ObjectType.ChatCompletion && choice?.message?.role === 'assistant') {
      const { content, toolCalls } = choice.message;
      if (!this.streamed.delete(origin) && typeof content === 'string' && content !== '') this.model().textDelta(this.steps, content);
      for (const call of toolCalls ?? []) {
        this.toolNames.set(call.id, call.name);
        this.model().toolInput(call.id, call.name, call.arguments);
      }
      if (response.done) this.finished = true;
    } else if (response.object === ObjectType.ToolResponse && choice?.message?.role === 'tool') {
      this.toolResponse(choice.message.toolCallId ?? '', choice.message.content);
    } else if (response.object === ObjectType.GraphExecution && response.done) this.finished = true;
  }

  /** A run stream without its completion (a graph agent's events read directly): its last word decides. */
  end(): void {
    if (this.out.ended) return;
    const failure = [...this.failures.values()].at(-1);
    if (failure || !this.finished) {
      this.out.fail(failure ? this.out.errors.fromResponseError(failure, 'run') : this.out.errors.fromError(new StreamError('The run stream ended without its runner.completion', { reason: 'incomplete' }), { scope: 'run' }));
    } else this.out.finish('stop');
  }

  /** The step of model output: a new one after tool outputs. */
  private model(): ChunkWriter {
    if (this.answered || this.steps === 0) {
      this.out.endStep();
      this.answered = false;
      this.steps++;
    }
    this.out.step();
    return this.out;
  }

  private toolResponse(toolCallId: string, content: string): void {
    const toolName = this.toolNames.get(toolCallId) ?? 'tool';
    if (this.steps === 0) this.model();
    this.answered = true;
    let result: unknown = content;
    try {
      result = JSON.parse(content);
    } catch {
      // a tool message that is not JSON is shown as its text
    }
    if (isPlainObject(result) && result.ok === false) {
      this.out.toolError(toolCallId, toolName, this.out.errors.fromEnvelope(result.error, { scope: 'tool', toolCallId, toolName }), content);
    } else this.out.toolOutput(toolCallId, toolName, result, content);
  }

  /** New execution-error records in the event's state delta, each written once. */
  private recordsOf(event: RunEvent): void {
    const delta = event.stateDelta;
    if (!delta || !Object.prototype.hasOwnProperty.call(delta, 'execution_errors')) return;
    let records;
    try {
      records = executionErrorsFromStateDelta(delta) ?? [];
    } catch (error) {
      this.out.errorPart(this.out.errors.fromError(error, { scope: 'run' }));
      return;
    }
    for (const record of records) {
      const key = tryStringify(record) ?? '';
      if (this.records.has(key) || this.records.size >= MAX_RECORDS) continue;
      this.records.add(key);
      this.counts[record.severity]++;
      if (record.error.code !== undefined && this.codes.size < MAX_CODES) this.codes.add(record.error.code);
      const { error, ...where } = record;
      this.out.data('faultline-record', { ...this.out.errors.fromResponseError(error, 'record'), ...where }, `record-${this.records.size}`);
    }
  }

  private complete(event: RunEvent, failure: ResponseError | undefined): void {
    this.out.endStep();
    const data: FaultlineCompletionData = { status: failure ? (failure.type === 'cancelled' ? 'cancelled' : 'failed') : 'completed', records: { ...this.counts }, codes: [] };
    if (failure?.code !== undefined && this.codes.size < MAX_CODES) this.codes.add(failure.code);
    data.codes = [...this.codes];
    const error = failure ? this.out.errors.fromResponseError(failure, 'run') : undefined;
    if (error) data.error = error;
    const limit = this.out.options.completionState;
    if (limit > 0) {
      const state = completionState(event) ?? {};
      const size = tryStringify(state)?.length ?? Infinity;
      if (size <= limit) data.state = state;
    }
    const pending = !failure && Array.isArray(event.response?.interrupts) && event.response.interrupts.length > 0;
    let runId: string | undefined;
    if (pending) {
      const written = writeInterrupts(this.out, event.response?.interrupts);
      runId = written.runId;
      data.status = 'interrupted';
      data.interrupts = written.interrupts;
      data.interruptCount = written.count;
    }
    this.out.data('faultline-completion', data, 'completion');
    if (pending) this.out.finish('interrupted', { ...(runId !== undefined ? { runId } : {}), interrupts: data.interruptCount });
    else if (data.status === 'cancelled') this.out.abort(truncate(messageOf((failure as ResponseError).message), 200));
    else if (error) this.out.fail(error);
    else this.out.finish('stop');
  }
}
