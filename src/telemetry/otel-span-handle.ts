/**
 * @internal A {@link SpanHandle} over a real OpenTelemetry span. Every OTel call is guarded: a throwing span (a broken
 * processor or exporter) costs that one call, never the caller. Everything recorded is cleaned first (sanitize.ts);
 * a span that is not recording (sampled out) skips that work.
 */
import { messageOf } from '../internal/error-chain.js';
import { truncate } from '../internal/json.js';
import { CommonAttribute, TelemetryEvent } from './attributes.js';
import { errorTypeOf } from './error-type.js';
import type { OTelAPI, OTelAttributes, OTelContext, OTelSpan } from './otel-types.js';
import { cleanAttributes, cleanName, cleanText, type CleanLimits } from './sanitize.js';
import type { SpanAttributes, SpanHandle } from './telemetry.js';
import { formatTraceparent, isValidSpanId, isValidTraceId } from './traceparent.js';

/** What every span of one `openTelemetry()` instance shares. */
export interface SpanRuntime extends CleanLimits {
  api: OTelAPI;
  /** Characters kept of a status message. */
  maxStatusMessageLength: number;
  statusError: number;
  /** Runs an OTel call; a throw is reported and swallowed, and `fallback` returned. */
  guard<T>(call: () => T, fallback: T): T;
  /** Reports a failure of OpenTelemetry (to `options.onError`, if given). */
  report(error: unknown): void;
  /** The active context, or `ROOT_CONTEXT` when reading it throws. */
  activeContext(): OTelContext | undefined;
}

const NAME = /^\w{1,128}$/;

export class OTelSpanHandle implements SpanHandle {
  readonly #span: OTelSpan;
  readonly #runtime: SpanRuntime;
  readonly #recording: boolean;
  #ended = false;
  #failed = false;

  constructor(span: OTelSpan, runtime: SpanRuntime) {
    this.#span = span;
    this.#runtime = runtime;
    this.#recording = runtime.guard(() => span.isRecording() !== false, false);
  }

  /** The OpenTelemetry span under `value` when it is a handle of this class, else undefined. */
  static spanOf(value: unknown): OTelSpan | undefined {
    return value !== null && typeof value === 'object' && #span in value ? (value as OTelSpanHandle).#span : undefined;
  }

  /** True while attributes and events are worth recording. */
  get #live(): boolean {
    return this.#recording && !this.#ended;
  }

  #clean(attributes: SpanAttributes | undefined): OTelAttributes | undefined {
    return cleanAttributes(attributes, this.#runtime);
  }

  setAttributes(attributes: SpanAttributes): void {
    if (!this.#live) return;
    const clean = this.#clean(attributes);
    if (clean !== undefined) this.#runtime.guard(() => this.#span.setAttributes(clean), undefined);
  }

  addEvent(name: string, attributes?: SpanAttributes): void {
    if (!this.#live) return;
    const clean = this.#clean(attributes);
    const eventName = cleanName(name, this.#runtime);
    this.#runtime.guard(() => (clean === undefined ? this.#span.addEvent(eventName) : this.#span.addEvent(eventName, clean)), undefined);
  }

  fail(error: unknown, options?: { type?: string | undefined }): void {
    if (this.#ended) return;
    this.#failed = true;
    if (!this.#recording) return; // sampled out: the status would be dropped anyway
    const runtime = this.#runtime;
    let given: unknown;
    try {
      given = options?.type;
    } catch {
      given = undefined;
    }
    const type = typeof given === 'string' && given !== '' ? cleanName(given, runtime) : errorTypeOf(error);
    const message = cleanText(messageOf(error), runtime, runtime.maxStatusMessageLength);
    runtime.guard(() => this.#span.setAttribute(CommonAttribute.ErrorType, type), undefined);
    const event: OTelAttributes = { [CommonAttribute.ExceptionMessage]: truncate(message, runtime.maxAttributeLength) };
    const name = exceptionName(error);
    if (name !== undefined) event[CommonAttribute.ExceptionType] = cleanName(name, runtime);
    runtime.guard(() => this.#span.addEvent(TelemetryEvent.Exception, event), undefined);
    runtime.guard(() => this.#span.setStatus(message === '' ? { code: runtime.statusError } : { code: runtime.statusError, message }), undefined);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#runtime.guard(() => this.#span.end(), undefined);
  }

  traceparent(): string | undefined {
    return this.#runtime.guard(() => {
      const context = this.#span.spanContext();
      const { traceId, spanId, traceFlags } = context;
      if (!isValidTraceId(traceId) || !isValidSpanId(spanId)) return undefined;
      return formatTraceparent({ traceId, spanId, traceFlags: typeof traceFlags === 'number' ? traceFlags & 0xff : 0 });
    }, undefined);
  }

  run<T>(fn: () => T): T {
    const runtime = this.#runtime;
    const base = runtime.activeContext();
    const context = base === undefined ? undefined : runtime.guard(() => runtime.api.trace.setSpan(base, this.#span), undefined);
    if (context === undefined) return fn();
    let entered = false;
    const enter = (): T => {
      entered = true;
      return fn();
    };
    let result: T;
    try {
      result = runtime.api.context.with(context, enter);
    } catch (error) {
      if (entered) throw error; // fn's own failure: the caller's to handle
      runtime.report(error); // the context manager itself failed: run fn without it
      return fn();
    }
    return entered ? result : fn(); // a context manager that never called fn: run it ourselves
  }
}

/** The class name for `exception.type`: the error's `name` when it is an identifier. */
function exceptionName(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  try {
    const name = (error as { name?: unknown }).name;
    return typeof name === 'string' && NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}
