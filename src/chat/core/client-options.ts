/**
 * The options every HTTP chat client shares, checked and resolved once for all providers: the API root, the key and
 * how it is sent, extra headers (their values become secrets, but the plain headers': `accept`, `content-*`, versions…), `fetch`, retries, time limits, a label,
 * extra body fields and the SSE line bound. Every problem is reported at once, as one `ConfigError`.
 */
import { ConfigError } from '../../errors/config-error.js';
import { createId } from '../../internal/ids.js';
import { isPlainObject, preview, refusedValue } from '../../internal/json.js';
import { headerSecrets, urlView } from '../../internal/redact.js';
import { resolveRetryOptions, retryOptionProblems, type ResolvedRetryOptions, type RetryOptions } from '../../internal/retry.js';
import { dependencyOf, resilienceGuard, resilienceProblems, type ResilienceOptions } from '../../resilience/guard.js';
import type { CallConfig, ChatTimeouts } from './call-config.js';
import { optionName, retryNameProblems, unknownOptionProblems } from '../../internal/option-names.js';

/**
 * Retry defaults of model calls.
 * @example `createOpenAICompatibleClient({ ...options, retry: { ...DEFAULT_CHAT_RETRY, maxAttempts: 5 } })`
 */
export const DEFAULT_CHAT_RETRY: ResolvedRetryOptions = /* @__PURE__ */ Object.freeze({
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  multiplier: 2,
  jitter: 'full',
  maxRetryAfterMs: 60_000,
});

/**
 * Timeout defaults of model calls.
 * @example `createOpenAICompatibleClient({ ...options, timeouts: { ...DEFAULT_CHAT_TIMEOUTS, idleMs: 15_000 } })`
 */
export const DEFAULT_CHAT_TIMEOUTS: Required<ChatTimeouts> = /* @__PURE__ */ Object.freeze({ totalMs: 600_000, firstChunkMs: 120_000, idleMs: 60_000 });

/** The options of every HTTP chat client. */
export interface HttpChatOptions extends ResilienceOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  model: string;
  headers?: Record<string, string> | undefined;
  fetch?: typeof fetch | undefined;
  retry?: RetryOptions | false | undefined;
  timeouts?: ChatTimeouts | undefined;
  name?: string | undefined;
  extraBody?: Record<string, unknown> | undefined;
  maxLineLength?: number | undefined;
}

/** What differs per provider in resolving the shared options. */
export interface HttpChatSpec<Options> {
  /** For the error: e.g. `Anthropic client options`. */
  what: string;
  /** The API root when none is given; without one, `baseURL` is required. */
  defaultBaseURL?: string;
  /** An example root for the error message. */
  exampleBaseURL: string;
  /** The endpoint under the root, e.g. `/v1/messages`. */
  path: string;
  /** The error/log label of a host, e.g. `Anthropic API (api.anthropic.com)`. */
  label: (host: string) => string;
  /** Headers carrying the key. */
  auth: (apiKey: string) => Record<string, string>;
  /** Headers every request carries before the user's (e.g. `anthropic-version`). */
  headers?: Record<string, string>;
  /** Checks of the provider's own options, pushed to `problems`. */
  check?: (settings: Partial<Options>, problems: string[]) => void;
  /** The provider's own option names, besides those every client takes (an unknown one is a problem). */
  keys?: readonly string[];
}

/** The options every HTTP chat client takes. */
const CLIENT_KEYS = ['baseURL', 'apiKey', 'model', 'headers', 'fetch', 'retry', 'timeouts', 'name', 'extraBody', 'maxLineLength', 'circuitBreaker', 'retryBudget'];

/** Header values: visible Latin-1 plus space and tab, no line breaks. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks and resolves the shared options; throws one `ConfigError` listing every problem (the provider's included). */
export function resolveHttpChat<Options extends HttpChatOptions>(options: Options, spec: HttpChatSpec<Options>): { config: CallConfig; host: string; settings: Partial<Options> } {
  const problems: string[] = [];
  const settings: Partial<Options> = isPlainObject(options) ? options : {};
  if (!isPlainObject(options)) problems.push('options must be an object');
  let url: URL | undefined;
  const baseURL = settings.baseURL ?? spec.defaultBaseURL;
  try {
    url = new URL(String(baseURL));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`baseURL must be an http(s) URL (got ${url.protocol})`);
  } catch {
    const given = baseURL === undefined ? 'nothing' : preview(urlView(String(baseURL), typeof settings.apiKey === 'string' ? [settings.apiKey] : []).url, 200);
    problems.push(`baseURL must be an absolute URL such as ${spec.exampleBaseURL} (got ${given})`);
  }
  if (typeof settings.model !== 'string' || settings.model.trim() === '') problems.push('model must be a non-empty string');
  if (settings.apiKey !== undefined && typeof settings.apiKey !== 'string') problems.push('apiKey must be a string');
  else if (settings.apiKey !== undefined && !HEADER_VALUE.test(settings.apiKey)) problems.push('apiKey contains characters an HTTP header cannot carry (a line break, a control character, or non-Latin-1 text)');
  if (settings.headers !== undefined && (!isPlainObject(settings.headers) || Object.values(settings.headers).some((value) => typeof value !== 'string'))) {
    problems.push('headers must be an object of strings');
  } else if (settings.headers !== undefined) {
    for (const [name, value] of Object.entries(settings.headers)) {
      if (!HEADER_NAME.test(name)) problems.push(`header name ${optionName(name)} is not a valid HTTP header name`);
      else if (!HEADER_VALUE.test(value)) problems.push(`header ${JSON.stringify(name)} has a value an HTTP header cannot carry`);
    }
  }
  if (settings.extraBody !== undefined && !isPlainObject(settings.extraBody)) problems.push('extraBody must be an object');
  const line = settings.maxLineLength;
  if (line !== undefined && !(typeof line === 'number' && (Number.isInteger(line) || line === Infinity) && line >= 1)) {
    problems.push(`maxLineLength must be an integer ≥ 1 or Infinity (got ${refusedValue(line)})`);
  }
  const fetchImpl = settings.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') problems.push('fetch must be a function (no global fetch in this runtime)');
  problems.push(...retryOptionProblems(settings.retry, 'retry'), ...retryNameProblems(settings.retry, 'retry'), ...resilienceProblems(settings));
  const timeouts = { ...DEFAULT_CHAT_TIMEOUTS };
  if (settings.timeouts !== undefined) {
    if (!isPlainObject(settings.timeouts)) problems.push('timeouts must be an object');
    else {
      problems.push(...unknownOptionProblems(settings.timeouts, ['totalMs', 'firstChunkMs', 'idleMs']).map((problem) => `timeouts: ${problem}`));
      for (const key of ['totalMs', 'firstChunkMs', 'idleMs'] as const) {
        const value = settings.timeouts[key];
        if (value === undefined) continue;
        if (typeof value !== 'number' || !(value > 0)) problems.push(`timeouts.${key} must be a number > 0 or Infinity (got ${refusedValue(value)})`);
        else timeouts[key] = value;
      }
    }
  }
  if (settings.name !== undefined && (typeof settings.name !== 'string' || settings.name === '')) problems.push(`name must be a non-empty string (got ${refusedValue(settings.name)})`);
  spec.check?.(settings, problems);
  if (isPlainObject(settings)) problems.push(...unknownOptionProblems(settings, [...CLIENT_KEYS, ...(spec.keys ?? [])]));
  if (problems.length > 0 || !url) throw ConfigError.fromProblems(spec.what, problems);
  const headers: Record<string, string> = { ...spec.headers, ...settings.headers };
  const secrets: string[] = [];
  if (settings.apiKey) {
    Object.assign(headers, spec.auth(settings.apiKey));
    secrets.push(settings.apiKey);
  }
  secrets.push(...headerSecrets(settings.headers));
  // The root as it may be shown (circuit names, labels, spans): a gateway may carry a credential in it.
  const view = urlView(url.href, secrets);
  secrets.push(...view.hidden);
  const host = view.origin.slice(url.protocol.length + 2);
  const base = url.toString().replace(/\/+$/, '');
  const config: CallConfig = {
    url: `${base}${spec.path}`,
    label: spec.label(settings.name ?? host),
    model: settings.model as string,
    headers,
    fetch: (input, init) => fetchImpl(input, init),
    retry: resolveRetryOptions(settings.retry, DEFAULT_CHAT_RETRY),
    timeouts,
    secrets,
    maxLineLength: settings.maxLineLength,
    createId: () => createId('call'),
    // One circuit per API root and model: a model that is down does not open the circuit of its siblings.
    guard: resilienceGuard(`${dependencyOf(view)} ${settings.model as string}`, settings),
  };
  return { config, host, settings };
}
