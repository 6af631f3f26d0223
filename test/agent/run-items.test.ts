// What a run's stream alone must carry for a reader that renders it live (the web-UI encoder): retries and fallbacks
// as items the moment they happen, each tool's result the moment that tool ends, and the assistant message of every
// model call as the transcript holds it (its reasoning and the replay items a provider needs back).
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, type AgentRunItem } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatChunk, type ChatClient, type ChatRequest, type ChatStream } from '../../src/chat/index.js';
import { isRunnerCompletion, Runner } from '../../src/runner/index.js';
import { defineTool, RateLimitError } from '../../src/tools/index.js';

/** A chat client whose one call runs `play` (which may call the request's hooks and wait), then streams `chunks`. */
function manualClient(play: (request: ChatRequest) => Promise<void>, chunks: ChatChunk[]): ChatClient {
  const stream = (request: ChatRequest): ChatStream => {
    const body = new ReadableStream<ChatChunk>({
      async start(controller) {
        await play(request);
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return body as ChatStream;
  };
  return { name: 'manual', stream, complete: () => Promise.reject(new Error('not used')) };
}

/** Reads `stream` item by item; `until` says when to stop and hand back what was read so far. */
async function readUntil(reader: ReadableStreamDefaultReader<AgentRunItem>, until: (item: AgentRunItem) => boolean): Promise<AgentRunItem[]> {
  const read: AgentRunItem[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return read;
    read.push(value);
    if (until(value)) return read;
  }
}

describe('retries and fallbacks are run items, delivered while the run waits', () => {
  it('a model retry item reaches the reader before the retry is made', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = manualClient(
      async (request) => {
        request.onRetry?.({ attempt: 1, delayMs: 2_000, fromRetryAfter: true, error: { name: 'ChatClientError', status: 429, message: 'rate limited for key sk-live-RETRYSECRET0123456789' } });
        await gate; // the retry's wait: the reader must not wait for it
      },
      [{ type: 'text-delta', delta: 'Hi.' }, { type: 'finish', reason: 'stop' }],
    );
    const agent = new AgentBuilder('waiting').chatClient(model).build();
    const reader = agent.run('Hello?').getReader();
    const first = await readUntil(reader, (item) => item.type === 'retry');
    expect(first).toEqual([
      { type: 'retry', iteration: 1, source: 'model', attempt: 1, delayMs: 2_000, error: { name: 'ChatClientError', status: 429, message: 'rate limited for key [REDACTED]' } },
    ]);
    release();
    const rest = await readUntil(reader, () => false);
    expect(rest.map((item) => item.type)).toEqual(['text-delta', 'message', 'finish']);
  });

  it('a tool retry item reaches the reader while the tool waits to retry', async () => {
    let attempts = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Rate limited once.',
      parameters: z.object({}),
      retry: { maxAttempts: 2, initialDelayMs: 10_000, jitter: 'none', maxRetryAfterMs: 60_000 },
      execute: () => {
        attempts++;
        if (attempts === 1) throw new RateLimitError('Too many requests.', { retryAfterMs: 50 });
        return 'ok';
      },
    });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'flaky', arguments: {} }] }, { text: 'Done.' }]);
    const reader = new AgentBuilder('retrying').chatClient(model).tools([flaky]).toolLogger(false).build().run('Go.').getReader();
    const upToRetry = await readUntil(reader, (item) => item.type === 'retry');
    expect(attempts).toBe(1); // read while the tool waits: its second attempt has not run (a count, not a clock)
    expect(upToRetry.at(-1)).toEqual({
      type: 'retry',
      iteration: 1,
      source: 'tool',
      attempt: 1,
      delayMs: 50,
      callId: 'call_1',
      toolName: 'flaky',
      error: expect.objectContaining({ type: 'RateLimitError', message: 'Too many requests.' }),
    });
    const rest = await readUntil(reader, () => false);
    expect(rest.find((item) => item.type === 'tool-result')).toMatchObject({ outcome: 'success', attempts: 2 });
    expect(rest.at(-1)).toMatchObject({ type: 'finish', text: 'Done.' });
  });
});

describe('each tool result is delivered when its tool ends', () => {
  it('a crash at 25 ms is not held behind a slow sibling, which retries; the transcript keeps call order', async () => {
    let slowAttempts = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'Slow, and rate limited once.',
      parameters: z.object({}),
      retry: { maxAttempts: 2, initialDelayMs: 150, jitter: 'none' },
      execute: async () => {
        slowAttempts++;
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (slowAttempts === 1) throw new RateLimitError('Busy.');
        return 'slow result';
      },
    });
    const crash = defineTool({
      name: 'crash',
      description: 'Crashes at 25 ms.',
      parameters: z.object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 25));
        throw new Error('boom');
      },
    });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_slow', name: 'slow', arguments: {} }, { id: 'call_crash', name: 'crash', arguments: {} }] }, { text: 'Done.' }]);
    const stream = new AgentBuilder('mixed').chatClient(model).tools([slow, crash]).toolLogger(false).build().run('Go.');
    const seen: Array<{ type: string; callId?: string }> = [];
    let finish: Extract<AgentRunItem, { type: 'finish' }> | undefined;
    for await (const item of stream) {
      seen.push({ type: item.type, ...('callId' in item && item.callId ? { callId: item.callId } : {}) });
      if (item.type === 'finish') finish = item;
    }
    const order = seen.filter((entry) => entry.type === 'tool-result' || entry.type === 'retry').map((entry) => `${entry.type}:${entry.callId}`);
    expect(order).toEqual(['tool-result:call_crash', 'retry:call_slow', 'tool-result:call_slow']); // the crash's result did not wait for its slow sibling
    expect(finish?.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual(['call_slow', 'call_crash']);
    expect(model.requests[1]?.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual(['call_slow', 'call_crash']);
  });

  it('collected, the results read in call order round by round, though the stream gave them as the tools ended', async () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const tool = (name: string, ms: number) => defineTool({ name, description: `Ends after ${ms} ms.`, parameters: z.object({}), execute: async () => (await wait(ms), name) });
    const model = createScriptedChatClient(
      [
        // The same ids in both rounds: a result is placed by its round and its call, not by its id alone.
        { toolCalls: [{ id: 'a', name: 'slow', arguments: {} }, { id: 'b', name: 'fast', arguments: {} }] },
        { toolCalls: [{ id: 'b', name: 'slow', arguments: {} }, { id: 'a', name: 'fast', arguments: {} }] },
        { text: 'Done.' },
      ],
      { loop: true },
    );
    const agent = new AgentBuilder('order').chatClient(model).tools([tool('slow', 40), tool('fast', 1)]).build();
    const streamed: string[] = [];
    for await (const item of agent.run('Go.')) if (item.type === 'tool-result') streamed.push(`${item.iteration}:${item.callId}:${item.toolName}`);
    expect(streamed).toEqual(['1:b:fast', '1:a:slow', '2:a:fast', '2:b:slow']);
    const collected = await collectAgentRun(agent.run('Go.'));
    expect(collected.toolResults.map((item) => `${item.iteration}:${item.callId}:${item.toolName}`)).toEqual(['1:a:slow', '1:b:fast', '2:b:slow', '2:a:fast']);
  });

  it('a failed result says whether a later call may succeed, and carries a redacted stand-in of its cause', async () => {
    const limited = defineTool({
      name: 'limited',
      description: 'Rate limited.',
      parameters: z.object({}),
      execute: () => {
        throw new RateLimitError('Too many requests.', { retryAfterMs: 2_000, cause: new Error('upstream said key hunter2-secret') });
      },
    });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'limited', arguments: {} }] }, { text: 'Later.' }]);
    const items: AgentRunItem[] = [];
    for await (const item of new AgentBuilder('limited').chatClient(model).tools([limited]).secrets(['hunter2-secret']).toolLogger(false).build().run('Go.')) items.push(item);
    const result = items.find((item) => item.type === 'tool-result') as Extract<AgentRunItem, { type: 'tool-result' }>;
    expect(result).toMatchObject({ outcome: 'failure', retryable: true, retryAfterMs: 2_000 });
    expect(result.cause).toMatchObject({ name: 'RateLimitError', message: 'Too many requests.', cause: expect.objectContaining({ message: 'upstream said key [REDACTED]' }) });
  });

  it('under the Runner, the session keeps the tool messages in call order though they arrive as the tools end', async () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const first = defineTool({ name: 'first', description: 'Slow.', parameters: z.object({}), execute: async () => (await wait(30), 'one') });
    const second = defineTool({ name: 'second', description: 'Fast.', parameters: z.object({}), execute: () => 'two' });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'first', arguments: {} }, { id: 'c2', name: 'second', arguments: {} }] }, { text: 'Both.' }]);
    const agent = new AgentBuilder('both').chatClient(model).tools([first, second]).build();
    const sessions = new (await import('../../src/agent/index.js')).InMemorySessionStore();
    const runner = new Runner({ appName: 'app', agent, sessionStore: sessions });
    const answered: string[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Go.' })) {
      const message = event.response?.choices?.[0]?.message;
      if (message?.role === 'tool' && message.toolCallId) answered.push(message.toolCallId);
      if (isRunnerCompletion(event)) break;
    }
    expect(answered).toEqual(['c2', 'c1']);
    const stored = await sessions.load('app/u/s');
    expect(stored.filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual(['c1', 'c2']);
  });
});

describe('the assistant message of each model call is an item', () => {
  it('carries the reasoning and the replay items as the transcript holds them, before the tools run', async () => {
    const replay = [{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'Think.', signature: 'EqQBsig' } }];
    const model = manualClient(async () => {}, [
      { type: 'reasoning-delta', delta: 'Think.' },
      { type: 'tool-call-end', index: 0, id: 'call_1', name: 'echo', arguments: '{"text":"hi"}' },
      { type: 'finish', reason: 'tool_calls', replay },
    ]);
    let calls = 0;
    const twoTurns: ChatClient = {
      name: 'two-turns',
      stream: (request) => (calls++ === 0 ? model.stream(request) : createScriptedChatClient([{ text: 'Said hi.' }]).stream(request)),
      complete: () => Promise.reject(new Error('not used')),
    };
    const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
    const items: AgentRunItem[] = [];
    for await (const item of new AgentBuilder('thinking').chatClient(twoTurns).tools([echo]).build().run('Say hi.')) items.push(item);
    const message = items.find((item) => item.type === 'message' && item.iteration === 1);
    expect(message).toEqual({
      type: 'message',
      iteration: 1,
      message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'echo', arguments: '{"text":"hi"}' }], reasoning: 'Think.', replay },
    });
    expect(items.map((item) => item.type)).toEqual(['reasoning-delta', 'tool-call', 'message', 'tool-result', 'text-delta', 'message', 'finish']);
    const finish = items.at(-1) as Extract<AgentRunItem, { type: 'finish' }>;
    expect(finish.messages[0]).toBe((message as Extract<AgentRunItem, { type: 'message' }>).message);
  });
});
