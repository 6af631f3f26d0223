import { errorChain, isInstanceOf, messageOf, read, readConvention } from '../internal/error-chain.js';
import { isPlainObject } from '../internal/json.js';
import { FLOW_ERROR } from './constants.js';

/**
 * The wire-safe error of an event or an A2A payload (tRPC-Agent-Go's `model.ResponseError`): plain data, JSON keys
 * `type`, `message`, `code?` (always a string), `param?`.
 *
 * @see decisions.md point 2
 * @example
 * ```ts
 * const error: ResponseError = { type: 'flow_error', message: 'inventory lookup timed out', code: 'ORDER_INVENTORY_SOFT_TIMEOUT' };
 * ```
 */
export interface ResponseError {
  /** A category such as `flow_error`, `api_error`, `stream_error`, `run_error`, or a domain's own. */
  type: string;
  /** Human-readable text. */
  message: string;
  /** A stable machine code; integer codes are stringified base-10. */
  code?: string;
  /** The parameter the error is about, when there is one. */
  param?: string;
}

/**
 * True for a plain `{type, message, code?, param?}` object (not an `Error` instance) with string fields.
 * @example `isResponseError(event.response?.error)`
 */
export function isResponseError(value: unknown): value is ResponseError {
  if (!isPlainObject(value)) return false;
  const type = read(value, 'type');
  const message = read(value, 'message');
  const code = read(value, 'code');
  const param = read(value, 'param');
  return (
    typeof type === 'string' &&
    typeof message === 'string' &&
    (code === undefined || typeof code === 'string') &&
    (param === undefined || typeof param === 'string')
  );
}

/**
 * A fresh `ResponseError` with only its four keys (extra keys dropped, absent optionals omitted).
 * @example `const copy = cloneResponseError(record.error)`
 */
export function cloneResponseError(error: ResponseError): ResponseError;
export function cloneResponseError(error: ResponseError | undefined): ResponseError | undefined;
export function cloneResponseError(error: ResponseError | undefined): ResponseError | undefined {
  if (!error) return undefined;
  const copy: ResponseError = { type: error.type, message: error.message };
  if (error.code !== undefined) copy.code = error.code;
  if (error.param !== undefined) copy.param = error.param;
  return copy;
}

/**
 * Reads a `ResponseError` out of decoded JSON, tolerating peers that send a numeric `code` (stringified base-10).
 * Returns `undefined` when `value` is not a response error at all.
 * @example `normalizeResponseError(JSON.parse('{"type":"api_error","message":"x","code":500}'))` → code `"500"`
 */
export function normalizeResponseError(value: unknown): ResponseError | undefined {
  const message = read(value, 'message');
  if (!isPlainObject(value) || typeof message !== 'string') return undefined;
  const type = read(value, 'type');
  const normalized: ResponseError = { type: typeof type === 'string' ? type : '', message };
  const code = codeString(read(value, 'code'));
  if (code !== undefined) normalized.code = code;
  const param = read(value, 'param');
  if (typeof param === 'string') normalized.param = param;
  return normalized;
}

function codeString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString(10);
  if (typeof value === 'number' && Number.isFinite(value)) return Object.is(value, -0) ? '0' : String(value);
  return undefined;
}

/**
 * Converts any thrown value into a `ResponseError`, reading in this exact order (decisions.md point 4, mirroring
 * tRPC-Agent-Go's `ResponseErrorFromError`):
 *
 * 1. a `ResponseError` embedded anywhere in the chain (the value, `AggregateError.errors`, the `cause` chain) is
 *    cloned; an empty `message` takes the outer error's message, an empty `type` takes `fallbackType`;
 * 2. otherwise `{type: fallbackType, message}`, then `type` from the first link implementing `errorType()` (method
 *    or string property; an empty answer keeps the fallback and deeper links are not consulted);
 * 3. `code` from the first link implementing `errorCode()` if non-empty, else the first string `code` if non-empty,
 *    else the first numeric `code` stringified base-10 (`0` gives `"0"`). The legacy numeric `code` of a
 *    `DOMException` is not a business code and is skipped.
 *
 * @param error - Anything that was thrown; `null`/`undefined` give `undefined`.
 * @param fallbackType - @default 'flow_error'
 * @see seed-systems.md §1.3
 * @example
 * ```ts
 * toResponseError(Object.assign(new Error('inventory down'), { code: 'INVENTORY_DOWN' }));
 * // { type: 'flow_error', message: 'inventory down', code: 'INVENTORY_DOWN' }
 * ```
 */
export function toResponseError(error: unknown, fallbackType: string = FLOW_ERROR): ResponseError | undefined {
  if (error === null || error === undefined) return undefined;
  for (const link of errorChain(error)) {
    if (isResponseError(link)) {
      const clone = cloneResponseError(link);
      if (clone.message === '') clone.message = messageOf(error);
      if (clone.type === '') clone.type = fallbackType;
      return clone;
    }
  }
  const result: ResponseError = { type: fallbackType, message: messageOf(error) };
  const type = firstConvention(error, 'errorType');
  if (typeof type === 'string' && type !== '') result.type = type;
  const code = extractCode(error);
  if (code !== undefined) result.code = code;
  return result;
}

function firstConvention(error: unknown, key: string): unknown {
  for (const link of errorChain(error)) {
    const convention = readConvention(link, key);
    if (convention.found) return convention.value;
  }
  return undefined;
}

function extractCode(error: unknown): string | undefined {
  const errorCode = firstConvention(error, 'errorCode');
  if (typeof errorCode === 'string' && errorCode !== '') return errorCode;
  let stringCode: string | undefined;
  let numericCode: string | undefined;
  for (const link of errorChain(error)) {
    if (isLegacyDOMException(link)) continue;
    const convention = readConvention(link, 'code');
    if (!convention.found) continue;
    const value = convention.value;
    if (typeof value === 'string') stringCode ??= value;
    else if (typeof value === 'number' || typeof value === 'bigint') numericCode ??= codeString(value);
  }
  if (stringCode !== undefined && stringCode !== '') return stringCode;
  return numericCode;
}

function isLegacyDOMException(link: unknown): boolean {
  return typeof DOMException !== 'undefined' && isInstanceOf(link, DOMException) && typeof read(link, 'code') === 'number';
}
