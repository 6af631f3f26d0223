import { read } from '../internal/error-chain.js';
import type { SpanHandle, Telemetry } from './telemetry.js';

/** @internal The one inert span every untraced operation shares (compare with it to skip building attributes). */
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
 * one shared, inert span (no allocation); `run(fn)` just calls `fn`; `recordContent` is false.
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
});

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
  return value === undefined || isTelemetry(value) ? [] : ['telemetry must come from openTelemetry(otel) (or be NO_TELEMETRY)'];
}

/** @internal The host name of `url` for `server.address`, or undefined when it is not a URL. */
export function serverAddressOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
