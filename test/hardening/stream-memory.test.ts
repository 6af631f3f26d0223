/**
 * Every reader forgets what it already delivered. Found by the provider decode bench: each read of a model stream
 * raced `reader.read()` against the attempt's never-settling abort promise, and each race left a reaction on it that
 * kept that read's bytes alive until the attempt ended — a 20 MB body held 20 MB. The same pattern read A2A streams,
 * MCP streams and the runner's events. Each reader here consumes a long stream of fresh chunks (pull-based, so the
 * source keeps nothing) and, when most of it has passed, the memory still held is measured after a forced GC: it must
 * be a small bound, not the bytes read. With the old race at the sample point: chat and A2A held 11.8 MB, the runner 25 MB (bounds here: 3 and 8 MB).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createA2AClient } from '../../src/a2a/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { createEvent, Runner, type RunnableAgent } from '../../src/runner/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const CHUNKS = 300;
const SAMPLE_AT = 250;
const PIECE = 'x'.repeat(48 * 1024);

/** Off-heap bytes (array buffers: the chunks read) and heap, after a full GC. */
function held(): { buffers: number; heap: number } {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { buffers: usage.arrayBuffers / MB, heap: usage.heapUsed / MB };
}

/**
 * A body of `CHUNKS` fresh chunks (`head`, then `event(i)` each, then `tail`), one per read; it measures what is still
 * held when chunk `SAMPLE_AT` is asked for.
 */
function longBody(head: string, event: (index: number) => string, tail: string, samples: { before?: ReturnType<typeof held>; at?: ReturnType<typeof held> }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = -1;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index === SAMPLE_AT) samples.at = held();
        if (index === -1) controller.enqueue(encoder.encode(head));
        else if (index < CHUNKS) controller.enqueue(encoder.encode(event(index)));
        else {
          controller.enqueue(encoder.encode(tail));
          controller.close();
        }
        index++;
      },
    },
    { highWaterMark: 0 },
  );
}

const sseEvent = (type: string | undefined, data: unknown) => `${type ? `event: ${type}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

const protocols: Record<string, { client: (fetch: typeof globalThis.fetch) => ChatClient; head: string; event: (index: number) => string; tail: string }> = {
  'Chat Completions': {
    client: (fetch) => createOpenAICompatibleClient({ baseURL: 'http://model.invalid/v1', model: 'm', retry: false, fetch }),
    head: '',
    event: () => sseEvent(undefined, { choices: [{ index: 0, delta: { content: PIECE } }] }),
    tail: sseEvent(undefined, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + 'data: [DONE]\n\n',
  },
  'Anthropic Messages': {
    client: (fetch) => createAnthropicClient({ baseURL: 'http://model.invalid', model: 'm', maxTokens: 64, retry: false, fetch }),
    head:
      sseEvent('message_start', { type: 'message_start', message: { id: 'msg', model: 'm', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }) +
      sseEvent('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event: () => sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: PIECE } }),
    tail: sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }) + sseEvent('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' } }) + sseEvent('message_stop', { type: 'message_stop' }),
  },
  'OpenAI Responses': {
    client: (fetch) => createOpenAIResponsesClient({ baseURL: 'http://model.invalid/v1', model: 'm', retry: false, fetch }),
    head: sseEvent('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg', content: [] } }),
    event: () => sseEvent('response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, delta: PIECE }),
    tail: sseEvent('response.completed', { type: 'response.completed', response: { id: 'resp', status: 'completed', output: [] } }),
  },
};

describe('readers keep nothing of what they delivered (a long stream of fresh chunks)', () => {
  for (const [name, protocol] of Object.entries(protocols)) {
    it(`${name}: the chat stream reader`, async () => {
      const samples: { before?: ReturnType<typeof held>; at?: ReturnType<typeof held> } = {};
      const fetch = (async () => new Response(longBody(protocol.head, protocol.event, protocol.tail, samples), { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch;
      samples.before = held();
      let text = 0;
      for await (const chunk of protocol.client(fetch).stream({ messages: [{ role: 'user', content: 'go' }] })) if (chunk.type === 'text-delta') text += chunk.delta.length;
      expect(text).toBe(CHUNKS * PIECE.length);
      expect((samples.at?.buffers ?? Infinity) - samples.before.buffers).toBeLessThan(3);
    });
  }

  it('the A2A client streaming a task (streamMessage)', async () => {
    const samples: { before?: ReturnType<typeof held>; at?: ReturnType<typeof held> } = {};
    const frame = (result: unknown) => sseEvent(undefined, { jsonrpc: '2.0', id: 1, result });
    const update = (final: boolean, text?: string) => ({
      kind: 'status-update',
      taskId: 'task-1',
      contextId: 'ctx-1',
      final,
      status: { state: final ? 'completed' : 'working', ...(text ? { message: { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text', text }] } } : {}) },
    });
    const fetch = (async (_url: unknown, init?: RequestInit) => {
      const id = (JSON.parse(String(init?.body)) as { id: unknown }).id;
      const body = longBody(frame({ kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'working' } }).replace('"id":1', `"id":${JSON.stringify(id)}`), () => frame(update(false, PIECE)).replace('"id":1', `"id":${JSON.stringify(id)}`), frame(update(true)).replace('"id":1', `"id":${JSON.stringify(id)}`), samples);
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof globalThis.fetch;
    const client = createA2AClient({ url: 'http://agent.invalid/a2a', fetch, retry: false });
    samples.before = held();
    let events = 0;
    for await (const _event of client.streamMessage('go')) events++;
    expect(events).toBe(CHUNKS + 2);
    expect((samples.at?.buffers ?? Infinity) - samples.before.buffers).toBeLessThan(3);
  });

  it('the runner reading an agent’s events', async () => {
    const big = 'y'.repeat(100 * 1024);
    let atSample: ReturnType<typeof held> | undefined;
    const agent: RunnableAgent = {
      name: 'long',
      async *runEvents(invocation) {
        for (let index = 0; index < CHUNKS; index++) {
          if (index === SAMPLE_AT) atSample = held();
          yield createEvent({ invocationId: invocation.invocationId, author: 'long' }, { stateDelta: { part: JSON.stringify(`${index}:${big}`) } });
        }
      },
    };
    const before = held();
    let events = 0;
    for await (const _event of new Runner({ appName: 'app', agent }).run({ userId: 'u', sessionId: 's', message: 'go' })) events++;
    expect(events).toBe(CHUNKS + 1);
    expect((atSample?.heap ?? Infinity) - before.heap).toBeLessThan(8);
  });
});
