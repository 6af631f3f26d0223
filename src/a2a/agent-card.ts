import { A2ATransportError } from '../errors/a2a-transport-error.js';
import { ConfigError } from '../errors/config-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import { startTimer } from '../internal/delay.js';
import { readBody } from '../internal/http-body.js';
import { signalProblems } from '../internal/call-options.js';
import { isPlainObject, refusedValue, truncate } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { secretsProblem } from '../internal/secret-forms.js';
import { NO_REDIRECTS, statusText } from '../internal/http-status.js';
import { headerSecrets, redactError, redactHeaders, urlView } from '../internal/redact.js';
import { Attempt, attemptBody } from '../internal/attempt.js';
import { AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, type A2AProtocolVersion } from './constants.js';
import { decodeAgentCard } from './decode.js';
import { networkError } from './transport-response.js';
import type { AgentCard } from './types.js';

/**
 * @internal The largest agent card we read: 1 MiB, written out (a bundler keeps module-scope arithmetic). Errors name
 * it as `describeBytes` writes it, in a literal a test holds to it: the client bundles no `describeBytes`.
 */
export const MAX_CARD_BYTES = 1_048_576;

/** Where to send JSON-RPC calls, and in which protocol version, for a card. */
export interface AgentEndpoint {
  url: string;
  version: A2AProtocolVersion;
}

/**
 * Picks the JSON-RPC endpoint and version of a card. A card that offers a 1.0 JSONRPC interface is spoken to in 1.0,
 * as the reference implementation does when a card offers 1.0 and 0.3; else its 0.3 `url` or 0.3 interface.
 * `prefer` pins a version when the card offers it.
 * @example `endpointOf(card) // { url: 'https://agent.example/a2a', version: '1.0' }`
 */
export function endpointOf(card: AgentCard, prefer?: A2AProtocolVersion): AgentEndpoint {
  const interfaces = (card.supportedInterfaces ?? []).filter((entry) => entry.protocolBinding === 'JSONRPC');
  const major = (version: string | undefined): A2AProtocolVersion => (version?.startsWith('1') ? '1.0' : '0.3');
  const pick = (version: A2AProtocolVersion) => interfaces.find((entry) => major(entry.protocolVersion) === version);
  const version = prefer ?? '1.0';
  const preferred = pick(version);
  if (preferred) return { url: preferred.url, version };
  // No interface of that version: the card's `url` (in 0.3, or in 1.0 when asked for and no interface is left), else
  // its first interface (of the other version) in that interface's version.
  const [any] = interfaces;
  if (typeof card.url === 'string' && card.url !== '' && (prefer !== '1.0' || !any)) return { url: card.url, version: prefer ?? '0.3' };
  if (any) return { url: any.url, version: major(any.protocolVersion) };
  // The card's own words (its name) are not quoted: a remote wrote them, and they may hold what it was sent.
  throw new SerializeError('The agent card names no JSON-RPC endpoint', {
    subject: 'agent card',
    issues: [{ code: 'invalid_type', path: 'agent card.url', message: 'expected a JSON-RPC endpoint (url or supportedInterfaces)' }],
  });
}

/** Options of {@link fetchAgentCard}. */
export interface FetchAgentCardOptions {
  fetch: typeof fetch;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Values to keep out of errors. The credentials in `headers` (as every client of ours reads them) and in the URL's
   * user info, query or path are kept out without being listed.
   */
  secrets?: readonly string[] | undefined;
  /**
   * Limit of the whole discovery, the fallback path and the card's body included (a body that trickles in never
   * completes it): an `A2ATransportError` with `reason: 'timeout'`, `timeout: 'call'`. `Infinity` disables it.
   * @default 60000
   */
  timeoutMs?: number | undefined;
}

/**
 * Fetches an agent card: a URL ending in `.json` is the card itself; otherwise `<url>/.well-known/agent-card.json`,
 * falling back to `<url>/.well-known/agent.json` (A2A ≤ 0.2) when that answers 404. Bounded in time (`timeoutMs`)
 * and size (1 MiB); an abort rejects with the signal's reason. A URL that is not absolute http(s), or options of the
 * wrong shape (a lone `secrets` string, an unknown name), reject with a `ConfigError` before anything is fetched.
 * @example `const { card } = await fetchAgentCard('https://agent.example', { fetch, timeoutMs: 10_000 })`
 */
export async function fetchAgentCard(url: string, options: FetchAgentCardOptions): Promise<{ card: AgentCard; url: string }> {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('fetchAgentCard', [`options must be an object (got ${refusedValue(options)})`]);
  const { fetch, headers, signal, secrets, timeoutMs } = options;
  const problems = unknownOptionProblems(options, ['fetch', 'headers', 'signal', 'secrets', 'timeoutMs']);
  const secretsRefused = secretsProblem(secrets);
  if (secretsRefused) problems.push(secretsRefused);
  else if (!isHTTPURL(url)) problems.push(`url must be an absolute http(s) URL (got ${typeof url === 'string' ? JSON.stringify(truncate(urlView(url, secrets ?? []).url, 200)) : refusedValue(url)})`);
  if (typeof fetch !== 'function') problems.push(`fetch must be a function (got ${refusedValue(fetch)})`);
  if (headers !== undefined && !(isPlainObject(headers) && Object.values(headers).every((value) => typeof value === 'string'))) problems.push('headers must be an object of strings');
  problems.push(...signalProblems(signal));
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0)) problems.push(`timeoutMs must be a number > 0 or Infinity (got ${refusedValue(timeoutMs)})`);
  if (problems.length > 0) throw ConfigError.fromProblems('fetchAgentCard', problems);
  const known = [...(secrets ?? []), ...headerSecrets(headers)]; // as every client of ours: credential headers are secrets
  known.push(...urlView(url, known).hidden);
  return loadAgentCard(url, { ...options, secrets: known });
}

/**
 * @internal {@link fetchAgentCard} for options already checked (the client's), `secrets` holding what `url` hides: an
 * app that never calls it bundles no check.
 */
export async function loadAgentCard(url: string, options: FetchAgentCardOptions): Promise<{ card: AgentCard; url: string }> {
  const candidates = /\.json($|\?)/.test(new URL(url).pathname) ? [url] : [AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH].map((path) => new URL(path.slice(1), withSlash(url)).toString());
  const limit = options.timeoutMs ?? 60_000;
  const secrets = options.secrets ?? [];
  let asked = '';
  const timeout = (controller: AbortController) =>
    Number.isFinite(limit)
      ? startTimer(() => controller.abort(new A2ATransportError(`Could not fetch the agent card from ${asked}: no complete card within ${limit} ms (call limit, timeoutMs)`, { reason: 'timeout', timeout: 'call', url: asked })), limit)
      : undefined;
  const attempt = new Attempt(options.signal, timeout);
  try {
    for (let index = 0; ; index++) {
      const candidate = candidates[index] as string;
      asked = urlView(candidate, secrets).url;
      let response: Response;
      try {
        response = await attempt.race(options.fetch(candidate, { headers: { accept: 'application/json', ...options.headers }, signal: attempt.signal, redirect: NO_REDIRECTS }));
      } catch (error) {
        if (attempt.signal.aborted) throw attempt.signal.reason; // the caller's reason, or the time limit
        throw networkError(`Could not fetch the agent card from ${asked}`, asked, error, secrets);
      }
      if (!response.ok) {
        response.body?.cancel().catch(() => {}); // a failed answer's body is never read
        if (response.status === 404 && index < candidates.length - 1) continue;
        throw new A2ATransportError(`Could not fetch the agent card from ${asked}: ${statusText(response.status)}`, {
          status: response.status,
          headers: redactHeaders(response.headers, secrets),
          url: asked,
        });
      }
      const { text, exceeded, failed } = await attempt.race(readBody(attemptBody(attempt, response), MAX_CARD_BYTES));
      if (exceeded) throw new SerializeError(`The agent card at ${asked} is over the 1 MiB (1048576 bytes) limit`, { subject: 'agent card' });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        if (failed) throw networkError(`Could not fetch the agent card from ${asked} (its body broke off)`, asked, failed.error, secrets);
        throw new SerializeError(`The agent card at ${asked} is not JSON`, { subject: 'agent card' });
      }
      return { card: decodeAgentCard(json), url: candidate };
    }
  } finally {
    attempt.close();
  }
}

function isHTTPURL(url: unknown): boolean {
  try {
    return typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** What you give the handler: at least a name; everything else has a sensible default. */
export type AgentCardInput = Partial<AgentCard> & { name: string };

/**
 * A complete agent card for our handler: the A2A 0.3 fields (`protocolVersion` `0.3.0`, `url`, `preferredTransport`
 * `JSONRPC`) plus 1.0's `supportedInterfaces` for each version served, so 0.3 and 1.0 clients both find the endpoint.
 * @example `buildAgentCard({ name: 'inventory', description: 'Stock lookups' }, 'https://inventory.example/a2a', ['0.3', '1.0'])`
 */
export function buildAgentCard(input: AgentCardInput, endpoint: string, versions: readonly A2AProtocolVersion[]): AgentCard {
  return {
    protocolVersion: versions.includes('0.3') ? '0.3.0' : '1.0.0',
    description: '',
    version: '1.0.0',
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    ...input,
    name: input.name,
    url: input.url ?? endpoint,
    preferredTransport: input.preferredTransport ?? 'JSONRPC',
    capabilities: { streaming: true, pushNotifications: false, ...input.capabilities },
    supportedInterfaces: input.supportedInterfaces ?? versions.map((version) => ({ url: input.url ?? endpoint, protocolBinding: 'JSONRPC', protocolVersion: version })),
  };
}
