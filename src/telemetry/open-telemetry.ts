/**
 * `openTelemetry(otel)`: the {@link Telemetry} the SDK reports to, on top of the application's own
 * `@opentelemetry/api` (an optional peer the package never imports). No timer, no global state: each call makes an
 * independent instance.
 */
import { ConfigError } from '../errors/config-error.js';
import { a2aClientTracing } from './a2a-client-tracing.js';
import { mcpClientTracing } from './mcp-client-tracing.js';
import { read } from '../internal/error-chain.js';
import { positiveIntegerProblems, refusedValue } from '../internal/json.js';
import { NO_TELEMETRY } from './no-telemetry.js';
import { otelSpanHandle, spanOf, type SpanRuntime } from './otel-span-handle.js';
import type { OTelAPI, OTelContext, OTelSpan, OTelTracer } from './otel-types.js';
import { cleanAttributes, cleanName, redactionMargin } from './sanitize.js';
import type { SpanHandle, StartSpanOptions, Telemetry } from './telemetry.js';
import { asTraceParent, parseTraceparent } from './traceparent.js';
import { secretsProblem } from '../internal/secret-forms.js';

/** Options of {@link openTelemetry}; every field is optional. */
export interface OpenTelemetryOptions {
  /** The tracer to use. @default `api.trace.getTracer(tracerName)` (the globally registered provider's) */
  tracer?: OTelTracer | undefined;
  /** The instrumentation scope name of the default tracer. @default 'faultline' */
  tracerName?: string | undefined;
  /**
   * Record content: prompts and completions (`gen_ai.input.messages`, `gen_ai.output.messages`), tool arguments and
   * results (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). Redacted like everything else, but it may
   * hold personal data. @default false
   */
  recordContent?: boolean | undefined;
  /** Strings to remove from everything recorded (API keys, tokens), in every encoded form. @default [] */
  secrets?: readonly string[] | undefined;
  /** Characters kept of each string attribute value (and each element of a string array). @default 1000 */
  maxAttributeLength?: number | undefined;
  /** Characters kept of a failed span's status message. @default 2000 */
  maxStatusMessageLength?: number | undefined;
  /** Called when OpenTelemetry itself throws (the call is skipped; the SDK goes on). @default ignore */
  onError?: ((error: unknown) => void) | undefined;
}

const DEFAULT_TRACER_NAME = 'faultline';
const OPTION_KEYS = ['tracer', 'tracerName', 'recordContent', 'secrets', 'maxAttributeLength', 'maxStatusMessageLength', 'onError'] as const;
const KIND_NAMES = ['internal', 'server', 'client'] as const;

function isFunction(value: unknown): boolean {
  return typeof value === 'function';
}

function problemsOf(api: unknown, settings: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const trace = read(api, 'trace');
  const context = read(api, 'context');
  if (api === null || typeof api !== 'object') problems.push(`api must be the @opentelemetry/api module (import * as otel from '@opentelemetry/api'; got ${refusedValue(api)})`);
  else {
    const tracerGiven = settings.tracer !== undefined;
    const traceMembers = tracerGiven ? ['setSpan', 'setSpanContext'] : ['getTracer', 'setSpan', 'setSpanContext'];
    const missingTrace = traceMembers.filter((member) => !isFunction(read(trace, member)));
    if (missingTrace.length > 0) problems.push(`api.trace must have ${missingTrace.map((member) => `${member}()`).join(', ')}: pass the @opentelemetry/api module`);
    const missingContext = ['active', 'with'].filter((member) => !isFunction(read(context, member)));
    if (missingContext.length > 0) problems.push(`api.context must have ${missingContext.map((member) => `${member}()`).join(', ')}: pass the @opentelemetry/api module`);
  }
  if (settings.tracer !== undefined && !isFunction(read(settings.tracer, 'startSpan'))) problems.push(`tracer must have a startSpan() method (got ${refusedValue(settings.tracer)})`);
  if (settings.tracerName !== undefined && (typeof settings.tracerName !== 'string' || settings.tracerName === '')) problems.push(`tracerName must be a non-empty string (got ${refusedValue(settings.tracerName)})`);
  if (settings.recordContent !== undefined && typeof settings.recordContent !== 'boolean') problems.push(`recordContent must be a boolean (got ${refusedValue(settings.recordContent)})`);
  const secrets = secretsProblem(settings.secrets);
  if (secrets) problems.push(secrets);
  problems.push(...positiveIntegerProblems(settings, ['maxAttributeLength', 'maxStatusMessageLength']));
  if (settings.onError !== undefined && !isFunction(settings.onError)) problems.push(`onError must be a function (got ${refusedValue(settings.onError)})`);
  return problems;
}

/** A numeric member of an enum-like object of the API, or the specification's value. */
function code(api: OTelAPI, group: 'SpanStatusCode' | 'SpanKind', member: string, fallback: number): number {
  const value = read(read(api, group), member);
  return typeof value === 'number' ? value : fallback;
}

/**
 * Telemetry on OpenTelemetry: spans for model calls, agent runs, tools, graph nodes and A2A / MCP calls, named and
 * attributed by the GenAI semantic conventions. Everything recorded is redacted (your `secrets`, and
 * credential-shaped values) and truncated; content (prompts, tool arguments and results) only with `recordContent`.
 * A tracer or span that throws never breaks a run: that call is skipped (and reported to `onError`).
 *
 * @param api - The `@opentelemetry/api` module: `import * as otel from '@opentelemetry/api'`.
 * @param options - Tracer, content recording, secrets, limits.
 * @returns The telemetry to pass to agents, tools, graphs and the A2A / MCP clients and handlers.
 * @throws ConfigError listing every problem with `api` and `options`.
 * @example
 * ```ts
 * import * as otel from '@opentelemetry/api';
 * import { openTelemetry } from 'faultline/telemetry';
 *
 * const telemetry = openTelemetry(otel, { secrets: [env.OPENAI_API_KEY] });
 * ```
 */
export function openTelemetry(api: OTelAPI, options: OpenTelemetryOptions = {}): Telemetry {
  const isObject = options === undefined || options === null || (typeof options === 'object' && !Array.isArray(options));
  const settings: Record<string, unknown> = {};
  if (isObject) for (const key of OPTION_KEYS) settings[key] = read(options, key); // each getter read once
  const problems = [...(isObject ? [] : [`options must be an object (got ${refusedValue(options)})`]), ...problemsOf(api, settings)];
  if (problems.length > 0) throw ConfigError.fromProblems('openTelemetry', problems);
  const given = settings as OpenTelemetryOptions;
  const onError = given.onError;
  const report = (error: unknown): void => {
    if (onError === undefined) return;
    try {
      onError(error);
    } catch {
      // a throwing onError must not break the run either
    }
  };
  const guard = <T>(call: () => T, fallback: T): T => {
    try {
      return call();
    } catch (error) {
      report(error);
      return fallback;
    }
  };
  let tracer: OTelTracer;
  try {
    tracer = given.tracer ?? api.trace.getTracer(given.tracerName ?? DEFAULT_TRACER_NAME);
  } catch (error) {
    throw ConfigError.fromProblems('openTelemetry', ['api.trace.getTracer() threw: pass a working @opentelemetry/api module or a tracer'], { cause: error });
  }
  const secrets = [...(given.secrets ?? [])];
  const runtime: SpanRuntime = {
    api,
    secrets,
    redactionMargin: redactionMargin(secrets),
    keyCache: new Map(),
    valueCache: new Map(),
    maxAttributeLength: given.maxAttributeLength ?? 1000,
    maxStatusMessageLength: given.maxStatusMessageLength ?? 2000,
    statusError: code(api, 'SpanStatusCode', 'ERROR', 2),
    guard,
    report,
    activeContext: () => guard<OTelContext | undefined>(() => api.context.active(), read(api, 'ROOT_CONTEXT') as OTelContext | undefined),
  };
  const kinds: Record<string, number> = {
    internal: code(api, 'SpanKind', 'INTERNAL', 0),
    server: code(api, 'SpanKind', 'SERVER', 1),
    client: code(api, 'SpanKind', 'CLIENT', 2),
  };

  /** The context to start a span in: its parent's, or the active one. */
  const parentContext = (parent: unknown): OTelContext | undefined => {
    const base = runtime.activeContext();
    if (parent === undefined || parent === null || base === undefined) return base;
    const span: OTelSpan | undefined = spanOf(parent);
    if (span !== undefined) return guard(() => api.trace.setSpan(base, span), base);
    const traceparent = read(parent, 'traceparent');
    if (typeof traceparent === 'function') {
      // a handle of another copy of the package (or the no-op one): its span context, as a local parent
      const header = guard(() => (traceparent as () => unknown).call(parent), undefined);
      const local = parseTraceparent(typeof header === 'string' ? header : undefined);
      return local === undefined ? base : guard(() => api.trace.setSpanContext(base, { ...local, isRemote: false }), base);
    }
    const remote = asTraceParent(parent);
    return remote === undefined ? base : guard(() => api.trace.setSpanContext(base, { ...remote, isRemote: true }), base);
  };

  const startSpan = (name: string, startOptions?: StartSpanOptions): SpanHandle => {
    try {
      const kind = read(startOptions, 'kind');
      const attributes = cleanAttributes(read(startOptions, 'attributes') as StartSpanOptions['attributes'], runtime);
      const spanOptions = {
        kind: kinds[KIND_NAMES.find((known) => known === kind) ?? 'internal'],
        ...(attributes === undefined ? {} : { attributes }),
      };
      const context = parentContext(read(startOptions, 'parent'));
      const span = tracer.startSpan(cleanName(name, runtime), spanOptions, context);
      if (span === null || typeof span !== 'object') return NO_TELEMETRY.startSpan(name);
      return otelSpanHandle(span, runtime);
    } catch (error) {
      report(error);
      return NO_TELEMETRY.startSpan(name);
    }
  };

  return Object.freeze({ recordContent: given.recordContent === true, startSpan, a2aClient: a2aClientTracing({ startSpan }), mcpClient: mcpClientTracing({ startSpan }) });
}
