/**
 * Keeping secrets out of messages, logs and events. Three layers: values under secret-looking keys are replaced,
 * configured secret strings are replaced wherever they appear — in every form a server may send them back in (as
 * is, URL-encoded, JSON-escaped, base64 and base64url, also inside a longer base64 text) —, and credential-shaped
 * strings are masked (bearer tokens, `sk-…` keys, JWTs, a long token after `key`/`token`/`secret`/`password`). A
 * URL is redacted by the position of each part too (`urlView`).
 */
import { looksLikeCredential, maskCredentials, REDACTED } from './credential-patterns.js';
import { CYCLE, defineData, isPlainObject } from './json.js';
import { replaceSecrets, secretForms } from './secret-forms.js';

export { REDACTED, secretForms };

/**
 * Credential key names: a whole name (`authorization`, `cookie`, `token`, `pwd`, `credentials`, `auth`…), or a name
 * holding a telling part (`secret`, `password`, `api-key`, `access_token`, `private_key`, `authorization`:
 * `x-client-secret`, `DB_PASSWORD`). One pattern: the whole names that hold such a part are left to the part.
 */
const SECRET_KEY = /^((set-)?cookie|((refresh|id)[-_]?)?token|pwd|credentials?|auth)$|secret|passw(or)?d|api[-_]?key|access[-_]?token|private[-_]?key|authorization/i;
/** True when a key (header name, field name) usually holds a credential. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * Request headers that carry no credential, whose values errors may well name: content negotiation, the client, and
 * protocol and provider versions (any other header's value is at worst masked where a server quotes it).
 */
const PLAIN_HEADER = /^(accept|content-|user-agent|(mcp|a2a|anthropic|openai)-)/i;

/**
 * The secrets that request headers carry: the value of every header a caller gives but the plain ones (gateways take
 * credentials under any name: `X-Auth-Token`, `PRIVATE-TOKEN`, `Ocp-Apim-Subscription-Key`…; a value shorter than 8
 * characters counts only under a credential-naming name), and for a `<scheme> <credential>` value (`Bearer …`,
 * `Basic …`, `Token …`) the credential alone too, since servers often quote only the token they received.
 */
export function headerSecrets(headers: Readonly<Record<string, string>> | undefined): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    const named = isSecretKey(name); // a credential's name wins over a plain prefix (`openai-api-key`)
    if (typeof value !== 'string' || (!named && PLAIN_HEADER.test(name)) || value.length < (named ? 4 : 8)) continue;
    secrets.push(value);
    const credential = /^[A-Za-z][\w-]*\s+(\S{4,})\s*$/.exec(value)?.[1];
    if (credential !== undefined) secrets.push(credential);
  }
  return secrets;
}

/**
 * Response headers as a plain record: values of credential-named headers (`set-cookie`, `authorization`…) replaced,
 * and every other value redacted by content (a `www-authenticate` or `x-debug` header quoting the token we sent).
 */
export function redactHeaders(headers: Headers, secrets: readonly string[] = []): Record<string, string> {
  const copy: Record<string, string> = {};
  headers.forEach((value, name) => {
    defineData(copy, name, isSecretKey(name) ? REDACTED : redactText(value, secrets));
  });
  return copy;
}

/** Options of {@link redactText}. */
export interface RedactTextOptions {
  /** Mask credential-shaped values too (bearer tokens, `sk-…` keys, JWTs, a token after `key=`). @default true */
  patterns?: boolean | undefined;
}

/** Replaces configured secrets (every form of them) and credential-shaped substrings in `text`. */
export function redactText(text: string, secrets: readonly string[] = [], options: RedactTextOptions = {}): string {
  const result = replaceSecrets(text, secrets);
  return options.patterns === false ? result : maskCredentials(result);
}

/**
 * The objects and arrays on a walk's path, by depth (`path[d]`: the one at depth d; entries past the current depth are
 * stale): one met again inside itself (a cycle, a parent link) is {@link CYCLE} — a walk that followed it would visit
 * it once per route, exponentially in the depth. Depth bounds the rest (20 levels).
 */
type Path = object[];

/**
 * A deep copy of JSON-like `value` with secret-keyed values replaced by `[REDACTED]` and secrets removed from
 * strings. Bounded in depth and cycles (`Path`); never mutates the input.
 */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0, path: Path = []): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return '[Truncated]';
  if (path.lastIndexOf(value, depth - 1) >= 0) return CYCLE; // an ancestor (at depth 0 the path is empty)
  path[depth] = value;
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1, path));
    if (!isPlainObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = value[key];
      defineData(copy, key, isSecretKey(key) && item !== null && item !== undefined && item !== '' ? REDACTED : redactValue(item, secrets, depth + 1, path));
    }
    return copy;
  } catch {
    return '[unreadable value]'; // a revoked Proxy or throwing getters: never let logging throw
  }
}

/**
 * `value` with every occurrence of a configured secret in its strings and its object keys replaced by `[REDACTED]`
 * (nothing else is touched: no key- or pattern-based masking). Returns `value` itself when no string holds a secret, so the common
 * case allocates nothing. Walks plain objects and arrays; past 20 levels a part is cleaned through its JSON text, so
 * depth hides nothing; a cycle is marked (`Path`). Never mutates the input.
 */
export function removeSecrets<T>(value: T, secrets: readonly string[], depth = 0, path: Path = []): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return replaceSecrets(value, secrets) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return removeSecretsDeep(value, secrets);
  if (path.lastIndexOf(value, depth - 1) >= 0) return CYCLE as T;
  path[depth] = value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const clean = removeSecrets(item, secrets, depth + 1, path);
      if (clean !== item) (copy ??= [...value])[index] = clean;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const item = value[key];
    const clean = removeSecrets(item, secrets, depth + 1, path);
    const cleanKey = replaceSecrets(key, secrets); // a key is data a remote party controls too
    if (copy === undefined) {
      if (clean === item && cleanKey === key) continue;
      copy = {};
      for (const earlier of keys.slice(0, index)) defineData(copy, earlier, value[earlier]); // unchanged so far
    }
    defineData(copy, cleanKey, clean);
  }
  return (copy ?? value) as T;
}

/**
 * Past the walk's depth: the part as JSON text, secrets replaced there, and read back when anything changed (a
 * secret is never left in a deep corner; what is not JSON data is left as it is).
 */
function removeSecretsDeep<T>(value: T, secrets: readonly string[]): T {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return value;
  }
  if (text === undefined) return value;
  const clean = replaceSecrets(text, secrets);
  if (clean === text) return value;
  try {
    return JSON.parse(clean) as T;
  } catch {
    return REDACTED as T;
  }
}

/**
 * A stand-in for a foreign error whose text may hold a secret: same `name` and `code`, message and stack redacted,
 * cause chain redacted the same way (bounded). Used as the `cause` of our errors when the original may carry a
 * credential (a fetch error quoting an Authorization header, a crashed tool quoting its password).
 */
export function redactError(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (error === null || typeof error !== 'object' || depth > 5) return typeof error === 'string' ? redactText(error, secrets) : error;
  let name: unknown;
  let message: unknown;
  let stack: unknown;
  let code: unknown;
  let cause: unknown;
  try {
    ({ name, message, stack, code, cause } = error as Record<string, unknown>);
  } catch {
    return new Error('[unreadable error]');
  }
  const copy: Error & { code?: unknown } = new Error(redactText(typeof message === 'string' ? message : String(message ?? ''), secrets));
  copy.name = typeof name === 'string' ? name : 'Error';
  if (typeof stack === 'string') copy.stack = redactText(stack, secrets);
  if (typeof code === 'string' || typeof code === 'number') copy.code = code;
  if (cause !== undefined) copy.cause = redactError(cause, secrets, depth + 1);
  return copy;
}

/**
 * A URL as it may be shown ({@link urlView}): whole, its origin (no user info) and its path. `hidden`: the raw parts
 * masked by position or shape, as sent and decoded, of 8 characters or more (shorter ones would match ordinary words):
 * added to a client's secrets, they leave any text quoting the raw URL too (a runtime's fetch error, a server echo).
 */
export interface URLView {
  url: string;
  origin: string;
  path: string;
  hidden: string[];
}

/**
 * Keys that name a credential in a URL besides {@link isSecretKey}'s: signatures (`sig`, `X-Amz-Signature`, `hmac`),
 * OAuth codes and tickets, and any name ending in key, token, signature, credential or session.
 */
const URL_SECRET_KEY = /^(sig|code|jwt|pass|sid|ticket|hmac)$|(key|token|signature|credential|session)$/i;

/** A URL reference split as RFC 3986 does (its appendix B): scheme, authority, the rest. Always matches. */
const PARTS = /^([^:/?#]+:)?(?:\/\/([^/?#]*))?([\s\S]*)$/;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray `%`: read as it is
  }
}

/**
 * `url` as it may be kept and shown (an error, `client.url`, a circuit's name, a span, a log, what a model reads),
 * given the configured `secrets`; only the request uses the raw URL. Masked: the user info, always; a part holding a
 * configured secret in any form; a value under a credential-naming key (`api_key`, `token`, `sig`, `code`); a part that
 * looks like a credential (`looksLikeCredential`: `sk-…` keys, JWTs, 16+ mixed letters and digits — hosted MCP servers
 * put such tokens in the path). Kept, for debugging: scheme and host (configured secrets removed), words, numbers,
 * dates, versions, model names, UUIDs; a 16+ mixed id (a hex object id) looks like a token and is masked, an all-letter
 * or short token is caught only when configured. Path, query and fragment are one list of parts between `/ ? # & =`
 * (a `key=value` is seen wherever it is). Never throws: a relative or broken URL is split as text the same way.
 */
export function urlView(url: string, secrets: readonly string[] = []): URLView {
  let text = String(url);
  try {
    text = new URL(text).href; // one spelling: the one fetch sends and runtimes quote
  } catch {
    // a relative or broken URL is read as text
  }
  const [, scheme = '', authority, rest = ''] = PARTS.exec(text) as RegExpExecArray;
  const forms = secrets.flatMap((secret) => (typeof secret === 'string' && secret.length >= 4 ? secretForms(secret) : []));
  const hidden: string[] = [];
  /** `part`, or `[REDACTED]` when it is a credential (`keyed`: it sits under a credential-naming key). */
  const mask = (part: string, keyed?: boolean): string => {
    const decoded = decode(part);
    if (part === '' || (!keyed && !forms.some((form) => part.includes(form) || decoded.includes(form)) && !looksLikeCredential(decoded))) return part;
    hidden.push(part, decoded);
    return REDACTED;
  };
  let host = authority ?? '';
  const at = host.lastIndexOf('@');
  // A password is a credential by its place, however short (`https://:hunter2@…`); a user name, when 8+ long (a token
  // as the user name, `https://gw-tok-42@…`): a short one (`admin`) would match ordinary words.
  const userInfo: string[] = [];
  if (at !== -1) {
    host.slice(0, at).split(':').forEach((part, index) => {
      if (part.length >= (index > 0 ? 4 : 8)) userInfo.push(part, decode(part));
    });
    host = host.slice(at + 1);
  }
  for (const form of forms) host = host.split(form).join(REDACTED);
  const parts = rest.split(/([/?#&=])/);
  for (let index = 0; index < parts.length; index += 2) {
    const key = parts[index - 1] === '=' ? decode(parts[index - 2] as string) : '';
    parts[index] = mask(parts[index] as string, key !== '' && (isSecretKey(key) || URL_SECRET_KEY.test(key)));
  }
  const shown = parts.join('');
  const start = `${scheme}${authority === undefined ? '' : '//'}`;
  return {
    url: `${start}${at === -1 ? '' : `${REDACTED}@`}${host}${shown}`,
    origin: start + host,
    path: shown.split(/[?#]/)[0] as string,
    hidden: [...new Set([...hidden.filter((part) => part.length >= 8), ...userInfo])],
  };
}
