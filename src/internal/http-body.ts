/**
 * Reading error bodies from HTTP responses: bounded (a hostile server cannot make us buffer gigabytes), tolerant
 * (any content type), and with the provider's message, code and type picked out of the usual JSON shapes.
 */
import { read } from './error-chain.js';
import { isPlainObject, truncate } from './json.js';
import { startTimer, watchAbort } from './delay.js';
import { redactText, type RedactTextOptions } from './redact.js';

// 64 KiB, written out: a bundler keeps module-scope arithmetic even when nothing reads it.
export const DEFAULT_ERROR_BODY_LIMIT = 65_536;

export interface ProviderErrorDetails {
  /** The provider's own message (secrets removed, shortened). */
  message?: string;
  /** The provider's machine code (`invalid_api_key`, `rate_limit_exceeded`…). */
  code?: string;
  /** The provider's error type (`invalid_request_error`…). */
  type?: string;
  /** The start of the body text (secrets removed). */
  text: string;
}

/** A body read up to a bound: its text, and whether the body went on past the bound (the text is then cut). */
export interface BoundedText {
  text: string;
  exceeded: boolean;
  /** True when the time limit stopped the read (the text is what had arrived). */
  timedOut?: boolean;
  /**
   * Set when the body failed before its end (a connection reset): what it failed with. The text is what had arrived,
   * so a caller that parses it must not take its failure to parse for the sender's: the read is what failed.
   */
  failed?: { error: unknown };
}

/** Options of {@link readBoundedBody}. */
export interface ReadBodyOptions {
  /** Stop reading after this long, whatever still trickles in (a peer that sends bytes but never ends). */
  timeoutMs?: number | undefined;
}

/**
 * Reads at most `limit` bytes of a body (a `Response`'s or a `Request`'s) as text, and says whether there was more; never throws (a body
 * that fails mid-way yields what was read).
 */
export async function readBoundedBody(
  response: Pick<Response, 'body' | 'bodyUsed'>,
  limit: number = DEFAULT_ERROR_BODY_LIMIT,
  options: ReadBodyOptions = {},
): Promise<BoundedText> {
  const reader = bodyReader(response);
  if (!reader) return { text: '', exceeded: false };
  let timedOut = false;
  const timeoutMs = options.timeoutMs;
  const timer =
    timeoutMs !== undefined && Number.isFinite(timeoutMs)
      ? startTimer(() => {
          timedOut = true;
          reader.cancel().catch(() => {}); // a pending read resolves as done
        }, timeoutMs)
      : undefined;
  try {
    const read = await readText(reader, limit);
    return timedOut ? { ...read, timedOut } : read;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * {@link readBody} that stops reading (and cancels the body) when `signal` aborts, the text then what had arrived: the
 * body is released even by a `fetch` that ignores its own signal. For the MCP client, which races every read under its
 * attempt: its bundle holds no timer of its own.
 */
export async function readBodyUntil(response: Pick<Response, 'body' | 'bodyUsed'>, signal: AbortSignal, limit: number = DEFAULT_ERROR_BODY_LIMIT): Promise<BoundedText> {
  const reader = bodyReader(response);
  if (!reader) return { text: '', exceeded: false };
  const stopWatching = watchAbort(signal, () => void reader.cancel().catch(() => {}));
  try {
    return await readText(reader, limit);
  } finally {
    stopWatching();
  }
}

/**
 * {@link readBoundedBody} without its options: for a caller that bounds the read in time and cancels it itself (the
 * A2A client races it under its attempt, whose abort cancels the body), so its bundle holds no timer of its own.
 */
export function readBody(response: Pick<Response, 'body' | 'bodyUsed'>, limit: number): Promise<BoundedText> {
  const reader = bodyReader(response);
  return reader ? readText(reader, limit) : Promise.resolve({ text: '', exceeded: false });
}

/**
 * A reader of the body, or `undefined` when it cannot be read: none, already read, locked by another reader, or not a
 * Web `ReadableStream` (node-fetch v2's Node `Readable`, any look-alike) — each then read as empty. Never throws.
 */
function bodyReader(response: Pick<Response, 'body' | 'bodyUsed'>): ReadableStreamDefaultReader<Uint8Array> | undefined {
  try {
    return response.bodyUsed ? undefined : (response.body?.getReader() ?? undefined);
  } catch {
    return undefined; // locked, no getReader (not a Web stream), a throwing getter
  }
}

/** Reads `reader` as text up to `limit` bytes, then cancels it; never throws (a body that fails mid-way yields what was read, and `failed`). */
async function readText(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<BoundedText> {
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  let exceeded = false;
  let failed: { error: unknown } | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.byteLength + received > limit) {
        text += decoder.decode(value.subarray(0, limit - received), { stream: true });
        exceeded = true;
        break;
      }
      received += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } catch (error) {
    failed = { error }; // a body that fails mid-way still yields what was read, and says it failed
  } finally {
    reader.cancel().catch(() => {});
  }
  return { text, exceeded, failed };
}

/** `16 MiB (16777216 bytes)`: a byte bound as people and greps read it. */
export function describeBytes(limit: number): string {
  const mib = limit / (1024 * 1024);
  const kib = limit / 1024;
  const short = Number.isInteger(mib) ? `${mib} MiB` : Number.isInteger(kib) ? `${kib} KiB` : `${limit} bytes`;
  return short === `${limit} bytes` ? short : `${short} (${limit} bytes)`;
}

/** Picks the provider's message/code/type out of common error JSON shapes (OpenAI, Google, RFC 7807, plain). */
export function parseProviderError(text: string, secrets: readonly string[] = [], redaction: RedactTextOptions = {}): ProviderErrorDetails {
  const clean = (value: string) => redactText(value, secrets, redaction);
  const details: ProviderErrorDetails = { text: truncate(clean(text.trim()), 1000) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (details.text !== '' && !/^\s*</.test(text)) details.message = truncate(details.text, 500);
    return details;
  }
  const error = read(body, 'error');
  const source = isPlainObject(error) ? error : body;
  const message =
    pickString(source, 'message') ??
    (typeof error === 'string' ? error : undefined) ??
    pickString(body, 'detail') ??
    pickString(body, 'title') ??
    pickString(read(read(body, 'errors'), '0'), 'message');
  if (message !== undefined) details.message = truncate(clean(message), 500);
  const code = read(source, 'code');
  if (typeof code === 'string' && code !== '') details.code = truncate(clean(code), 100);
  else if (typeof code === 'number' && Number.isFinite(code)) details.code = String(code);
  const type = pickString(source, 'type') ?? pickString(source, 'status');
  if (type !== undefined) details.type = truncate(clean(type), 100);
  return details;
}

function pickString(value: unknown, key: string): string | undefined {
  const field = read(value, key);
  return typeof field === 'string' && field.trim() !== '' ? field : undefined;
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-amz-request-id', 'cf-ray', 'x-trace-id'];

/** The provider's request id, if it sent one (redacted like any remote text: a proxy may echo a credential there). */
export function requestIdOf(headers: Headers, secrets: readonly string[] = []): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return truncate(redactText(value, secrets), 200);
  }
  return undefined;
}
