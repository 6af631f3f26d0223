/**
 * @internal What reaches OpenTelemetry: every string redacted (configured secrets in all their forms, and
 * credential-shaped values) and then truncated; `undefined`, non-finite numbers, mixed arrays and non-attribute
 * values dropped; arrays cut to {@link MAX_ARRAY_LENGTH} elements. Never throws, whatever it is given (throwing
 * getters, revoked proxies).
 */
import { read } from '../internal/error-chain.js';
import { truncate } from '../internal/json.js';
import { redactText, secretForms } from '../internal/redact.js';
import type { OTelAttributes, OTelAttributeValue } from './otel-types.js';
import type { SpanAttributes } from './telemetry.js';

/** Elements kept of an array attribute. */
export const MAX_ARRAY_LENGTH = 128;
/** Characters kept of a span name, an event name or an attribute key. */
export const MAX_NAME_LENGTH = 256;

/**
 * Redaction of a long string looks at a window of `limit + margin` characters, not at the whole text (only `limit`
 * characters are kept): megabytes of tool output cost no more than a window. The margin is at least
 * {@link MIN_REDACTION_MARGIN}, and more than 2.5 times the longest form of a configured secret (a form can grow 2.5
 * times when shorter secrets inside it are masked), so a secret or token crossing the kept boundary is still seen
 * whole. When masking shrinks the window by more than half the margin, the whole text is redacted instead. What
 * remains: a single credential-shaped token (not a configured secret) longer than half the margin, starting in the kept
 * part and crossing the window's end, is masked by its shape only if its cut part still has that shape.
 */
export const MIN_REDACTION_MARGIN = 16_384;

/** The redaction margin for these secrets (see {@link MIN_REDACTION_MARGIN}). */
export function redactionMargin(secrets: readonly string[]): number {
  let longest = 0;
  for (const secret of secrets) if (secret.length >= 4) for (const form of secretForms(secret)) longest = Math.max(longest, form.length);
  return Math.max(MIN_REDACTION_MARGIN, 2 * Math.ceil(2.5 * longest + 64));
}

/** How strings are cleaned: the secrets to remove and the lengths to keep. */
export interface CleanLimits {
  secrets: readonly string[];
  /** Characters kept of a string attribute value. */
  maxAttributeLength: number;
  /** From {@link redactionMargin}. */
  redactionMargin: number;
  /** Attribute keys already cleaned (keys are mostly the same few constants), per telemetry instance. */
  keyCache?: Map<string, string> | undefined;
  /** Short values already cleaned (model, tool and node names, finish reasons repeat on every span), per instance. */
  valueCache?: Map<string, string> | undefined;
}

/** Values up to this length are remembered once cleaned (their cleaning does not depend on the length limit). */
const SHORT_VALUE = 128;

/** Keys remembered per instance; past it, keys are cleaned every time. */
const KEY_CACHE_LIMIT = 512;

function cleanKey(key: string, limits: CleanLimits): string {
  const cache = limits.keyCache;
  const cached = cache?.get(key);
  if (cached !== undefined) return cached;
  const clean = cleanName(key, limits);
  if (cache !== undefined && cache.size < KEY_CACHE_LIMIT) cache.set(key, clean);
  return clean;
}

/** `text` redacted, then cut to `limit` characters; bounded work on huge input. */
export function cleanText(text: string, limits: CleanLimits, limit: number): string {
  const { secrets, redactionMargin: margin, valueCache } = limits;
  if (valueCache !== undefined && text.length <= SHORT_VALUE && text.length <= limit) {
    const cached = valueCache.get(text);
    if (cached !== undefined) return cached;
    const clean = truncate(redactText(text, secrets), limit); // a mask may be longer than what it hides
    if (valueCache.size >= KEY_CACHE_LIMIT) valueCache.clear(); // bounded: 512 values, then it starts afresh
    valueCache.set(text, clean);
    return clean;
  }
  if (text.length > limit + margin) {
    const redacted = redactText(text.slice(0, limit + margin), secrets);
    if (redacted.length >= limit + margin / 2) return truncate(redacted, limit);
  }
  return truncate(redactText(text, secrets), limit);
}

function isArray(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** A homogeneous array of strings, finite numbers or booleans (holes and `null`s dropped), or undefined. */
function cleanArray(value: readonly unknown[], limits: CleanLimits): OTelAttributeValue | undefined {
  const items: unknown[] = [];
  let type: string | undefined;
  const length = Math.min(read(value, 'length') as number, MAX_ARRAY_LENGTH);
  for (let index = 0; index < length; index++) {
    const item = read(value, String(index));
    if (item === undefined || item === null) continue;
    const itemType = typeof item;
    if (itemType !== 'string' && itemType !== 'number' && itemType !== 'boolean') return undefined;
    if (type !== undefined && itemType !== type) return undefined;
    type = itemType;
    if (itemType === 'number' && !Number.isFinite(item)) continue;
    items.push(itemType === 'string' ? cleanText(item as string, limits, limits.maxAttributeLength) : item);
  }
  return items as OTelAttributeValue;
}

/** One attribute value cleaned, or undefined when it is dropped. */
export function cleanValue(value: unknown, limits: CleanLimits): OTelAttributeValue | undefined {
  switch (typeof value) {
    case 'string':
      return cleanText(value, limits, limits.maxAttributeLength);
    case 'number':
      return Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return value;
    case 'object':
      return value !== null && isArray(value) ? cleanArray(value, limits) : undefined;
    default:
      return undefined;
  }
}

/** A span, event or attribute name: redacted and cut to {@link MAX_NAME_LENGTH}. */
export function cleanName(name: unknown, limits: CleanLimits): string {
  return typeof name === 'string' ? cleanText(name, limits, MAX_NAME_LENGTH) : '';
}

/** The attributes cleaned; undefined when there are none left (or `attributes` is not an object). */
export function cleanAttributes(attributes: SpanAttributes | undefined, limits: CleanLimits): OTelAttributes | undefined {
  if (attributes === null || typeof attributes !== 'object') return undefined;
  let keys: string[];
  try {
    keys = Object.keys(attributes);
  } catch {
    return undefined; // a revoked proxy
  }
  let clean: OTelAttributes | undefined;
  for (const key of keys) {
    const value = cleanValue(read(attributes, key), limits);
    if (value === undefined) continue;
    const name = cleanKey(key, limits);
    if (name === '') continue;
    clean ??= {};
    Object.defineProperty(clean, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return clean;
}
