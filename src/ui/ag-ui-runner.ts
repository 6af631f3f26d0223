/**
 * @internal A runner or graph run's events as AG-UI events: streamed chunks as text and reasoning messages, an
 * assistant message's tool calls as `TOOL_CALL_*`, each `tool.response` as `TOOL_CALL_RESULT` (a failed one with its
 * `faultline.error`), each graph node as a step (`STEP_STARTED/FINISHED` named by the node id), each execution-error
 * record as a `faultline.record` custom event (once, however many state deltas repeat it), the `runner.completion` as
 * `faultline.completion` (its status and error codes, no state values); then `RUN_FINISHED`, `RUN_FINISHED` with the
 * outcome `cancelled`, or the failure's `faultline.error` and the one `RUN_ERROR` (code: its `ResponseError` type). A
 * completion with pending interrupts (status `interrupted`) ends with a `faultline.interrupt` event per question and
 * `RUN_FINISHED` whose outcome is `interrupt`.
 */
import type { ResponseError } from '../errors/response-error.js';
import { executionErrorsFromStateDelta, type ExecutionError } from '../graph/records/execution-error.js';
import { isPlainObject } from '../internal/json.js';
import { ErrorType } from '../errors/constants.js';
import { ObjectType } from '../runner/constants.js';
import { isTerminalError, type RunEvent } from '../runner/event.js';
import { envelopeOf } from './ui-tool-answers.js';
import { responseErrorValue, thrownErrorValue, toolErrorValue } from './ag-ui-error-value.js';
import type { AGUIWriter } from './ag-ui-writer.js';

/** The error envelope of a tool message's content when it is a failed `ToolResultJSON`. */
function failedEnvelope(content: string) {
  if (!content.startsWith('{"ok":false')) return undefined;
  try {
    const parsed: unknown = JSON.parse(content);
    return isPlainObject(parsed) ? envelopeOf(parsed.error) : undefined;
  } catch {
    return undefined;
  }
}

/** @internal Writes the events of runner run events. */
export class RunnerAGUIMapper {
  private failure: ResponseError | undefined;
  /** What the completion says the run waits on (it stopped to ask). */
  private interrupts: unknown[] | undefined;
  private readonly records = new Set<string>();
  private readonly codes: string[] = [];
  private readonly toolNames = new Map<string, string>();
  private streamed = false;

  constructor(
    private readonly writer: AGUIWriter,
    private readonly stopped: () => boolean,
    private readonly recordsKey: string,
  ) {}

  map(event: RunEvent): void {
    const writer = this.writer;
    this.readRecords(event);
    const response = event.response;
    if (!response) return;
    const message = response.choices?.[0]?.message;
    switch (response.object) {
      case ObjectType.ChatCompletionChunk: {
        const delta = response.choices?.[0]?.delta;
        if (typeof delta?.reasoning === 'string') writer.reasoningDelta(delta.reasoning, 'm');
        if (typeof delta?.content === 'string') writer.textDelta(delta.content, 'm');
        this.streamed ||= Boolean(delta?.content);
        break;
      }
      case ObjectType.ChatCompletion:
        if (response.error && !isTerminalError(event)) writer.error(responseErrorValue(response.error, 'run'));
        for (const call of message?.toolCalls ?? []) {
          this.toolNames.set(call.id, call.name);
          writer.toolCall(call.id, call.name, call.arguments);
        }
        // a complete answer nobody streamed (a remote agent's) is its own message; a streamed one was sent already
        if (response.done && !this.streamed && message?.role === 'assistant' && message.content !== '' && !message.toolCalls?.length) writer.textDelta(message.content, 'm');
        if (response.done || message?.toolCalls?.length) this.streamed = false;
        break;
      case ObjectType.ToolResponse:
        if (message?.toolCallId !== undefined && typeof message.content === 'string') {
          writer.toolResult(message.toolCallId, message.content);
          const error = failedEnvelope(message.content);
          if (error) writer.error(toolErrorValue({ callId: message.toolCallId, toolName: this.toolNames.get(message.toolCallId) ?? '', error }));
        }
        break;
      case ObjectType.GraphNodeStart:
        writer.stepStarted(event.author);
        break;
      case ObjectType.GraphNodeComplete:
        writer.stepFinished(event.author);
        break;
      case ObjectType.RunnerCompletion:
        this.failure ??= response.error;
        if (Array.isArray(response.interrupts) && response.interrupts.length > 0) this.interrupts = response.interrupts;
        writer.custom('faultline.completion', this.completion());
        this.end();
        return;
      default:
        break;
    }
    if (isTerminalError(event)) this.failure ??= response.error;
  }

  /** The completion as a UI sees it: how the run ended and the codes of what failed (each once) — never state values. */
  private completion(): Record<string, unknown> {
    const failure = this.failure;
    const status = failure === undefined ? (this.interrupts && !this.stopped() ? 'interrupted' : 'completed') : failure.type === ErrorType.Cancelled || this.stopped() ? 'cancelled' : 'failed';
    const completion: Record<string, unknown> = { status, errorCodes: [...new Set(failure?.code ? [...this.codes, failure.code] : this.codes)] };
    if (failure) completion.error = { type: failure.type, message: failure.message, ...(failure.code ? { code: failure.code } : {}) };
    return completion;
  }

  /** Every record not seen yet, once: state deltas repeat the records reduced so far. */
  private readRecords(event: RunEvent): void {
    let records: ExecutionError[] | undefined;
    try {
      records = executionErrorsFromStateDelta(event.stateDelta, this.recordsKey);
    } catch (error) {
      this.writer.error(thrownErrorValue(error, 'record'));
      return;
    }
    for (const record of records ?? []) {
      const key = `${record.severity}|${record.nodeId}|${record.stepNumber}|${record.timestamp}|${record.path?.join('/')}|${record.error.message}`;
      if (this.records.has(key)) continue;
      this.records.add(key);
      this.codes.push(record.error.code ?? record.error.type);
      const { severity, nodeId, nodeName, nodeType, stepNumber, path } = record;
      this.writer.custom('faultline.record', { ...responseErrorValue(record.error, 'record'), severity, nodeId, nodeName, nodeType, stepNumber, path });
    }
  }

  /** The run's end: cancelled, failed (its `RUN_ERROR`), or finished. */
  end(): void {
    const failure = this.failure;
    if (this.stopped() || failure?.type === ErrorType.Cancelled) this.writer.cancelled();
    else if (failure) this.writer.failed(responseErrorValue(failure, 'run'));
    else if (this.interrupts) this.writer.interrupted(this.interrupts, { status: 'interrupted' });
    else this.writer.finished({ status: 'completed' });
  }
}
