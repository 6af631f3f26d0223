/**
 * Peers that are alive but useless (issue 11): a remote that keeps the connection busy with bytes but makes no
 * progress must still end every reader of the SDK in a typed timeout that names its limit.
 *
 * Rows (PEERS): after the headers, (a) only `: keep-alive` comments, (b) only blank lines, (c) one byte of a line that
 * never ends, (d) one valid first event (or the valid start of a JSON body), then only comments — each piece every
 * 10 ms, forever, until the client lets go.
 *
 * Columns (READERS): the chat client's `stream()` (also against a 503 whose error body trickles) and `complete()`,
 * the A2A client's `streamMessage`, `resubscribe` and `sendMessage`, A2A card discovery (`getAgentCard`), and the MCP
 * client's `callTool` (an SSE, a JSON and a trickling error answer) and its handshake (`connect`). The
 * tool HTTP helper's error body (test/tools/tool-error-from-response.test.ts) and our A2A handler's request body
 * (test/security/hostile-a2a-client.test.ts) have the same property, tested where those readers live; the MCP client's
 * own stream (`listen`) is no call and has no error to end in: a silence past `listenIdleMs` opens it again
 * (test/mcp/listen-idle.test.ts). Each cell asserts: the call ends within SETTLE_MS in
 * the expected typed timeout (class, `timeout` limit, retryable, and a message naming the limit); right after, no
 * timer the SDK armed is still pending and no abort listener is left on the caller's signal (which was listened
 * to); and the peer sees its connection released. Timers are tracked by where they were armed (a stack frame in
 * src/), not counted process-wide: msw and undici move Node's timer ref-count on their own.
 *
 * The peers are served over loopback HTTP (node:http), not msw: msw tees every mocked response for its lifecycle
 * events, so a body the client cancels stays alive until the other branch is garbage-collected, and "the client let
 * go" could not be observed. A second table runs every reader against a `fetch` that ignores abort signals (as some
 * polyfills do): the SDK itself must cancel the body it gives up on. A third gives the stream readers endless
 * progress that never finishes: only the total limit can end those.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createA2AClient } from '../../src/a2a/index.js';
import { createOpenAICompatibleClient, type ChatChunk } from '../../src/chat/index.js';
import { A2ATransportError, ChatClientError, MCPError } from '../../src/errors/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { within } from '../helpers/async.js';

/** The time limit every cell configures between events (idle) and for MCP requests. */
const LIMIT_MS = 150;
/**
 * The limit of a first chunk, event or unary call: longer than the idle limit, so the peer that sends one event and
 * then only comments ends on its idle limit even when a loaded machine delivers that first event late.
 */
const FIRST_MS = 3 * LIMIT_MS;
/** Every cell ends within this (loose: a loaded 2-core machine). */
const SETTLE_MS = 3_000;
/** How often a useless peer sends its next piece. */
const TICK_MS = 10;

// ---------------------------------------------------------------------------------------------------------------
// The loopback server and its peers

type PeerId = 'keep-alive' | 'blank-lines' | 'unfinished-line' | 'first-then-comments';

interface Peer {
  id: PeerId;
  title: string;
}

const PEERS: readonly Peer[] = [
  { id: 'keep-alive', title: '(a) only `: keep-alive` comments after the headers' },
  { id: 'blank-lines', title: '(b) only blank lines' },
  { id: 'unfinished-line', title: '(c) one byte of a never-finished line every few ms' },
  { id: 'first-then-comments', title: '(d) one valid first event, then only comments' },
];

/** What a reader's remote would send: its content type, a valid first piece, and the start of a line it never ends. */
interface Wire {
  contentType: string;
  /** The HTTP status of the answer. @default 200 */
  status?: number;
  /** A complete first SSE event, or the valid start of a JSON body (`id`: the JSON-RPC id of the request). */
  first: (id: unknown) => string;
  /** A plausible beginning of the next line; the peer sends it byte by byte, then `x` forever. */
  line: string;
  /** An MCP reader: `call` gets a working handshake first; `handshake` meets the peer at `initialize`. */
  mcp?: 'call' | 'handshake';
}

/** The next piece of `peer` (tick 0 is the first after the headers). */
function piece(peer: PeerId, wire: Wire, id: unknown, tick: number): string {
  switch (peer) {
    case 'keep-alive':
      return ': keep-alive\n\n';
    case 'blank-lines':
      return '\n';
    case 'unfinished-line':
      return wire.line[tick] ?? 'x';
    case 'first-then-comments':
      return tick === 0 ? wire.first(id) : ': keep-alive\n\n';
  }
}

/** What the server does for the running cell: a useless peer, or endless progress (`every` for each tick). */
type Behaviour = { peer: PeerId; wire: Wire } | { first: (id: unknown) => string; every: (id: unknown) => string; contentType: string };

let behaviour: Behaviour | undefined;
/** Peer connections still open (their interval still armed). */
const peers = new Set<ServerResponse>();
const requests: string[] = [];

async function readJSON(request: IncomingMessage): Promise<{ id?: unknown; method?: string }> {
  let text = '';
  for await (const part of request) text += String(part);
  try {
    return text === '' ? {} : (JSON.parse(text) as { id?: unknown; method?: string });
  } catch {
    return {};
  }
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  requests.push(`${request.method} ${request.url}`);
  const { id, method } = await readJSON(request);
  const current = behaviour;
  if (!current) {
    response.writeHead(599).end('no cell is running');
    return;
  }
  // An MCP reader of a call gets a working handshake; only its call meets the useless peer.
  const wire = 'peer' in current ? current.wire : undefined;
  if (request.method === 'DELETE') {
    response.writeHead(204, { connection: 'close' }).end(); // an MCP client's close(): its session ends
    return;
  }
  if ((wire?.mcp === 'call' || !('peer' in current)) && (method === 'initialize' || method?.startsWith('notifications/'))) {
    if (method === 'initialize') {
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'useless-session', connection: 'close' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'useless', version: '1' } } }));
    } else {
      response.writeHead(202, { connection: 'close' }).end();
    }
    return;
  }
  // `connection: close`: no socket of a peer is pooled for the next cell's request.
  response.writeHead('peer' in current ? (current.wire.status ?? 200) : 200, { 'content-type': 'peer' in current ? current.wire.contentType : current.contentType, connection: 'close' });
  response.flushHeaders();
  peers.add(response);
  let tick = 0;
  const send = () => {
    const text = 'peer' in current ? piece(current.peer, current.wire, id, tick) : tick === 0 ? current.first(id) : current.every(id);
    tick++;
    response.write(text);
  };
  if (!('peer' in current)) send();
  const interval = setInterval(send, TICK_MS);
  response.on('close', () => {
    clearInterval(interval);
    peers.delete(response);
  });
}

let server: Server;
let origin = '';
beforeAll(async () => {
  server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
// A failed cell may leave its peer running: end it, so that the next cell starts from nothing.
afterEach(async () => {
  behaviour = undefined;
  for (const response of peers) response.destroy();
  while (peers.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// ---------------------------------------------------------------------------------------------------------------
// The caller's side: its signal, watched, and what every cell checks

/** An AbortSignal that counts the abort listeners attached to it (and the most it ever had). */
function watchedSignal(): { signal: AbortSignal; listening: () => number; peak: () => number } {
  const signal = new AbortController().signal;
  const listeners = new Set<unknown>();
  let peak = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions | boolean) => {
    if (type === 'abort') listeners.add(listener);
    peak = Math.max(peak, listeners.size);
    add(type, listener, options);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: EventListenerOptions | boolean) => {
    if (type === 'abort') listeners.delete(listener);
    remove(type, listener, options);
  }) as typeof signal.removeEventListener;
  return { signal, listening: () => listeners.size, peak: () => peak };
}

/** Where the SDK's code lives: a timer armed from a frame in there is the SDK's. */
const SOURCE = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Watches the timers (`setTimeout`, `setInterval`) armed from the SDK's source until `stop()`: `pending()` counts
 * those that neither fired (one-shot) nor were cleared.
 */
function watchTimers(): { pending: () => number; stop: () => void } {
  const pending = new Set<unknown>();
  const realSetTimeout = globalThis.setTimeout;
  const realSetInterval = globalThis.setInterval;
  const realClearTimeout = globalThis.clearTimeout;
  const realClearInterval = globalThis.clearInterval;
  const fromSource = () => (new Error().stack ?? '').includes(SOURCE);
  const spies = [
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: (...values: unknown[]) => void, ms?: number, ...values: unknown[]) => {
      const timer = realSetTimeout(() => {
        pending.delete(timer);
        callback(...values);
      }, ms);
      if (fromSource()) pending.add(timer);
      return timer;
    }) as typeof setTimeout),
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((callback: (...values: unknown[]) => void, ms?: number, ...values: unknown[]) => {
      const timer = realSetInterval(callback, ms, ...values);
      if (fromSource()) pending.add(timer);
      return timer;
    }) as typeof setInterval),
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
      pending.delete(timer);
      realClearTimeout(timer);
    }),
    vi.spyOn(globalThis, 'clearInterval').mockImplementation((timer) => {
      pending.delete(timer);
      realClearInterval(timer);
    }),
  ];
  return { pending: () => pending.size, stop: () => spies.forEach((spy) => spy.mockRestore()) };
}

/** A fetch that never passes the abort signal on (as some polyfills behave): only a cancel of the body can end it. */
const deafFetch: typeof fetch = (input, init) => globalThis.fetch(input, { ...init, signal: undefined });

/** The typed outcome a cell expects. */
interface Expected {
  class: 'ChatClientError' | 'A2ATransportError' | 'MCPError';
  timeout: string;
  retryable: boolean;
  /** A phrase of the message that names the limit. */
  says: string;
}

/** What a reader returns: the error it ended with, and how much output reached the caller before it. */
interface Outcome {
  error: unknown;
  output: number;
}

interface Reader {
  name: string;
  wire: Wire;
  /** The outcome of each peer (the useless peers), and of endless progress (`progress`, stream readers only). */
  expected: Record<PeerId, Expected>;
  read: (signal: AbortSignal, fetchImpl: typeof fetch | undefined) => Promise<Outcome>;
}

function shapeOf(error: unknown): Record<string, unknown> {
  if (ChatClientError.isInstance(error)) return { class: 'ChatClientError', reason: error.reason, timeout: error.timeout, retryable: error.retryable };
  if (A2ATransportError.isInstance(error)) return { class: 'A2ATransportError', reason: error.reason, timeout: error.timeout, retryable: error.retryable };
  if (MCPError.isInstance(error)) return { class: 'MCPError', reason: error.reason, timeout: error.timeout, retryable: error.retryable };
  return { class: error === undefined ? 'no error' : `unexpected ${String((error as Error)?.name)}: ${String((error as Error)?.message)}` };
}

/** Runs one cell and checks everything but the outcome's shape, which it returns. */
async function cell(current: Behaviour, reader: Reader, fetchImpl?: typeof fetch): Promise<Outcome> {
  const watched = watchedSignal();
  requests.length = 0;
  behaviour = current;
  const timers = watchTimers();
  let outcome: Outcome;
  try {
    outcome = await within(reader.read(watched.signal, fetchImpl), SETTLE_MS, `${reader.name} against a useless peer`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers.pending(), 'timers the SDK armed and left pending after the call ended').toBe(0);
  } finally {
    timers.stop();
  }
  expect(requests.length, 'the remote was reached').toBeGreaterThan(0);
  expect(watched.peak(), 'the caller\'s signal was listened to').toBeGreaterThan(0);
  expect(watched.listening(), 'abort listeners left on the caller\'s signal').toBe(0);
  // The peer sees its connection closed: the SDK let go of the body (a socket's close takes a moment to arrive).
  await within(
    (async () => {
      while (peers.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    })(),
    SETTLE_MS,
    'the peer connection being released',
  );
  return outcome;
}

// ---------------------------------------------------------------------------------------------------------------
// The readers

const chatWire: Wire = {
  contentType: 'text/event-stream',
  first: () => `data: ${JSON.stringify({ id: 'chatcmpl-useless', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] })}\n\n`,
  line: 'data: {"id":"chatcmpl-useless","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"',
};
const chatJSONWire: Wire = {
  contentType: 'application/json',
  first: () => '{"id":"chatcmpl-useless","object":"chat.completion","choices":[',
  line: '{"id":"chatcmpl-useless","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"',
};
const chatErrorWire: Wire = {
  contentType: 'application/json',
  status: 503,
  first: () => '{"error":{"message":"overloaded, ',
  line: '{"error":{"message":"overloaded, retry in a while',
};
const task = { kind: 'task', id: 'task-useless', contextId: 'ctx-useless', status: { state: 'working' } };
const working = { kind: 'status-update', taskId: 'task-useless', contextId: 'ctx-useless', status: { state: 'working' }, final: false };
const a2aWire: Wire = {
  contentType: 'text/event-stream',
  first: (id) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: task })}\n\n`,
  line: 'data: {"jsonrpc":"2.0","result":{"kind":"status-update","taskId":"task-useless","status":{"message":"',
};
const a2aJSONWire: Wire = {
  contentType: 'application/json',
  first: (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`,
  line: '{"jsonrpc":"2.0","result":{"kind":"message","role":"agent","parts":[{"kind":"text","text":"',
};
const cardWire: Wire = {
  contentType: 'application/json',
  first: () => '{"name":"useless","description":"alive, never useful",',
  line: '{"name":"useless","description":"',
};

const mcpWire: Wire = {
  mcp: 'call',
  contentType: 'text/event-stream',
  first: () => `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`,
  line: 'data: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"',
};
const mcpJSONWire: Wire = { mcp: 'call', contentType: 'application/json', first: (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, line: '{"jsonrpc":"2.0","id":2,"result":{"content":[' };
const mcpErrorWire: Wire = { mcp: 'call', contentType: 'application/json', status: 503, first: () => '{"error":"overloaded, ', line: '{"error":"overloaded, retry' };
const mcpHandshakeWire: Wire = { mcp: 'handshake', contentType: 'application/json', first: (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"protocolVersion":`, line: '{"jsonrpc":"2.0","id":1,"result":{"' };
const mcpRequest: Expected = { class: 'MCPError', timeout: 'request', retryable: true, says: '(timeouts.requestMs)' };
const mcpInitialize: Expected = { class: 'MCPError', timeout: 'initialize', retryable: true, says: '(timeouts.initializeMs)' };
/**
 * The MCP client of the cells: the request limit is the cells' limit; the handshake's is generous where a call is
 * what the cell tests (on a loaded CI run a real handshake once outlasted 150 ms, and the call cell ended on it).
 */
const mcpClient = (fetchImpl: typeof fetch | undefined, onNotification?: () => void, initializeMs = 1_000) =>
  createMCPClient({ url: `${origin}/mcp`, retry: false, timeouts: { requestMs: LIMIT_MS, initializeMs }, fetch: fetchImpl, onNotification });
/** One MCP call, then `close()`: it also waits for the cancel notification the timeout sent. */
async function mcpCall(signal: AbortSignal, fetchImpl: typeof fetch | undefined): Promise<Outcome> {
  const client = mcpClient(fetchImpl);
  const outcome = await settle(client.callTool('lookup', {}, { signal }));
  await client.close();
  return outcome;
}

const chatFirstChunk: Expected = { class: 'ChatClientError', timeout: 'first_chunk', retryable: true, says: '(first-chunk timeout)' };
const chatIdle: Expected = { class: 'ChatClientError', timeout: 'idle', retryable: false, says: '(idle timeout)' };
const a2aFirstEvent: Expected = { class: 'A2ATransportError', timeout: 'first_event', retryable: true, says: '(first_event limit, timeoutMs)' };
const a2aIdle: Expected = { class: 'A2ATransportError', timeout: 'idle', retryable: false, says: '(idle limit, idleTimeoutMs)' };
const a2aCall: Expected = { class: 'A2ATransportError', timeout: 'call', retryable: true, says: '(call limit, timeoutMs)' };
const same = (expected: Expected): Record<PeerId, Expected> => ({ 'keep-alive': expected, 'blank-lines': expected, 'unfinished-line': expected, 'first-then-comments': expected });

const chatClient = (fetchImpl: typeof fetch | undefined, timeouts: { firstChunkMs?: number; idleMs?: number; totalMs?: number } = { firstChunkMs: FIRST_MS, idleMs: LIMIT_MS }) =>
  createOpenAICompatibleClient({ baseURL: `${origin}/v1`, apiKey: 'sk-useless', model: 'useless-model', retry: false, timeouts, fetch: fetchImpl });
const a2aClient = (fetchImpl: typeof fetch | undefined, limits: { timeoutMs?: number; idleTimeoutMs?: number; streamTimeoutMs?: number } = {}) =>
  createA2AClient({ url: `${origin}/a2a`, retry: false, timeoutMs: FIRST_MS, idleTimeoutMs: LIMIT_MS, fetch: fetchImpl, ...limits });
const ask = (signal: AbortSignal) => ({ messages: [{ role: 'user' as const, content: 'Anyone there?' }], signal });

async function drainChat(stream: ReadableStream<ChatChunk>): Promise<Outcome> {
  let output = 0;
  try {
    for await (const chunk of stream as unknown as AsyncIterable<ChatChunk>) if (chunk.type === 'text-delta') output++;
    return { error: undefined, output };
  } catch (error) {
    return { error, output };
  }
}

async function drainA2A(stream: AsyncIterable<unknown>): Promise<Outcome> {
  let output = 0;
  try {
    for await (const _event of stream) output++;
    return { error: undefined, output };
  } catch (error) {
    return { error, output };
  }
}

async function settle(promise: Promise<unknown>): Promise<Outcome> {
  try {
    await promise;
    return { error: undefined, output: 1 };
  } catch (error) {
    return { error, output: 0 };
  }
}

const READERS: readonly Reader[] = [
  {
    name: 'chat client.stream()',
    wire: chatWire,
    expected: { ...same(chatFirstChunk), 'first-then-comments': chatIdle },
    read: (signal, fetchImpl) => drainChat(chatClient(fetchImpl).stream(ask(signal))),
  },
  {
    name: 'chat client.complete() (a body that trickles)',
    wire: chatJSONWire,
    expected: same(chatFirstChunk),
    read: (signal, fetchImpl) => settle(chatClient(fetchImpl).complete(ask(signal))),
  },
  {
    name: 'chat client.stream() (a 503 whose error body trickles)',
    wire: chatErrorWire,
    expected: same(chatFirstChunk),
    read: (signal, fetchImpl) => drainChat(chatClient(fetchImpl).stream(ask(signal))),
  },
  {
    name: 'A2A streamMessage',
    wire: a2aWire,
    expected: { ...same(a2aFirstEvent), 'first-then-comments': a2aIdle },
    read: (signal, fetchImpl) => drainA2A(a2aClient(fetchImpl).streamMessage('Anyone there?', { signal })),
  },
  {
    name: 'A2A resubscribe',
    wire: a2aWire,
    expected: { ...same(a2aFirstEvent), 'first-then-comments': a2aIdle },
    read: (signal, fetchImpl) => drainA2A(a2aClient(fetchImpl).resubscribe({ id: 'task-useless' }, { signal })),
  },
  {
    name: 'A2A sendMessage (a unary body that trickles)',
    wire: a2aJSONWire,
    expected: same(a2aCall),
    read: (signal, fetchImpl) => settle(a2aClient(fetchImpl).sendMessage('Anyone there?', { signal })),
  },
  {
    name: 'A2A card discovery (getAgentCard, a card that trickles)',
    wire: cardWire,
    expected: same(a2aCall),
    read: (signal, fetchImpl) => settle(createA2AClient({ agentCardUrl: origin, retry: false, timeoutMs: FIRST_MS, fetch: fetchImpl }).getAgentCard({ signal })),
  },
  {
    name: 'MCP callTool (an SSE answer)',
    wire: mcpWire,
    expected: same(mcpRequest),
    read: mcpCall,
  },
  {
    name: 'MCP callTool (a JSON answer that trickles)',
    wire: mcpJSONWire,
    expected: same(mcpRequest),
    read: mcpCall,
  },
  {
    name: 'MCP callTool (a 503 whose error body trickles)',
    wire: mcpErrorWire,
    expected: same(mcpRequest),
    read: mcpCall,
  },
  {
    name: 'MCP connect (an initialize answer that trickles)',
    wire: mcpHandshakeWire,
    expected: same(mcpInitialize),
    read: async (signal, fetchImpl) => {
      const client = mcpClient(fetchImpl, undefined, FIRST_MS);
      const outcome = await settle(client.connect({ signal }));
      await client.close();
      return outcome;
    },
  },
];

/**
 * Output the caller saw before the timeout: the first event of peer (d) reaches it from the chat and A2A stream
 * readers (an MCP call has no partial output: its first event is a notification).
 */
const outputOf = (reader: Reader, peer: PeerId): number => (peer === 'first-then-comments' && reader.wire.contentType === 'text/event-stream' && reader.wire.mcp === undefined ? 1 : 0);

function checkOutcome(outcome: Outcome, expected: Expected): void {
  expect(shapeOf(outcome.error)).toEqual({ class: expected.class, reason: 'timeout', timeout: expected.timeout, retryable: expected.retryable });
  expect((outcome.error as Error).message).toContain(expected.says);
}

// ---------------------------------------------------------------------------------------------------------------

describe('useless peers: every reader × every peer that sends bytes but no progress ends in a typed timeout', () => {
  for (const reader of READERS) {
    for (const peer of PEERS) {
      const expected = reader.expected[peer.id];
      it(`${reader.name} × ${peer.title} → ${expected.class} (timeout ${expected.timeout})`, async () => {
        const outcome = await cell({ peer: peer.id, wire: reader.wire }, reader);
        checkOutcome(outcome, expected);
        expect(outcome.output, 'output before the timeout').toBe(outputOf(reader, peer.id));
      });
    }
  }
});

describe('useless peers: with a fetch that ignores abort signals, the SDK still cancels the body it gives up on', () => {
  for (const reader of READERS) {
    const peer = PEERS[2] as Peer;
    const expected = reader.expected[peer.id];
    it(`${reader.name} × ${peer.title} → ${expected.class} (timeout ${expected.timeout}), connection released`, async () => {
      checkOutcome(await cell({ peer: peer.id, wire: reader.wire }, reader, deafFetch), expected);
    });
  }
});

describe('useless peers: endless progress that never finishes meets the total limit of a stream', () => {
  const TOTAL_MS = 1_000; // long enough that a loaded machine still delivers dozens of 10 ms events before it
  // The other limits of these cells are half the total: here they only have to stay out of its way, and 150 ms to a
  // first event is too tight for a loaded machine (a cell then ends on the first-event limit instead).
  const OTHER_MS = TOTAL_MS / 2;
  const chatDelta = () => `data: ${JSON.stringify({ id: 'chatcmpl-endless', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'more ' }, finish_reason: null }] })}\n\n`;
  const a2aFrame = (result: unknown) => (id: unknown) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
  const endless = [
    {
      name: 'chat client.stream()',
      behaviour: { contentType: 'text/event-stream', first: chatDelta, every: chatDelta },
      expected: { class: 'ChatClientError', timeout: 'total', retryable: false, says: `did not complete within the total limit of ${TOTAL_MS} ms` },
      read: (signal: AbortSignal) => drainChat(chatClient(undefined, { firstChunkMs: OTHER_MS, idleMs: OTHER_MS, totalMs: TOTAL_MS }).stream(ask(signal))),
    },
    {
      name: 'A2A streamMessage',
      behaviour: { contentType: 'text/event-stream', first: a2aFrame(task), every: a2aFrame(working) },
      expected: { class: 'A2ATransportError', timeout: 'total', retryable: false, says: '(total limit, streamTimeoutMs)' },
      read: (signal: AbortSignal) => drainA2A(a2aClient(undefined, { timeoutMs: OTHER_MS, idleTimeoutMs: OTHER_MS, streamTimeoutMs: TOTAL_MS }).streamMessage('Anyone there?', { signal })),
    },
    {
      name: 'A2A resubscribe',
      behaviour: { contentType: 'text/event-stream', first: a2aFrame(working), every: a2aFrame(working) },
      expected: { class: 'A2ATransportError', timeout: 'total', retryable: false, says: '(total limit, streamTimeoutMs)' },
      read: (signal: AbortSignal) => drainA2A(a2aClient(undefined, { timeoutMs: OTHER_MS, idleTimeoutMs: OTHER_MS, streamTimeoutMs: TOTAL_MS }).resubscribe({ id: 'task-useless' }, { signal })),
    },
    {
      name: 'MCP callTool',
      behaviour: { contentType: 'text/event-stream', first: mcpWire.first, every: mcpWire.first },
      expected: { class: 'MCPError', timeout: 'request', retryable: true, says: `no response within ${TOTAL_MS} ms (timeouts.requestMs)` },
      read: async (signal: AbortSignal) => {
        let output = 0;
        const client = createMCPClient({ url: `${origin}/mcp`, retry: false, timeouts: { requestMs: TOTAL_MS }, onNotification: () => output++ });
        const outcome = await settle(client.callTool('lookup', {}, { signal }));
        await client.close();
        return { ...outcome, output };
      },
    },
  ] as const;
  for (const entry of endless) {
    it(`${entry.name} × events every ${TICK_MS} ms, never the last one → ${entry.expected.class} (timeout total)`, async () => {
      const reader: Reader = { name: entry.name, wire: chatWire, expected: same(entry.expected as Expected), read: entry.read };
      const outcome = await cell(entry.behaviour, reader);
      checkOutcome(outcome, entry.expected as Expected);
      expect(outcome.output, 'progress reached the caller until the end').toBeGreaterThan(3);
    });
  }
});
