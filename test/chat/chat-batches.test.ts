import { describe, expect, it } from 'vitest';
import { AgentBuilder, type AgentRunItem } from '../../src/agent/index.js';
import { openChatBatches } from '../../src/chat/core/chat-batches.js';
import { createOpenAICompatibleClient, createScriptedChatClient, type ChatChunk, type ChatClient, type ChatRequest } from '../../src/chat/index.js';
import { chunk, sseText } from '../../src/testing/openai-stream.js';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

async function drain(client: ChatClient): Promise<ChatChunk[]> {
  const { batches } = openChatBatches(client, request);
  const chunks: ChatChunk[] = [];
  for await (const batch of batches) chunks.push(...batch);
  return chunks;
}

async function runText(client: ChatClient): Promise<string> {
  const agent = new AgentBuilder('batches').chatClient(client).build();
  let text = '';
  for await (const item of await agent.run('hi')) if (item.type === 'text-delta') text += item.delta;
  return text;
}

describe('openChatBatches', () => {
  it('reads a client of this package through its batch path, the same chunks as its stream', async () => {
    const model = createScriptedChatClient([{ text: 'Hello there, batches.' }, { text: 'Hello there, batches.' }], { name: 'scripted' });
    const viaStream: ChatChunk[] = [];
    for await (const piece of model.stream(request)) viaStream.push(piece);
    expect(await drain(model)).toEqual(viaStream);
  });

  it('honours a wrapper that copies a client and replaces stream (the batch path is not copied)', async () => {
    const model = createScriptedChatClient([{ text: 'from the model' }]);
    const wrapped: ChatClient = { ...model, stream: () => createScriptedChatClient([{ text: 'from the wrapper' }]).stream(request) };
    expect(await runText(wrapped)).toBe('from the wrapper');
    expect(model.requests).toHaveLength(0);
  });

  it('honours a wrapper that inherits from a client and replaces stream', async () => {
    const model = createScriptedChatClient([{ text: 'from the model' }]);
    const wrapped = Object.create(model) as ChatClient & { stream: ChatClient['stream'] };
    wrapped.stream = () => createScriptedChatClient([{ text: 'from the subclass' }]).stream(request);
    expect(await runText(wrapped)).toBe('from the subclass');
    expect(model.requests).toHaveLength(0);
  });

  it('reads a foreign client through its stream, one chunk per batch', async () => {
    const inner = createScriptedChatClient([{ text: 'abc', chunkSize: 1 }]);
    const foreign: ChatClient = { name: 'foreign', stream: (req) => inner.stream(req), complete: (req) => inner.complete(req) };
    const { batches } = openChatBatches(foreign, request);
    const sizes: number[] = [];
    for await (const batch of batches) sizes.push(batch.length);
    expect(sizes.every((size) => size === 1)).toBe(true);
    expect(sizes.length).toBeGreaterThanOrEqual(4); // three text deltas and the finish
  });

  it('throws synchronously what stream throws synchronously (an invalid request)', () => {
    const model = createScriptedChatClient([{ text: 'x' }]);
    expect(() => openChatBatches(model, { messages: 'nope' } as unknown as ChatRequest)).toThrow(/chat request/);
  });

  it('aborts the HTTP call when the agent run is abandoned mid-answer', async () => {
    let signal: AbortSignal | undefined;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const encoder = new TextEncoder();
    const client = createOpenAICompatibleClient({
      baseURL: 'https://llm.batches.test/v1',
      model: 'm',
      retry: false,
      fetch: async (_url, init) => {
        signal = init?.signal ?? undefined;
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode(sseText([chunk({ role: 'assistant', content: 'first words ' })])));
            await held;
            controller.enqueue(encoder.encode(sseText([chunk({ content: 'late' }, 'stop')])));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
    });
    const agent = new AgentBuilder('abandoned').chatClient(client).build();
    const items: AgentRunItem[] = [];
    for await (const item of await agent.run('hi')) {
      items.push(item);
      if (item.type === 'text-delta') break;
    }
    release();
    expect(items[0]).toMatchObject({ type: 'text-delta' });
    expect(signal?.aborted).toBe(true);
  });
});
