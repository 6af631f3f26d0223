// faultline/testing: every fault the msw handlers serve, through our own clients, with the outcome each one promises
// (CHAT_FAULTS and A2A_FAULTS describe them; a fault without a test here fails the coverage check at the end).
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createA2AAgent, createA2AClient, type Task } from '../../src/a2a/index.js';
import { collectChatStream, createOpenAICompatibleClient, type ChatChunk } from '../../src/chat/index.js';
import { A2ATransportError, ChatClientError, JSONRPCError, StreamError } from '../../src/errors/index.js';
import { isTerminalError } from '../../src/runner/index.js';
import { A2A_FAULTS, a2aFaultHandlers, CHAT_FAULTS, chatFaultHandlers, sseResponse, textEvents } from '../../src/testing/index.js';
import { watchFaultTimers } from './fault-timers.js';

const CHAT = 'https://faults.test/chat';
const A2A = 'https://remote.test';
const KEY = 'sk-fault-0123456789abcdef';
const server = setupServer(...chatFaultHandlers({ baseURL: CHAT }), ...a2aFaultHandlers({ baseURL: A2A }));
const requests: string[] = [];
server.events.on('request:start', ({ request }) => requests.push(`${request.method} ${new URL(request.url).pathname}`));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
});
afterAll(() => server.close());

let runs = 0;
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, jitter: 'none' as const };
function client(fault: string, options: Partial<Parameters<typeof createOpenAICompatibleClient>[0]> = {}) {
  return createOpenAICompatibleClient({ baseURL: `${CHAT}/${fault}/run-${++runs}`, apiKey: KEY, model: 'gpt-test', retry: fastRetry, ...options });
}
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

/** Reads a chat stream to its end: the chunks, then the error it ended with (if any). */
async function drain(stream: ReadableStream<ChatChunk>): Promise<{ chunks: ChatChunk[]; error: unknown }> {
  const chunks: ChatChunk[] = [];
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error };
  }
}
const texts = (chunks: ChatChunk[]) => chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []));
const posts = () => requests.filter((request) => request.startsWith('POST'));

const tested = { chat: new Set<string>(), a2a: new Set<string>() };

/** The first `count` network chunks of a fault's raw answer to a streamed request, then the body is cancelled. */
async function rawChunks(fault: string, count: number): Promise<{ contentType: string | null; chunks: string[] }> {
  const response = await fetch(`${CHAT}/${fault}/run-${++runs}/chat/completions`, { method: 'POST', body: '{"stream":true}' });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: string[] = [];
  for (let index = 0; index < count; index++) chunks.push(new TextDecoder().decode((await reader.read()).value));
  // Not awaited: msw keeps a copy of the body, and a cancel settles only once that copy is released too.
  reader.cancel().catch(() => {});
  return { contentType: response.headers.get('content-type'), chunks };
}

describe('chatFaultHandlers', () => {
  it('ok: a normal streamed answer', async () => {
    tested.chat.add('ok');
    expect((await collectChatStream(client('ok').stream(ask))).message.content).toBe('Hello from the fault server.');
  });

  it('rate-limit: a 429 with Retry-After on the first call, retried once, then the answer', async () => {
    tested.chat.add('rate-limit');
    expect((await collectChatStream(client('rate-limit').stream(ask))).message.content).toBe('Hello from the fault server.');
    expect(posts()).toHaveLength(2);
    const { error } = await drain(client('rate-limit', { retry: false }).stream(ask));
    expect(ChatClientError.isInstance(error) && [error.status, error.retryAfterMs]).toEqual([429, 50]);
  });

  it('server-error: 500 twice, then the answer (three attempts)', async () => {
    tested.chat.add('server-error');
    expect((await collectChatStream(client('server-error').stream(ask))).message.content).toBe('Hello from the fault server.');
    expect(posts()).toHaveLength(3);
  });

  it('unauthorized: a 401 ChatClientError, not retried, without the key it echoed', async () => {
    tested.chat.add('unauthorized');
    const { error } = await drain(client('unauthorized').stream(ask));
    expect(ChatClientError.isInstance(error) && [error.status, error.retryable]).toEqual([401, false]);
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain('0123456789abcdef');
    expect(posts()).toHaveLength(1);
  });

  it('cut-mid-stream: the two deltas, then a StreamError after output, never replayed', async () => {
    tested.chat.add('cut-mid-stream');
    const { chunks, error } = await drain(client('cut-mid-stream').stream(ask));
    expect(texts(chunks).join('')).toBe('partial answer ');
    expect(StreamError.isInstance(error) && error.afterOutput).toBe(true);
    expect(posts()).toHaveLength(1);
  });

  it('malformed-chunk: the delta, then a StreamError malformed_chunk', async () => {
    tested.chat.add('malformed-chunk');
    const { chunks, error } = await drain(client('malformed-chunk').stream(ask));
    expect(texts(chunks)).toEqual(['Hello']);
    expect(StreamError.isInstance(error) && error.reason).toBe('malformed_chunk');
  });

  it('mid-stream-error: the delta, then a StreamError provider_error with the provider message', async () => {
    tested.chat.add('mid-stream-error');
    const { chunks, error } = await drain(client('mid-stream-error').stream(ask));
    expect(texts(chunks)).toEqual(['Hello']);
    expect(StreamError.isInstance(error) && error.reason).toBe('provider_error');
    expect((error as Error).message).toContain('The model is overloaded');
  });

  it('invalid-tool-json: a tool call whose arguments are not JSON, then (next call) the answer', async () => {
    tested.chat.add('invalid-tool-json');
    const model = client('invalid-tool-json');
    const first = await collectChatStream(model.stream(ask));
    expect(first.message.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city": Paris' }]);
    expect((await collectChatStream(model.stream(ask))).message.content).toBe('Hello from the fault server.');
  });

  it('slow-first-byte: a first-chunk timeout fires long before the 2 s answer, and the 2 s wait ends with it', async () => {
    tested.chat.add('slow-first-byte');
    const timers = watchFaultTimers();
    try {
      const { error } = await drain(client('slow-first-byte', { retry: false, timeouts: { firstChunkMs: 50 } }).stream(ask));
      expect(ChatClientError.isInstance(error) && [error.reason, error.timeout]).toEqual(['timeout', 'first_chunk']);
      expect(timers.pending(), 'fault timers still pending').toBe(0);
    } finally {
      timers.stop();
    }
  });

  it('no-finish: the deltas, then a StreamError incomplete', async () => {
    tested.chat.add('no-finish');
    const { chunks, error } = await drain(client('no-finish').stream(ask));
    expect(texts(chunks).join('')).toBe('half an answer');
    expect(StreamError.isInstance(error) && error.reason).toBe('incomplete');
  });

  it('keep-alive-only: a 200 stream of `: keep-alive` comments that never sends an event', async () => {
    tested.chat.add('keep-alive-only');
    expect(await rawChunks('keep-alive-only', 3)).toEqual({ contentType: 'text/event-stream', chunks: [': keep-alive\n\n', ': keep-alive\n\n', ': keep-alive\n\n'] });
  });

  it('keep-alive-only: the client ends in a first-chunk timeout saying it got only keep-alives, and nothing keeps ticking', async () => {
    const timers = watchFaultTimers();
    try {
      const { chunks, error } = await drain(client('keep-alive-only', { retry: false, timeouts: { firstChunkMs: 100 } }).stream(ask));
      expect(chunks).toEqual([]);
      expect(ChatClientError.isInstance(error) && [error.reason, error.timeout, error.retryable]).toEqual(['timeout', 'first_chunk', true]);
      expect((error as Error).message).toBe('Chat API (faults.test) sent no complete first chunk within 100 ms, only keep-alives or unfinished data (first-chunk timeout)');
      expect(timers.pending(), 'fault timers still pending').toBe(0);
    } finally {
      timers.stop();
    }
  });

  it('trickle: one byte at a time of a `data:` line that never ends', async () => {
    tested.chat.add('trickle');
    const { contentType, chunks } = await rawChunks('trickle', 12);
    expect(contentType).toBe('text/event-stream');
    expect(chunks.every((piece) => piece.length === 1)).toBe(true);
    expect(chunks.join('')).toBe('data: {"id":');
  });

  it('trickle: the client ends in a first-chunk timeout, and nothing keeps ticking', async () => {
    const timers = watchFaultTimers();
    try {
      const { chunks, error } = await drain(client('trickle', { retry: false, timeouts: { firstChunkMs: 100 } }).stream(ask));
      expect(chunks).toEqual([]);
      expect(ChatClientError.isInstance(error) && [error.reason, error.timeout]).toEqual(['timeout', 'first_chunk']);
      expect(timers.pending(), 'fault timers still pending').toBe(0);
    } finally {
      timers.stop();
    }
  });

  it('an unknown fault is a 404 naming the known ones', async () => {
    const { error } = await drain(client('no-such-fault', { retry: false }).stream(ask));
    expect(ChatClientError.isInstance(error) && error.status).toBe(404);
    expect((error as ChatClientError).providerMessage).toContain('known: ok, rate-limit');
  });
});

describe('a2aFaultHandlers', () => {
  const remote = () => createA2AClient({ agentCardUrl: A2A, retry: false });
  /** The fault agent always answers message/send with a Task. */
  const send = async (text: string): Promise<Task> => {
    const result = await remote().sendMessage(text);
    if (result.kind !== 'task') throw new Error(`expected a task, got ${result.kind}`);
    return result;
  };
  const runRemote = async (text: string) => {
    const events = [];
    for await (const event of createA2AAgent({ agentCardUrl: A2A, retry: false }).runEvents({ invocationId: 'i', appName: 'a', userId: 'u', sessionId: 's', message: { role: 'user', content: text }, history: [], signal: new AbortController().signal })) events.push(event);
    return events;
  };

  it('fail: a failed task with structured metadata, decoded into one terminal error', async () => {
    tested.a2a.add('fail');
    const task = await send('fail');
    expect([task.status.state, task.metadata?.error_code, task.status.message?.metadata?.error_code]).toEqual(['failed', 'REMOTE_VALIDATION_FAILED', 'REMOTE_VALIDATION_FAILED']);
    const events = await runRemote('fail');
    expect(events.map((event) => [isTerminalError(event), event.response?.error])).toEqual([[true, { type: 'flow_error', message: 'validation failed', code: 'REMOTE_VALIDATION_FAILED' }]]);
  });

  it('reject: a rejected task without metadata ("remote task rejected")', async () => {
    tested.a2a.add('reject');
    expect((await send('reject')).status.state).toBe('rejected');
    expect((await runRemote('reject')).map((event) => event.response?.error?.message)).toEqual(['remote task rejected']);
  });

  it('cancel: a canceled task', async () => {
    tested.a2a.add('cancel');
    expect((await send('cancel')).status.state).toBe('canceled');
    const events = await runRemote('cancel');
    expect(events).toHaveLength(1);
    expect(isTerminalError(events[0] as never)).toBe(true);
  });

  it('rpc-error: a JSONRPCError -32001 instead of a result', async () => {
    tested.a2a.add('rpc-error');
    const error = await remote().sendMessage('rpc-error').catch((caught: unknown) => caught);
    expect(JSONRPCError.isInstance(error) && [error.rpcCode, error.inStream]).toEqual([-32001, false]);
  });

  it('rpc-error-in-stream: the task snapshot, then a JSONRPCError -32603 from inside the stream', async () => {
    tested.a2a.add('rpc-error-in-stream');
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const event of remote().streamMessage('rpc-error-in-stream')) seen.push(event.kind);
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual(['task']);
    expect(JSONRPCError.isInstance(failure) && [failure.rpcCode, failure.inStream]).toEqual([-32603, true]);
  });

  it('keep-alive-only: the task snapshot, then only comments: an idle timeout naming its limit, and nothing keeps ticking', async () => {
    tested.a2a.add('keep-alive-only');
    const timers = watchFaultTimers();
    const seen: string[] = [];
    let failure: unknown;
    try {
      try {
        for await (const event of createA2AClient({ agentCardUrl: A2A, retry: false, idleTimeoutMs: 100 }).streamMessage('keep-alive-only')) seen.push(event.kind);
      } catch (error) {
        failure = error;
      }
      expect(timers.pending(), 'fault timers still pending').toBe(0);
    } finally {
      timers.stop();
    }
    expect(seen).toEqual(['task']);
    expect(A2ATransportError.isInstance(failure) && [failure.reason, failure.timeout, failure.retryable]).toEqual(['timeout', 'idle', false]);
    expect((failure as Error).message).toBe(`A2A message/stream to ${A2A}/ timed out: no event for 100 ms (idle limit, idleTimeoutMs)`);
    expect((await send('keep-alive-only')).status.state).toBe('completed');
  });

  it('anything else: a completed task whose artifact echoes the text (unary and streamed)', async () => {
    tested.a2a.add('anything else');
    const task = await send('hello');
    expect([task.status.state, task.artifacts?.[0]?.parts]).toEqual(['completed', [{ kind: 'text', text: 'ok: hello' }]]);
    const kinds: string[] = [];
    for await (const event of remote().streamMessage('hello')) kinds.push(event.kind);
    expect(kinds).toEqual(['task', 'artifact-update', 'status-update']);
  });

  it('answers tasks/get with -32001, a malformed body with -32700 and a non-request with -32600', async () => {
    expect(await remote().getTask({ id: 'x' }).catch((error: JSONRPCError) => error.rpcCode)).toBe(-32001);
    const raw = (body: string) => fetch(`${A2A}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((response) => response.json() as Promise<{ error: { code: number } }>);
    expect((await raw('{"jsonrpc":')).error.code).toBe(-32700);
    expect((await raw('[1]')).error.code).toBe(-32600);
  });
});

describe('sseResponse plans', () => {
  it('dropDelayMs waits before the drop, after every event before it was read', async () => {
    const reader = sseResponse(textEvents(['a', 'b']), { dropAfter: 1, dropDelayMs: 40 }).body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    const started = performance.now();
    await expect(reader.read()).rejects.toThrow('terminated');
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });
});

describe('coverage of the documented faults', () => {
  it('tests every fault CHAT_FAULTS and A2A_FAULTS list', () => {
    expect([...tested.chat].sort()).toEqual(Object.keys(CHAT_FAULTS).sort());
    expect([...tested.a2a].sort()).toEqual(Object.keys(A2A_FAULTS).sort());
  });
});
