/**
 * @internal Every failure of a run as `FaultlineErrorData`: a tool result's envelope (what the model read) plus its
 * retryability, a framework error's own message and kind, a generic text for an error faultline did not make (its
 * message may quote anything), a retry notice's JSON, a graph's `ResponseError`. The caller's `onError` may map it;
 * the result is bounded. Redaction happens where the frame is written (frame-redactor.ts).
 */
import type { AgentRunItem } from '../agent/types.js';
import { AgentError } from '../errors/agent-error.js';
import { CircuitOpenError } from '../errors/circuit-open-error.js';
import type { ResponseError } from '../errors/response-error.js';
import { errorChain, read } from '../internal/error-chain.js';
import { describeError } from '../internal/error-json.js';
import { isPlainObject, truncate, tryStringify } from '../internal/json.js';
import { GENERIC_TOOL_ERROR_TYPE, ToolFailure } from '../tools/tool-failure.js';
import type { FaultlineCircuitData, FaultlineErrorData, FaultlineErrorScope } from './data-parts.js';
import type { ResolvedUIOptions } from './ui-message-stream-options.js';

type ToolResultItem = Extract<AgentRunItem, { type: 'tool-result' }>;

/** Where a failure belongs (the tool call it is about). */
export interface ErrorPlace {
  scope: FaultlineErrorScope;
  toolCallId?: string | undefined;
  toolName?: string | undefined;
}

/** Bounds of one error's parts, in characters: the whole stays within `MODEL_FACING_LIMITS.maxErrorLength` (16,384). */
const LIMITS = { message: 4_096, suggestion: 1_024, short: 200, context: 6_144, cause: 4_096 } as const;

/** The standard tool failures that are retryable unless they say otherwise. */
const RETRYABLE_TYPES: Readonly<Record<string, true>> = { RateLimitError: true, TimeoutError: true, NetworkError: true, ServiceUnavailableError: true };

/** `ResponseError.type` → faultline kind. */
const KIND_OF_TYPE: Readonly<Record<string, string>> = { api_error: 'chat_client', stream_error: 'stream', flow_error: 'workflow', run_error: 'other', cancelled: 'other', stop_agent_error: 'workflow' };

export class ErrorShaper {
  constructor(private readonly options: Pick<ResolvedUIOptions, 'developer' | 'onError'>) {}

  /** A thrown value: a framework error as itself, anything else (or a tool crash) as a generic text in the model view. */
  fromError(error: unknown, place: ErrorPlace): FaultlineErrorData {
    const framework = AgentError.isInstance(error);
    const kind = framework ? error.kind : ToolFailure.isInstance(error) ? 'tool' : 'other';
    const trusted = (framework && kind !== 'other' && kind !== 'tool') || ToolFailure.isInstance(error);
    const data: FaultlineErrorData = {
      type: ToolFailure.isInstance(error) ? error.type : framework ? error.name : 'Error',
      message: trusted ? error.message : place.toolName ? `The tool '${place.toolName}' failed with an unexpected internal error.` : 'The run failed with an unexpected error.',
      kind,
      retryable: read(error, 'retryable') === true,
      scope: place.scope,
    };
    if (ToolFailure.isInstance(error)) this.envelope(data, error.toErrorInfo());
    const code = framework ? error.code : undefined;
    if (typeof code === 'string') data.code = code;
    this.retryAfter(data, read(error, 'retryAfterMs'));
    return this.finish(error, data, place, describeError(error));
  }

  /** A tool call's result that is not ok: its envelope as the model read it, the outcome as the code. */
  fromToolResult(item: ToolResultItem): FaultlineErrorData {
    const place = { scope: 'tool' as const, toolCallId: item.callId, toolName: item.toolName };
    const data = this.toolData(item.result.error, place, item.retryable);
    data.code = item.outcome;
    this.retryAfter(data, item.retryAfterMs);
    return this.finish(item.cause, data, place, item.cause === undefined ? undefined : describeError(item.cause));
  }

  /** A failed tool result read from a tool message (`{ok: false, error}`): retryable when its type says so by default. */
  fromEnvelope(envelope: unknown, place: ErrorPlace): FaultlineErrorData {
    return this.finish(envelope, this.toolData(envelope, place, undefined), place, undefined);
  }

  private toolData(envelope: unknown, place: ErrorPlace, retryable: boolean | undefined): FaultlineErrorData {
    const type = read(envelope, 'type');
    const message = read(envelope, 'message');
    const data: FaultlineErrorData = {
      type: typeof type === 'string' ? type : GENERIC_TOOL_ERROR_TYPE,
      message: typeof message === 'string' ? message : `The tool '${place.toolName}' failed.`,
      kind: 'tool',
      retryable: retryable ?? (typeof type === 'string' && RETRYABLE_TYPES[type] === true),
      scope: 'tool',
    };
    this.envelope(data, envelope);
    this.retryAfter(data, read(read(envelope, 'context'), 'retryAfterMs'));
    return data;
  }

  /** A retry notice's error: a tool's envelope, or a model error described as JSON (being retried: retryable). */
  fromJSON(json: Record<string, unknown>, place: ErrorPlace, fallbackKind: string): FaultlineErrorData {
    const type = read(json, 'type') ?? read(json, 'name');
    const message = read(json, 'message');
    const kind = read(json, 'kind');
    const data: FaultlineErrorData = {
      type: typeof type === 'string' ? type : 'Error',
      message: typeof message === 'string' ? message : 'The call failed.',
      kind: typeof kind === 'string' ? kind : fallbackKind,
      retryable: read(json, 'retryable') !== false,
      scope: place.scope,
    };
    this.envelope(data, json);
    const code = read(json, 'code');
    if (typeof code === 'string' || typeof code === 'number') data.code = String(code);
    this.retryAfter(data, read(json, 'retryAfterMs') ?? read(read(json, 'context'), 'retryAfterMs'));
    return this.finish(json, data, place, json);
  }

  /** A graph's or the runner's `ResponseError` (wire data made to travel). */
  fromResponseError(error: ResponseError, scope: FaultlineErrorScope): FaultlineErrorData {
    const data: FaultlineErrorData = { type: error.type, message: error.message, kind: KIND_OF_TYPE[error.type] ?? 'workflow', retryable: false, scope };
    if (error.code !== undefined) data.code = error.code;
    return this.finish(error, data, { scope }, error);
  }

  /** The envelope's optional parts (`context`, `suggestion`), when well formed. */
  private envelope(data: FaultlineErrorData, envelope: unknown): void {
    const context = read(envelope, 'context');
    const suggestion = read(envelope, 'suggestion');
    if (isPlainObject(context)) data.context = context;
    if (typeof suggestion === 'string') data.suggestion = suggestion;
  }

  private retryAfter(data: FaultlineErrorData, value: unknown): void {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) data.retryAfterMs = Math.ceil(value);
  }

  /** The place, the developer's cause, the caller's mapping, the bounds. */
  private finish(error: unknown, data: FaultlineErrorData, place: ErrorPlace, cause: unknown): FaultlineErrorData {
    if (place.toolCallId !== undefined) data.toolCallId = place.toolCallId;
    if (place.toolName !== undefined) data.toolName = place.toolName;
    if (this.options.developer && cause !== undefined) data.cause = cause;
    const mapped = this.mapped(error, data);
    return bounded(mapped);
  }

  private mapped(error: unknown, data: FaultlineErrorData): FaultlineErrorData {
    if (!this.options.onError) return data;
    let answer: unknown;
    try {
      answer = this.options.onError(error, { ...data });
    } catch {
      return data; // a throwing mapper keeps the default: the stream still ends well
    }
    if (typeof answer === 'string') return { ...data, message: answer };
    if (!isPlainObject(answer)) return data;
    const copy = { ...data };
    for (const key of ['type', 'message', 'suggestion'] as const) if (typeof answer[key] === 'string') copy[key] = answer[key] as string;
    if (isPlainObject(answer.context)) copy.context = answer.context;
    return copy;
  }
}

/** The data within {@link LIMITS}: long texts cut (marked `…`), an oversized context or cause replaced by a note. */
function bounded(data: FaultlineErrorData): FaultlineErrorData {
  data.type = truncate(data.type, LIMITS.short);
  data.message = truncate(data.message, LIMITS.message);
  data.kind = truncate(data.kind, LIMITS.short);
  if (data.code !== undefined) data.code = truncate(data.code, LIMITS.short);
  if (data.suggestion !== undefined) data.suggestion = truncate(data.suggestion, LIMITS.suggestion);
  if (data.toolName !== undefined) data.toolName = truncate(data.toolName, LIMITS.short);
  if (data.toolCallId !== undefined) data.toolCallId = truncate(data.toolCallId, LIMITS.short);
  if (data.context !== undefined) {
    const size = tryStringify(data.context)?.length;
    if (size === undefined || size > LIMITS.context) data.context = { cut: `${size ?? 'unreadable'} characters of context left out` };
  }
  if (data.cause !== undefined) {
    const text = tryStringify(data.cause);
    if (text === undefined || text.length > LIMITS.cause) data.cause = truncate(text ?? '[unreadable cause]', LIMITS.cause);
  }
  return data;
}

/** The open circuit behind a failure (a thrown value, or a JSON description of one), if any. */
export function circuitOf(failure: unknown, developer: boolean): Omit<FaultlineCircuitData, 'source'> | undefined {
  for (const link of errorChain(failure)) {
    const open = CircuitOpenError.isInstance(link) || read(link, 'kind') === 'circuit_open' || read(link, 'name') === 'CircuitOpenError' || read(link, 'code') === 'CIRCUIT_OPEN';
    if (!open) continue;
    const state = read(link, 'state');
    const retryAfterMs = read(link, 'retryAfterMs');
    const dependency = read(link, 'dependency');
    const circuit: Omit<FaultlineCircuitData, 'source'> = {
      state: state === 'half_open' ? 'half_open' : 'open',
      retryAfterMs: typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? Math.ceil(retryAfterMs) : 0,
    };
    if (developer && typeof dependency === 'string' && dependency !== '') circuit.dependency = dependency;
    return circuit;
  }
  return undefined;
}
