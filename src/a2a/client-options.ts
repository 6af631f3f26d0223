/** The options of `createA2AClient`, their checks, and the origin rule for a fetched card's endpoint. */
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { headerSecrets, urlView } from '../internal/redact.js';
import { retryOptionProblems, type RetryOptions } from '../internal/retry.js';
import { resilienceProblems, type ResilienceOptions } from '../resilience/guard.js';
import { isTelemetry, TELEMETRY_PROBLEM } from '../telemetry/no-telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { A2AProtocolVersion } from './constants.js';
import type { AgentCard } from './types.js';
import { secretsProblem } from '../internal/secret-forms.js';

/** Options of {@link createA2AClient}. One of `url`, `agentCardUrl` or `card` is required. */
export interface A2AClientOptions extends ResilienceOptions {
  /** The JSON-RPC endpoint (no card discovery). */
  url?: string | undefined;
  /** The agent's base URL or its card's URL: the card is fetched (`/.well-known/agent-card.json`, then `agent.json`). */
  agentCardUrl?: string | undefined;
  /** A card you already have. */
  card?: AgentCard | undefined;
  /** Force a protocol version. @default from the card; `0.3` without one */
  protocolVersion?: A2AProtocolVersion | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Where each call's `client` span goes (`openTelemetry(otel)`); its W3C `traceparent` is sent with the request, so
   * a traced remote (our A2A handler) makes its spans children of it. @default nothing recorded, no header
   */
  telemetry?: Telemetry | undefined;
  /** Extra request headers (credential-like values never appear in errors). */
  headers?: Record<string, string> | undefined;
  /**
   * Strings that must never reach an error, a result or a span (a token in the agent's URL): removed in every form.
   * Credentials in a URL's user info, a credential-named query value (`?api_key=`) or a token-shaped path segment
   * are masked without being listed. @default none besides the credentials of `headers`
   */
  secrets?: readonly string[] | undefined;
  /** Retries of retryable failures before any output: reads and cancels always; sends only on 429/503. @default { maxAttempts: 3 } */
  retry?: RetryOptions | false | undefined;
  /**
   * Limit of a unary call (until its whole answer is read), of card discovery (the whole card), and of waiting for a
   * stream's first event (an SSE event: comments, blank lines and parts of a line do not count). A timeout error says
   * which limit fired (`timeout`: `call` or `first_event`); both are retried like any retryable failure. `Infinity`
   * disables it. @default 60000
   */
  timeoutMs?: number | undefined;
  /**
   * Limit between two events of a stream: re-armed by each SSE event only, so a remote that sends nothing but
   * keep-alive comments is idle (`timeout: 'idle'`, not retried). `Infinity` disables it. @default 300000
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Limit of a whole stream (`streamMessage`, `resubscribe`), from its first request to its final event, the
   * resubscriptions and their back-off waits included (`timeout: 'total'`, not retried). `Infinity` disables it.
   * @default 1800000 (30 minutes)
   */
  streamTimeoutMs?: number | undefined;
  /**
   * Which endpoint origins a fetched card (`agentCardUrl`) may name besides its own: the client sends its `headers`
   * (credentials) to that endpoint, so by default an endpoint on another origin is refused with a `ConfigError`.
   * `true` trusts any origin; a list trusts those origins (compared as `new URL(entry).origin`). A `card` you pass
   * and a `url` are trusted as given. @default false
   */
  allowCrossOrigin?: boolean | readonly string[] | undefined;
  /** Resubscribe (`tasks/resubscribe`) with backoff when a stream drops before its final event. @default false */
  resubscribe?: RetryOptions | false | undefined;
}


/**
 * Refuses a fetched card's endpoint on another origin than the card's own, unless `allowCrossOrigin` trusts it: the
 * client's headers would go there.
 */
export function checkOrigin(endpoint: string, cardURL: string, allow: A2AClientOptions['allowCrossOrigin'], secrets: readonly string[]): void {
  const origin = originOf(endpoint, cardURL);
  const cardOrigin = originOf(cardURL);
  if (origin === cardOrigin || allow === true || (Array.isArray(allow) && allow.some((entry: string) => originOf(entry) === origin))) return;
  const problem = `the card at ${urlView(cardURL, secrets).url} names an endpoint on ${urlView(origin, secrets).url}, not ${urlView(cardOrigin, secrets).url}: the client's headers go there only if allowCrossOrigin is true or lists it`;
  throw new ConfigError(`Refused the A2A endpoint: ${problem}`, { problems: [problem] });
}

/** The origin of `url` (resolved against `base`), `'null'` for an opaque or unparsable one. */
function originOf(url: string, base?: string): string {
  try {
    return new URL(url, base).origin;
  } catch {
    return 'null';
  }
}


/**
 * Checks the options of `createA2AClient`: a `ConfigError` listing every problem. Returns the values the client keeps
 * out of what it shows: the configured secrets and the credentials of its headers.
 */
export function validateClientOptions(options: A2AClientOptions): string[] {
  if (!isPlainObject(options)) throw ConfigError.fromProblems(SUBJECT, ['options must be an object']);
  const problems: string[] = [];
  /** `<key> must be <rule>` when the option is given and not `valid`. */
  const rule = (key: keyof A2AClientOptions, valid: (value: never) => boolean, must: string): void => {
    const value: unknown = options[key];
    if (value !== undefined && !valid(value as never)) problems.push(`${key} must be ${must}`);
  };
  if (options.url === undefined && options.agentCardUrl === undefined && options.card === undefined) problems.push('give url, agentCardUrl or card');
  const known = [...(Array.isArray(options.secrets) ? options.secrets : []), ...headerSecrets(isPlainObject(options.headers) ? (options.headers as Record<string, string>) : undefined)];
  for (const key of ['url', 'agentCardUrl'] as const) {
    const value: unknown = options[key];
    if (value === undefined) continue;
    try {
      const parsed = new URL(String(value));
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.push(`${key} must be an http(s) URL`);
    } catch {
      problems.push(`${key} must be an absolute URL (got ${truncate(JSON.stringify(urlView(String(value), known).url), 200)})`);
    }
  }
  rule('card', isPlainObject, 'an agent card object');
  rule('protocolVersion', (value: unknown) => value === '0.3' || value === '1.0', `'0.3' or '1.0'`);
  rule('fetch', (value: unknown) => typeof value === 'function', 'a function');
  rule('headers', (value: unknown) => isPlainObject(value) && Object.values(value).every((entry) => typeof entry === 'string'), 'an object of strings');
  const secrets = secretsProblem(options.secrets);
  if (secrets) problems.push(secrets);
  problems.push(...retryOptionProblems(options.retry, 'retry'), ...retryOptionProblems(options.resubscribe, 'resubscribe'), ...resilienceProblems(options));
  // The client's spans are the telemetry object's (`a2aClient`, set by openTelemetry; NO_TELEMETRY's are inert), so an
  // app without tracing bundles none of them: a telemetry made by hand would trace nothing here, and is refused rather
  // than ignored, in the words every traced part uses.
  const { telemetry } = options;
  if (telemetry !== undefined && !(isTelemetry(telemetry) && telemetry.a2aClient)) problems.push(TELEMETRY_PROBLEM);
  rule('allowCrossOrigin', (value: unknown) => typeof value === 'boolean' || (Array.isArray(value) && value.every((entry) => originOf(String(entry)) !== 'null')), 'a boolean or a list of absolute URLs');
  for (const key of ['timeoutMs', 'idleTimeoutMs', 'streamTimeoutMs'] as const) rule(key, (value: unknown) => typeof value === 'number' && value > 0, 'a number > 0 or Infinity');
  if (problems.length > 0) throw ConfigError.fromProblems(SUBJECT, problems);
  return known;
}

const SUBJECT = 'A2A client options';
