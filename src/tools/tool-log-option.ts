/**
 * What a caller may pass as the developer log (`runTool`'s `logger`, the agent's `toolLogger`, `runAgent`'s
 * `toolLogger`): nothing (the quiet default: crashes only), `false` (nothing at all), `console` (every record), or a
 * function (every record, as data).
 */
import { consoleToolLogSink, toolLogLine, type ToolLogRecord, type ToolLogSink } from './tool-log.js';

/** A console-like object: `console` itself, or anything with its four level methods. */
export interface ToolLogConsole {
  debug(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
}

/**
 * Where tool developer-log records go:
 * - `undefined` — {@link consoleToolLogSink}: crashes only (`error` records: a tool that threw something other than a
 *   `ToolFailure`, a result that cannot be JSON, a `repair` or `formatError` hook that threw), one line each on
 *   `console.error`; expected failures (error results, thrown `ToolFailure`s such as a mapped HTTP 404, invalid
 *   arguments, unknown tools, timeouts, retries) print nothing;
 * - `false` — nothing at all, crashes included;
 * - `console` (or any object with `debug`/`info`/`warn`/`error`) — every record, on the method of its level;
 * - a function — every record, as a redacted {@link ToolLogRecord}.
 *
 * @example
 * ```ts
 * await runTool(getWeather, '{"city":"Paris"}', { logger: false });              // silent
 * await runTool(getWeather, '{"city":"Paris"}', { logger: console });            // every record
 * await runTool(getWeather, '{"city":"Paris"}', { logger: (record) => sink.push(record) });
 * ```
 */
export type ToolLogOption = ToolLogSink | ToolLogConsole | false;

const silent: ToolLogSink = () => {};

/** @internal The sink for `option`; an unusable value (the builders report it) gives the quiet default. */
export function toolLogSink(option: ToolLogOption | undefined): ToolLogSink {
  if (option === false) return silent;
  if (typeof option === 'function') return option;
  if (isToolLogConsole(option)) return consoleSink(option);
  return consoleToolLogSink;
}

/** @internal The problem with a `toolLogger` / `logger` value, if any (for `ConfigError`s). */
export function toolLogOptionProblem(option: unknown, label: string): string | undefined {
  if (option === undefined || option === false || typeof option === 'function' || isToolLogConsole(option)) return undefined;
  return `${label} must be false, console or a function`;
}

function isToolLogConsole(value: unknown): value is ToolLogConsole {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof ToolLogConsole, unknown>>;
  return ['debug', 'info', 'warn', 'error'].every((level) => typeof candidate[level as keyof ToolLogConsole] === 'function');
}

/** Every record on the method of its level: one line, then the real error (redacted, with its stack) when there is one. */
function consoleSink(target: ToolLogConsole): ToolLogSink {
  return (record: ToolLogRecord) => {
    const line = toolLogLine(record);
    if (record.error !== undefined) target[record.level](line, record.error);
    else target[record.level](line);
  };
}
