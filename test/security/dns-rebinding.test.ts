// Who may call a server on this machine: every fetch handler we ship × every Host/Origin case (a foreign Host, a
// foreign Origin, both foreign and equal — what a page sends once its name points at 127.0.0.1 —, loopback names in
// every spelling, IPv6, a reverse proxy with its allow-list) × where the caller is, called directly as each platform
// calls it, then over real loopback HTTP through toNodeListener and through the demos' own adapter.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { toNodeListener, type FetchHandler } from '../../src/node/index.js';
// @ts-expect-error — plain JavaScript demo module
import { serve as demoServe } from '../../demo/node/serve.mjs';
import { CALLERS, expectAnswer, platformOf, ROWS, SUBJECTS, type Caller, type Probe, type Row } from './caller-matrix.js';

function requestOf(probe: Probe, row: Row, caller: Caller): Request {
  const headers: Record<string, string> = { ...probe.headers };
  if (row.origin !== undefined) headers.origin = row.origin;
  if (caller.kind === 'workers' && caller.address !== undefined) headers['cf-connecting-ip'] = caller.address;
  // A client's own claims about its address count for nothing without a Workers ctx.
  if (caller.kind !== 'workers') Object.assign(headers, { 'cf-connecting-ip': '203.0.113.50', 'x-forwarded-for': '203.0.113.51', forwarded: 'for=203.0.113.52' });
  return new Request(`http://${row.host}${probe.path}`, { method: probe.method, headers, ...(probe.body !== undefined ? { body: probe.body } : {}) });
}

describe.each(SUBJECTS)('$name, called directly as its platform calls it', (subject) => {
  it.each(ROWS)('$name', async (row) => {
    const handler = subject.create(row.options ?? {});
    for (const caller of CALLERS) {
      const expected = row.expected[caller.where === 'local' ? 0 : 1];
      for (const probe of subject.probes) await expectAnswer(await handler(requestOf(probe, row, caller), ...platformOf(caller)), expected, `${caller.name}, ${probe.method} ${probe.path}`);
    }
  });

  it('answers the card with the Host it was asked under only once that Host passed', async () => {
    if (subject.name === 'createMCPHandler') return;
    const handler = subject.create({});
    const card = (await (await handler(new Request('http://localhost:8787/.well-known/agent-card.json'))).json()) as { url: string };
    expect(card.url).toBe('http://localhost:8787/');
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Over real loopback HTTP: the caller is this process, on loopback.

const servers: Server[] = [];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
  await Promise.all(closers.map((close) => close()));
});

async function listen(handler: FetchHandler, host: '127.0.0.1' | '::1'): Promise<number> {
  const server = createServer(toNodeListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

/** One request with the Host and Origin a browser sends (fetch cannot set Host), on a connection of its own. */
function send(address: string, port: number, probe: Probe, row: Row): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...probe.headers, host: row.host, ...(row.origin !== undefined ? { origin: row.origin } : {}) };
    const request = httpRequest({ host: address, port, method: probe.method, path: probe.path, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 0 })));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(probe.body);
  });
}

const adapters: ReadonlyArray<{ name: string; start: (handler: FetchHandler) => Promise<{ address: string; port: number }> }> = [
  { name: 'toNodeListener on 127.0.0.1', start: async (handler) => ({ address: '127.0.0.1', port: await listen(handler, '127.0.0.1') }) },
  { name: 'toNodeListener on [::1]', start: async (handler) => ({ address: '::1', port: await listen(handler, '::1') }) },
  {
    name: "the demos' adapter (demo/node/serve.mjs)",
    async start(handler) {
      const server = (await demoServe(handler, { port: 0 })) as { port: number; close: () => Promise<void> };
      closers.push(server.close);
      return { address: '127.0.0.1', port: server.port };
    },
  },
];

describe.each(adapters)('over real loopback HTTP through $name', (adapter) => {
  describe.each(SUBJECTS)('$name', (subject) => {
    it.each(ROWS)('$name', async (row) => {
      const { address, port } = await adapter.start(subject.create(row.options ?? {}));
      for (const probe of subject.probes) await expectAnswer(await send(address, port, probe, row), row.expected[0], `${probe.method} ${probe.path}`);
    });
  });
});
