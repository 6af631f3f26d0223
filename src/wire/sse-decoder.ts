/**
 * A spec-faithful Server-Sent Events decoder (WHATWG HTML §9.2.6): a callback core (`SSEParser`, line by line), the
 * chat decoders' `SSEDataParser` (whole events at once), and a `TransformStream` wrapper (`sse-decoder-stream.ts`).
 * Handles a leading BOM, CR / LF / CRLF line ends (a CRLF split across chunks included), multi-line `data`, comments,
 * `event` / `id` / `retry` fields, and input split at any byte (the wrapper decodes UTF-8 in streaming mode). Lines and
 * events are bounded: an endless line becomes a `StreamError` (`line_too_long`), never unbounded memory.
 * An event is dispatched on a blank line; an incomplete event at the end of input is discarded, as the spec says.
 */
import { StreamError } from '../errors/stream-error.js';

/** One dispatched event. `type` is the `event:` field or `message`. */
export interface SSEEvent {
  type: string;
  data: string;
  /** The last event id seen (it persists across events, per the spec). */
  id?: string | undefined;
}

export interface SSEParserOptions {
  onEvent: (event: SSEEvent) => void;
  onComment?: ((comment: string) => void) | undefined;
  onRetry?: ((milliseconds: number) => void) | undefined;
  /** Longest line accepted, in UTF-16 code units. @default 1048576 */
  maxLineLength?: number | undefined;
  /** Longest `data` of one event. @default 8388608 */
  maxEventLength?: number | undefined;
}

export const DEFAULT_MAX_LINE_LENGTH = 1_048_576;
export const DEFAULT_MAX_EVENT_LENGTH = 8_388_608;

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/** The callback core: feed decoded text, get events. Throws `StreamError` when a bound is exceeded. */
export class SSEParser {
  // What only this class reads is `#private`: minifiers shorten `#names` (`this.#options` → `this.#e`), never
  // `private` ones. The two buffers are not `#private`: a property test reads them to check their bounds (and a
  // subclass's `group` reads `data`).
  readonly #options: SSEParserOptions;
  private buffer = '';
  #started = false;
  #pendingCR = false;
  protected data: string | undefined;
  #lastEventId: string | undefined;
  protected eventType = '';
  // Set in the constructor: declared only (`declare`), so a bundle carries no field definitions for them.
  declare protected readonly maxLineLength: number;
  declare protected readonly maxEventLength: number;

  constructor(options: SSEParserOptions) {
    this.#options = options;
    this.maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    this.maxEventLength = options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
  }

  /** Feeds the next piece of decoded text. */
  feed(chunk: string): void {
    let text = chunk;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.#pendingCR && text.length > 0) {
      this.#pendingCR = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    if (text.length === 0) return;
    // The next LF and CR are each found once (a scan per line for both would be quadratic); once no CR is left, a
    // subclass may read the usual `event:` / `data:` / blank-line groups at once (`group`).
    let nextLF = text.indexOf('\n');
    let nextCR = text.indexOf('\r');
    let end = nextCR === -1 ? nextLF : nextLF === -1 ? nextCR : Math.min(nextLF, nextCR);
    if (end === -1) {
      this.buffer += text;
      if (this.buffer.length > this.maxLineLength) this.#tooLong();
      return;
    }
    let start = 0;
    while (end !== -1) {
      if (start === 0 && this.buffer !== '') {
        const line = this.buffer + text.slice(0, end);
        this.buffer = '';
        if (line.length > this.maxLineLength) this.#tooLong();
        this.#line(line, 0, line.length);
      } else {
        if (end - start > this.maxLineLength) this.#tooLong();
        const grouped = this.group?.(text, start, end, nextCR);
        if (grouped === undefined) this.#line(text, start, end);
        else end = grouped; // the LF ending the group's last line: the next line starts after it
      }
      if (text.charCodeAt(end) === CR) {
        if (end + 1 === text.length) {
          this.#pendingCR = true;
          start = end + 1;
          break;
        }
        start = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
      if (nextLF !== -1 && nextLF < start) nextLF = text.indexOf('\n', start);
      if (nextCR !== -1 && nextCR < start) nextCR = text.indexOf('\r', start);
      end = nextCR === -1 ? nextLF : nextLF === -1 ? nextCR : Math.min(nextLF, nextCR);
    }
    if (start < text.length) {
      this.buffer = text.slice(start);
      if (this.buffer.length > this.maxLineLength) this.#tooLong();
    }
  }

  /** Ends the input: a pending incomplete event is discarded (spec), the parser is reset. */
  end(): void {
    this.buffer = '';
    this.data = undefined;
    this.eventType = '';
    this.#pendingCR = false;
  }

  /**
   * A subclass's hook: one dispatched event, as arguments (no event object). By default the `onEvent` option's.
   * @internal
   */
  protected emit(type: string, data: string, id: string | undefined): void {
    this.#options.onEvent({ type, data, id });
  }

  /**
   * A subclass's hook: a whole event in the usual forms read at once, starting with the line `text[start, end)`
   * (`nextCR`: where the next CR is, -1 when none is left). Returns the index of the LF that ends its last line, or
   * `undefined` to read the line by itself. This class has none: its callers (the A2A and MCP clients,
   * `SSEDecoderStream`) read few events, and `SSEDataParser`, the chat decoders', which read one per token, brings the
   * fast path with it.
   * @internal
   */
  protected group?(text: string, start: number, end: number, nextCR: number): number | undefined;

  /** Processes the line `source[start, end)` (indices, so the common `data:` line costs one substring). */
  #line(source: string, start: number, end: number): void {
    if (end === start) {
      this.#dispatch();
      return;
    }
    const first = source.charCodeAt(start);
    if (first === COLON) {
      if (this.#options.onComment) this.#options.onComment(source.slice(source.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1, end));
      return;
    }
    let colon = source.indexOf(':', start);
    if (colon >= end) colon = -1;
    const field = colon === -1 ? source.slice(start, end) : source.slice(start, colon);
    const value = colon === -1 ? '' : source.slice(source.charCodeAt(colon + 1) === SPACE && colon + 1 < end ? colon + 2 : colon + 1, end);
    switch (field) {
      case 'data':
        this.#appendData(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#options.onRetry?.(Number(value));
        break;
      default:
        break;
    }
  }

  #appendData(value: string): void {
    this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    if (this.data.length > this.maxEventLength) {
      this.data = undefined;
      throw new StreamError(`An SSE event exceeded ${this.maxEventLength} characters of data`, { reason: 'line_too_long' });
    }
  }

  #dispatch(): void {
    const data = this.data;
    const type = this.eventType;
    this.data = undefined;
    this.eventType = '';
    if (data === undefined) return;
    this.emit(type === '' ? 'message' : type, data, this.#lastEventId);
  }

  #tooLong(): never {
    this.buffer = '';
    throw new StreamError(`An SSE line exceeded ${this.maxLineLength} characters without a line break`, { reason: 'line_too_long' });
  }
}

/** True when `text[start, end)` begins with the field name `name` and its colon. */
function isField(text: string, start: number, end: number, name: string): boolean {
  return end - start > name.length && text.charCodeAt(start + name.length) === COLON && text.startsWith(name, start);
}

const ignore = (): void => {};

/**
 * @internal The chat decoders' SSE parser: they read one event per token (and never its id), so each event goes to a
 * callback as arguments, `(type, data)`, with no event object, and the usual whole events — `data:` + blank line,
 * `event:` + `data:` + blank line — are read at once rather than line by line. The same events, comments and bound
 * errors as {@link SSEParser} for any input (a property test says so).
 */
export class SSEDataParser extends SSEParser {
  constructor(
    private readonly onData: (type: string, data: string) => void,
    options: Omit<SSEParserOptions, 'onEvent'> = {},
  ) {
    super({ ...options, onEvent: ignore });
  }

  protected override emit(type: string, data: string): void {
    this.onData(type, data);
  }

  /**
   * A whole event in the usual forms starting with the line `text[start, end)`, when no data is buffered and no CR is
   * left in `text`: dispatched at once, as the lines one by one would. Returns the index of the LF of its blank line,
   * or `undefined` when the text there is anything else (or breaks a bound, which the line-by-line path then raises).
   */
  protected override group(text: string, start: number, end: number, nextCR: number): number | undefined {
    if (nextCR !== -1 || this.data !== undefined) return undefined;
    let type = this.eventType;
    let dataAt = start;
    let dataEnd = end;
    if (isField(text, start, end, 'event')) {
      dataAt = end + 1;
      dataEnd = text.indexOf('\n', dataAt);
      if (dataEnd === -1 || dataEnd - dataAt > this.maxLineLength) return undefined;
      type = text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end); // at `end` is the LF
    }
    if (text.charCodeAt(dataEnd + 1) !== LF || !isField(text, dataAt, dataEnd, 'data')) return undefined;
    const valueAt = text.charCodeAt(dataAt + 5) === SPACE ? dataAt + 6 : dataAt + 5;
    if (dataEnd - valueAt > this.maxEventLength) return undefined;
    this.eventType = '';
    this.onData(type === '' ? 'message' : type, text.slice(valueAt, dataEnd));
    return dataEnd + 1;
  }
}
