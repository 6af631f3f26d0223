/**
 * @internal What both AG-UI mappings (agent runs, runner runs) share: the events of one run in protocol order — a
 * text or reasoning message is opened before its content and closed before anything else happens (a tool call, an
 * error, the end), a step is finished before the run ends — and the one end of the run: `RUN_FINISHED` (its outcome
 * `cancelled` for a stopped run) or exactly one `RUN_ERROR`, after which nothing is written. Every string that leaves
 * is redacted as every UI frame is (configured secrets in every form, credential shapes, credentials in URLs), and
 * streamed text goes out only where redaction sees each credential whole (the rest is held until more arrives or the
 * message ends), so no secret is split across two deltas.
 */
import { summarizeInterrupts } from '../runner/interrupt-summary.js';
import type { AGUIErrorValue, AGUIEvent, AGUIInterrupt, AGUITokenUsage } from './ag-ui-events.js';
import { FrameRedactor } from './frame-redactor.js';
import { HeldText } from '../internal/held-text.js';

/** @internal One run's events as they are written; `take()` hands over what is pending. */
export class AGUIWriter {
  private pending: AGUIEvent[] = [];
  private text: string | undefined;
  private reasoning: string | undefined;
  /** What the open message's deltas hold back. */
  private held: HeldText | undefined;
  private readonly redactor: FrameRedactor;
  private parts = 0;
  private readonly steps = new Set<string>();
  /** The last text message of the current step: the parent of its tool calls. */
  lastText: string | undefined;
  ended = false;

  constructor(
    readonly threadId: string,
    readonly runId: string,
    private readonly secrets: readonly string[],
  ) {
    this.redactor = new FrameRedactor(secrets);
  }

  /** The events written since the last call. */
  take(): AGUIEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  clean(text: string): string {
    return this.redactor.text(text);
  }

  private push(event: AGUIEvent): void {
    if (!this.ended) this.pending.push(event);
  }

  started(): void {
    this.push({ type: 'RUN_STARTED', threadId: this.threadId, runId: this.runId, protocolVersion: '1.0' });
  }

  /** A message's held-back text, let out (redacted). */
  private content(type: 'TEXT_MESSAGE_CONTENT' | 'REASONING_MESSAGE_CONTENT', messageId: string, text: string): void {
    if (text !== '') this.push({ type, messageId, delta: this.clean(text) });
  }

  /** Closes an open text or reasoning message (before a tool call, an error, a step's end): its held text first. */
  closeMessages(): void {
    const rest = this.held?.flush() ?? '';
    this.held = undefined;
    if (this.text !== undefined) {
      this.content('TEXT_MESSAGE_CONTENT', this.text, rest);
      this.push({ type: 'TEXT_MESSAGE_END', messageId: this.text });
    }
    if (this.reasoning !== undefined) {
      this.content('REASONING_MESSAGE_CONTENT', `${this.reasoning}-message`, rest);
      this.push({ type: 'REASONING_MESSAGE_END', messageId: `${this.reasoning}-message` });
      this.push({ type: 'REASONING_END', messageId: this.reasoning });
    }
    this.text = undefined;
    this.reasoning = undefined;
  }

  private hold(): HeldText {
    this.held ??= new HeldText(this.redactor.forms, this.redactor.longestForm);
    return this.held;
  }

  textDelta(delta: string, step: string): void {
    if (delta === '') return;
    if (this.reasoning !== undefined) this.closeMessages();
    if (this.text === undefined) {
      this.text = `${this.runId}-${step}-t${++this.parts}`;
      this.lastText = this.text;
      this.push({ type: 'TEXT_MESSAGE_START', messageId: this.text, role: 'assistant' });
    }
    this.content('TEXT_MESSAGE_CONTENT', this.text, this.hold().push(delta));
  }

  reasoningDelta(delta: string, step: string): void {
    if (delta === '') return;
    if (this.text !== undefined) this.closeMessages();
    if (this.reasoning === undefined) {
      this.reasoning = `${this.runId}-${step}-r${++this.parts}`;
      this.push({ type: 'REASONING_START', messageId: this.reasoning });
      this.push({ type: 'REASONING_MESSAGE_START', messageId: `${this.reasoning}-message`, role: 'reasoning' });
    }
    this.content('REASONING_MESSAGE_CONTENT', `${this.reasoning}-message`, this.hold().push(delta));
  }

  /** A complete tool call: start, its arguments (when there are any), end. */
  toolCall(id: string, name: string, args: string): void {
    this.closeMessages();
    const start: AGUIEvent = { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: this.clean(name) };
    if (this.lastText !== undefined) start.parentMessageId = this.lastText;
    this.push(start);
    if (args !== '') this.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: this.clean(args) });
    this.push({ type: 'TOOL_CALL_END', toolCallId: id });
  }

  /** A tool's answer: its content is the exact text the model got (a `ToolResultJSON`). */
  toolResult(id: string, content: string): void {
    this.closeMessages();
    this.push({ type: 'TOOL_CALL_RESULT', messageId: `${this.runId}-result-${id}`, toolCallId: id, content: this.clean(content), role: 'tool' });
  }

  custom(name: string, value: unknown): void {
    this.closeMessages(); // only a message's own events may come while it is open
    this.push({ type: 'CUSTOM', name, value: this.redactor.value(value) });
  }

  error(value: AGUIErrorValue): void {
    this.custom('faultline.error', value);
  }

  stepStarted(name: string): void {
    if (this.steps.has(name)) return;
    this.closeMessages();
    this.steps.add(name);
    this.lastText = undefined;
    this.push({ type: 'STEP_STARTED', stepName: this.clean(name) });
  }

  stepFinished(name: string): void {
    if (!this.steps.delete(name)) return;
    this.closeMessages();
    this.push({ type: 'STEP_FINISHED', stepName: this.clean(name) });
  }

  /** Closes every open message and step: what comes before the run's end. */
  private settle(): void {
    this.closeMessages();
    for (const step of [...this.steps]) this.stepFinished(step);
  }

  finished(result: unknown, usage?: AGUITokenUsage): void {
    this.settle();
    const event: AGUIEvent = { type: 'RUN_FINISHED', threadId: this.threadId, runId: this.runId };
    if (result !== undefined) event.result = this.redactor.value(result);
    if (usage !== undefined) event.usage = [usage];
    this.push(event);
    this.ended = true;
  }

  /**
   * The run stopped to ask: a `faultline.interrupt` custom event per question (at most 50, summarised — never a tool
   * call's arguments), then `RUN_FINISHED` whose outcome is `interrupt` (the protocol's), `result` as given.
   */
  interrupted(raw: unknown, result: unknown): void {
    const { interrupts, count } = summarizeInterrupts(raw, this.secrets);
    for (const interrupt of interrupts) this.custom('faultline.interrupt', interrupt);
    this.settle();
    const named = interrupts.map((interrupt): AGUIInterrupt => {
      const { id, reason, kind, toolCallId, responseSchema, expiresAt, ...rest } = interrupt;
      const entry: AGUIInterrupt = { id, reason: kind };
      if (reason !== undefined) entry.message = reason;
      if (toolCallId !== undefined) entry.toolCallId = toolCallId;
      if (responseSchema !== undefined) entry.responseSchema = responseSchema;
      if (expiresAt !== undefined) entry.expiresAt = expiresAt;
      entry.metadata = { faultline: rest };
      return entry;
    });
    const event: AGUIEvent = { type: 'RUN_FINISHED', threadId: this.threadId, runId: this.runId, outcome: { type: 'interrupt', interrupts: this.redactor.value(named) as AGUIInterrupt[] } };
    event.result = this.redactor.value({ ...(result as Record<string, unknown>), interruptCount: count });
    this.push(event);
    this.ended = true;
  }

  cancelled(): void {
    this.settle();
    this.push({ type: 'RUN_FINISHED', threadId: this.threadId, runId: this.runId, outcome: { type: 'cancelled' } });
    this.ended = true;
  }

  /** The run failed: its error data, then the one `RUN_ERROR` (code: the failure's kind). */
  failed(value: AGUIErrorValue): void {
    this.settle();
    this.error(value);
    this.push({ type: 'RUN_ERROR', message: this.clean(value.message), code: value.kind });
    this.ended = true;
  }
}
