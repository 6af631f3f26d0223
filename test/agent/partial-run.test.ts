// A run that fails mid-answer rejects with its terminal error, and partialRunOf(error) gives back what it produced
// before: the text that streamed, the tool results, the assistant messages. Nothing is written on the error itself (an
// abort reason is the caller's own object).
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, partialRunOf, runAgent } from '../../src/agent/index.js';
import type { ChatChunk, ChatClient, ChatRequest, ChatStream } from '../../src/chat/index.js';
import { StreamError } from '../../src/errors/index.js';
import { defineTool } from '../../src/tools/index.js';

/** Call 1: a tool call. Call 2: "The order has shipp", then the connection drops. */
function cutModel(): ChatClient {
  let calls = 0;
  const stream = (_request: ChatRequest): ChatStream => {
    calls++;
    const first = calls === 1;
    // Pulled one chunk at a time, as a network stream is: the failure comes after the text was read (an error in
    // start() would drop the queued chunks unread).
    const chunks: Array<ChatChunk | Error> = first
      ? [{ type: 'tool-call-end', index: 0, id: 'call_1', name: 'lookup', arguments: '{"id":"42"}' }, { type: 'finish', reason: 'tool_calls' }]
      : [{ type: 'text-delta', delta: 'The order has ' }, { type: 'text-delta', delta: 'shipp' }, new StreamError('The connection to Chat API dropped while reading the answer', { reason: 'read_failed' })];
    return new ReadableStream<ChatChunk>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else if (next instanceof Error) controller.error(next);
        else controller.enqueue(next);
      },
    }) as ChatStream;
  };
  return { name: 'cut', stream, complete: () => Promise.reject(new Error('not used')) };
}

const lookup = defineTool({ name: 'lookup', description: 'Finds an order.', parameters: z.object({ id: z.string() }), execute: ({ id }) => ({ id, status: 'shipped' }) });

describe('partialRunOf: what a failed run produced', () => {
  it('runAgent rejects with the StreamError, and the error gives back the streamed text and the tool results', async () => {
    const error = await runAgent({ model: cutModel(), tools: [lookup], prompt: 'Where is order 42?' }).then(() => undefined, (thrown: unknown) => thrown);
    expect(StreamError.isInstance(error)).toBe(true);
    const partial = partialRunOf(error);
    expect(partial?.text).toBe('The order has shipp');
    expect(partial?.toolResults.map((result) => [result.callId, result.content])).toEqual([['call_1', '{"ok":true,"data":{"id":"42","status":"shipped"}}']]);
    expect(partial?.messages.map((message) => message.toolCalls?.map((call) => call.name))).toEqual([['lookup']]);
    expect(partial?.iterations).toBe(2);
    expect(Object.keys(error as object)).not.toContain('partial'); // nothing written on the error
  });

  it('an abort keeps the caller’s exact reason, and its partial beside it', async () => {
    const controller = new AbortController();
    const slow = defineTool({ name: 'slow', description: 'Slow.', parameters: z.object({}), execute: () => new Promise(() => controller.abort(new Error('user left'))) });
    const agent = new AgentBuilder('a').chatClient(cutModelFor('slow')).tools([slow]).build();
    const error = await collectAgentRun(agent.run('Go', { signal: controller.signal })).then(() => undefined, (thrown: unknown) => thrown);
    expect((error as Error).message).toBe('user left');
    expect(partialRunOf(error)?.messages).toHaveLength(1);
  });

  it('has nothing for an error no collected run ended with', () => {
    expect(partialRunOf(new Error('x'))).toBeUndefined();
    expect(partialRunOf('reason')).toBeUndefined();
    expect(partialRunOf(undefined)).toBeUndefined();
  });
});

/** One tool call to `name`, then nothing more is asked of it. */
function cutModelFor(name: string): ChatClient {
  const stream = (): ChatStream =>
    new ReadableStream<ChatChunk>({
      start(controller) {
        controller.enqueue({ type: 'tool-call-end', index: 0, id: 'call_1', name, arguments: '{}' });
        controller.enqueue({ type: 'finish', reason: 'tool_calls' });
        controller.close();
      },
    }) as ChatStream;
  return { name: 'once', stream, complete: () => Promise.reject(new Error('not used')) };
}
