// MCP: our client (faultline/mcp) against @modelcontextprotocol/sdk's Client + StreamableHTTPClientTransport.
// (a) One tools/call, sequential calls, on two in-process servers so neither client plays at home: ours
//     (createMCPHandler, JSON mode) and the SDK's (McpServer on WebStandardStreamableHTTPServerTransport, JSON mode,
//     one transport per session as its docs do). Each server's fetch handler is the clients' `fetch`: no sockets.
//     Interleaved rounds, medians; the ratio is ours / theirs on the same server in the same run.
// (b) min+gzip of each client bundled for the browser and tree-shaken. The SDK pulls CommonJS (ajv), which rollup
//     cannot bundle without @rollup/plugin-commonjs (not installed), so both sides are bundled with rolldown (in
//     node_modules through vite) + terser + gzip -9; ours is also given as scripts/size.mjs (rollup) measures it.
// (c) Cold import in a fresh Node process, as bench/cold-import.mjs does.
import { execFileSync } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import terser from '@rollup/plugin-terser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { rolldown } from 'rolldown';
import * as z from 'zod';
import { createMCPClient, createMCPHandler } from '../dist/mcp/index.js';
import { defineTool, runTool } from '../dist/tools/index.js';
import { bundleSize } from '../scripts/size.mjs';
import { compare, fixed, jsonLine, median, table } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? 15);
const URL_ = 'http://127.0.0.1/mcp';

// ---- (a) calls per second -------------------------------------------------------------------------------------

/** Our server: one tool, JSON answers, sessions on (the defaults but the mode). */
const ourHandler = createMCPHandler({
  tools: [defineTool({ name: 'echo', description: 'Echoes its text.', parameters: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) })],
  serverInfo: { name: 'bench-faultline', version: '1.0.0' },
  responseMode: 'json',
  logger: () => {},
});

/** The SDK's server: the same tool, JSON answers, a transport per session (its documented stateful setup). */
function sdkHandler() {
  const transports = new Map();
  return async (request) => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const transport = transports.get(id);
      return transport ? transport.handleRequest(request) : Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
    }
    const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text: JSON.stringify({ text }) }],
      structuredContent: { text },
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}
const theirHandler = sdkHandler();

/**
 * A fetch function over a fetch handler: what the network would do, minus the network. The SDK's transport passes
 * one long-lived signal with every request, and Node 20's `Request` keeps a listener on it until the request is
 * garbage-collected (its own `fetch` does the same); the listener limit is lifted on such a signal so that Node's
 * MaxListenersExceededWarning does not flood the output. Nothing else changes.
 */
const lifted = new WeakSet();
const fetchOver = (handler) => (input, init) => {
  const signal = init?.signal;
  if (signal && !lifted.has(signal)) {
    lifted.add(signal);
    setMaxListeners(0, signal);
  }
  return handler(input instanceof Request && init === undefined ? input : new Request(input, init));
};

const ARGS = { text: 'hello' };
const servers = { ours: ourHandler, sdk: theirHandler };
const clients = {};
for (const [side, handler] of Object.entries(servers)) {
  const ours = createMCPClient({ url: URL_, fetch: fetchOver(handler) });
  await ours.connect();
  const theirs = new Client({ name: 'bench', version: '1.0.0' });
  await theirs.connect(new StreamableHTTPClientTransport(new URL(URL_), { fetch: fetchOver(handler) }));
  const [tool] = await ours.tools();
  clients[side] = { ours, theirs, tool };
}

/** The echoed text, from either server's answer. */
const echoed = (result) => result.structuredContent?.data?.text ?? result.structuredContent?.text;
const check = (value, who) => {
  if (value !== 'hello') throw new Error(`${who}: unexpected answer ${JSON.stringify(value)}`);
};
const batch = (call) => async () => {
  for (let index = 0; index < CALLS; index++) await call();
};
const cases = {};
for (const side of Object.keys(servers)) {
  const { ours, theirs, tool } = clients[side];
  cases[`faultline client → ${side} server`] = batch(async () => check(echoed(await ours.callTool('echo', ARGS)), 'faultline'));
  cases[`SDK client → ${side} server`] = batch(async () => check(echoed(await theirs.callTool({ name: 'echo', arguments: ARGS })), 'sdk'));
  cases[`faultline tool (runTool) → ${side} server`] = batch(async () => {
    const run = await runTool(tool, ARGS, { logger: () => {} });
    check(run.result.data?.text ?? run.result.data, 'faultline tool');
  });
}
// A floor for the server side alone: the same tools/call request posted straight to each handler (no client).
for (const [side, handler] of Object.entries(servers)) {
  const session = side === 'ours' ? clients.ours.ours.sessionId : clients.sdk.theirs.transport?.sessionId;
  let id = 0;
  cases[`no client, a raw POST → ${side} server (floor)`] = batch(async () => {
    const response = await handler(
      new Request(URL_, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'echo', arguments: ARGS } }),
      }),
    );
    check(echoed((await response.json()).result), `raw POST to ${side}`);
  });
}

const results = await compare(cases, { warmup: 2, rounds: ROUNDS });
const us = (name) => (results[name].median / CALLS) * 1000;
const perSecond = (name) => 1e6 / us(name);
const rows = [];
const calls = {};
for (const side of Object.keys(servers)) {
  const ours = `faultline client → ${side} server`;
  const theirs = `SDK client → ${side} server`;
  for (const name of [ours, theirs, `faultline tool (runTool) → ${side} server`, `no client, a raw POST → ${side} server (floor)`]) {
    rows.push([name, Math.round(perSecond(name)).toLocaleString('en-US'), us(name).toFixed(1), (us(name) / us(theirs)).toFixed(2)]);
  }
  calls[`${side} server`] = {
    faultlineCallsPerSec: Math.round(perSecond(ours)),
    sdkCallsPerSec: Math.round(perSecond(theirs)),
    faultlineUsPerCall: fixed(us(ours), 1),
    sdkUsPerCall: fixed(us(theirs), 1),
    ratioUsOursOverTheirs: fixed(us(ours) / us(theirs), 3),
    toolUsPerCall: fixed(us(`faultline tool (runTool) → ${side} server`), 1),
    floorUsPerCall: fixed(us(`no client, a raw POST → ${side} server (floor)`), 1),
  };
}
table(`(a) One MCP tools/call, in process (the server's fetch handler as fetch), ${CALLS} sequential calls per round, median of ${ROUNDS} rounds`, ['client → server', 'calls/s', 'µs/call', 'µs × SDK client'], rows);
for (const { ours, theirs } of Object.values(clients)) {
  await ours.close();
  await theirs.close();
}

// ---- (b) size -------------------------------------------------------------------------------------------------

const VIRTUAL = '\0mcp-size-entry';
/** Bundles `code` for the browser with rolldown, tree-shaken, minified by terser, gzip -9. */
async function rolldownSize(code) {
  const warnings = [];
  const build = await rolldown({
    input: VIRTUAL,
    platform: 'browser',
    treeshake: true,
    onLog: (level, log) => {
      if (log.code !== 'PLUGIN_TIMINGS') warnings.push(`${level}: ${log.message}`);
    },
    plugins: [
      {
        name: 'mcp-size-entry',
        resolveId: (id) => (id === VIRTUAL ? id : id.startsWith('faultline') ? join(ROOT, 'dist', id === 'faultline' ? '' : id.slice('faultline/'.length), 'index.js') : null),
        load: (id) => (id === VIRTUAL ? code : null),
      },
    ],
  });
  try {
    const { output } = await build.generate({ format: 'es', minify: false, plugins: [terser({ format: { comments: false } })] });
    const chunk = output[0];
    if (chunk.imports.length > 0) throw new Error(`the bundle left imports unresolved: ${chunk.imports.join(', ')}`);
    return { minified: Buffer.byteLength(chunk.code), gzip: gzipSync(chunk.code, { level: 9 }).byteLength, modules: Object.keys(chunk.modules).length, warnings };
  } finally {
    await build.close();
  }
}
const OUR_ENTRY = `export { createMCPClient } from 'faultline/mcp';`;
const SDK_ENTRY = `export { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';`;
const ourSize = await rolldownSize(OUR_ENTRY);
const sdkSize = await rolldownSize(SDK_ENTRY);
const houseSize = await bundleSize(OUR_ENTRY);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
table('(b) The MCP client, bundled for the browser, tree-shaken, min+gzip (rolldown + terser + gzip -9, both sides)', ['bundle', 'modules', 'min', 'gzip', '× SDK'], [
  ["faultline: { createMCPClient } from 'faultline/mcp'", ourSize.modules, kb(ourSize.minified), kb(ourSize.gzip), (ourSize.gzip / sdkSize.gzip).toFixed(2)],
  ['SDK: Client + StreamableHTTPClientTransport', sdkSize.modules, kb(sdkSize.minified), kb(sdkSize.gzip), '1.00'],
  ['faultline, as scripts/size.mjs measures it (rollup)', houseSize.modules.length, kb(houseSize.minified), kb(houseSize.gzip), (houseSize.gzip / sdkSize.gzip).toFixed(2)],
]);
for (const warning of [...ourSize.warnings, ...sdkSize.warnings]) console.log(`   bundler ${warning}`);

// ---- (c) cold import ------------------------------------------------------------------------------------------

const timeImport = (specifiers) =>
  Number(
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `const t = performance.now(); await Promise.all(${JSON.stringify(specifiers)}.map((s) => import(s))); console.log(performance.now() - t);`],
      { cwd: ROOT, encoding: 'utf8' },
    ).trim(),
  );
const imports = {
  "faultline/mcp (dist/)": ['faultline/mcp'],
  '@modelcontextprotocol/sdk/client/index.js': ['@modelcontextprotocol/sdk/client/index.js'],
  'SDK client/index.js + client/streamableHttp.js': ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/streamableHttp.js'],
  'nothing (an empty module)': ['data:text/javascript,'],
};
const samples = Object.fromEntries(Object.keys(imports).map((name) => [name, []]));
for (let round = 0; round < SAMPLES; round++) for (const [name, specifiers] of Object.entries(imports)) samples[name].push(timeImport(specifiers));
const ms = (name) => median(samples[name]);
const sdkImport = '@modelcontextprotocol/sdk/client/index.js';
table(`(c) Cold import in Node ${process.version} (median of ${SAMPLES} fresh processes, interleaved)`, ['import', 'ms', '× SDK client/index.js'], Object.keys(imports).map((name) => [name, ms(name).toFixed(1), (ms(name) / ms(sdkImport)).toFixed(2)]));

jsonLine('mcp', {
  calls: { callsPerRound: CALLS, rounds: ROUNDS, ...calls },
  size: {
    bundler: 'rolldown+terser, gzip -9',
    faultlineGzip: ourSize.gzip,
    faultlineMinified: ourSize.minified,
    sdkGzip: sdkSize.gzip,
    sdkMinified: sdkSize.minified,
    ratioGzip: fixed(ourSize.gzip / sdkSize.gzip, 3),
    faultlineGzipRollup: houseSize.gzip,
  },
  coldImportMs: {
    faultlineMcp: fixed(ms('faultline/mcp (dist/)')),
    sdkClient: fixed(ms(sdkImport)),
    sdkClientAndTransport: fixed(ms('SDK client/index.js + client/streamableHttp.js')),
    empty: fixed(ms('nothing (an empty module)')),
    ratio: fixed(ms('faultline/mcp (dist/)') / ms(sdkImport), 3),
  },
});
