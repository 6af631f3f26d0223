/**
 * The fault matrix: every transport fault × every HTTP-speaking client, through msw (the network boundary).
 *
 * Rows (FAULTS): HTTP 400/401/403/404/408/409/422, 429 with and without a back-off hint, 500/502/503/504, a network
 * error, a DNS failure (a `fetch` that rejects like undici does: `TypeError('fetch failed')` whose cause has code
 * `ENOTFOUND`), a slow first byte (no headers, or headers but no body byte, within a 50 ms limit), a body cut after
 * nothing / some / everything but the end marker, a stall mid-stream (50 ms idle limit), a malformed first chunk
 * (echoing the caller's key), and an abort before the request, while waiting for headers, during a back-off wait, and
 * mid-stream.
 *
 * Columns: the chat client (`createOpenAICompatibleClient`, `stream()` read to its end); the tool HTTP helper (a
 * `defineTool` tool whose `execute` calls `fetch` and maps failures with `toolErrorFromResponse` /
 * `toolErrorFromFetchError`, run through `runTool` with retries); the A2A client (`createA2AClient`: `sendMessage`,
 * and `streamMessage` for the body faults) — plus, for its retry rules (reads retried, sends only on 429/503), the
 * same rows through `getTask`. Each cell asserts the typed outcome, the exact number of attempts, that the call
 * settles within a bound and leaves no timer armed, that the caller's key appears nowhere in what comes back (every
 * error body, and the malformed chunk, echo it), and (afterEach) that no promise rejection went unhandled.
 *
 * A cell that shows a src bug runs as two tests: the part that holds, and an `it.fails` for the part that does not
 * (its title and the `// BUG:` comment at its entry say what happens and what should).
 *
 * Retries are fast and deterministic: 3 attempts, 1 ms then 2 ms (`jitter: 'none'`); the 429 hint is
 * `retry-after-ms: 20` (OpenAI's header; it wins over the `Retry-After: 1` sent with it). Stalled server bodies and
 * hanging handlers are released after each test, so nothing of the server side outlives its cell either.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AClient } from '../../src/a2a/index.js';
import { createOpenAICompatibleClient, type ChatChunk } from '../../src/chat/index.js';
import { A2ATransportError, ChatClientError, JSONRPCError, SerializeError, StreamError } from '../../src/errors/index.js';
import { sseText, textEvents } from '../../src/testing/index.js';
import {
  defineTool,
  runTool,
  serializeToolResult,
  toolErrorFromFetchError,
  toolErrorFromResponse,
  ToolFailure,
  type ToolLogEvent,
  type ToolLogRecord,
  type ToolRun,
  type ToolRunOutcome,
} from '../../src/tools/index.js';
import { deferred, within } from '../helpers/async.js';

// ---------------------------------------------------------------------------------------------------------------
// Settings shared by every cell

const SECRET = 'sk-matrix-SECRET-1234567890';
const CHAT_BASE = 'https://llm.test/v1';
const CHAT_URL = `${CHAT_BASE}/chat/completions`;
const WEATHER_URL = 'https://weather.test/v1/current';
const A2A_URL = 'https://agent.test/a2a';
/** The small time limit of the slow and stall rows (first chunk / call / idle, and the tool's per-attempt limit). */
const LIMIT_MS = 50;
/** Every cell settles within this (retries and time limits included). */
const SETTLE_MS = 2_000;
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, multiplier: 2, jitter: 'none' as const };
const BACKOFF = [1, 2];
const HINTED = [20, 20];

// ---------------------------------------------------------------------------------------------------------------
// The rows

type FaultKind =
  | 'status'
  | 'network'
  | 'dns'
  | 'slow-headers'
  | 'slow-body'
  | 'cut'
  | 'stall'
  | 'malformed'
  | 'abort-before'
  | 'abort-headers'
  | 'abort-backoff'
  | 'abort-stream';

interface Fault {
  id: string;
  title: string;
  kind: FaultKind;
  status?: number;
  headers?: Record<string, string>;
  cut?: 'nothing' | 'some' | 'all';
}

const status = <const Title extends string>(code: number, title: Title, headers?: Record<string, string>) => ({ id: title, title, kind: 'status' as const, status: code, headers });
/** The back-off hint of the abort-during-back-off row: long enough that only the abort can end the wait in time. */
const LONG_HINT_MS = 10_000;

const FAULTS = [
  status(400, 'HTTP 400'),
  status(401, 'HTTP 401'),
  status(403, 'HTTP 403'),
  status(404, 'HTTP 404'),
  status(408, 'HTTP 408'),
  status(409, 'HTTP 409'),
  status(422, 'HTTP 422'),
  status(429, 'HTTP 429 with Retry-After', { 'retry-after-ms': '20', 'retry-after': '1' }),
  status(429, 'HTTP 429 without Retry-After'),
  status(500, 'HTTP 500'),
  status(502, 'HTTP 502'),
  status(503, 'HTTP 503'),
  status(504, 'HTTP 504'),
  { id: 'network', title: 'a network error', kind: 'network' },
  { id: 'dns', title: 'a DNS failure (ENOTFOUND)', kind: 'dns' },
  { id: 'slow-headers', title: `a slow first byte: no headers within ${LIMIT_MS} ms`, kind: 'slow-headers' },
  { id: 'slow-body', title: `a slow first byte: headers, then no body byte within ${LIMIT_MS} ms`, kind: 'slow-body' },
  { id: 'cut-nothing', title: 'a body cut after 0 chunks', kind: 'cut', cut: 'nothing' },
  { id: 'cut-some', title: 'a body cut after some chunks', kind: 'cut', cut: 'some' },
  { id: 'cut-all', title: 'a body cut after all chunks, before the end marker', kind: 'cut', cut: 'all' },
  { id: 'stall', title: `a stall mid-stream: no byte for ${LIMIT_MS} ms after some chunks`, kind: 'stall' },
  { id: 'malformed', title: 'a malformed first chunk (echoing the key)', kind: 'malformed' },
  { id: 'abort-before', title: 'an abort before the request', kind: 'abort-before' },
  { id: 'abort-headers', title: 'an abort while waiting for headers', kind: 'abort-headers' },
  { id: 'abort-backoff', title: `an abort during the back-off wait (503 asking for ${LONG_HINT_MS / 1000} s)`, kind: 'abort-backoff', status: 503, headers: { 'retry-after-ms': String(LONG_HINT_MS) } },
  { id: 'abort-stream', title: 'an abort mid-stream', kind: 'abort-stream' },
] as const satisfies readonly Fault[];

type FaultId = (typeof FAULTS)[number]['id'];

const isSlow = (fault: Fault) => fault.kind === 'slow-headers' || fault.kind === 'slow-body';

// ---------------------------------------------------------------------------------------------------------------
// One cell's scenario, and the server side

/** What one cell's server and caller share: the abort, and the moments the caller waits for. */
class Scenario {
  readonly controller = new AbortController();
  readonly reason = new DOMException('The fault matrix cancelled the call', 'AbortError');
  /** A request reached the server (it now hangs). */
  readonly arrived = deferred();
  /** The server sent part of a body and stopped. */
  readonly stalled = deferred();
  /** Calls of the DNS-failing fetch. */
  dnsCalls = 0;

  constructor(readonly fault: Fault) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(): void {
    this.controller.abort(this.reason);
  }

  /** A fetch that fails as undici does when the host name does not resolve. */
  readonly dnsFetch: typeof fetch = async (input) => {
    this.dnsCalls++;
    const hostname = new URL(input instanceof Request ? input.url : String(input)).hostname;
    const cause = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname });
    throw new TypeError('fetch failed', { cause });
  };
}

let current: Scenario | undefined;
const scenario = (): Scenario => {
  if (!current) throw new Error('no fault matrix cell is running');
  return current;
};

/** Releases of stalled bodies and hanging handlers, run after each cell. */
const stalls: Array<() => void> = [];

/** A handler that never answers: until its request is aborted (then msw drops the answer) or the cell ends. */
function hang(request: Request): Promise<Response> {
  scenario().arrived.resolve();
  return new Promise<Response>((resolve) => {
    const answer = () => resolve(HttpResponse.error());
    request.signal.addEventListener('abort', answer, { once: true });
    stalls.push(answer);
  });
}

/** A body sent piece by piece (pull-based): dropped (errored) before piece `dropAfter`, stalled before `stallAfter`. */
function body(pieces: readonly string[], plan: { dropAfter?: number; stallAfter?: number } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (plan.stallAfter === index) {
          scenario().stalled.resolve();
          await new Promise<void>((resolve) => stalls.push(resolve));
          try {
            controller.close();
          } catch {
            // cancelled meanwhile
          }
          return;
        }
        if (plan.dropAfter === index) {
          controller.error(new TypeError('terminated: other side closed'));
          return;
        }
        if (index >= pieces.length) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(pieces[index] as string));
        index++;
      },
    },
    { highWaterMark: 0 },
  );
}

/** Where each body fault cuts or stalls, given the pieces of a complete answer (the last one is the end marker). */
function bodyPlan(fault: Fault, pieces: number, abortAfter: number): { dropAfter?: number; stallAfter?: number } {
  if (fault.kind === 'slow-body') return { stallAfter: 0 };
  if (fault.kind === 'abort-stream' || fault.kind === 'stall') return { stallAfter: abortAfter };
  if (fault.cut === 'nothing') return { dropAfter: 0 };
  if (fault.cut === 'some') return { dropAfter: 2 };
  return { dropAfter: pieces - 1 };
}

/** The answer every fault shares across clients (errors, hangs, network); `undefined` for body faults. */
function commonAnswer(fault: Fault, request: Request): Response | Promise<Response> | undefined {
  switch (fault.kind) {
    case 'network':
      return HttpResponse.error();
    case 'slow-headers':
    case 'abort-headers':
      return hang(request);
    case 'dns':
    case 'abort-before':
      return HttpResponse.text('this request should never have been sent', { status: 599 });
    case 'abort-backoff':
      scenario().arrived.resolve();
      return undefined;
    default:
      return undefined;
  }
}

/** The caller's credential as the server received it, echoed back in every error body (the way providers do). */
const echoedKey = (request: Request) => request.headers.get('authorization') ?? '(no authorization header)';
const jsonError = (fault: Fault, request: Request) =>
  HttpResponse.json(
    { error: { message: `Request rejected (${fault.title}) for key ${echoedKey(request)}`, type: 'matrix_error', code: `matrix_${fault.status}` } },
    { status: fault.status, headers: { 'x-request-id': 'req_matrix', ...fault.headers } },
  );

// Chat: an OpenAI-compatible SSE answer of 7 events (role, 3 text deltas, finish, usage, [DONE]).
const CHAT_EVENTS = textEvents(['Hel', 'lo', ' world']);
const MALFORMED_CHAT = `{"id": "chatcmpl-test", "echo": "${SECRET}", broken`;

function serveChat(request: Request): Response | Promise<Response> {
  const fault = scenario().fault;
  const answer = commonAnswer(fault, request);
  if (answer) return answer;
  if (fault.status !== undefined) return jsonError(fault, request);
  const events = fault.kind === 'malformed' ? [MALFORMED_CHAT, ...CHAT_EVENTS] : CHAT_EVENTS;
  const pieces = events.map((event) => sseText([event]));
  const plan = fault.kind === 'malformed' ? {} : bodyPlan(fault, pieces.length, 2);
  return new HttpResponse(body(pieces, plan), { headers: { 'content-type': 'text/event-stream' } });
}

// Tool: a JSON answer in 3 pieces (the closing brace is the end marker).
const WEATHER_PIECES = ['{"city":"Paris",', '"temperature":21,', '"unit":"C"}'];
const MALFORMED_WEATHER = `{"city":"Paris","echo":"${SECRET}",broken`;

function serveWeather(request: Request): Response | Promise<Response> {
  const fault = scenario().fault;
  const answer = commonAnswer(fault, request);
  if (answer) return answer;
  if (fault.status !== undefined) return jsonError(fault, request);
  const pieces = fault.kind === 'malformed' ? [MALFORMED_WEATHER] : WEATHER_PIECES;
  const plan = fault.kind === 'malformed' ? {} : bodyPlan(fault, pieces.length, 1);
  return new HttpResponse(body(pieces, plan), { headers: { 'content-type': 'application/json' } });
}

// A2A: a JSON-RPC SSE stream of 4 events (task, working, artifact, final completed status — the end marker).
function a2aFrames(id: unknown): string[] {
  const frame = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
  const ids = { taskId: 'task-matrix', contextId: 'ctx-matrix' };
  return [
    frame({ kind: 'task', id: ids.taskId, contextId: ids.contextId, status: { state: 'submitted' } }),
    frame({ kind: 'status-update', ...ids, status: { state: 'working' }, final: false }),
    frame({ kind: 'artifact-update', ...ids, artifact: { artifactId: 'a1', parts: [{ kind: 'text', text: '42 in stock' }] }, lastChunk: true }),
    frame({ kind: 'status-update', ...ids, status: { state: 'completed' }, final: true }),
  ];
}
const MALFORMED_A2A = `data: {"jsonrpc": "2.0", "echo": "${SECRET}", broken\n\n`;

async function serveA2A(request: Request): Promise<Response> {
  const fault = scenario().fault;
  const rpc = (await request.clone().json()) as { id?: unknown; method?: string };
  const answer = commonAnswer(fault, request);
  if (answer) return answer;
  if (fault.status !== undefined) {
    const text = `${fault.status} from the gateway: rejected ${echoedKey(request)}`;
    return HttpResponse.text(text, { status: fault.status, headers: { 'x-request-id': 'req_matrix', ...fault.headers } });
  }
  if (rpc.method !== 'message/stream') return HttpResponse.text(`unexpected method ${String(rpc.method)}`, { status: 599 });
  const frames = a2aFrames(rpc.id);
  const pieces = fault.kind === 'malformed' ? [MALFORMED_A2A, ...frames] : frames;
  const plan = fault.kind === 'malformed' ? {} : bodyPlan(fault, pieces.length, 1);
  return new HttpResponse(body(pieces, plan), { headers: { 'content-type': 'text/event-stream' } });
}

const server = setupServer(
  http.post(CHAT_URL, ({ request }) => serveChat(request)),
  http.get(WEATHER_URL, ({ request }) => serveWeather(request)),
  http.post(A2A_URL, ({ request }) => serveA2A(request)),
);
const requests: string[] = [];
server.events.on('request:start', ({ request }) => requests.push(`${request.method} ${request.url}`));

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  process.on('unhandledRejection', onUnhandled);
});
beforeEach(() => {
  requests.length = 0;
});
afterEach(async () => {
  server.resetHandlers();
  for (const release of stalls.splice(0)) release();
  current = undefined;
  await new Promise((resolve) => setTimeout(resolve, 5)); // let released bodies and late rejections surface
  expect(unhandled.splice(0), 'unhandled rejections').toEqual([]);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  server.close();
});

// ---------------------------------------------------------------------------------------------------------------
// What every cell checks besides its outcome

const activeTimers = (): number => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

/** Runs one cell's operation: it must settle within SETTLE_MS and leave no timer armed. */
async function cell<T>(fault: Fault, operation: (scenario: Scenario) => Promise<T>): Promise<{ observed: T; scenario: Scenario }> {
  const timersBefore = activeTimers();
  const started = new Scenario(fault);
  current = started;
  const observed = await within(operation(started), SETTLE_MS, fault.title);
  await new Promise((resolve) => setImmediate(resolve));
  expect(activeTimers(), 'timers still armed after the call settled').toBeLessThanOrEqual(timersBefore);
  return { observed, scenario: started };
}

/** Everything a caller could print or ship of `value`: JSON, and the message and stack of each link of its cause chain. */
function exposed(value: unknown): string {
  const parts: string[] = [];
  try {
    parts.push(JSON.stringify(value) ?? '');
  } catch (error) {
    parts.push(`unserializable: ${String(error)}`);
  }
  let link: unknown = value;
  for (let depth = 0; depth < 10 && link !== null && typeof link === 'object'; depth++) {
    const { message, stack } = link as { message?: unknown; stack?: unknown };
    parts.push(String(message ?? ''), String(stack ?? ''));
    link = (link as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

function expectNoSecret(...values: unknown[]): void {
  for (const value of values) {
    const text = exposed(value);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('SECRET-1234567890');
  }
}

/** The `code` of the first link of the cause chain that has one (after the error itself). */
function causeCode(error: unknown): unknown {
  let link = (error as { cause?: unknown })?.cause;
  for (let depth = 0; depth < 10 && link !== null && typeof link === 'object'; depth++) {
    const code = (link as { code?: unknown }).code;
    if (code !== undefined) return code;
    link = (link as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The typed outcome of a failure, as a plain object (undefined fields are ignored by `toEqual`). */
function shapeOf(error: unknown, reason: unknown): Record<string, unknown> {
  if (error === undefined) return { class: 'no error' };
  if (error === reason) return { class: 'the abort reason' };
  if (ChatClientError.isInstance(error)) {
    return { class: 'ChatClientError', reason: error.reason, status: error.status, retryable: error.retryable, timeout: error.timeout, attempts: error.attempts, retryAfterMs: error.retryAfterMs };
  }
  if (StreamError.isInstance(error)) return { class: 'StreamError', reason: error.reason, afterOutput: error.afterOutput };
  if (A2ATransportError.isInstance(error)) {
    return { class: 'A2ATransportError', reason: error.reason, status: error.status, retryable: error.retryable, retryAfterMs: error.retryAfterMs };
  }
  if (SerializeError.isInstance(error)) return { class: 'SerializeError' };
  if (JSONRPCError.isInstance(error)) return { class: 'JSONRPCError', rpcCode: error.rpcCode };
  return { class: `unexpected ${String((error as Error)?.name)}: ${String((error as Error)?.message)}` };
}

const summary = (shape: Record<string, unknown>): string => {
  const details = [shape.reason, shape.status, shape.timeout, shape.afterOutput === true ? 'after output' : undefined].filter((part) => part !== undefined);
  return `${String(shape.class)}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
};
const attemptsText = (attempts: number) => (attempts === 1 ? '1 attempt' : `${attempts} attempts`);

/** A src bug a cell shows: which half of its checks fails, and what happens instead of what should. */
interface KnownBug {
  part: 'outcome' | 'secrets';
  note: string;
}
type Bugs = Partial<Record<FaultId, KnownBug>>;

/** The two halves of a cell's checks, run once its operation settled (within the bound, no timer left). */
interface Checks {
  outcome(): void;
  secrets(): void;
}

const PART_NAMES = { outcome: 'typed outcome', secrets: 'no key in the error' } as const;

/**
 * One test per cell; a cell with a known bug becomes a passing test for the half that holds and an `it.fails` for the
 * half that does not (so the rest of the cell stays guarded, and the bug's test turns red once it is fixed).
 */
function registerCells<E>(
  expectations: Partial<Record<FaultId, E>>,
  bugs: Bugs,
  title: (fault: Fault, expected: E) => string,
  run: (fault: Fault, expected: E) => Promise<Checks>,
): void {
  for (const fault of FAULTS) {
    const expected = expectations[fault.id];
    if (expected === undefined) continue;
    const name = title(fault, expected);
    const bug = bugs[fault.id];
    if (!bug) {
      it(name, async () => {
        const checks = await run(fault, expected);
        checks.outcome();
        checks.secrets();
      });
      continue;
    }
    const holds = bug.part === 'outcome' ? 'secrets' : 'outcome';
    it(`${name} (${PART_NAMES[holds]})`, async () => (await run(fault, expected))[holds]());
    it.fails(`${name} (${PART_NAMES[bug.part]}) — BUG: ${bug.note}`, async () => (await run(fault, expected))[bug.part]());
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Column 1: the chat client, stream() read to its end

interface ChatExpectation {
  error: Record<string, unknown>;
  /** HTTP attempts (requests that reached the server, or calls of the DNS-failing fetch). */
  attempts: number;
  /** Text deltas that reached the caller before the failure. */
  output: number;
  /** Waits announced through `onRetry`. */
  delays: number[];
  causeCode?: string;
}

const chatHTTP = (code: number, retryable: boolean, hint?: number): ChatExpectation => {
  const attempts = retryable ? 3 : 1;
  return {
    error: { class: 'ChatClientError', reason: 'http', status: code, retryable, attempts, retryAfterMs: hint },
    attempts,
    output: 0,
    delays: retryable ? (hint === undefined ? BACKOFF : HINTED) : [],
  };
};
const chatNetwork: ChatExpectation = { error: { class: 'ChatClientError', reason: 'network', retryable: true, attempts: 3 }, attempts: 3, output: 0, delays: BACKOFF };
const chatFirstChunk: ChatExpectation = {
  error: { class: 'ChatClientError', reason: 'timeout', timeout: 'first_chunk', retryable: true, attempts: 3 },
  attempts: 3,
  output: 0,
  delays: BACKOFF,
};
const chatAbort = (attempts: number, output: number, delays: number[] = []): ChatExpectation => ({ error: { class: 'the abort reason' }, attempts, output, delays });

const CHAT: Record<FaultId, ChatExpectation> = {
  'HTTP 400': chatHTTP(400, false),
  'HTTP 401': chatHTTP(401, false),
  'HTTP 403': chatHTTP(403, false),
  'HTTP 404': chatHTTP(404, false),
  'HTTP 408': chatHTTP(408, true),
  'HTTP 409': chatHTTP(409, true),
  'HTTP 422': chatHTTP(422, false),
  'HTTP 429 with Retry-After': chatHTTP(429, true, 20),
  'HTTP 429 without Retry-After': chatHTTP(429, true),
  'HTTP 500': chatHTTP(500, true),
  'HTTP 502': chatHTTP(502, true),
  'HTTP 503': chatHTTP(503, true),
  'HTTP 504': chatHTTP(504, true),
  network: chatNetwork,
  dns: { ...chatNetwork, causeCode: 'ENOTFOUND' },
  'slow-headers': chatFirstChunk,
  'slow-body': chatFirstChunk,
  // A drop before any output is retried (nothing was shown); after output it is reported, never replayed.
  'cut-nothing': { error: { class: 'StreamError', reason: 'read_failed', afterOutput: false }, attempts: 3, output: 0, delays: BACKOFF },
  'cut-some': { error: { class: 'StreamError', reason: 'read_failed', afterOutput: true }, attempts: 1, output: 1, delays: [] },
  // The finish_reason chunk arrived, [DONE] did not: the caller got all 3 deltas, no `finish`, and the drop as an error.
  'cut-all': { error: { class: 'StreamError', reason: 'read_failed', afterOutput: true }, attempts: 1, output: 3, delays: [] },
  stall: { error: { class: 'ChatClientError', reason: 'timeout', timeout: 'idle', retryable: false, attempts: 1 }, attempts: 1, output: 1, delays: [] },
  malformed: { error: { class: 'StreamError', reason: 'malformed_chunk', afterOutput: false }, attempts: 1, output: 0, delays: [] },
  'abort-before': chatAbort(0, 0),
  'abort-headers': chatAbort(1, 0),
  'abort-backoff': chatAbort(1, 0, [LONG_HINT_MS]),
  'abort-stream': chatAbort(1, 1),
};
const CHAT_BUGS: Bugs = {};

async function streamChat(scenario: Scenario): Promise<{ error: unknown; output: number; delays: number[] }> {
  const { fault } = scenario;
  const delays: number[] = [];
  const client = createOpenAICompatibleClient({
    baseURL: CHAT_BASE,
    apiKey: SECRET,
    model: 'matrix-model',
    retry: fastRetry,
    timeouts: isSlow(fault) ? { firstChunkMs: LIMIT_MS } : fault.kind === 'stall' ? { idleMs: LIMIT_MS } : undefined,
    fetch: fault.kind === 'dns' ? scenario.dnsFetch : undefined,
  });
  if (fault.kind === 'abort-before') scenario.abort();
  if (fault.kind === 'abort-headers') void scenario.arrived.promise.then(() => scenario.abort());
  const stream = client.stream({
    messages: [{ role: 'user', content: 'Weather in Paris?' }],
    signal: scenario.signal,
    onRetry: (notice) => {
      delays.push(notice.delayMs);
      if (fault.kind === 'abort-backoff') setTimeout(() => scenario.abort(), 10);
    },
  });
  const reader = stream.getReader();
  const chunks: ChatChunk[] = [];
  let error: unknown;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
      if (fault.kind === 'abort-stream' && next.value.type === 'text-delta') scenario.abort();
    }
  } catch (caught) {
    error = caught;
  }
  return { error, output: chunks.filter((item) => item.type === 'text-delta').length, delays };
}

describe('fault matrix: the chat client (createOpenAICompatibleClient, stream read to the end)', () => {
  registerCells(
    CHAT,
    CHAT_BUGS,
    (fault, expected) => `${fault.title} → ${summary(expected.error)} after ${attemptsText(expected.attempts)}`,
    async (fault, expected) => {
      const { observed, scenario } = await cell(fault, streamChat);
      return {
        outcome() {
          expect(shapeOf(observed.error, scenario.reason)).toEqual(expected.error);
          expect(requests.length + scenario.dnsCalls, 'attempts').toBe(expected.attempts);
          expect(observed.output, 'text deltas before the failure').toBe(expected.output);
          expect(observed.delays, 'retry waits').toEqual(expected.delays);
          if (expected.causeCode) expect(causeCode(observed.error), 'code kept in the cause chain').toBe(expected.causeCode);
        },
        secrets: () => expectNoSecret(observed.error),
      };
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Column 2: the tool HTTP helper (defineTool + toolErrorFromResponse / toolErrorFromFetchError, run by runTool)

const HTTP_OPTIONS = { service: 'Weather API', secrets: [SECRET] };

/** A tool as the README teaches: fetch, map a failed answer and a failed fetch (or body read) to a tool failure. */
function weatherTool(fetchImpl: typeof fetch) {
  return defineTool({
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: z.object({ city: z.string().min(1) }),
    execute: async ({ city }, { signal }) => {
      const url = `${WEATHER_URL}?city=${encodeURIComponent(city)}&appid=${SECRET}`;
      const response = await fetchImpl(url, { headers: { authorization: `Bearer ${SECRET}` }, signal }).catch((error: unknown) => {
        throw toolErrorFromFetchError(error, HTTP_OPTIONS);
      });
      if (!response.ok) throw await toolErrorFromResponse(response, HTTP_OPTIONS);
      const text = await response.text().catch((error: unknown) => {
        throw toolErrorFromFetchError(error, HTTP_OPTIONS);
      });
      return JSON.parse(text) as unknown; // a body that is not JSON is a crash: ToolInternalError for the model
    },
  });
}

interface ToolExpectation {
  /** The model-facing error type, or `the abort reason` the promise rejects with. */
  type: string;
  retryable?: boolean;
  outcome?: ToolRunOutcome;
  attempts: number;
  delays: number[];
  /** Developer log events, in order (`tool.log` records of the tool itself left out). */
  log: ToolLogEvent[];
  message?: RegExp;
}

const toolFailure = (type: string, retryable: boolean, message: RegExp, hint?: number): ToolExpectation => ({
  type,
  retryable,
  outcome: 'failure',
  attempts: retryable ? 3 : 1,
  delays: retryable ? (hint === undefined ? BACKOFF : HINTED) : [],
  log: retryable ? ['tool.retry', 'tool.retry', 'tool.failure'] : ['tool.failure'],
  message,
});
const toolTimeout: ToolExpectation = {
  type: 'TimeoutError',
  retryable: true,
  outcome: 'timeout',
  attempts: 3,
  delays: BACKOFF,
  log: ['tool.timeout', 'tool.retry', 'tool.timeout', 'tool.retry', 'tool.timeout', 'tool.failure'],
  message: new RegExp(`^The tool 'get_weather' did not finish within ${LIMIT_MS} ms\\.$`),
};
const toolAbort = (attempts: number, delays: number[] = [], log: ToolLogEvent[] = []): ToolExpectation => ({ type: 'the abort reason', attempts, delays, log });
const dropped = toolFailure('NetworkError', true, /could not be reached because of a network problem \(terminated: other side closed\)/);

const TOOL: Record<FaultId, ToolExpectation> = {
  'HTTP 400': toolFailure('InputValidationError', false, /rejected the request as invalid \(400 Bad Request\)/),
  'HTTP 401': toolFailure('AuthenticationError', false, /^Access to the Weather API was denied \(401 Unauthorized\)\. The provided API key may be invalid or expired\.$/),
  'HTTP 403': toolFailure('PermissionError', false, /refused access to this resource \(403 Forbidden\)/),
  'HTTP 404': toolFailure('DataNotFoundError', false, /^The resource requested at '\/v1\/current' was not found \(404 Not Found\)\.$/),
  'HTTP 408': toolFailure('TimeoutError', true, /timed out waiting for the request \(408 Request Timeout\)/),
  'HTTP 409': toolFailure('APIFailure', true, /reported a conflict \(409 Conflict\)/),
  'HTTP 422': toolFailure('InputValidationError', false, /rejected the request as invalid \(422 Unprocessable Entity\)/),
  'HTTP 429 with Retry-After': toolFailure('RateLimitError', true, /rate limit was reached \(429 Too Many Requests\)/, 20),
  'HTTP 429 without Retry-After': toolFailure('RateLimitError', true, /rate limit was reached \(429 Too Many Requests\)/),
  'HTTP 500': toolFailure('APIFailure', true, /failed with 500 Internal Server Error/),
  'HTTP 502': toolFailure('APIFailure', true, /failed with 502 Bad Gateway/),
  'HTTP 503': toolFailure('APIFailure', true, /failed with 503 Service Unavailable/),
  'HTTP 504': toolFailure('APIFailure', true, /failed with 504 Gateway Timeout/),
  network: toolFailure('NetworkError', true, /could not be reached because of a network problem/),
  dns: toolFailure('NetworkError', true, /^The Weather API could not be reached: its host name could not be resolved\.$/),
  'slow-headers': toolTimeout,
  'slow-body': toolTimeout,
  'cut-nothing': dropped,
  'cut-some': dropped,
  'cut-all': dropped,
  stall: toolTimeout,
  malformed: { type: 'ToolInternalError', outcome: 'crash', attempts: 1, delays: [], log: ['tool.crash'], message: /^The tool 'get_weather' failed with an unexpected internal error\.$/ },
  'abort-before': toolAbort(0),
  'abort-headers': toolAbort(1),
  'abort-backoff': toolAbort(1, [LONG_HINT_MS], ['tool.retry']),
  'abort-stream': toolAbort(1),
};
const TOOL_BUGS: Bugs = {};

async function callWeatherTool(scenario: Scenario): Promise<{ run?: ToolRun; error?: unknown; logs: ToolLogRecord[]; delays: number[] }> {
  const { fault } = scenario;
  const logs: ToolLogRecord[] = [];
  const delays: number[] = [];
  const tool = weatherTool(fault.kind === 'dns' ? scenario.dnsFetch : (input, init) => fetch(input, init));
  if (fault.kind === 'abort-before') scenario.abort();
  if (fault.kind === 'abort-headers') void scenario.arrived.promise.then(() => scenario.abort());
  if (fault.kind === 'abort-stream') void scenario.stalled.promise.then(() => scenario.abort());
  try {
    const run = await runTool(tool, '{"city":"Paris"}', {
      callId: 'call_matrix',
      signal: scenario.signal,
      retry: fastRetry,
      timeoutMs: isSlow(fault) || fault.kind === 'stall' ? LIMIT_MS : 10_000,
      secrets: [SECRET],
      logger: (record) => logs.push(record),
      onRetry: (notice) => {
        delays.push(notice.delayMs);
        if (fault.kind === 'abort-backoff') setTimeout(() => scenario.abort(), 10);
      },
    });
    return { run, logs, delays };
  } catch (error) {
    return { error, logs, delays };
  }
}

describe('fault matrix: the tool HTTP helper (toolErrorFromResponse / toolErrorFromFetchError under runTool with retries)', () => {
  registerCells(
    TOOL,
    TOOL_BUGS,
    (fault, expected) => `${fault.title} → ${expected.outcome ? `${expected.type} (${expected.outcome})` : `rejects with ${expected.type}`} after ${attemptsText(expected.attempts)}`,
    async (fault, expected) => {
      const { observed, scenario } = await cell(fault, callWeatherTool);
      const { run } = observed;
      return {
        outcome() {
          expect(requests.length + scenario.dnsCalls, 'attempts').toBe(expected.attempts);
          expect(observed.delays, 'retry waits').toEqual(expected.delays);
          const events = observed.logs.map((record) => record.event).filter((event) => event !== 'tool.log');
          expect(events, 'developer log').toEqual(expected.log);
          if (!expected.outcome) {
            expect(shapeOf(observed.error, scenario.reason)).toEqual({ class: expected.type });
            return;
          }
          expect(observed.error, 'runTool never throws for a failing tool').toBeUndefined();
          expect({ ok: run?.result.ok, type: run?.result.error?.type, outcome: run?.outcome, attempts: run?.attempts }).toEqual({
            ok: false,
            type: expected.type,
            outcome: expected.outcome,
            attempts: expected.attempts,
          });
          if (expected.message) expect(run?.result.error?.message).toMatch(expected.message);
          if (expected.retryable !== undefined) expect(ToolFailure.isInstance(run?.error) && run.error.retryable, 'retryable').toBe(expected.retryable);
          if (fault.id === 'HTTP 429 with Retry-After') expect(run?.result.error?.context?.retryAfterMs).toBe(20);
          expect(observed.logs.at(-1)?.error, 'the last record keeps the real error').toBeDefined();
        },
        secrets() {
          expectNoSecret(observed.logs);
          if (!run) return;
          expectNoSecret(serializeToolResult(run.result), run.result);
          if (ToolFailure.isInstance(run.error)) expectNoSecret(run.error);
        },
      };
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Column 3: the A2A client (sendMessage; streamMessage for the body faults). Sends are retried only on 429/503.

type A2ACall = 'sendMessage' | 'streamMessage' | 'getTask';

interface A2AExpectation {
  call: A2ACall;
  error: Record<string, unknown>;
  attempts: number;
  /** Events that reached the caller before the failure. */
  output: number;
  causeCode?: string;
}

/** A2ATransportError's retryable statuses (documented: 408/429/502/503/504; 409 and 500 are not). */
const A2A_RETRYABLE = new Set([408, 429, 502, 503, 504]);
const a2aHTTP = (call: A2ACall, code: number, hint?: number): A2AExpectation => {
  const retryable = A2A_RETRYABLE.has(code);
  const retried = retryable && (call === 'getTask' || code === 429 || code === 503);
  return { call, error: { class: 'A2ATransportError', reason: 'http', status: code, retryable, retryAfterMs: hint }, attempts: retried ? 3 : 1, output: 0 };
};
const a2aFailure = (call: A2ACall, reason: string, attempts: number, output = 0): A2AExpectation => ({
  call,
  error: { class: 'A2ATransportError', reason, retryable: true },
  attempts,
  output,
});
const a2aAbort = (call: A2ACall, attempts: number, output = 0): A2AExpectation => ({ call, error: { class: 'the abort reason' }, attempts, output });

/** The rows every A2A call shares (HTTP statuses, no answer, aborts before the body), for `call`. */
function a2aCommon(call: 'sendMessage' | 'getTask') {
  const sent = call === 'getTask' ? 3 : 1; // a send that got no answer may have been processed: not retried
  return {
    'HTTP 400': a2aHTTP(call, 400),
    'HTTP 401': a2aHTTP(call, 401),
    'HTTP 403': a2aHTTP(call, 403),
    'HTTP 404': a2aHTTP(call, 404),
    'HTTP 408': a2aHTTP(call, 408),
    'HTTP 409': a2aHTTP(call, 409),
    'HTTP 422': a2aHTTP(call, 422),
    'HTTP 429 with Retry-After': a2aHTTP(call, 429, 20),
    'HTTP 429 without Retry-After': a2aHTTP(call, 429),
    'HTTP 500': a2aHTTP(call, 500),
    'HTTP 502': a2aHTTP(call, 502),
    'HTTP 503': a2aHTTP(call, 503),
    'HTTP 504': a2aHTTP(call, 504),
    network: a2aFailure(call, 'network', sent),
    dns: { ...a2aFailure(call, 'network', sent), causeCode: 'ENOTFOUND' },
    'slow-headers': a2aFailure(call, 'timeout', sent),
    'abort-before': a2aAbort(call, 0),
    'abort-headers': a2aAbort(call, 1),
    'abort-backoff': a2aAbort(call, 1),
  } satisfies Partial<Record<FaultId, A2AExpectation>>;
}

const A2A: Record<FaultId, A2AExpectation> = {
  ...a2aCommon('sendMessage'),
  'slow-body': a2aFailure('streamMessage', 'timeout', 1),
  'cut-nothing': a2aFailure('streamMessage', 'network', 1, 0),
  'cut-some': a2aFailure('streamMessage', 'network', 1, 2),
  'cut-all': a2aFailure('streamMessage', 'network', 1, 3),
  stall: { call: 'streamMessage', error: { class: 'A2ATransportError', reason: 'timeout', retryable: false }, attempts: 1, output: 1 },
  malformed: { call: 'streamMessage', error: { class: 'SerializeError' }, attempts: 1, output: 0 },
  'abort-stream': a2aAbort('streamMessage', 1, 1),
};
const A2A_BUGS: Bugs = {}; // fixed: a non-JSON stream frame is quoted redacted (A2ATransport.streamItem)

/** A2A reads: the same rows through getTask, retried on every retryable failure. */
const A2A_READS: Partial<Record<FaultId, A2AExpectation>> = a2aCommon('getTask');

async function callAgent(scenario: Scenario, call: A2ACall): Promise<{ error: unknown; output: number }> {
  const { fault } = scenario;
  const client = createA2AClient({
    url: A2A_URL,
    headers: { authorization: `Bearer ${SECRET}` },
    retry: fastRetry,
    timeoutMs: isSlow(fault) ? LIMIT_MS : undefined,
    idleTimeoutMs: fault.kind === 'stall' ? LIMIT_MS : undefined,
    fetch: fault.kind === 'dns' ? scenario.dnsFetch : undefined,
  });
  if (fault.kind === 'abort-before') scenario.abort();
  if (fault.kind === 'abort-headers') void scenario.arrived.promise.then(() => scenario.abort());
  // No retry hook on the A2A client: abort 30 ms after the first (503, "retry in 10 s") answer.
  if (fault.kind === 'abort-backoff') void scenario.arrived.promise.then(() => setTimeout(() => scenario.abort(), 30));
  let output = 0;
  try {
    if (call === 'streamMessage') {
      for await (const _event of client.streamMessage('Stock of item 42?', { signal: scenario.signal })) {
        output++;
        if (fault.kind === 'abort-stream') scenario.abort();
      }
    } else {
      await (call === 'getTask' ? client.getTask({ id: 'task-matrix' }, { signal: scenario.signal }) : client.sendMessage('Stock of item 42?', { signal: scenario.signal }));
      output++;
    }
    return { error: undefined, output };
  } catch (error) {
    return { error, output };
  }
}

async function checkAgent(fault: Fault, expected: A2AExpectation): Promise<Checks> {
  const { observed, scenario } = await cell(fault, (started) => callAgent(started, expected.call));
  return {
    outcome() {
      expect(shapeOf(observed.error, scenario.reason)).toEqual(expected.error);
      expect(requests.length + scenario.dnsCalls, 'attempts').toBe(expected.attempts);
      expect(observed.output, 'events before the failure').toBe(expected.output);
      if (expected.causeCode) expect(causeCode(observed.error), 'code kept in the cause chain').toBe(expected.causeCode);
    },
    secrets: () => expectNoSecret(observed.error),
  };
}

const a2aTitle = (fault: Fault, expected: A2AExpectation) => `${fault.title} → ${expected.call}: ${summary(expected.error)} after ${attemptsText(expected.attempts)}`;

describe('fault matrix: the A2A client (createA2AClient: sendMessage, streamMessage for body faults)', () => {
  registerCells(A2A, A2A_BUGS, a2aTitle, checkAgent);
});

describe('fault matrix: A2A reads (getTask) are retried on every retryable failure, unlike sends', () => {
  registerCells(A2A_READS, {}, a2aTitle, checkAgent);
});

// ---------------------------------------------------------------------------------------------------------------
// A2A: a non-2xx answer whose JSON body has an `error` object but is not JSON-RPC — what API gateways and web
// frameworks send (`{"error": {"code": 429, "message": …, "status": "RESOURCE_EXHAUSTED"}}`). It is no JSON-RPC
// error, so it is an HTTP-level failure: A2ATransportError with its status, retried by the same rules as above.

interface GatewayCase {
  call: 'sendMessage' | 'getTask';
  status: number;
  headers?: Record<string, string>;
  attempts: number;
}

const GATEWAY_CASES: readonly GatewayCase[] = [
  { call: 'sendMessage', status: 429, headers: { 'retry-after-ms': '20' }, attempts: 3 },
  { call: 'sendMessage', status: 503, attempts: 3 },
  { call: 'getTask', status: 502, attempts: 3 },
  { call: 'sendMessage', status: 401, attempts: 1 },
];

describe('fault matrix: A2A behind a gateway that answers non-2xx with a JSON error object (not JSON-RPC)', () => {
  for (const gateway of GATEWAY_CASES) {
    const fault: Fault = { id: `gateway ${gateway.status}`, title: `HTTP ${gateway.status} with {"error": {…}} from a gateway`, kind: 'status', status: gateway.status, headers: gateway.headers };
    const expected: A2AExpectation = {
      call: gateway.call,
      error: {
        class: 'A2ATransportError',
        reason: 'http',
        status: gateway.status,
        retryable: A2A_RETRYABLE.has(gateway.status),
        retryAfterMs: gateway.headers ? 20 : undefined,
      },
      attempts: gateway.attempts,
      output: 0,
    };
    const run = () => {
      server.use(
        http.post(A2A_URL, ({ request }) =>
          HttpResponse.json(
            { error: { code: gateway.status, message: `Request refused for ${echoedKey(request)}`, status: 'RESOURCE_EXHAUSTED' } },
            { status: gateway.status, headers: gateway.headers },
          ),
        ),
      );
      return checkAgent(fault, expected);
    };
    const title = a2aTitle(fault, expected);
    // A non-2xx body with an `error` object but no `jsonrpc: "2.0"` is the gateway's, not the agent's: an HTTP failure.
    it(title, async () => {
      const checks = await run();
      checks.outcome();
      checks.secrets();
    });
  }
});
