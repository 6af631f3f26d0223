/**
 * @internal One redaction for every frame of a UI message stream: each string of the frame (keys included) gets the
 * run's secrets removed in every form, credential shapes masked, and credentials in URLs masked by position
 * (`urlView`). The frame comes out as a fresh JSON-safe copy: no function, symbol, BigInt, cycle or depth survives to
 * break `JSON.stringify`, and no shape can make the copy hang: an object met again inside itself is `[cycle]`, and
 * past {@link MAX_NODES} objects and arrays (a shared part is copied once per route: a small value can stand for
 * 2^64 routes) the rest of the frame is its JSON text, cut and redacted.
 */
import { CYCLE, isPlainObject, safeString } from '../internal/json.js';
import { REDACTED, redactText, secretForms, urlView } from '../internal/redact.js';

/** A URL in free text: a scheme, `://`, then anything but spaces, quotes and brackets. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s"'<>\\()[\]{}]+/gi;
/** Nesting past this is written as its JSON text, redacted (a hostile value cannot blow the stack). */
const MAX_DEPTH = 64;
/** Objects and arrays copied per frame; past it (or {@link MAX_DEPTH}), each is its JSON text, if within {@link MAX_TEXT}. */
const MAX_NODES = 100_000;
const MAX_TEXT = 65_536;

export class FrameRedactor {
  /** The longest form a secret can come back in: streamed text holds back this much so no secret is split. */
  readonly longestForm: number;
  /** Every form of every secret (for the streamed text's cut). */
  readonly forms: readonly string[];

  constructor(readonly secrets: readonly string[]) {
    this.forms = secrets.flatMap((secret) => (secret.length >= 4 ? secretForms(secret) : []));
    this.longestForm = this.forms.reduce((longest, form) => Math.max(longest, form.length), 0);
  }

  /** `text` with secrets, credential shapes and URL credentials masked. */
  text(text: string): string {
    const urls = text.includes('://') ? text.replace(URL_IN_TEXT, (url) => this.url(url)) : text;
    return redactText(urls, this.secrets);
  }

  /** A JSON-safe, redacted copy of `value` (`undefined` for what JSON leaves out). */
  value(value: unknown): unknown {
    return this.copy(value, 0, [], { left: MAX_NODES });
  }

  /** `path[d]`: the object being copied at depth d (entries past the current depth are stale). */
  private copy(value: unknown, depth: number, path: object[], budget: { left: number }): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value === 'boolean' || value === null) return value;
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object') return undefined;
    if (path.lastIndexOf(value, depth - 1) >= 0) return CYCLE;
    // The frame's own shape (its fields, `providerMetadata.faultline`: depth < 3) is never cut, only what it carries.
    if (depth >= MAX_DEPTH || (depth >= 3 && budget.left-- <= 0)) return this.text(safeString(tryJSON(value)));
    path[depth] = value;
    try {
      if (Array.isArray(value)) return value.map((item) => this.copy(item, depth + 1, path, budget) ?? null);
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function' && !isPlainObject(value)) return this.copy(toJSON.call(value), depth + 1, path, budget);
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const item = this.copy((value as Record<string, unknown>)[key], depth + 1, path, budget);
        if (item !== undefined) Object.defineProperty(copy, this.text(key), { value: item, enumerable: true, configurable: true, writable: true });
      }
      return copy;
    } catch {
      return '[unreadable value]'; // a revoked proxy, a throwing getter: the frame still goes out
    }
  }

  /** A URL as it may be shown: replaced only when `urlView` masked something (other URLs keep their spelling). */
  private url(url: string): string {
    const trailing = /[.,;:!?]+$/.exec(url)?.[0] ?? '';
    const bare = trailing === '' ? url : url.slice(0, -trailing.length);
    const shown = urlView(bare, this.secrets).url;
    return (shown.includes(REDACTED) && !bare.includes(REDACTED) ? shown : bare) + trailing;
  }
}

/**
 * `value`'s JSON text, or a note when it cannot be written (a cycle, a throwing `toJSON`) or would pass
 * {@link MAX_TEXT} characters (each value written adds one at least: counting them stops a shared part written once
 * per route before it hangs).
 */
function tryJSON(value: unknown): string {
  let values = 0;
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) => {
        if (++values > MAX_TEXT) throw new RangeError('too large');
        return item;
      }) ?? ''
    );
  } catch {
    return values > MAX_TEXT ? '[cut: too large]' : '[unserializable value]';
  }
}
