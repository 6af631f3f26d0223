import { read } from '../internal/error-chain.js';
import type { SpanHandle, Telemetry } from './telemetry.js';

/** @internal The one inert span every untraced operation shares (`traces` tells it apart). */
export const NO_SPAN: SpanHandle = /* @__PURE__ */ Object.freeze({
  setAttributes(): void {},
  addEvent(): void {},
  end(): void {},
  fail(): void {},
  traceparent(): string | undefined {
    return undefined;
  },
  run<T>(fn: () => T): T {
    return fn();
  },
});

/**
 * Telemetry that records nothing: what instrumented code uses when no telemetry is configured. `startSpan` returns
 * one shared, inert span (no allocation); `run(fn)` just calls `fn`; `recordContent` is false; its A2A client tracing
 * is as inert, so the A2A client needs no path of its own for "no telemetry".
 *
 * @example
 * ```ts
 * const telemetry = options.telemetry ?? NO_TELEMETRY;
 * const span = telemetry.startSpan(toolSpanName(tool.name));
 * ```
 */
export const NO_TELEMETRY: Telemetry = /* @__PURE__ */ Object.freeze({
  recordContent: false,
  startSpan(): SpanHandle {
    return NO_SPAN;
  },
  // The A2A client's calls get the inert span too, and results tell it nothing.
  a2aClient: /* @__PURE__ */ Object.freeze({
    start(): SpanHandle {
      return NO_SPAN;
    },
    result(): void {},
  }),
});

/**
 * @internal True when `target` records something: a telemetry other than `NO_TELEMETRY`, a span other than the inert
 * `NO_SPAN`. Every instrumented site asks it first and, when false, builds no span name and no attributes (the inert
 * span would drop them anyway).
 * @example `if (!traces(options.telemetry)) return NO_SPAN;`
 */
export function traces<T extends Telemetry | SpanHandle>(target: T | undefined): target is T {
  return target !== undefined && target !== NO_TELEMETRY && target !== NO_SPAN;
}

/**
 * True for a {@link Telemetry}: an object with a `startSpan` method and a boolean `recordContent` (what option
 * checks accept as `telemetry`). Never throws.
 *
 * @example
 * ```ts
 * if (options.telemetry !== undefined && !isTelemetry(options.telemetry)) problems.push('telemetry must come from openTelemetry(otel)');
 * ```
 */
export function isTelemetry(value: unknown): value is Telemetry {
  return typeof read(value, 'startSpan') === 'function' && typeof read(value, 'recordContent') === 'boolean';
}

/**
 * @internal The problem of a `telemetry` option, for the option checks of every traced part (none when it is absent
 * or a `Telemetry`).
 */
export function telemetryProblems(value: unknown): string[] {
  return value === undefined || isTelemetry(value) ? [] : [TELEMETRY_PROBLEM];
}

/** @internal What every traced part says of a `telemetry` option it cannot use. */
export const TELEMETRY_PROBLEM = 'telemetry must come from openTelemetry(otel) (or be NO_TELEMETRY)';

/** @internal The host name of `url` for `server.address`, or undefined when it is not a URL. */
export function serverAddressOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
