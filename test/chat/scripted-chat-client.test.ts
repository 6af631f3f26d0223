import { describe, expect, it } from 'vitest';
import { collectChatStream, createFallbackChatClient, createScriptedChatClient, type ChatChunk, type ChatFallbackNotice } from '../../src/chat/index.js';
import { ChatClientError, ConfigError, StreamError } from '../../src/errors/index.js';

const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

async function chunksOf(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('createScriptedChatClient', () => {
  it('replays text in chunks, then tool calls, with no network', async () => {
    const client = createScriptedChatClient([
      { text: 'Hello there', chunkSize: 5 },
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'mine', name: 'raw', arguments: 'not json' }] },
    ]);
    expect(await chunksOf(client.stream(ask))).toEqual([
      { type: 'text-delta', delta: 'Hello' },
      { type: 'text-delta', delta: ' ther' },
      { type: 'text-delta', delta: 'e' },
      { type: 'finish', reason: 'stop', model: 'scripted' },
    ]);
    const response = await client.complete(ask);
    expect(response.message.toolCalls).toEqual([
      { id: 'call_2_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'mine', name: 'raw', arguments: 'not json' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(client.requests).toHaveLength(2);
  });

  it('fails a call with a scripted error before any output', async () => {
    const failure = new ChatClientError('Chat API returned 503', { status: 503 });
    const client = createScriptedChatClient([{ error: failure }]);
    await expect(chunksOf(client.stream(ask))).rejects.toBe(failure);
  });

  it('streams text first, then fails, when both are scripted', async () => {
    const failure = new StreamError('dropped', { reason: 'read_failed', afterOutput: true });
    const client = createScriptedChatClient([{ text: 'partial', error: failure }]);
    const seen: ChatChunk[] = [];
    await expect(
      (async () => {
        for await (const chunk of client.stream(ask)) seen.push(chunk);
      })(),
    ).rejects.toBe(failure);
    expect(seen).toEqual([{ type: 'text-delta', delta: 'partial' }]);
  });

  it('says so when the script runs out, and can loop instead', async () => {
    const once = createScriptedChatClient([{ text: 'one' }]);
    await collectChatStream(once.stream(ask));
    await expect(collectChatStream(once.stream(ask))).rejects.toThrow('The scripted chat client has no turn left for call 2 (it was given 1)');
    const looping = createScriptedChatClient([{ text: 'again' }], { loop: true });
    await collectChatStream(looping.stream(ask));
    expect((await collectChatStream(looping.stream(ask))).message.content).toBe('again');
  });

  it('builds answers from the request with a function turn', async () => {
    const client = createScriptedChatClient([(request) => ({ text: `you said ${request.messages.at(-1)?.content}` })]);
    expect((await client.complete(ask)).message.content).toBe('you said Hi');
  });

  it('honours the abort signal during a delay', async () => {
    const controller = new AbortController();
    const client = createScriptedChatClient([{ text: 'slow', delayMs: 10_000 }]);
    const pending = collectChatStream(client.stream({ ...ask, signal: controller.signal }));
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', message: 'stop' });
  });

  it('validates requests and turns', () => {
    expect(() => createScriptedChatClient('nope' as never)).toThrow(ConfigError);
    expect(() => createScriptedChatClient([]).stream({ messages: [] })).toThrow(/messages must not be empty/);
  });
});

describe('createFallbackChatClient', () => {
  it('moves to the next client on a retryable failure before output, and says so', async () => {
    const notices: ChatFallbackNotice[] = [];
    const failure = new ChatClientError('Chat API returned 503 Service Unavailable', { status: 503 });
    const client = createFallbackChatClient([
      createScriptedChatClient([{ error: failure }], { name: 'primary' }),
      createScriptedChatClient([{ text: 'from the backup' }], { name: 'backup' }),
    ]);
    const response = await collectChatStream(client.stream({ ...ask, onFallback: (notice) => notices.push(notice) }));
    expect(response.message.content).toBe('from the backup');
    expect(notices).toEqual([{ from: 'primary', to: 'backup', error: failure }]);
  });

  it('does not fall back on a non-retryable failure', async () => {
    const failure = new ChatClientError('Chat API returned 401 Unauthorized', { status: 401 });
    const backup = createScriptedChatClient([{ text: 'unused' }]);
    const client = createFallbackChatClient([createScriptedChatClient([{ error: failure }]), backup]);
    await expect(collectChatStream(client.stream(ask))).rejects.toBe(failure);
    expect(backup.requests).toHaveLength(0);
  });

  it('never replays once output has flowed', async () => {
    const failure = new StreamError('dropped', { reason: 'read_failed', afterOutput: true });
    const backup = createScriptedChatClient([{ text: 'unused' }]);
    const client = createFallbackChatClient([createScriptedChatClient([{ text: 'half', error: failure }]), backup]);
    await expect(collectChatStream(client.stream(ask))).rejects.toBe(failure);
    expect(backup.requests).toHaveLength(0);
  });

  it('reports the last failure when every client fails', async () => {
    const last = new ChatClientError('Chat API returned 502', { status: 502 });
    const client = createFallbackChatClient([
      createScriptedChatClient([{ error: new ChatClientError('first', { status: 503 }) }]),
      createScriptedChatClient([{ error: last }]),
    ]);
    await expect(client.complete(ask)).rejects.toBe(last);
  });

  it('accepts a custom rule and rejects an empty list', async () => {
    const client = createFallbackChatClient(
      [createScriptedChatClient([{ error: new Error('anything') }]), createScriptedChatClient([{ text: 'custom rule' }])],
      { shouldFallback: () => true },
    );
    expect((await client.complete(ask)).message.content).toBe('custom rule');
    expect(() => createFallbackChatClient([])).toThrow(ConfigError);
  });
});
