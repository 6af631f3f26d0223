/**
 * @internal Who may call a fetch handler we ship: the defence against DNS rebinding. A page on an attacker's domain
 * whose name was pointed at 127.0.0.1 sends requests the browser thinks same-origin, with the attacker's name in both
 * `Host` and `Origin`; a handler that only compares the two would serve it. A handler sees a `Request` whose URL is
 * built from that `Host`, so it cannot tell on its own where it is served: the caller's address comes from what the
 * platform passes after the request — `Deno.serve`'s and `toNodeListener`'s `{ remoteAddr }`, or a Worker's
 * `CF-Connecting-IP` (set by Cloudflare's edge) when a Workers `ctx` came along.
 *
 * - Host: a loopback name (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`, any port) is always accepted: an
 *   attacker cannot point it elsewhere. Another name must be in `allowedHosts` (`'*'`: any) — or, when `allowedHosts`
 *   is not set, the caller must be on a public address (the handler is a deployed server; rebinding needs a loopback
 *   or private target). An unknown caller (no platform arguments) counts as local: safe by default. Refused: 421.
 * - Origin (after the Host passed, only when the header is there: non-browser clients send none): the request's own
 *   origin, one listed in `allowedOrigins` (`'*'`: any), or — on a loopback Host — a loopback origin with the same
 *   scheme and port (`http://127.0.0.1:3000` and `http://localhost:3000` are one server). `null` only with `'*'`.
 *   Refused: 403.
 */
import { truncate } from './json.js';
import { redactText } from './redact.js';

/** @internal The resolved `allowedHosts` and `allowedOrigins` of a handler. */
export interface CallerSettings {
  /** Names accepted besides loopback ones (`name` or `name:port`, lower case, no trailing dot), `'*'`, or undefined when not set. */
  readonly hosts: ReadonlySet<string> | '*' | undefined;
  /** Origins accepted besides the request's own (serialized), or `'*'`. */
  readonly origins: ReadonlySet<string> | '*';
}

/** @internal The two options, as every handler names them. */
export interface CallerOptions {
  allowedHosts?: readonly string[] | '*' | undefined;
  allowedOrigins?: readonly string[] | '*' | undefined;
}

/** @internal Why a caller was refused: 421 (the Host) or 403 (the Origin), and a message saying which option to set. */
export interface CallerRefusal {
  status: 421 | 403;
  message: string;
}

const LOOPBACK_NAME = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$|\.localhost$/;
/** IPv4 addresses that are not on the public internet: 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.168/16. */
const LOCAL_IPV4 = /^(?:0|10|127|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])|169\.254|172\.(?:1[6-9]|2\d|3[01])|192\.168)\./;

const tryURL = (text: string): URL | undefined => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

/** The hostname without the trailing dot of a fully qualified name (`localhost.` is `localhost`). */
const bare = (url: URL): string => url.hostname.replace(/\.$/, '');
const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');
/** `https://a.example`; for a scheme without a serialized origin (`chrome-extension://id`), scheme and host. */
const originOf = (url: URL): string => (url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`);

/**
 * @internal The caller's address as the platform reported it (`Deno.serve`'s and `toNodeListener`'s `remoteAddr`, a
 * Worker's `CF-Connecting-IP`), or undefined when no platform argument says.
 */
export function peerAddress(request: Request, platform: readonly unknown[]): string | undefined {
  try {
    for (const argument of platform) {
      if (typeof argument !== 'object' || argument === null) continue;
      const remote = (argument as { remoteAddr?: { hostname?: unknown } }).remoteAddr;
      if (typeof remote?.hostname === 'string') return remote.hostname;
      if (typeof (argument as { waitUntil?: unknown }).waitUntil === 'function') return request.headers.get('cf-connecting-ip') ?? undefined;
    }
  } catch {
    // a platform argument with a throwing getter says nothing
  }
  return undefined;
}

/**
 * True for an address on the public internet: an IPv4 address outside {@link LOCAL_IPV4}, or a global unicast IPv6
 * address (2000::/3). Anything else — loopback, private, link local, unique local, a form not understood — is local.
 */
function isPublicAddress(address: string): boolean {
  const text = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/^::ffff:(?=\d+\.)/, '');
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(text) ? !LOCAL_IPV4.test(text) : /^[23][\da-f]{0,3}:/.test(text);
}

/**
 * @internal Checks `allowedHosts` and `allowedOrigins` (each problem pushed to `problems`, naming the entry) and
 * resolves them.
 */
export function callerSettings(options: CallerOptions, problems: string[]): CallerSettings {
  const hosts = entries(options.allowedHosts, 'allowedHosts', 'a host name, not a URL (api.example.com, api.example.com:8443)', problems, (entry) => {
    const url = /^[^/?#@\\\s]+$/.test(entry) ? tryURL(`http://${entry}`) : undefined;
    return url && bare(url) + (/:\d+$/.test(entry) ? `:${portOf(url)}` : '');
  });
  const origins = entries(options.allowedOrigins, 'allowedOrigins', 'an origin, without a path (https://app.example)', problems, (entry) => {
    const url = /^[a-z][\w+.-]*:\/\/[^/?#@\\\s]+\/?$/i.test(entry) ? tryURL(entry) : undefined;
    return url && originOf(url);
  });
  return { hosts, origins: origins ?? new Set() };
}

function entries(value: unknown, name: string, what: string, problems: string[], parse: (entry: string) => string | undefined): Set<string> | '*' | undefined {
  if (value === undefined || value === '*') return value;
  if (!Array.isArray(value)) {
    problems.push(`${name} must be an array of strings or '*'`);
    return new Set();
  }
  const parsed = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const item = entry === '*' ? entry : typeof entry === 'string' ? parse(entry) : undefined;
    if (item) parsed.add(item);
    else problems.push(`${name}[${index}] must be ${what}`);
  });
  return parsed.has('*') ? '*' : parsed;
}

/**
 * @internal The refusal of a caller that may not call this handler, or undefined. Runs before anything else of the
 * request is read; echoes the caller's `Host` or `Origin` bounded (200 characters) and with credentials masked.
 */
export function checkCaller(request: Request, platform: readonly unknown[], settings: CallerSettings): CallerRefusal | undefined {
  const url = new URL(request.url);
  const name = bare(url);
  const loopback = LOOPBACK_NAME.test(name);
  const { hosts, origins } = settings;
  if (!loopback && hosts !== '*' && !hosts?.has(name) && !hosts?.has(`${name}:${portOf(url)}`) && (hosts || !isPublicAddress(peerAddress(request, platform) ?? ''))) {
    return {
      status: 421,
      message: `Misdirected Request: the Host ${echo(url.host)} is not allowed; list this server's names in allowedHosts (a caller not on a public address may use only localhost, 127.0.0.1 and [::1] by default)`,
    };
  }
  const header = request.headers.get('origin');
  if (header === null || origins === '*') return undefined;
  const origin = tryURL(header);
  // Browsers send the serialized origin; anything else (a path, upper case, a default port) is not one.
  if (origin && originOf(origin) === header) {
    if (header === url.origin || origins.has(header)) return undefined;
    if (loopback && LOOPBACK_NAME.test(bare(origin)) && origin.protocol === url.protocol && portOf(origin) === portOf(url)) return undefined;
  }
  return { status: 403, message: `Forbidden: the Origin ${echo(header)} is not allowed; list it in allowedOrigins` };
}

/** A caller's value quoted for a message: credentials masked, at most 200 characters. */
const echo = (value: string): string => truncate(JSON.stringify(redactText(value.slice(0, 1000))), 200);
