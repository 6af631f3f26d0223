import { ConfigError } from '../errors/config-error.js';
import { messageOf, read } from '../internal/error-chain.js';
import { parseProviderError, readBoundedBody, requestIdOf } from '../internal/http-body.js';
import { isRetryableStatus, statusText } from '../internal/http-status.js';
import { redactText, urlView } from '../internal/redact.js';
import { isPlainObject, positiveIntegerProblems, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { secretsProblem } from '../internal/secret-forms.js';
import { APIFailure } from './api-failure.js';
import { AuthenticationError } from './authentication-error.js';
import { DataNotFoundError } from './data-not-found-error.js';
import { InputValidationError } from './input-validation-error.js';
import { NetworkError } from './network-error.js';
import { PermissionError } from './permission-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { TimeoutError } from './timeout-error.js';
import type { ToolFailure } from './tool-failure.js';

/** Options of {@link toolErrorFromResponse} and {@link toolErrorFromFetchError}. */
export interface HTTPToolErrorOptions {
  /** The service's name as the model should read it, e.g. `'Weather API'`. @default 'external' */
  service?: string | undefined;
  /** Strings that must never be echoed (your API key): removed from anything taken from the body. */
  secrets?: readonly string[] | undefined;
  /** Bound on the error body read. @default 65536 */
  maxBodyBytes?: number | undefined;
  /** Time limit of the error body read: a server that trickles bytes cannot hold the tool call. @default 10000 */
  bodyTimeoutMs?: number | undefined;
  /**
   * What the model is told of the URL: `'path'` (no host, no query: internal host names never reach the model
   * provider), `'full'` (host and path, no query), or `false`. The developer log has the whole URL. Either way
   * credentials in it are masked: the user info, credential-named query values (`?api_key=`), token-shaped or
   * `secrets`-holding path segments. @default 'path'
   */
  showURL?: 'path' | 'full' | false | undefined;
  /**
   * Mask credential-shaped values in what is taken from the body (bearer tokens, `sk-…` keys, JWTs, a token after
   * `key=`/`token:`), even when they are not among `secrets`. `secrets` are always removed. @default true
   */
  redactCredentials?: boolean | undefined;
}

/**
 * The URL as the model may see it (see `showURL`), and as the developer log keeps it: credentials in any position
 * masked (`urlView`). `hidden`: the raw parts masked, kept out of the body's text too (a server echoing the path).
 */
function urls(response: Response, options: HTTPToolErrorOptions, secrets: readonly string[]): { model?: string; log?: string; hidden: readonly string[] } {
  if (!response.url) return { hidden: [] };
  const view = urlView(response.url, secrets);
  const log = view.url;
  const show = options.showURL ?? 'path';
  return { model: show === 'full' ? `${view.origin}${view.path}` : show === 'path' ? view.path : undefined, log, hidden: view.hidden };
}

/**
 * Maps a failed HTTP response from an API your tool calls to the standard tool failure, with a message that means
 * something to a model: 400/422 → `InputValidationError`, 401 → `AuthenticationError`, 403 → `PermissionError`,
 * 404 → `DataNotFoundError`, 408 → `TimeoutError`, 409 and 5xx → `APIFailure`, 429 → `RateLimitError` (with
 * `Retry-After`). The provider's message is included with credentials removed (configured `secrets` in every form,
 * and credential-shaped values); the model sees the URL's path only (no host, no query) unless `showURL` says
 * otherwise, while the developer log keeps the full URL. Options of the wrong shape (a lone `secrets` string, a
 * `service` that is not a string, an unknown name) throw a `ConfigError` naming each.
 *
 * @example
 * ```ts
 * const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` }, signal });
 * if (!response.ok) throw await toolErrorFromResponse(response, { service: 'Weather API', secrets: [key] });
 * // 401 → AuthenticationError: "Access to the Weather API was denied (401 Unauthorized). The provided API key may be invalid or expired."
 * ```
 */
export async function toolErrorFromResponse(response: Response, given: HTTPToolErrorOptions = {}): Promise<ToolFailure> {
  const options = checkedOptions('toolErrorFromResponse', given, ['service', 'secrets', 'maxBodyBytes', 'bodyTimeoutMs', 'showURL', 'redactCredentials']);
  if (typeof (response as Partial<Response> | null)?.status !== 'number' || typeof (response as Partial<Response>).headers?.get !== 'function') {
    throw ConfigError.fromProblems('toolErrorFromResponse', [`response must be a fetch Response (got ${refusedValue(response)})`]);
  }
  const service = options.service?.trim() || 'external';
  const api = /\bapi\b/i.test(service) ? service : `${service} API`;
  const configured = options.secrets ?? [];
  const { model: url, log: logURL, hidden } = urls(response, options, configured);
  const secrets = [...configured, ...hidden];
  const status = response.status;
  const body = await readBoundedBody(response, options.maxBodyBytes, { timeoutMs: options.bodyTimeoutMs ?? 10_000 });
  const provider = parseProviderError(body.text, secrets, { patterns: options.redactCredentials !== false });
  const requestId = requestIdOf(response.headers, secrets);
  const context: Record<string, unknown> = { service, status };
  if (url) context.url = url;
  if (requestId) context.requestId = requestId;
  if (provider.message) context.providerMessage = provider.message;
  if (provider.code) context.providerCode = provider.code;
  const said = provider.message ? `: ${provider.message}` : '.';
  const label = statusText(status);
  // The developer's side only (the model never sees a cause): the full URL and the body as read.
  const cause: Record<string, unknown> = { status, body: provider.text };
  if (logURL) cause.url = logURL;
  if (body.timedOut) cause.bodyTimedOut = true;

  switch (true) {
    case status === 400:
    case status === 422:
      return new InputValidationError(`The ${api} rejected the request as invalid (${label})${said}`, {
        context,
        cause,
        suggestion: 'Check the arguments against the tool description and call again with corrected values.',
      });
    case status === 401:
      return new AuthenticationError(`Access to the ${api} was denied (${label}). The provided API key may be invalid or expired.`, { context, cause });
    case status === 403:
      return new PermissionError(`The ${api} refused access to this resource (${label})${said}`, { context, cause });
    case status === 404:
      return new DataNotFoundError(
        url ? `The resource requested at '${url}' was not found (${label}).` : `The resource requested from the ${api} was not found (${label}).`,
        { context, cause },
      );
    case status === 408:
      return new TimeoutError(`The ${api} timed out waiting for the request (${label}).`, { context, cause, retryable: true });
    case status === 429: {
      const retryAfterMs = parseRetryAfter(response.headers);
      if (retryAfterMs !== undefined) context.retryAfterMs = retryAfterMs;
      return new RateLimitError(`The ${api} rate limit was reached (${label})${said}`, { context, cause, retryAfterMs });
    }
    default: {
      const retryable = isRetryableStatus(status);
      const retryAfterMs = retryable ? parseRetryAfter(response.headers) : undefined;
      const what = status >= 500 ? `failed with ${label}` : status === 409 ? `reported a conflict (${label})` : `answered ${label}`;
      // The wait a 503 asks for is the model's to know too, as a 429's is (in whole seconds, as it reads it).
      const seconds = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
      if (seconds !== undefined) context.retryAfterMs = seconds * 1000;
      return new APIFailure(`The ${api} ${what}${said}`, {
        context,
        cause,
        retryable,
        retryAfterMs,
        suggestion: !retryable
          ? 'Do not retry this request unchanged; continue without this tool or tell the user the service failed.'
          : seconds === undefined
            ? undefined
            : `The service asked to wait ${seconds} second${seconds === 1 ? '' : 's'}; call this tool again after that at the earliest, or continue without it.`,
      });
    }
  }
}

/**
 * Maps an exception thrown by `fetch` (no response at all) to a tool failure: DNS failures, refused or reset
 * connections and offline → `NetworkError`; a timeout signal → `TimeoutError`. Credentials in the message are removed.
 *
 * @example
 * ```ts
 * const response = await fetch(url, { signal }).catch((error) => { throw toolErrorFromFetchError(error, { service: 'Weather API' }); });
 * ```
 */
export function toolErrorFromFetchError(error: unknown, given: Pick<HTTPToolErrorOptions, 'service' | 'secrets'> = {}): ToolFailure {
  const options = checkedOptions('toolErrorFromFetchError', given, ['service', 'secrets']);
  const service = options.service?.trim() || 'external';
  const api = /\bapi\b/i.test(service) ? service : `${service} API`;
  const name = read(error, 'name');
  const detail = redactText(networkDetail(error), options.secrets ?? []);
  if (name === 'TimeoutError') {
    return new TimeoutError(`The request to the ${api} timed out.`, { context: { service }, cause: error });
  }
  if (name === 'AbortError') {
    return new APIFailure(`The request to the ${api} was cancelled.`, { context: { service }, cause: error, retryable: false });
  }
  const dns = /ENOTFOUND|EAI_AGAIN|getaddrinfo|dns|name not resolved|resolve host/i.test(detail);
  return new NetworkError(
    dns ? `The ${api} could not be reached: its host name could not be resolved.` : `The ${api} could not be reached because of a network problem (${detail}).`,
    { context: { service }, cause: error },
  );
}

function networkDetail(error: unknown): string {
  const cause = read(error, 'cause');
  const causeMessage = read(cause, 'message');
  const informativeCause = typeof causeMessage === 'string' && causeMessage !== '';
  const code = read(cause, 'code') ?? read(error, 'code');
  const message = messageOf(informativeCause ? cause : error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * The options, checked before anything is read: a wrong one is the developer's mistake, so it is a `ConfigError`
 * naming it (inside a tool's `execute`, a crash the model is not shown), never a `TypeError` or a secret spread into
 * letters too short to redact.
 */
function checkedOptions(where: string, options: unknown, names: readonly string[]): HTTPToolErrorOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw ConfigError.fromProblems(where, [`options must be an object (got ${refusedValue(options)})`]);
  const { service, secrets, bodyTimeoutMs, showURL, redactCredentials } = options as HTTPToolErrorOptions;
  const problems = [...unknownOptionProblems(options, names), ...positiveIntegerProblems(options, ['maxBodyBytes'])];
  if (service !== undefined && typeof service !== 'string') problems.push(`service must be a string (got ${refusedValue(service)})`);
  const secretsRefused = secretsProblem(secrets);
  if (secretsRefused) problems.push(secretsRefused);
  if (bodyTimeoutMs !== undefined && !(typeof bodyTimeoutMs === 'number' && bodyTimeoutMs > 0)) problems.push(`bodyTimeoutMs must be a number > 0 or Infinity (got ${refusedValue(bodyTimeoutMs)})`);
  if (showURL !== undefined && showURL !== 'path' && showURL !== 'full' && showURL !== false) problems.push(`showURL must be 'path', 'full' or false (got ${refusedValue(showURL)})`);
  if (redactCredentials !== undefined && typeof redactCredentials !== 'boolean') problems.push(`redactCredentials must be a boolean (got ${refusedValue(redactCredentials)})`);
  if (problems.length > 0) throw ConfigError.fromProblems(where, problems);
  return options;
}
