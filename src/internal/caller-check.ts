/**
 * @internal Who may call a fetch handler we ship: the defence against DNS rebinding. A page on an attacker's domain
 * whose name was pointed at 127.0.0.1 sends requests the browser thinks same-origin, with the attacker's name in both
 * `Host` and `Origin`; a handler that only compares the two would serve it. A handler sees a `Request` whose URL is
 * built from that `Host`, so it cannot tell on its own where it is served: the caller's address comes from what the
 * platform passes after the request — `Deno.serve`'s and `toNodeListener`'s `{ remoteAddr }` (`toNodeListener` adds
 * `localAddr`, this server's end of the connection), or a Worker's `CF-Connecting-IP` (set by Cloudflare's edge) when a
 * Workers `ctx` came along.
 *
 * - Host: a loopback name (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`, any port) is always accepted: an
 *   attacker cannot point it elsewhere. Another name must be in `allowedHosts` (`'*'`: any) — or, when `allowedHosts`
 *   is not set, the caller must be remote and public: on a public unicast address (not in an IANA special-purpose
 *   range) that is not this server's own end of the connection. A browser on the server's machine that reaches it
 *   through the machine's own public address connects from that very address, so it counts as local. A remote public
 *   caller reaches the handler directly (a deployed server); one that only some public addresses may reach needs
 *   `allowedHosts`.
 *   An unknown caller (no platform arguments) counts as local: safe by default. Refused: 421.
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
/**
 * Addresses that are not public unicast, as CIDR: the IANA IPv4 and IPv6 special-purpose registries (RFC 6890 and its
 * successors: private, shared/CGNAT, loopback, link local, documentation, benchmarking, protocol assignments, AS112,
 * 6to4, ORCHID, …, whether or not globally reachable), IPv4 multicast and reserved (224/3, broadcast included), and
 * the special ranges inside IPv6 global unicast. Any IPv6 address outside 2000::/3 is not public either.
 */
const SPECIAL_IPV4 = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24', '192.31.196.0/24', '192.52.193.0/24', '192.88.99.0/24', '192.168.0.0/16', '192.175.48.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/3'];
const SPECIAL_IPV6 = ['2001::/23', '2001:db8::/32', '2002::/16', '2620:4f:8000::/48', '3fff::/20'];

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

/** @internal Where the caller is, as the platform reported it. */
export interface PeerAddresses {
  /** The caller's address: `remoteAddr.hostname`, or a Worker's `CF-Connecting-IP`. */
  readonly remote: string;
  /** This server's end of the connection (`toNodeListener`'s `localAddr.hostname`), when the platform says. */
  readonly local?: string | undefined;
}

/**
 * @internal The caller's address as the platform reported it (`Deno.serve`'s and `toNodeListener`'s `remoteAddr`, a
 * Worker's `CF-Connecting-IP`) with the server's own end (`localAddr`, from `toNodeListener`), or undefined when no
 * platform argument says.
 */
export function peerAddress(request: Request, platform: readonly unknown[]): PeerAddresses | undefined {
  try {
    for (const argument of platform) {
      if (typeof argument !== 'object' || argument === null) continue;
      const info = argument as { remoteAddr?: { hostname?: unknown }; localAddr?: { hostname?: unknown } };
      const remote = info.remoteAddr?.hostname;
      if (typeof remote === 'string') {
        const local = info.localAddr?.hostname;
        return { remote, local: typeof local === 'string' ? local : undefined };
      }
      if (typeof (argument as { waitUntil?: unknown }).waitUntil === 'function') {
        const header = request.headers.get('cf-connecting-ip');
        return header === null ? undefined : { remote: header };
      }
    }
  } catch {
    // a platform argument with a throwing getter says nothing
  }
  return undefined;
}

const octets = (text: string): number[] | undefined => {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) < 256) ? parts.map(Number) : undefined;
};
const binary = (values: readonly number[], width: number): string => values.map((value) => value.toString(2).padStart(width, '0')).join('');

/**
 * An address as bits: 32 for IPv4 and IPv4-mapped IPv6 (`::ffff:a.b.c.d`, in any spelling), 128 for other IPv6
 * (brackets and a zone dropped); undefined for anything else. Two spellings of one address give the same bits.
 */
function addressBits(address: string): string | undefined {
  const text = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const ipv4 = octets(text);
  if (ipv4) return binary(ipv4, 8);
  // An IPv4 tail (`::ffff:1.2.3.4`) becomes two groups.
  const tail = /^(.*:)(\d+\.[\d.]*)$/.exec(text);
  let hex = text;
  if (tail) {
    const [a = -1, b = 0, c = 0, d = 0] = octets(tail[2] as string) ?? [];
    if (a < 0) return undefined;
    hex = `${tail[1]}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return undefined;
  const [head, rest] = halves.map((half) => (half === '' ? [] : half.split(':'))) as [string[], string[] | undefined];
  const fill = 8 - head.length - (rest?.length ?? 0);
  const groups = rest === undefined ? head : fill > 0 ? [...head, ...Array<string>(fill).fill('0'), ...rest] : [];
  if (groups.length !== 8 || !groups.every((group) => /^[\da-f]{1,4}$/.test(group))) return undefined;
  const bits = binary(groups.map((group) => parseInt(group, 16)), 16);
  return bits.startsWith(`${'0'.repeat(80)}${'1'.repeat(16)}`) ? bits.slice(96) : bits;
}

/** The CIDR prefixes as bit strings, to compare with {@link addressBits}. */
const prefixes = (ranges: readonly string[]): string[] => ranges.map((range) => {
  const [address, length] = range.split('/') as [string, string];
  return (addressBits(address) as string).slice(0, Number(length));
});
/** The prefixes, built on first use (a call at module scope is code every bundler keeps). */
let specialBits: { v4: string[]; v6: string[] } | undefined;

/**
 * True for a caller on the public internet: a public unicast address — IPv4 outside {@link SPECIAL_IPV4}, IPv6 in
 * 2000::/3 outside {@link SPECIAL_IPV6} — that is not the server's own end of the connection (a browser on the
 * server's machine reaching it through the machine's own address). Anything else — loopback, private, link local,
 * special purpose, a form not understood, no address — is local.
 */
function isPublicCaller(peer: PeerAddresses | undefined): boolean {
  const bits = peer && addressBits(peer.remote);
  if (bits === undefined || (peer?.local !== undefined && addressBits(peer.local) === bits)) return false;
  specialBits ??= { v4: prefixes(SPECIAL_IPV4), v6: prefixes(SPECIAL_IPV6) };
  return bits.length === 32 ? !specialBits.v4.some((prefix) => bits.startsWith(prefix)) : bits.startsWith('001') && !specialBits.v6.some((prefix) => bits.startsWith(prefix));
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
  if (!loopback && hosts !== '*' && !hosts?.has(name) && !hosts?.has(`${name}:${portOf(url)}`) && (hosts || !isPublicCaller(peerAddress(request, platform)))) {
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
/** @internal A value a caller sent, as a refusal may quote it: credential shapes masked, at most 200 characters. */
export const echo = (value: string): string => truncate(JSON.stringify(redactText(value.slice(0, 1000))), 200);
