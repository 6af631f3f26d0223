/**
 * The tracing interface every instrumented part of the SDK talks to (the agent loop, tools, graph nodes, the A2A and
 * MCP clients and handlers). `openTelemetry(otel)` implements it on top of `@opentelemetry/api`; `NO_TELEMETRY` is
 * the do-nothing implementation used when none is configured.
 */
import type { TraceParent } from './traceparent.js';

/**
 * Attributes of a span or an event. `undefined` values are dropped, so optional fields can be passed as they are;
 * non-finite numbers are dropped too. Every string is redacted and truncated before it reaches OpenTelemetry.
 */
export type SpanAttributes = Record<
  string,
  string | number | boolean | readonly string[] | readonly number[] | readonly boolean[] | undefined
>;

/** The span kinds the SDK uses: `internal` (in-process work), `client` (a call out), `server` (a request served). */
export type SpanKindName = 'internal' | 'client' | 'server';

/** Options of {@link Telemetry.startSpan}. */
export interface StartSpanOptions {
  /** @default 'internal' */
  kind?: SpanKindName | undefined;
  /** Attributes known at start (samplers see these). */
  attributes?: SpanAttributes | undefined;
  /**
   * The parent: one of our spans, a parsed W3C `traceparent` (a remote parent, e.g. from an incoming request), or
   * nothing — then the span is a child of the active OpenTelemetry context (your own span, if one is active).
   */
  parent?: SpanHandle | TraceParent | undefined;
}

/**
 * Where the SDK reports tracing: start spans, and learn whether content (prompts, tool arguments and results) may be
 * recorded. Create one with `openTelemetry(otel)`; `NO_TELEMETRY` records nothing.
 *
 * @example
 * ```ts
 * const span = telemetry.startSpan(toolSpanName('search'), { attributes: { [GenAIAttribute.ToolName]: 'search' } });
 * try { return span.run(() => execute(args)); } catch (error) { span.fail(error); throw error; } finally { span.end(); }
 * ```
 */
export interface Telemetry {
  /** Starts a span; never throws (a broken tracer gives a span that records nothing). */
  startSpan(name: string, options?: StartSpanOptions): SpanHandle;
  /** Whether prompts, tool arguments and results may be recorded (opt-in, default false). */
  readonly recordContent: boolean;
  /**
   * @internal The A2A client's spans, set by `openTelemetry` (reached only through this object, so an app that passes
   * no telemetry bundles none of it; `NO_TELEMETRY` carries an inert one). `createA2AClient` refuses a telemetry
   * without it (a `ConfigError`), rather than trace nothing.
   */
  readonly a2aClient?: A2AClientTracing | undefined;
  /**
   * @internal The MCP client's spans, set by `openTelemetry` the same way: `createMCPClient` refuses a telemetry without
   * it (a `ConfigError`), rather than trace nothing.
   */
  readonly mcpClient?: MCPClientTracing | undefined;
}

/**
 * @internal How the MCP client traces a request: its `client` span (`tools/call get_weather`, `initialize`…), with the
 * method, the tool, the session and the server as the MCP conventions name them.
 * @example `const span = telemetry.mcpClient?.(method, params, url, sessionId)`
 */
export type MCPClientTracing = (method: string, params: unknown, endpoint: string, sessionId: string | undefined) => SpanHandle;

/**
 * @internal How the A2A client traces a call: `start` its `client` span (named and attributed by the A2A
 * conventions); `result` tells the span what a result (task, message, stream event) says — the task's id and state,
 * failing it with the task's error type when the task ended failed, rejected or canceled.
 * @example `const span = telemetry.a2aClient?.start('SendMessage', 'message/send', url)`
 */
export interface A2AClientTracing {
  start(operation: string, method: string, url: string): SpanHandle;
  result(span: SpanHandle, result: unknown): void;
}

/**
 * One span, as the SDK sees it. No method throws, whatever the tracer or exporter does; calls after `end()` are
 * ignored.
 *
 * @example
 * ```ts
 * const span = telemetry.startSpan('chat gpt-4o', { kind: 'client' });
 * span.addEvent('faultline.retry', { 'faultline.retry.attempt': 2 });
 * span.end();
 * ```
 */
export interface SpanHandle {
  /** Adds attributes (redacted, truncated; `undefined` values dropped). */
  setAttributes(attributes: SpanAttributes): void;
  /** Adds an event (retries and fallbacks are recorded as events). */
  addEvent(name: string, attributes?: SpanAttributes): void;
  /**
   * Ends the span. Its status stays UNSET unless `fail()` was called (instrumentation libraries leave success to the
   * application, as the OpenTelemetry spec asks). A second call is ignored.
   */
  end(): void;
  /**
   * Marks the span failed: status ERROR with the error's message (redacted, truncated), attribute `error.type` (see
   * `errorTypeOf`; `options.type` overrides it) and an `exception` event without stack. Does not end the span.
   */
  fail(error: unknown, options?: { type?: string | undefined }): void;
  /** The W3C `traceparent` header value of this span, or `undefined` when it has no valid span context. */
  traceparent(): string | undefined;
  /** Runs `fn` with this span active in the OpenTelemetry context, so spans your code starts in it nest under it. */
  run<T>(fn: () => T): T;
}
