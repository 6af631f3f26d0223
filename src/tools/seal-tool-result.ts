/**
 * @internal A tool result is serialized exactly once, where `runTool` checks it: the JSON text is what the model
 * gets, and the `ToolResult` handed on is a snapshot decoded from that text, so a tool that mutates its object later
 * (adds a BigInt after 5 ms) or a getter that throws on its second read cannot change or break anything downstream.
 */
import { SerializeError } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';
import { cutText, shrinkJSON } from '../internal/json-budget.js';
import { isPlainObject } from '../internal/json.js';
import { droppedValues, encodeJSON, type DroppedValue } from '../wire/safe-json.js';
import { MODEL_FACING_LIMITS } from './model-facing-limits.js';
import type { ToolRun } from './tool-run.js';
import type { ToolErrorFormat } from './tool-error-format.js';
import { ToolInternalError } from './tool-internal-error.js';
import type { ToolLogWriter } from './tool-log.js';
import type { ToolErrorInfo } from './tool-failure.js';
import { ToolResult } from './tool-result.js';

/** A result as the model will receive it. */
export interface SealedToolResult {
  /** A snapshot decoded from `content`: plain JSON data that nothing else references. */
  result: ToolResult;
  /** The exact tool-message content, structured form (`ok`, `data`, `error` in that order). */
  content: string;
  /** Parts of the data JSON leaves out or empties (functions, Symbols, non-empty Maps and Sets). */
  dropped: DroppedValue[];
  /** The encoded `data`, reused for the flat form. */
  dataText: string | undefined;
}

/**
 * Encodes `result` once, the error part and a failure's data each cut to their cap (`MODEL_FACING_LIMITS`). Throws a `SerializeError` naming the path when its data or error cannot be JSON (a BigInt,
 * a cycle, a throwing getter, a function or Symbol as the whole data, nesting too deep for the runtime).
 */
export function sealToolResult(result: ToolResult): SealedToolResult {
  const { ok, data, error } = result;
  const limits = MODEL_FACING_LIMITS;
  // The one place a result becomes the model's text: what is over its cap is cut here, so no failure escapes it.
  const dataText = data === undefined ? undefined : capped(encodeJSON(data, 'tool result', 'data'), ok ? Number.POSITIVE_INFINITY : limits.maxFailureDataLength);
  const errorText = error === undefined ? undefined : cappedError(encodeJSON(error, 'tool result', 'error'), limits.maxErrorLength);
  const dropped = data !== null && typeof data === 'object' ? droppedValues(data, 'data') : [];
  const content = assemble(ok, dataText, errorText);
  const json: { ok: boolean; data?: unknown; error?: ToolResult['error'] } = { ok };
  if (dataText !== undefined) json.data = JSON.parse(dataText) as unknown;
  if (errorText !== undefined) json.error = JSON.parse(errorText) as ToolResult['error'];
  return { result: ToolResult.fromJSON(json), content, dropped, dataText };
}

/** `text` (JSON) when it fits `limit`, else the JSON of its value shrunk to fit, each cut marked. */
function capped(text: string, limit: number): string {
  return text.length <= limit ? text : JSON.stringify(shrinkJSON(JSON.parse(text), limit));
}

/**
 * The error's JSON when it fits `limit`, else the error cut to fit in its own shape: `type` and `message` always kept
 * (cut, marked), the suggestion cut, the context shrunk into the room left.
 */
function cappedError(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const error = JSON.parse(text) as ToolErrorInfo;
  let cut = text;
  for (const room of [4_000, 1_000, 250]) {
    const info: ToolErrorInfo = { type: cutText(error.type, 100), message: cutText(error.message, room) };
    const suggestion = error.suggestion === undefined ? undefined : cutText(error.suggestion, room / 4);
    if (error.context !== undefined) {
      const left = limit - JSON.stringify({ ...info, suggestion }).length - 16;
      const context = shrinkJSON(error.context, Math.max(left, 64));
      info.context = isPlainObject(context) ? context : { '[cut]': context };
    }
    if (suggestion !== undefined) info.suggestion = suggestion;
    cut = JSON.stringify(info);
    if (cut.length <= limit) return cut;
  }
  return cut;
}

function assemble(ok: boolean, dataText: string | undefined, errorText: string | undefined): string {
  return `{"ok":${ok ? 'true' : 'false'}${dataText === undefined ? '' : `,"data":${dataText}`}${errorText === undefined ? '' : `,"error":${errorText}`}}`;
}

/** The content in `format`, from the sealed pieces (nothing is serialized again but the flat error string). */
export function formatSealed(sealed: SealedToolResult, format: ToolErrorFormat | undefined): string {
  const error = sealed.result.error;
  if (format !== 'flat' || error === undefined) return sealed.content;
  return assemble(sealed.result.ok, sealed.dataText, JSON.stringify(flatError(error.message, error.suggestion)));
}

/** RAF's flat error string: the message, with the suggestion appended as a sentence. */
export function flatError(message: string, suggestion: string | undefined): string {
  if (!suggestion) return message;
  return `${message}${/[.!?。]$/.test(message.trim()) ? '' : '.'} ${suggestion}`;
}

/** Where a run made by `runTool` keeps its sealed form: a non-enumerable own property (a copy of the run has none). */
const SEALED = Symbol('faultline.tool.sealed');

/** Remembers the sealed form of a run, for {@link toolRunContent}. */
export function rememberSealed<T extends object>(run: T, sealed: SealedToolResult): T {
  Object.defineProperty(run, SEALED, { value: sealed });
  return run;
}

/** The sealed form of a run made by `runTool`, if this is one. */
export function sealedOf(run: object): SealedToolResult | undefined {
  return Object.prototype.hasOwnProperty.call(run, SEALED) ? (run as { [SEALED]?: SealedToolResult })[SEALED] : undefined;
}

/** What the model is told about a result that could not be sent (never the developer-side detail of a getter). */
const MODEL_REASONS: Readonly<Record<string, string>> = {
  bigint: 'holds a BigInt',
  cycle: 'contains a cycle',
  unreadable: 'could not be read',
  too_deep: 'nests too deeply',
};

function modelReason(error: unknown): string {
  const issue = SerializeError.isInstance(error) ? error.issues[0] : undefined;
  if (!issue) return 'it cannot be written as JSON';
  if (issue.code === 'not_json') return `${issue.path} ${issue.message.split(',')[0] ?? 'is not JSON'}`;
  return `${issue.path} ${MODEL_REASONS[issue.code] ?? 'cannot be written as JSON'}`;
}

/**
 * Completes a run: seals its result (once), and when that fails replaces it with a `ToolInternalError` saying what
 * could not be sent (outcome `unserializable`; the developer log gets the full `SerializeError` with its path). Parts
 * JSON drops (functions, Symbols, Maps, Sets inside the data) are named in a `tool.dropped_values` record.
 */
export function finishToolRun<T>(run: Omit<ToolRun<T>, 'content'>, log: ToolLogWriter): ToolRun<T> {
  return completeToolRun(run, run.toolName, run.callId, run.durationMs, log);
}

/**
 * {@link finishToolRun} of a run whose name, call id and duration are given apart (the run is built once, not copied
 * to add them).
 */
export function completeToolRun<T>(run: Omit<ToolRun<T>, 'content' | 'toolName' | 'callId' | 'durationMs'>, toolName: string, callId: string, durationMs: number, log: ToolLogWriter): ToolRun<T> {
  let sealed: SealedToolResult;
  let outcome = run.outcome;
  let error = run.error;
  try {
    sealed = sealToolResult(run.result);
  } catch (failure) {
    log.write('error', 'tool.unserializable_result', messageOf(failure), { attempt: run.attempts, error: log.errorDetails(failure) });
    const replacement = new ToolInternalError(`The tool '${toolName}' returned a result that cannot be sent to the model: ${modelReason(failure)}.`);
    sealed = sealToolResult(ToolResult.error(replacement));
    outcome = 'unserializable';
    error = failure;
  }
  if (sealed.dropped.length > 0) {
    const listed = sealed.dropped.map((part) => `${part.path} (${part.kind})`).join(', ');
    log.write('warn', 'tool.dropped_values', `JSON leaves these parts of the result out or empty, so the model does not see them: ${listed}`, {
      attempt: run.attempts,
      data: { dropped: sealed.dropped },
    });
  }
  const finished: ToolRun<T> = { toolName, callId, durationMs, ...run, outcome, result: sealed.result as ToolResult<T>, content: sealed.content };
  if (error !== undefined) finished.error = error;
  return rememberSealed(finished, sealed);
}
