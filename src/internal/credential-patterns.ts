/**
 * @internal Credential-shaped substrings, found without knowing the secret: provider key prefixes, `Bearer`/`Basic`
 * credentials, JWTs, a long token after `key=`/`token`/`secret`/`password`, a URL's password. Every pattern is linear
 * on hostile input (bounded repetitions, no nested quantifiers; `test/internal/redact.test.ts` times the worst cases).
 */

export const REDACTED = '[REDACTED]';

/**
 * Credential shapes, each linear in its input: every pattern can start only where a scan of it cannot already have
 * started (a pattern that could restart inside the run it just scanned would be quadratic on hostile text).
 */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\b(sk|pk|rk|ak)-[A-Za-z0-9_-]{12,}/g,
  /\b(ghp|gho|ghs|xox[abp])_[A-Za-z0-9_-]{12,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
];

/** `Bearer <credential>` / `Basic <base64>` in any case; the credential must look like one ("basic authentication" is prose). */
const SCHEME = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi;

/** A run of JWT characters (dots included) long enough to hold one: searched for a JWT by {@link maskJWTs}. */
const JWT_RUN = /[A-Za-z0-9_.-]{29,}/g;

/**
 * A credential-shaped value after a word that names one and a `:` or `=` (`key=…`, `"api_key": "…"`, `token: …`,
 * `PWD=…`, and inside a variable name: `OPENAI_API_KEY=…`, `DB_PASSWORD=…` — the word need not start a word, only
 * not follow a letter or digit): 16 or more token characters holding both a letter and a digit. The word and the
 * separator are kept.
 */
const KEYWORD_VALUE =
  /(?<![A-Za-z0-9])(api[-_]?key|apikey|key|access[-_]?token|refresh[-_]?token|auth[-_]?token|token|secret|client[-_]?secret|password|passwd|pwd|credential)(\\?["']?[ \t]*[:=][ \t]*\\?["']?)([A-Za-z0-9._~+/=-]{16,})/gi;

/** The same after `token`, `secret` or `password` and spaces (`token Zx9…5s expired`), for a value that is not a file name. */
const KEYWORD_SPACE_VALUE = /(?<![A-Za-z0-9])(token|secret|password|passwd|pwd)([ \t]+)([A-Za-z0-9_~+/=-]{16,})(?![.A-Za-z0-9_~+/=-])/gi;

/**
 * The password of a URL's user info (`postgres://user:pw@host`): the scheme, the user and the `@` are kept. At any
 * length (a bound would leave a long generated token in), and still linear: user and password end at the next `/`,
 * `@` or white space, every `://` holds a `/`, and the user stops at its first `:`.
 */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]*:)([^\s/@]+)(@)/gi;

/** One cheap test before the patterns: text without any of their anchors (most messages) skips them all. */
const MAY_HOLD_CREDENTIAL = /bearer|basic|[spra]k-|gh[pos]_|xox[abp]_|AIza|eyJ|key|token|secret|passw|pwd|credential|:\/\//i;

/** Digits, both cases, or punctuation a token uses: not a plain word. */
function credentialShaped(value: string): boolean {
  return /[0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)) || /[._~+/=-]/.test(value);
}

function maskKeywordValue(match: string, word: string, separator: string, value: string): string {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) ? `${word}${separator}${REDACTED}` : match;
}

function maskScheme(match: string, scheme: string, space: string, value: string): string {
  if (!credentialShaped(value)) return match;
  if (/^basic$/i.test(scheme) && !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return match;
  return `${scheme}${space}${REDACTED}`;
}

/**
 * JWTs inside a run of JWT characters (`session-eyJ….….…` too): split at the dots, a part holding `eyJ` followed by
 * two parts of 8 or more is a header, a payload and a signature. Linear in the run.
 */
function maskJWTs(run: string): string {
  if (!run.includes('eyJ')) return run;
  const parts = run.split('.');
  const kept: string[] = [];
  let changed = false;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    const start = part.indexOf('eyJ');
    const jwt = start !== -1 && index + 2 < parts.length && part.length - start >= 11 && (parts[index + 1] as string).length >= 8 && (parts[index + 2] as string).length >= 8;
    if (!jwt) {
      kept.push(part);
      continue;
    }
    kept.push(`${part.slice(0, start)}${REDACTED}`);
    index += 2; // the payload and the signature go with the header
    changed = true;
  }
  return changed ? kept.join('.') : run;
}

/** A run of 16 or more letters and digits: random enough to be a token when it mixes both. */
const LONG_RUN = /[A-Za-z0-9]{16,}/g;

/**
 * True when `value` (one part of something: a URL's path segment, a query value) looks like a credential on its own:
 * it holds a credential shape {@link maskCredentials} masks, or a run of 16 or more letters and digits mixing both
 * (the shape of generated tokens, hex keys included). Words, numbers, dates, versions, model names and UUIDs (runs of
 * at most 12) do not.
 */
export function looksLikeCredential(value: string): boolean {
  if (maskCredentials(value) !== value) return true;
  for (const run of value.match(LONG_RUN) ?? []) if (/[0-9]/.test(run) && /[A-Za-z]/.test(run)) return true;
  return false;
}

/** Masks every credential-shaped substring of `text` with `[REDACTED]` (a cheap precheck skips text with no anchor). */
export function maskCredentials(text: string): string {
  if (!MAY_HOLD_CREDENTIAL.test(text)) return text;
  let result = text;
  for (const pattern of TOKEN_PATTERNS) result = result.replace(pattern, REDACTED);
  return result
    .replace(SCHEME, maskScheme)
    .replace(JWT_RUN, maskJWTs)
    .replace(KEYWORD_VALUE, maskKeywordValue)
    .replace(KEYWORD_SPACE_VALUE, maskKeywordValue)
    .replace(URL_PASSWORD, `$1${REDACTED}$3`);
}
