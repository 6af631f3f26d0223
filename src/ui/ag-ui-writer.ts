/**
 * @internal What both AG-UI mappings (agent runs, runner runs) share: the events of one run in protocol order — a
 * text or reasoning message is opened before its content and closed before anything else happens (a tool call, an
 * error, the end), a step is finished before the run ends — and the one end of the run: `RUN_FINISHED` (its outcome
 * `cancelled` for a stopped run) or exactly one `RUN_ERROR`, after which nothing is written. Every string that leaves
 * is redacted as every UI frame is (configured secrets in every form, credential shapes, credentials in URLs), and
 * streamed text goes out only where redaction sees each credential whole (the rest is held until more arrives or the
 * message ends), so no secret is split across two deltas.
 *
 * The writer is where every value of a run event reaches the wire, so it is where a malformed one is read (a custom
 * or remote agent's, a stream built by hand): a text that is not a string is read as absent (an empty string; a delta
 * or a tool call's arguments are left out), an event whose id or name is not a string is skipped (a tool call, its
 * result, a step), token counts that are not counts are left out. No event leaves that AG-UI's schema refuses, and
 * nothing here throws on a value of the wrong type.
 */
import { summarizeInterrupts } from '../runner/interrupt-summary.js';
import type { AGUIErrorValue, AGUIEvent, AGUIInterrupt, AGUITokenUsage } from './ag-ui-events.js';
import { FrameRedactor } from './frame-redactor.js';
import { HeldText } from '../internal/held-text.js';

/** An id or name an event can carry: a non-empty string (anything else: the event is skipped). */
function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** A token count AG-UI accepts: a non-negative safe integer. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The token usage as AG-UI's schema takes it, or `undefined` (read as absent) when its counts are not counts. */
function usageOf(usage: AGUITokenUsage | undefined): AGUITokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { inputTokens, outputTokens, totalTokens, reasoningTokens, cachedInputTokens } = usage;
  if (!isCount(inputTokens) || !isCount(outputTokens) || !isCount(totalTokens)) return undefined;
  const counted: AGUITokenUsage = { inputTokens, outputTokens, totalTokens };
  if (isCount(reasoningTokens)) counted.reasoningTokens = reasoningTokens;
  if (isCount(cachedInputTokens)) counted.cachedInputTokens = cachedInputTokens;
  return counted;
}

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

  /** `text` redacted; anything but a string is read as absent (`''`). */
  clean(text: unknown): string {
    return typeof text === 'string' ? this.redactor.text(text) : '';
  }

  /** Every event leaves redacted as a whole — its ids too (a run id, a tool call id a remote party chose) — as every UI frame does. */
  private push(event: AGUIEvent): void {
    if (!this.ended) this.pending.push(this.redactor.value(event) as AGUIEvent);
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

  textDelta(delta: unknown, step: string): void {
    if (typeof delta !== 'string' || delta === '') return;
    if (this.reasoning !== undefined) this.closeMessages();
    if (this.text === undefined) {
      this.text = `${this.runId}-${step}-t${++this.parts}`;
      this.lastText = this.text;
      this.push({ type: 'TEXT_MESSAGE_START', messageId: this.text, role: 'assistant' });
    }
    this.content('TEXT_MESSAGE_CONTENT', this.text, this.hold().push(delta));
  }

  reasoningDelta(delta: unknown, step: string): void {
    if (typeof delta !== 'string' || delta === '') return;
    if (this.text !== undefined) this.closeMessages();
    if (this.reasoning === undefined) {
      this.reasoning = `${this.runId}-${step}-r${++this.parts}`;
      this.push({ type: 'REASONING_START', messageId: this.reasoning });
      this.push({ type: 'REASONING_MESSAGE_START', messageId: `${this.reasoning}-message`, role: 'reasoning' });
    }
    this.content('REASONING_MESSAGE_CONTENT', `${this.reasoning}-message`, this.hold().push(delta));
  }

  /** A complete tool call: start, its arguments (when there are any: a string), end. One without its id is skipped. */
  toolCall(id: unknown, name: unknown, args: unknown): void {
    if (!isName(id)) return;
    this.closeMessages();
    const start: AGUIEvent = { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: this.clean(name) };
    if (this.lastText !== undefined) start.parentMessageId = this.lastText;
    this.push(start);
    if (typeof args === 'string' && args !== '') this.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: this.clean(args) });
    this.push({ type: 'TOOL_CALL_END', toolCallId: id });
  }

  /** A tool's answer: its content is the exact text the model got (a `ToolResultJSON`). One without its call's id is skipped. */
  toolResult(id: unknown, content: unknown): void {
    if (!isName(id)) return;
    this.closeMessages();
    this.push({ type: 'TOOL_CALL_RESULT', messageId: `${this.runId}-result-${id}`, toolCallId: id, content: this.clean(content), role: 'tool' });
  }

  custom(name: string, value: unknown): void {
    this.closeMessages(); // only a message's own events may come while it is open
    this.push({ type: 'CUSTOM', name, value: this.redactor.value(value) ?? null });
  }

  error(value: AGUIErrorValue): void {
    this.custom('faultline.error', value);
  }

  /** A step by name (a node id, `step-<n>`); one without a name is skipped. */
  stepStarted(name: unknown): void {
    if (!isName(name) || this.steps.has(name)) return;
    this.closeMessages();
    this.steps.add(name);
    this.lastText = undefined;
    this.push({ type: 'STEP_STARTED', stepName: this.clean(name) });
  }

  stepFinished(name: unknown): void {
    if (!isName(name) || !this.steps.delete(name)) return;
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
    const shown = this.redactor.value(result);
    if (shown !== undefined && shown !== null) event.result = shown;
    const counted = usageOf(usage);
    if (counted !== undefined) event.usage = [counted];
    this.push(event);
    this.ended = true;
  }

  /**
   * The run stopped to ask: a `faultline.interrupt` custom event per question (at most 50, summarised — never a tool
   * call's arguments), then `RUN_FINISHED` whose outcome is `interrupt` (the protocol's), `result` as given. When no
   * question can be read (a malformed interrupt list), the outcome is left out: the result still says `interrupted`.
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
    // AG-UI's interrupt outcome names at least one question: a run that stopped on none it could read has none
    const event: AGUIEvent = { type: 'RUN_FINISHED', threadId: this.threadId, runId: this.runId };
    if (named.length > 0) event.outcome = { type: 'interrupt', interrupts: this.redactor.value(named) as AGUIInterrupt[] };
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
    this.push({ type: 'RUN_ERROR', message: this.clean(value.message), code: isName(value.kind) ? this.clean(value.kind) : 'other' });
    this.ended = true;
  }
}
