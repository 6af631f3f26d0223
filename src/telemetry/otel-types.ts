/**
 * Structural types for the part of `@opentelemetry/api` (1.x) the SDK uses. The package never imports the API — not
 * even its types —: the application passes its own copy in (`openTelemetry(otel)`), so OpenTelemetry stays an
 * optional peer and only one copy of the API ever runs. The real module object is assignable to {@link OTelAPI}
 * (`test/telemetry/otel-types.test.ts` checks it against the installed API).
 *
 * @see https://github.com/open-telemetry/opentelemetry-js/tree/main/api
 */

/** An attribute value as OpenTelemetry accepts it (homogeneous arrays; `null` entries are allowed there). */
export type OTelAttributeValue =
  | string
  | number
  | boolean
  | Array<null | undefined | string>
  | Array<null | undefined | number>
  | Array<null | undefined | boolean>;

/** A set of attributes, as OpenTelemetry's `Attributes`. */
export interface OTelAttributes {
  [key: string]: OTelAttributeValue | undefined;
}

/** An immutable OpenTelemetry `Context` (where the active span and the baggage live). */
export interface OTelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OTelContext;
  deleteValue(key: symbol): OTelContext;
}

/** The identity of a span: what a W3C `traceparent` header carries. */
export interface OTelSpanContext {
  /** 32 lowercase hex characters, not all zero. */
  traceId: string;
  /** 16 lowercase hex characters, not all zero. */
  spanId: string;
  /** W3C trace flags (bit 0: sampled). */
  traceFlags: number;
  /** True when the context was received from another process. */
  isRemote?: boolean;
  /** The W3C `tracestate`, when one is known. */
  traceState?: unknown;
}

/** A span's status, as `span.setStatus` takes it. */
export interface OTelSpanStatus {
  /** `SpanStatusCode.UNSET` (0), `OK` (1) or `ERROR` (2). */
  code: number;
  /** A description, only for `ERROR`. */
  message?: string;
}

/** The options of `tracer.startSpan` the SDK sets. */
export interface OTelSpanOptions {
  /** `SpanKind.INTERNAL` (0), `SERVER` (1) or `CLIENT` (2). */
  kind?: number;
  /** Attributes known at start (samplers see them). */
  attributes?: OTelAttributes;
}

/**
 * An OpenTelemetry span. `recordException` is deliberately absent: it would export a raw error's message and stack,
 * so the SDK records a redacted `exception` event instead.
 */
export interface OTelSpan {
  spanContext(): OTelSpanContext;
  setAttribute(key: string, value: OTelAttributeValue): unknown;
  setAttributes(attributes: OTelAttributes): unknown;
  addEvent(name: string, attributes?: OTelAttributes): unknown;
  setStatus(status: OTelSpanStatus): unknown;
  end(): void;
  isRecording(): boolean;
}

/** An OpenTelemetry tracer: what `api.trace.getTracer(name)` returns. */
export interface OTelTracer {
  startSpan(name: string, options?: OTelSpanOptions, context?: OTelContext): OTelSpan;
}

/** The `trace` API of `@opentelemetry/api`, the members the SDK uses. */
export interface OTelTraceAPI {
  getTracer(name: string, version?: string): OTelTracer;
  setSpan(context: OTelContext, span: OTelSpan): OTelContext;
  setSpanContext(context: OTelContext, spanContext: OTelSpanContext): OTelContext;
  /** The span of a context (not called by the SDK; handy in tests and in your own code). */
  getSpan?(context: OTelContext): OTelSpan | undefined;
}

/** The `context` API of `@opentelemetry/api`, the members the SDK uses. */
export interface OTelContextAPI {
  active(): OTelContext;
  with<T>(context: OTelContext, fn: () => T): T;
}

/**
 * The `@opentelemetry/api` module, as far as the SDK uses it: `import * as otel from '@opentelemetry/api'` is one.
 * `ROOT_CONTEXT`, `SpanStatusCode` and `SpanKind` are optional: their values are fixed by the specification, and the
 * SDK uses those when a member is missing.
 */
export interface OTelAPI {
  trace: OTelTraceAPI;
  context: OTelContextAPI;
  ROOT_CONTEXT?: OTelContext;
  SpanStatusCode?: { readonly UNSET: number; readonly OK: number; readonly ERROR: number };
  SpanKind?: { readonly INTERNAL: number; readonly SERVER: number; readonly CLIENT: number };
}
