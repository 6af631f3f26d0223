/**
 * The DNS-rebinding matrix shared by the direct and the loopback-HTTP tests: every fetch handler we ship (MCP, A2A,
 * the Worker entry), the requests that probe it, where the caller is, and each Host/Origin case with what it must get
 * from a local caller (loopback, private, unknown) and from one on a public address.
 */
import { expect } from 'vitest';
import * as z from 'zod';
import { createA2AHandler } from '../../src/a2a/index.js';
import { createA2ADurableObject, createA2AWorker } from '../../src/cloudflare/index.js';
import type { CallerOptions } from '../../src/internal/caller-check.js';
import { createMCPHandler } from '../../src/mcp/index.js';
import { createEvent, type RunnableAgent } from '../../src/runner/index.js';
import { defineTool } from '../../src/tools/index.js';
import { FakeNamespace } from '../cloudflare/fake-platform.js';

export type Expected = 'ok' | 421 | 403;

/** One request a handler answers: its method, path and body. */
export interface Probe {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** How the platform tells where the caller is: nothing, a `{ remoteAddr }` (toNodeListener, Deno.serve), a Workers `ctx`. */
export interface Caller {
  name: string;
  where: 'local' | 'public';
  kind: 'none' | 'info' | 'workers';
  /** The remote address (`info`) or the `CF-Connecting-IP` header (`workers`; undefined: no header). */
  address?: string | undefined;
  /** The server's end of the connection (`info.localAddr`, as toNodeListener passes it; undefined: not said, as Deno). */
  local?: string | undefined;
}

export interface Subject {
  name: string;
  probes: readonly Probe[];
  /**
   * The handler with these options, taking what its platform passes after the request (`Deno.serve` and
   * toNodeListener: `info`; Workers: `env, ctx` — the Worker entry's `env` is bound here, its last argument is `ctx`).
   */
  create(options: CallerOptions): (request: Request, ...platform: unknown[]) => Promise<Response>;
}

const info = (hostname: string, local: string | undefined) => ({
  remoteAddr: { hostname, port: 50_000, transport: 'tcp' as const },
  ...(local !== undefined ? { localAddr: { hostname: local, port: 8787, transport: 'tcp' as const } } : {}),
});
const workersContext = { waitUntil: () => {}, passThroughOnException: () => {} };
/** What the platform passes after the request for `caller`. */
export const platformOf = (caller: Caller): unknown[] => (caller.kind === 'info' ? [info(caller.address as string, caller.local)] : caller.kind === 'workers' ? [{}, workersContext] : []);

const agent: RunnableAgent = {
  name: 'callers',
  async *runEvents(invocation) {
    yield createEvent({ invocationId: invocation.invocationId, author: 'callers' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' } }] } });
  },
};
const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: ({ text }) => ({ text }) });
const card = { name: 'callers' };
const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

const A2A_PROBES: readonly Probe[] = [
  { method: 'GET', path: '/.well-known/agent-card.json' },
  { method: 'POST', path: '/', body: rpc('tasks/get', { id: 'no-such-task' }), headers: { 'content-type': 'application/json' } },
];

export const SUBJECTS: readonly Subject[] = [
  {
    name: 'createMCPHandler',
    probes: [
      {
        method: 'POST',
        path: '/mcp',
        body: rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } }),
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
    ],
    create: (options) => createMCPHandler({ tools: [echo], serverInfo: { name: 'callers', version: '1' }, ...options }),
  },
  {
    name: 'createA2AHandler',
    probes: A2A_PROBES,
    create: (options) => createA2AHandler({ agent, card, ...options }),
  },
  {
    name: 'createA2AWorker',
    probes: A2A_PROBES,
    create(options) {
      const { env } = new FakeNamespace(createA2ADurableObject({ agent, card, namespace: 'A2A_TASKS' }));
      const worker = createA2AWorker({ namespace: 'A2A_TASKS', card, ...options });
      return (request, ...platform) => (platform.length === 0 ? worker.fetch(request, env) : worker.fetch(request, env, platform.at(-1)));
    },
  },
];

/**
 * Where callers are. Callers without a Workers `ctx` also send a `CF-Connecting-IP` and `X-Forwarded-For` of their own:
 * ignored. Public callers are on real public unicast addresses: the documentation ranges (192.0.2/24, 198.51.100/24,
 * 203.0.113/24, 2001:db8::/32) are special purpose, so not public.
 */
export const CALLERS: readonly Caller[] = [
  { name: 'unknown (no platform arguments)', where: 'local', kind: 'none' },
  { name: 'on 127.0.0.1', where: 'local', kind: 'info', address: '127.0.0.1' },
  { name: 'on ::1', where: 'local', kind: 'info', address: '::1' },
  { name: 'on ::ffff:127.0.0.1', where: 'local', kind: 'info', address: '::ffff:127.0.0.1' },
  { name: 'on a private network (192.168.1.20)', where: 'local', kind: 'info', address: '192.168.1.20' },
  { name: 'on a private network (10.0.0.7)', where: 'local', kind: 'info', address: '10.0.0.7' },
  { name: 'on a private network (172.20.0.3)', where: 'local', kind: 'info', address: '172.20.0.3' },
  { name: 'on a unique local IPv6 address (fd12::7)', where: 'local', kind: 'info', address: 'fd12::7' },
  { name: 'on a link-local IPv6 address (fe80::1%eth0)', where: 'local', kind: 'info', address: 'fe80::1%eth0' },
  { name: 'on a documentation address (203.0.113.9)', where: 'local', kind: 'info', address: '203.0.113.9' },
  { name: 'on a documentation IPv6 address (2001:db8::9)', where: 'local', kind: 'info', address: '2001:db8::9' },
  { name: 'on a CGNAT address (100.64.0.9)', where: 'local', kind: 'info', address: '100.64.0.9' },
  { name: 'on a public address (8.8.8.8)', where: 'public', kind: 'info', address: '8.8.8.8' },
  { name: 'on a public IPv6 address (2a00:1450:4001::9)', where: 'public', kind: 'info', address: '2a00:1450:4001::9' },
  { name: 'on a public address, to the server on its own (8.8.8.8 → 9.9.9.9)', where: 'public', kind: 'info', address: '8.8.8.8', local: '9.9.9.9' },
  { name: 'on this machine, through its public address (9.9.9.9 → 9.9.9.9)', where: 'local', kind: 'info', address: '9.9.9.9', local: '9.9.9.9' },
  { name: 'on this machine, through its public address, dual stack (::ffff:9.9.9.9 → ::ffff:9.9.9.9)', where: 'local', kind: 'info', address: '::ffff:9.9.9.9', local: '::ffff:9.9.9.9' },
  { name: 'on this machine, through its global IPv6 address (2a00:1450:4001::9)', where: 'local', kind: 'info', address: '2a00:1450:4001::9', local: '2a00:1450:4001:0:0:0:0:9' },
  { name: 'behind workerd on loopback (wrangler dev)', where: 'local', kind: 'workers', address: '127.0.0.1' },
  { name: 'behind workerd without CF-Connecting-IP', where: 'local', kind: 'workers' },
  { name: 'at the Cloudflare edge (1.1.1.1)', where: 'public', kind: 'workers', address: '1.1.1.1' },
];

export interface Row {
  name: string;
  host: string;
  origin?: string;
  options?: CallerOptions;
  /** What a local caller gets, and a public one. */
  expected: readonly [Expected, Expected];
}

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]', '127.0.0.2', 'LOCALHOST', 'localhost.', 'LocalHost.', 'app.localhost'].flatMap((name) => [name, `${name}:8787`]);
const proxy: CallerOptions = { allowedHosts: ['api.example.com'] };

export const ROWS: readonly Row[] = [
  { name: 'a foreign Host', host: 'rebind.attacker.example:8787', expected: [421, 'ok'] },
  { name: 'a foreign Host on the default port', host: 'rebind.attacker.example', expected: [421, 'ok'] },
  { name: 'a foreign Host that ends in a loopback name', host: 'localhost.attacker.example', expected: [421, 'ok'] },
  { name: 'a foreign Origin on a loopback Host', host: '127.0.0.1:8787', origin: 'http://evil.example', expected: [403, 403] },
  { name: 'Origin null', host: 'localhost:8787', origin: 'null', expected: [403, 403] },
  { name: 'an Origin that is not serialized as browsers do', host: 'localhost:8787', origin: 'http://localhost:8787/', expected: [403, 403] },
  { name: 'the rebinding: Host and Origin foreign and equal', host: 'rebind.attacker.example:8787', origin: 'http://rebind.attacker.example:8787', expected: [421, 'ok'] },
  { name: 'the rebinding on the default port', host: 'rebind.attacker.example', origin: 'http://rebind.attacker.example', expected: [421, 'ok'] },
  ...loopbackHosts.map((host): Row => ({ name: `the loopback Host ${host}`, host, expected: ['ok', 'ok'] })),
  { name: 'a page of the same server under another loopback name', host: '127.0.0.1:8787', origin: 'http://localhost:8787', expected: ['ok', 'ok'] },
  { name: 'a page of the same server on [::1]', host: '[::1]:8787', origin: 'http://127.0.0.1:8787', expected: ['ok', 'ok'] },
  { name: 'a page on another local port', host: 'localhost:8787', origin: 'http://localhost:3000', expected: [403, 403] },
  { name: 'a page on the same local port over another scheme', host: 'localhost:8787', origin: 'https://localhost:8787', expected: [403, 403] },
  { name: 'a global IPv6 Host', host: '[2001:db8::1]:8787', expected: [421, 'ok'] },
  { name: 'a link-local IPv6 Host', host: '[fe80::1]:8787', expected: [421, 'ok'] },
  { name: 'a private IPv4 Host', host: '192.168.1.20:8787', expected: [421, 'ok'] },
  { name: 'behind a reverse proxy: the listed name', options: proxy, host: 'api.example.com', expected: ['ok', 'ok'] },
  { name: 'behind a reverse proxy: the listed name in upper case with a trailing dot', options: proxy, host: 'API.Example.COM.', expected: ['ok', 'ok'] },
  { name: 'behind a reverse proxy: the listed name on any port', options: proxy, host: 'api.example.com:8443', expected: ['ok', 'ok'] },
  { name: 'behind a reverse proxy: a loopback name still', options: proxy, host: 'localhost:8787', expected: ['ok', 'ok'] },
  { name: 'behind a reverse proxy: another name, even from a public caller', options: proxy, host: 'other.example.com', expected: [421, 421] },
  { name: 'behind a reverse proxy: a name that only starts like the listed one', options: proxy, host: 'api.example.com.evil.example', expected: [421, 421] },
  { name: 'behind a reverse proxy: its own origin over the same scheme', options: proxy, host: 'api.example.com', origin: 'http://api.example.com', expected: ['ok', 'ok'] },
  { name: 'behind a TLS proxy: the public https origin, not listed', options: proxy, host: 'api.example.com', origin: 'https://api.example.com', expected: [403, 403] },
  { name: 'behind a TLS proxy: the public https origin, listed', options: { ...proxy, allowedOrigins: ['https://api.example.com'] }, host: 'api.example.com', origin: 'https://api.example.com', expected: ['ok', 'ok'] },
  { name: 'a browser app on a listed origin', options: { allowedOrigins: ['https://app.example/'] }, host: 'localhost:8787', origin: 'https://app.example', expected: ['ok', 'ok'] },
  { name: 'a listed name with its port', options: { allowedHosts: ['api.example.com:8443'] }, host: 'api.example.com:8443', expected: ['ok', 'ok'] },
  { name: 'a listed name on another port', options: { allowedHosts: ['api.example.com:8443'] }, host: 'api.example.com:9443', expected: [421, 421] },
  { name: 'a listed name with the default port, reached without one', options: { allowedHosts: ['api.example.com:80'] }, host: 'api.example.com', expected: ['ok', 'ok'] },
  { name: 'a listed name with its port, reached on the default port', options: { allowedHosts: ['api.example.com:8443'] }, host: 'api.example.com', expected: [421, 421] },
  { name: "allowedHosts '*': the rebinding passes (opted out)", options: { allowedHosts: '*' }, host: 'rebind.attacker.example', origin: 'http://rebind.attacker.example', expected: ['ok', 'ok'] },
  { name: "allowedHosts ['*'] as '*'", options: { allowedHosts: ['*'] }, host: 'rebind.attacker.example', expected: ['ok', 'ok'] },
  { name: 'allowedHosts [] closes the door to a public caller too', options: { allowedHosts: [] }, host: 'agent.example.com', expected: [421, 421] },
  { name: "allowedOrigins '*': a foreign Origin", options: { allowedOrigins: '*' }, host: 'localhost', origin: 'https://evil.example', expected: ['ok', 'ok'] },
  { name: "allowedOrigins '*': Origin null", options: { allowedOrigins: '*' }, host: 'localhost', origin: 'null', expected: ['ok', 'ok'] },
];

/** Asserts what one answer must be: a refusal with its status and a JSON-RPC -32600 naming the option to set, or 200. */
export async function expectAnswer(response: Response, expected: Expected, what: string): Promise<void> {
  if (expected === 'ok') {
    expect(response.status, what).toBe(200);
    await response.body?.cancel();
    return;
  }
  expect(response.status, what).toBe(expected);
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(body, what).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(body.error.message, what).toContain(expected === 421 ? 'allowedHosts' : 'allowedOrigins');
}
