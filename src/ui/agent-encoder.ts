/**
 * @internal An agent run's items as UI message stream chunks. A step per model call (`iteration`); its text and
 * reasoning as parts; each tool call as a tool part, answered when its tool ends (a failure also as a kept
 * `data-faultline-error`); retries, fallbacks and open circuits as transient data parts; a recoverable failure that is
 * not a tool's as a kept error part; the finish with faultline's own reason in the message metadata; a terminal
 * failure as the failure ending, an abort as `abort`; a run that stopped for approvals (`interrupted`) as its approval
 * requests and `data-faultline-interrupt` parts, then `finish` (`tool-calls`, faultline's reason `interrupted`).
 */
import type { AgentRunItem } from '../agent/types.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import { StreamError } from '../errors/stream-error.js';
import { ToolError } from '../errors/tool-error.js';
import { isAbortError } from '../internal/error-chain.js';
import type { ChunkWriter } from './chunk-writer.js';
import { circuitOf } from './error-data.js';
import { abortText } from './abort-text.js';
import { writeInterrupts } from './interrupt-parts.js';
import type { RunEncoder } from './stream-pump.js';

type Item<T extends AgentRunItem['type']> = Extract<AgentRunItem, { type: T }>;

/** The end of a run that stopped for approvals (read by shape: the agent's item types may not name it). */
interface InterruptedItem {
  type: 'interrupted';
  runId: string;
  interrupts: Interrupt[];
}

/** Errors of the model side: a recovered one (a fallback took over) is scope `model`, anything else `run`. */
const MODEL_KINDS: Readonly<Record<string, true>> = { chat_client: true, stream: true, circuit_open: true };

export class AgentEncoder implements RunEncoder {
  private iteration = 0;
  private readonly toolNames = new Map<string, string>();

  constructor(private readonly out: ChunkWriter) {}

  item(item: AgentRunItem): void {
    if ((item as { replay?: unknown }).replay === true) {
      this.replayed();
      return;
    }
    if ((item as { type: string }).type === 'interrupted') {
      this.interrupted(item as unknown as InterruptedItem);
      return;
    }
    switch (item.type) {
      case 'text-delta':
        this.at(item.iteration);
        this.out.textDelta(item.iteration, item.delta);
        break;
      case 'reasoning-delta':
        this.at(item.iteration);
        this.out.reasoningDelta(item.iteration, item.delta);
        break;
      case 'tool-call':
        this.at(item.iteration);
        this.toolNames.set(item.call.id, item.call.name);
        this.out.toolInput(item.call.id, item.call.name, item.call.arguments);
        break;
      case 'message':
        this.message(item);
        break;
      case 'tool-result':
        this.toolResult(item);
        break;
      case 'retry':
        this.retry(item);
        break;
      case 'error':
        this.error(item);
        break;
      case 'finish':
        this.out.finish(item.finishReason, { iterations: item.iterations, usage: { promptTokens: item.usage.promptTokens, completionTokens: item.usage.completionTokens, totalTokens: item.usage.totalTokens } });
        break;
      default:
        break; // usage: summed up in the finish
    }
  }

  /** Each approval asked on its tool part, each question kept; the finish names the run to resume. */
  private interrupted(item: InterruptedItem): void {
    const written = writeInterrupts(this.out, item.interrupts, typeof item.runId === 'string' ? item.runId : undefined);
    this.out.finish('interrupted', { ...(written.runId !== undefined ? { runId: written.runId } : {}), interrupts: written.count });
  }

  /**
   * The same answers sent again (a resubmitted `useChat` request): the agent gives the first resume's last item, but
   * the run went on in an earlier response and this one answers none of the browser's approvals — a normal finish
   * would leave them `approval-responded`, and `useChat` would send them again, without end. It is the refusal the
   * agent gives a run no longer waiting (a `ResumeError`, `RUN_NOT_INTERRUPTED`), so the page shows a typed error and
   * sends nothing more. Written as that error's data: the class itself is not needed to say it.
   */
  private replayed(): void {
    const refusal = { type: 'ResumeError', message: 'These answers were already applied: the run went on in an earlier response, which holds its outcome.', kind: 'resume', code: 'RUN_NOT_INTERRUPTED', retryable: false };
    this.out.fail(this.out.errors.fromJSON(refusal, { scope: 'run' }, 'resume'));
  }

  /** The run stream ended: without its finish or terminal error, that is a failure of its own. */
  end(): void {
    if (!this.out.ended) this.out.fail(this.out.errors.fromError(new StreamError('The agent run ended without a finish or a terminal error', { reason: 'incomplete' }), { scope: 'run' }));
  }

  /** Items of a new model call open its step (the previous one is finished first). */
  private at(iteration: number): void {
    if (iteration !== this.iteration) {
      this.out.endStep();
      this.iteration = iteration;
    }
    this.out.step();
  }

  /** The end of a model call: its text closed, the replay items a provider needs back on a reasoning part. */
  private message(item: Item<'message'>): void {
    this.at(item.iteration);
    this.out.closeText();
    const replay = item.message.replay;
    if (replay && replay.length > 0) this.out.reasoningMetadata(item.iteration, { replay });
    else this.out.closeReasoning();
  }

  private toolResult(item: Item<'tool-result'>): void {
    this.at(item.iteration);
    const name = this.toolNames.get(item.callId) ?? item.toolName;
    if (item.ok) {
      this.out.toolOutput(item.callId, name, item.result, item.content);
      return;
    }
    this.out.toolError(item.callId, name, this.out.errors.fromToolResult(item), item.content);
    const circuit = circuitOf(item.cause, this.out.options.developer);
    if (circuit) {
      const retryAfterMs = typeof item.result.error?.context?.retryAfterMs === 'number' ? item.result.error.context.retryAfterMs : circuit.retryAfterMs;
      this.out.data('faultline-circuit', { source: 'tool', ...circuit, retryAfterMs, toolCallId: item.callId, toolName: name }, undefined, true);
    }
  }

  private retry(item: Item<'retry'>): void {
    const place = item.source === 'tool' ? { scope: 'tool' as const, toolCallId: item.callId, toolName: item.toolName } : { scope: 'model' as const };
    const error = this.out.errors.fromJSON(item.error, place, item.source === 'tool' ? 'tool' : 'chat_client');
    if (item.fallbackTo !== undefined) {
      this.out.data('faultline-fallback', { to: item.fallbackTo, error }, undefined, true);
    } else {
      const data: Record<string, unknown> = { source: item.source, attempt: item.attempt, delayMs: item.delayMs };
      if (item.callId !== undefined) data.toolCallId = item.callId;
      if (item.toolName !== undefined) data.toolName = item.toolName;
      data.error = error;
      if (item.budgetExhausted) data.budgetExhausted = true;
      this.out.data('faultline-retry', data, undefined, true);
    }
    const circuit = circuitOf(item.error, this.out.options.developer);
    if (circuit) this.out.data('faultline-circuit', { source: item.source, ...circuit, ...(item.callId !== undefined ? { toolCallId: item.callId, toolName: item.toolName } : {}) }, undefined, true);
  }

  private error(item: Item<'error'>): void {
    const { error } = item;
    if (item.terminal) {
      if (isAbortError(error) || this.out.options.signal?.aborted) {
        this.out.abort(abortText(this.out.options.signal?.aborted ? this.out.options.signal.reason : error));
        return;
      }
      this.circuit(error);
      this.out.fail(this.out.errors.fromError(error, { scope: 'run', ...this.toolOf(error) }));
      return;
    }
    // A crashed tool's error is its tool part's: the part carries it already.
    if (ToolError.isInstance(error) && error.callId !== undefined && this.toolNames.has(error.callId)) return;
    const kind = (error as { kind?: unknown } | null)?.kind;
    this.circuit(error);
    this.out.errorPart(this.out.errors.fromError(error, { scope: typeof kind === 'string' && MODEL_KINDS[kind] === true ? 'model' : 'run' }));
  }

  private circuit(error: unknown): void {
    const circuit = circuitOf(error, this.out.options.developer);
    if (circuit) this.out.data('faultline-circuit', { source: 'model', ...circuit }, undefined, true);
  }

  /** The tool call a terminal `ToolError` (`onToolCrash: 'throw'`) is about. */
  private toolOf(error: unknown): { toolCallId?: string; toolName?: string } {
    if (!ToolError.isInstance(error)) return {};
    return { ...(error.callId !== undefined ? { toolCallId: error.callId } : {}), ...(error.toolName !== undefined ? { toolName: error.toolName } : {}) };
  }
}
