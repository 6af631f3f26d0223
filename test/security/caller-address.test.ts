// Where a caller is, for the DNS-rebinding check: which addresses count as public (only public unicast: every IANA
// special-purpose range, multicast and reserved space is not), every spelling Node and Deno report (IPv4-mapped IPv6,
// brackets, zones), and a caller on the server's own machine that reaches it through one of the machine's own
// addresses — the socket's two ends are then one address, and the caller is local whatever that address is. Without
// allowedHosts, a foreign Host is served to a public caller only.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { callerSettings, checkCaller } from '../../src/internal/caller-check.js';
import { toNodeListener, type NodeIncomingRequest, type NodeServerResponse, type ServeHandlerInfo } from '../../src/node/index.js';
import { SUBJECTS } from './caller-matrix.js';

const settings = callerSettings({}, []);
/** What a foreign Host gets from a caller the platform reports as `remote` (and the server's end as `local`). */
const verdict = (remote: string, local?: string): 'public' | 'local' => {
  const info = { remoteAddr: { hostname: remote, port: 50_000, transport: 'tcp' }, ...(local !== undefined ? { localAddr: { hostname: local, port: 8787, transport: 'tcp' } } : {}) };
  const refusal = checkCaller(new Request('http://rebind.attacker.example:8787/mcp'), [info], settings);
  if (refusal) expect(refusal.status).toBe(421);
  return refusal ? 'local' : 'public';
};

const NOT_PUBLIC_IPV4 = [
  ['0.0.0.0', 'this network, 0/8'], ['0.1.2.3', 'this network, 0/8'], ['10.1.2.3', 'private, 10/8'],
  ['100.64.0.1', 'shared (CGNAT), 100.64/10'], ['100.127.255.254', 'shared (CGNAT), 100.64/10'], ['127.0.0.1', 'loopback'], ['127.9.9.9', 'loopback'],
  ['169.254.169.254', 'link local, 169.254/16'], ['172.16.0.1', 'private, 172.16/12'], ['172.31.255.255', 'private, 172.16/12'],
  ['192.0.0.8', 'IETF protocol assignments, 192.0.0/24'], ['192.0.0.170', 'NAT64 discovery, 192.0.0/24'], ['192.0.2.2', 'documentation TEST-NET-1'],
  ['192.31.196.1', 'AS112-v4'], ['192.52.193.1', 'AMT'], ['192.88.99.1', 'deprecated 6to4 relay anycast'], ['192.168.1.20', 'private, 192.168/16'],
  ['192.175.48.1', 'direct delegation AS112'], ['198.18.0.1', 'benchmarking, 198.18/15'], ['198.19.255.255', 'benchmarking, 198.18/15'],
  ['198.51.100.7', 'documentation TEST-NET-2'], ['203.0.113.9', 'documentation TEST-NET-3'], ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved, 240/4'], ['255.255.255.255', 'limited broadcast'],
] as const;
const PUBLIC_IPV4 = ['1.1.1.1', '8.8.8.8', '11.0.0.1', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '192.0.1.1', '192.0.3.1', '192.167.255.255', '192.169.0.1', '198.17.255.255', '198.20.0.1', '203.0.114.1', '223.255.255.254'];
const NOT_PUBLIC_IPV6 = [
  ['::', 'unspecified'], ['::1', 'loopback'], ['[::1]', 'loopback, bracketed'], ['0:0:0:0:0:0:0:1', 'loopback, in full'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'], ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'], ['::FFFF:192.0.2.2', 'IPv4-mapped documentation'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'], ['::ffff:100.64.0.1', 'IPv4-mapped CGNAT'], ['::8.8.8.8', 'deprecated IPv4-compatible'],
  ['64:ff9b::808:808', 'IPv4/IPv6 translation'], ['64:ff9b:1::1', 'local-use translation'], ['100::1', 'discard only'],
  ['2001::1', 'Teredo, 2001::/23'], ['2001:2::1', 'benchmarking, 2001::/23'], ['2001:1ff:ffff::1', 'IETF protocol assignments, 2001::/23'],
  ['2001:db8::9', 'documentation, 2001:db8::/32'], ['2002:808:808::1', '6to4, 2002::/16'], ['2620:4f:8000::1', 'direct delegation AS112'],
  ['3fff::1', 'documentation, 3fff::/20'], ['3fff:fff::1', 'documentation, 3fff::/20'], ['5f00::1', 'SRv6 SIDs'], ['fc00::1', 'unique local'],
  ['fd12::7', 'unique local'], ['fe80::1%eth0', 'link local, with a zone'], ['fec0::1', 'deprecated site local'], ['ff02::1', 'multicast'],
  ['4000::1', 'outside 2000::/3'], ['1::1', 'outside 2000::/3'],
] as const;
const PUBLIC_IPV6 = ['2a00:1450:4001::9', '2606:4700:4700::1111', '[2001:4860:4860::8888]', '2001:4860:4860:0:0:0:0:8888', '2A00:1450:4001::9', '2001:200::1', '2620:4f:7fff::1', '3ffe:ffff::1', '::ffff:8.8.8.8', '::ffff:808:808', '0:0:0:0:0:ffff:8.8.8.8'];
const NOT_ADDRESSES = ['', 'localhost', 'rebind.attacker.example', '256.1.1.1', '1.2.3', '1.2.3.4.5', '2001:db8::1::2', '12345::1', 'gggg::1', '::ffff:1.2.3.256', '1:2:3:4:5:6:7:8:9', '1::2:3:4:5:6:7:8', ':::'];

describe('which caller addresses are public', () => {
  it.each(NOT_PUBLIC_IPV4)('IPv4 %s (%s) is not public', (address) => expect(verdict(address)).toBe('local'));
  it.each(PUBLIC_IPV4)('IPv4 %s is public', (address) => expect(verdict(address)).toBe('public'));
  it.each(NOT_PUBLIC_IPV6)('IPv6 %s (%s) is not public', (address) => expect(verdict(address)).toBe('local'));
  it.each(PUBLIC_IPV6)('IPv6 %s is public', (address) => expect(verdict(address)).toBe('public'));
  it.each(NOT_ADDRESSES)('%j is not an address: local', (address) => expect(verdict(address)).toBe('local'));
});

describe("a caller on the server's own address is on this machine", () => {
  it.each([
    ['8.8.8.8', '8.8.8.8'],
    ['::ffff:8.8.8.8', '::ffff:8.8.8.8'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['8.8.8.8', '::ffff:808:808'],
    ['2a00:1450:4001::9', '2a00:1450:4001:0:0:0:0:9'],
    ['[2A00:1450:4001::9]', '2a00:1450:4001::9'],
  ])('%s → %s: local', (remote, local) => expect(verdict(remote, local)).toBe('local'));

  it.each([
    ['8.8.8.8', '8.8.4.4'],
    ['8.8.8.8', '::ffff:8.8.4.4'],
    ['2a00:1450:4001::9', '2a00:1450:4001::8'],
    ['8.8.8.8', 'not an address'],
  ])('%s → %s: a remote public caller', (remote, local) => expect(verdict(remote, local)).toBe('public'));

  it('a local address that is not a string, or a throwing one, says nothing', () => {
    expect(checkCaller(new Request('http://rebind.attacker.example/'), [{ remoteAddr: { hostname: '8.8.8.8' }, localAddr: { hostname: 42 } }], settings)).toBeUndefined();
    const throwing = { remoteAddr: { hostname: '8.8.8.8' }, get localAddr(): never { throw new Error('gone'); } };
    expect(checkCaller(new Request('http://rebind.attacker.example/'), [throwing], settings)?.status).toBe(421);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Through toNodeListener: a look-alike socket on a public address (this sandbox has none), then real HTTP.

const mcp = SUBJECTS.find((subject) => subject.name === 'createMCPHandler')!;
const probe = mcp.probes[0]!;
const foreign = (port: number | string) => ({ ...probe.headers, host: `rebind.attacker.example:${port}`, origin: `http://rebind.attacker.example:${port}` });

/** Runs `listener` on a look-alike request whose socket has these two ends; the status it answers. */
function answerFor(socket: { remoteAddress: string; localAddress: string }): Promise<number> {
  return new Promise((resolve) => {
    const listeners: Record<string, Array<(...args: never[]) => void>> = {};
    const incoming: NodeIncomingRequest = {
      method: probe.method, url: probe.path, headers: foreign(8787), complete: true,
      socket: { ...socket, remotePort: 50_000, localPort: 8787 },
      on(event: string, listener: (...args: never[]) => void) {
        (listeners[event] ??= []).push(listener);
        if (event === 'end') queueMicrotask(() => { for (const data of listeners.data ?? []) data(new TextEncoder().encode(probe.body) as never); listener(); });
        return this;
      },
      pause: () => {}, resume: () => {},
    };
    const outgoing = {
      statusCode: 200, statusMessage: '', headersSent: false, writableEnded: false, writableFinished: false, socket: { destroy() {}, end() {} },
      setHeader() {}, flushHeaders() {}, write: () => true, destroy() {}, on() {}, once() {}, off() {},
      end(callback?: () => void) { resolve(outgoing.statusCode); callback?.(); },
    };
    toNodeListener(mcp.create({}))(incoming, outgoing as NodeServerResponse);
  });
}

describe('toNodeListener passes the socket\'s local address, and the rebinding is refused', () => {
  it('a browser on this machine through its public address (remote = local = 8.8.8.8) gets 421', async () => {
    expect(await answerFor({ remoteAddress: '8.8.8.8', localAddress: '8.8.8.8' })).toBe(421);
    expect(await answerFor({ remoteAddress: '::ffff:8.8.8.8', localAddress: '::ffff:8.8.8.8' })).toBe(421);
    expect(await answerFor({ remoteAddress: '2a00:1450:4001::9', localAddress: '2a00:1450:4001::9' })).toBe(421);
  });

  it('a remote public caller is still served under any name', async () => {
    expect(await answerFor({ remoteAddress: '8.8.8.8', localAddress: '9.9.9.9' })).toBe(200);
  });
});

const own = Object.values(networkInterfaces())
  .flat()
  .filter((entry) => entry !== undefined && !entry.internal && !entry.address.startsWith('fe80:'))
  .map((entry) => entry!.address);
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))));

describe('over real HTTP, a server on all interfaces (`.listen(port)`), reached through this machine\'s own address', () => {
  it.for(own.length > 0 ? own : ['(none)'])('through %s: a foreign Host gets 421, and the handler hears both ends', async (address, context) => {
    context.skip(own.length === 0, 'this machine has no non-loopback, non-link-local address to connect through');
    const seen: ServeHandlerInfo[] = [];
    const handler = mcp.create({});
    const server = createServer(toNodeListener((request, info) => (info && seen.push(info), handler(request, info))));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: address, port, method: probe.method, path: probe.path, headers: foreign(port), agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
      request.end(probe.body);
    });
    expect(status).toBe(421);
    expect(seen[0]?.localAddr?.hostname).toBe(seen[0]?.remoteAddr?.hostname);
    expect(seen[0]?.localAddr?.port).toBe(port);
  });
});
