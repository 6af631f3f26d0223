/**
 * @internal A {@link SpanHandle} over a real OpenTelemetry span (`otelSpanHandle`). Every OTel call is guarded: a throwing span (a broken
 * processor or exporter) costs that one call, never the caller. Everything recorded is cleaned first (sanitize.ts);
 * a span that is not recording (sampled out) skips that work.
 */
import { messageOf } from '../internal/error-chain.js';
import { truncate } from '../internal/json.js';
import { ERROR_TYPE, EVENT_EXCEPTION, EXCEPTION_MESSAGE, EXCEPTION_TYPE } from './attribute-names.js';
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

/** The OpenTelemetry span under each handle made here: how a handle given as a parent is recognised. */
const SPANS = new WeakMap<object, OTelSpan>();

/**
 * The OpenTelemetry span under `value` when it is a handle made by {@link otelSpanHandle}, else undefined (never
 * throws, never runs a proxy's traps).
 */
export function spanOf(value: unknown): OTelSpan | undefined {
  return value !== null && typeof value === 'object' ? SPANS.get(value) : undefined;
}

/**
 * The handle of `span`. Closures, not a class with private fields: their names minify (a bundle of the adapter is
 * smaller), and nothing of the span is reachable from the handle but through its methods.
 */
export function otelSpanHandle(span: OTelSpan, runtime: SpanRuntime): SpanHandle {
  const { guard } = runtime;
  const recording = guard(() => span.isRecording() !== false, false);
  let ended = false;
  /** True while attributes and events are worth recording. */
  const live = (): boolean => recording && !ended;
  const handle: SpanHandle = {
    setAttributes(attributes: SpanAttributes): void {
      if (!live()) return;
      const clean = cleanAttributes(attributes, runtime);
      if (clean !== undefined) guard(() => span.setAttributes(clean), undefined);
    },

    addEvent(name: string, attributes?: SpanAttributes): void {
      if (!live()) return;
      const clean = cleanAttributes(attributes, runtime);
      const eventName = cleanName(name, runtime);
      guard(() => (clean === undefined ? span.addEvent(eventName) : span.addEvent(eventName, clean)), undefined);
    },

    fail(error: unknown, options?: { type?: string | undefined }): void {
      if (ended || !recording) return; // sampled out: the status would be dropped anyway
      let given: unknown;
      try {
        given = options?.type;
      } catch {
        given = undefined;
      }
      // Either way the type is cleaned: one derived from the error is remote or app text too (a failure's `type`, a name).
      const type = cleanName(typeof given === 'string' && given !== '' ? given : errorTypeOf(error), runtime);
      const message = cleanText(messageOf(error), runtime, runtime.maxStatusMessageLength);
      guard(() => span.setAttribute(ERROR_TYPE, type), undefined);
      const event: OTelAttributes = { [EXCEPTION_MESSAGE]: truncate(message, runtime.maxAttributeLength) };
      const name = exceptionName(error);
      if (name !== undefined) event[EXCEPTION_TYPE] = cleanName(name, runtime);
      guard(() => span.addEvent(EVENT_EXCEPTION, event), undefined);
      guard(() => span.setStatus(message === '' ? { code: runtime.statusError } : { code: runtime.statusError, message }), undefined);
    },

    end(): void {
      if (ended) return;
      ended = true;
      guard(() => span.end(), undefined);
    },

    traceparent(): string | undefined {
      return guard(() => {
        const { traceId, spanId, traceFlags } = span.spanContext();
        if (!isValidTraceId(traceId) || !isValidSpanId(spanId)) return undefined;
        return formatTraceparent({ traceId, spanId, traceFlags: typeof traceFlags === 'number' ? traceFlags & 0xff : 0 });
      }, undefined);
    },

    run<T>(fn: () => T): T {
      const base = runtime.activeContext();
      const context = base === undefined ? undefined : guard(() => runtime.api.trace.setSpan(base, span), undefined);
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
    },
  };
  SPANS.set(handle, span);
  return handle;
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
