import { isoTimestamp } from '../internal/clock.js';
import { read } from '../internal/error-chain.js';
import { describeError } from '../internal/error-json.js';
import { cloneJSONLike, safeString } from '../internal/json.js';
import { quietCall } from '../internal/quiet-call.js';
import { redactText, redactValue } from '../internal/redact.js';

/** Severity of a developer log record. */
export type ToolLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What a developer log record is about. */
export type ToolLogEvent =
  | 'tool.invalid_arguments'
  | 'tool.repaired_arguments'
  | 'tool.coerced_arguments'
  | 'tool.not_found'
  | 'tool.failure'
  | 'tool.timeout'
  | 'tool.retry'
  | 'tool.crash'
  | 'tool.unserializable_result'
  | 'tool.dropped_values'
  | 'tool.log';

/** The real error as developers see it (the model never does): name, message, stack, cause chain. */
export interface ToolLogErrorDetails {
  name: string;
  message: string;
  stack?: string;
  cause?: unknown;
}

/**
 * One developer log record: richer than what the model sees (real error, stack, arguments, attempt, duration),
 * with secrets redacted (secret-looking keys, configured secrets, token-shaped strings).
 */
export interface ToolLogRecord {
  level: ToolLogLevel;
  event: ToolLogEvent;
  message: string;
  toolName: string;
  callId: string;
  timestamp: string;
  attempt?: number;
  durationMs?: number;
  arguments?: unknown;
  error?: ToolLogErrorDetails;
  data?: unknown;
}

/** Receives developer log records. */
export type ToolLogSink = (record: ToolLogRecord) => void;

/** The logger a tool's `execute` receives; records carry the tool name, call id and attempt automatically. */
export interface ToolLogger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/**
 * The default sink, quiet by design: only `error` records — crashes (a tool threw something other than a
 * `ToolFailure`), results that cannot be JSON, a `repair` or `formatError` hook that threw — each as exactly one line
 * on `console.error` (redacted; no stack, no arguments). Expected failures (error results, thrown `ToolFailure`s such as
 * a mapped HTTP 404, invalid arguments, unknown tools, timeouts) and `warn`/`info`/`debug` records print nothing. Pass
 * `logger: console` for every record, a function to keep them as data, or `false` for silence.
 * @example `runTool(tool, args, { logger: (record) => myLogger.log(record) })`
 */
export const consoleToolLogSink: ToolLogSink = (record) => {
  if (record.level === 'error') console.error(toolLogLine(record));
};

/**
 * A record as one line of text, `[faultline] <event> <tool> (<call id>): <message>`, line breaks folded into spaces.
 * @example `toolLogLine(record) // "[faultline] tool.crash get_user (call_1): crashed: boom"`
 */
export function toolLogLine(record: ToolLogRecord): string {
  return `[faultline] ${record.event} ${record.toolName} (${record.callId}): ${record.message}`.replace(/\s*[\r\n]+\s*/g, ' ');
}

/** Builds redacted records for one tool call; what the sink throws or rejects with is dropped. */
export class ToolLogWriter {
  constructor(
    private readonly sink: ToolLogSink,
    private readonly toolName: string,
    private readonly callId: string,
    private readonly secrets: readonly string[],
  ) {}

  write(level: ToolLogLevel, event: ToolLogEvent, message: string, fields: Partial<Omit<ToolLogRecord, 'level' | 'event' | 'message'>> = {}): void {
    const record: ToolLogRecord = {
      level,
      event,
      message: redactText(message, this.secrets),
      toolName: this.toolName,
      callId: this.callId,
      timestamp: isoTimestamp(),
    };
    if (fields.attempt !== undefined) record.attempt = fields.attempt;
    if (fields.durationMs !== undefined) record.durationMs = Math.round(fields.durationMs * 1000) / 1000;
    if (fields.arguments !== undefined) record.arguments = redactValue(cloneJSONLike(fields.arguments), this.secrets); // cycles cut (marked) first
    if (fields.error !== undefined) record.error = fields.error;
    if (fields.data !== undefined) record.data = redactValue(cloneJSONLike(fields.data), this.secrets);
    quietCall(this.sink, record); // a sink that throws (a log transport down) must not turn a handled outcome into a crash
  }

  /** The real error, redacted: name, message, stack and cause chain. */
  errorDetails(error: unknown): ToolLogErrorDetails {
    const name = read(error, 'name');
    const message = read(error, 'message');
    const stack = read(error, 'stack');
    const details: ToolLogErrorDetails = {
      name: typeof name === 'string' ? name : typeof error,
      message: redactText(typeof message === 'string' ? message : safeString(error), this.secrets),
    };
    if (typeof stack === 'string') details.stack = redactText(stack, this.secrets);
    const cause = read(error, 'cause');
    if (cause !== undefined) details.cause = redactValue(describeError(cause, 1), this.secrets);
    return details;
  }

  /** The logger handed to `execute`. */
  loggerFor(attempt: number): ToolLogger {
    const at = (level: ToolLogLevel) => (message: string, data?: unknown) =>
      this.write(level, 'tool.log', message, data === undefined ? { attempt } : { attempt, data });
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  }
}

