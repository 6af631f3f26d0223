/**
 * @internal The AI SDK UI message stream's grammar, for every kind of run: one `start`; steps; text and reasoning parts
 * with deterministic ids (`t<step>-<n>`, `r<step>-<n>`), closed before a tool part, an error or the end; tool parts
 * from input to output; data parts; and exactly one ending — `finish`, `abort`, or a failure (`data-faultline-error`,
 * `error`, `finish` with reason `error`) — after which nothing is written. Every tool call announced gets an output
 * part before the ending, so no part is left spinning.
 */
import { APPROVAL_DENIED_TYPE } from '../interrupts/approval-answers.js';
import { createId } from '../internal/ids.js';
import type { FaultlineErrorData } from './data-parts.js';
import { ErrorShaper } from './error-data.js';
import type { FrameRedactor } from './frame-redactor.js';
import { HeldText } from '../internal/held-text.js';
import type { ResolvedUIOptions } from './ui-message-stream-options.js';

/** One chunk of the stream, before it is redacted and framed. */
export type UIChunk = Record<string, unknown>;

interface OpenPart {
  id: string;
  held: HeldText;
}

/**
 * The finish reasons of the protocol, from faultline's: `max_iterations` — the run stopped asking for tools, as the
 * AI SDK's step limit does; `interrupted` — the run stopped for approvals, which `streamText` reports as the step's
 * own reason (`tool-calls`: the model asked for tools that were not run).
 */
const FINISH_REASONS: Readonly<Record<string, string>> = { stop: 'stop', length: 'length', content_filter: 'content-filter', tool_calls: 'tool-calls', max_iterations: 'tool-calls', interrupted: 'tool-calls' };

export class ChunkWriter {
  /** Chunks not yet written out. */
  chunks: UIChunk[] = [];
  /** The ending was written: nothing more goes out. */
  ended = false;
  readonly errors: ErrorShaper;
  private stepOpen = false;
  private text: OpenPart | undefined;
  private reasoning: OpenPart | undefined;
  private readonly counts = new Map<string, number>();
  /** Tool calls announced: id → name; those still without an output part. */
  private readonly announced = new Map<string, string>();
  private readonly unanswered = new Set<string>();
  private errorCount = 0;

  constructor(
    readonly options: ResolvedUIOptions,
    private readonly redactor: FrameRedactor,
  ) {
    this.errors = new ErrorShaper(options);
  }

  write(chunk: UIChunk): void {
    if (!this.ended) this.chunks.push(chunk);
  }

  /**
   * A resumed run continues the assistant message that asked (`useChat` sends it back and appends the answer to it):
   * its `start` names no new message, so the hook keeps the id it has.
   */
  start(): void {
    const messageId = this.options.messageId ?? (this.options.resumed ? undefined : createId('msg'));
    this.write(messageId === undefined ? { type: 'start' } : { type: 'start', messageId });
  }

  step(): void {
    if (this.stepOpen) return;
    this.write({ type: 'start-step' });
    this.stepOpen = true;
  }

  endStep(): void {
    if (!this.stepOpen) return;
    this.closeParts();
    this.write({ type: 'finish-step' });
    this.stepOpen = false;
  }

  textDelta(step: number, delta: string): void {
    if (delta === '') return;
    this.step();
    this.closeReasoning();
    this.text ??= this.open('text', `t${step}`);
    const out = this.text.held.push(delta);
    if (out !== '') this.write({ type: 'text-delta', id: this.text.id, delta: out });
  }

  reasoningDelta(step: number, delta: string): void {
    if (delta === '') return;
    this.step();
    this.closeText();
    this.reasoning ??= this.open('reasoning', `r${step}`);
    const out = this.reasoning.held.push(delta);
    if (out !== '') this.write({ type: 'reasoning-delta', id: this.reasoning.id, delta: out });
  }

  closeText(): void {
    const part = this.text;
    if (!part) return;
    this.text = undefined;
    const rest = part.held.flush();
    if (rest !== '') this.write({ type: 'text-delta', id: part.id, delta: rest });
    this.write({ type: 'text-end', id: part.id });
  }

  closeReasoning(metadata?: Record<string, unknown>): void {
    const part = this.reasoning;
    if (!part) return;
    this.reasoning = undefined;
    const rest = part.held.flush();
    if (rest !== '') this.write({ type: 'reasoning-delta', id: part.id, delta: rest });
    this.write(metadata ? { type: 'reasoning-end', id: part.id, providerMetadata: { faultline: metadata } } : { type: 'reasoning-end', id: part.id });
  }

  closeParts(): void {
    this.closeText();
    this.closeReasoning();
  }

  /** Metadata for a model call's reasoning: on its open reasoning part, or on an empty one of its own. */
  reasoningMetadata(step: number, metadata: Record<string, unknown>): void {
    this.step();
    this.closeText();
    this.reasoning ??= this.open('reasoning', `r${step}`);
    this.closeReasoning(metadata);
  }

  /** `tool-input-start` and `tool-input-available`: the arguments parsed (the raw text when not JSON), and as sent. */
  toolInput(id: string, name: string, args: string): void {
    const [toolCallId, toolName] = [idOf(id), nameOf(name)];
    this.closeParts();
    this.step();
    this.announced.set(toolCallId, toolName);
    this.unanswered.add(toolCallId);
    this.write({ type: 'tool-input-start', toolCallId, toolName });
    const text = typeof args === 'string' ? args : '';
    this.write({ type: 'tool-input-available', toolCallId, toolName, input: parsed(text), providerMetadata: { faultline: { arguments: text } } });
  }

  /** `tool-output-available` with the exact tool-message content the model got. */
  toolOutput(id: string, name: string, output: unknown, content: string): void {
    const toolCallId = idOf(id);
    this.answering(toolCallId, nameOf(name));
    this.write({ type: 'tool-output-available', toolCallId, output, providerMetadata: { faultline: { content } } });
  }

  /**
   * `tool-output-error` (the model-facing message), then the structured failure as `data-faultline-error` (id: the
   * call). A call a person refused is no failure: it is the protocol's `tool-output-denied` (the part shows
   * `output-denied`, its `approval` holding the reason), as `streamText` writes it.
   */
  toolError(id: string, name: string, error: FaultlineErrorData, content: string | undefined): void {
    const toolCallId = idOf(id);
    this.answering(toolCallId, nameOf(name));
    if (error.type === APPROVAL_DENIED_TYPE) {
      this.write({ type: 'tool-output-denied', toolCallId });
      return;
    }
    this.write(content === undefined ? { type: 'tool-output-error', toolCallId, errorText: error.message } : { type: 'tool-output-error', toolCallId, errorText: error.message, providerMetadata: { faultline: { content } } });
    this.data('faultline-error', error, toolCallId);
  }

  /**
   * `tool-approval-request` for a call that waits on a person (`useChat` shows its part as `approval-requested`): the
   * call is announced first when it was not, and is no longer owed an output part.
   */
  approvalRequest(id: string, toolName: string, approvalId: string, args: string): void {
    const toolCallId = idOf(id);
    if (!this.announced.has(toolCallId)) this.toolInput(toolCallId, toolName, args);
    this.closeParts();
    this.step();
    this.unanswered.delete(toolCallId);
    this.write({ type: 'tool-approval-request', approvalId, toolCallId });
  }

  /** A data part: kept in the message (with an id, replacing a part of the same type and id), or `transient`. */
  data(name: string, data: unknown, id?: string, transient = false): void {
    const chunk: UIChunk = { type: `data-${name}` };
    if (id !== undefined) chunk.id = id;
    chunk.data = data;
    if (transient) chunk.transient = true;
    this.write(chunk);
  }

  /** A kept `data-faultline-error` of its own (not a tool call's). */
  errorPart(error: FaultlineErrorData): void {
    this.data('faultline-error', error, `error-${++this.errorCount}`);
  }

  /**
   * `interrupts` is on every finish (0 unless the run stopped to ask): `useChat` deep-merges the metadata of a message a
   * resume continues, so a count left out would keep the asking stream's.
   */
  finish(reason: string, metadata?: Record<string, unknown>): void {
    if (this.ended) return;
    this.settle('interrupted', 'The run ended before this tool call finished.');
    this.write({ type: 'finish', finishReason: FINISH_REASONS[reason] ?? 'other', messageMetadata: { faultline: { finishReason: reason, interrupts: 0, ...metadata } } });
    this.ended = true;
  }

  abort(reason: string): void {
    if (this.ended) return;
    this.settle('aborted', 'The run was stopped before this tool call finished.');
    this.write({ type: 'abort', reason });
    this.ended = true;
  }

  /** The run failed: the failure kept in the message, then `error` (what `useChat` shows) and `finish` (`error`). */
  fail(error: FaultlineErrorData, metadata?: Record<string, unknown>): void {
    if (this.ended) return;
    this.settle('interrupted', 'The run failed before this tool call finished.');
    this.errorPart(error);
    this.write({ type: 'error', errorText: error.message });
    this.write({ type: 'finish', finishReason: 'error', messageMetadata: { faultline: { finishReason: 'error', interrupts: 0, ...metadata } } });
    this.ended = true;
  }

  /**
   * The output part a tool call needs first: its input, when it was never announced (a hostile or broken run). A
   * resumed run answers calls the stream that asked announced: the hook holds their parts already, and a second
   * announcement would make a second part.
   */
  private answering(toolCallId: string, toolName: string): void {
    if (!this.announced.has(toolCallId)) {
      if (this.options.resumed) this.announced.set(toolCallId, toolName);
      else this.toolInput(toolCallId, toolName, '');
    }
    this.closeParts();
    this.step();
    this.unanswered.delete(toolCallId);
  }

  /** Before an ending: every open part closed, every tool call answered (`interrupted` / `aborted`), the step finished. */
  private settle(outcome: 'interrupted' | 'aborted', message: string): void {
    this.closeParts();
    for (const toolCallId of [...this.unanswered]) {
      const toolName = this.announced.get(toolCallId) as string;
      const type = outcome === 'aborted' ? 'Aborted' : 'Interrupted';
      this.toolError(toolCallId, toolName, { type, message, kind: 'tool', code: outcome, retryable: false, scope: 'tool', toolCallId, toolName }, undefined);
    }
    this.endStep();
  }

  private open(kind: 'text' | 'reasoning', prefix: string): OpenPart {
    const count = (this.counts.get(prefix) ?? 0) + 1;
    this.counts.set(prefix, count);
    const id = `${prefix}-${count}`;
    this.write({ type: `${kind}-start`, id });
    return { id, held: new HeldText(this.redactor.forms, this.redactor.longestForm) };
  }
}

/** Tool arguments as the UI shows them: parsed JSON, or the raw text when it is not JSON. */
function parsed(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * A tool call's id or name as the protocol needs it, a string, whatever a hand-built or remote run put there: a
 * number or a boolean as its text, anything else a stand-in (the AI SDK refuses a frame whose id is not a string).
 */
const textOf = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : fallback);
const idOf = (value: unknown): string => textOf(value, 'call');
const nameOf = (value: unknown): string => textOf(value, 'tool');
