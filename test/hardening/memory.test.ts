/**
 * Bounded memory: the A2A handler with every default store (sessions, tasks, live runs, SSE queues) under 10,000
 * `message/send` requests — 5,000 of 20 KB from distinct context ids, then 5,000 from ten repeated context ids — keeps
 * its heap flat once the stores reach their documented bounds (sessions 16 MiB, tasks 16 MiB). Before the bounds,
 * 300 requests of 200 KB retained 57 MB. Heap figures after a forced GC; the assertion is a bound, not a timing.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder } from '../../src/agent/index.js';
import type { ChatChunk, ChatClient, ChatRequest, ChatStream } from '../../src/chat/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MB = 1024 * 1024;

/** A model that answers "ok" at once and keeps nothing (the scripted client records its requests). */
const quietModel: ChatClient = {
  name: 'quiet',
  stream(_request: ChatRequest): ChatStream {
    const chunks: ChatChunk[] = [
      { type: 'text-delta', delta: 'ok' },
      { type: 'finish', reason: 'stop' },
    ];
    return new ReadableStream<ChatChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }) as ChatStream;
  },
  complete: async () => ({ message: { role: 'assistant', content: 'ok' }, finishReason: 'stop' }),
};

function heapMB(): number {
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size / MB;
}

describe('the A2A handler with its default stores', () => {
  it('keeps its heap flat over 10,000 requests from distinct and from repeated context ids', async () => {
    const handler = createA2AHandler({ agent: new AgentBuilder('memory').chatClient(quietModel).build(), card: { name: 'memory' } });
    let sequence = 0;
    const send = async (contextId: string, bytes: number) => {
      const id = ++sequence;
      const response = await handler(
        new Request('http://127.0.0.1/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'message/send', params: { message: { kind: 'message', messageId: `m-${id}`, role: 'user', contextId, parts: [{ kind: 'text', text: `${id} ${'x'.repeat(bytes)}` }] } } }),
        }),
      );
      const body = (await response.json()) as { result?: { status: { state: string } } };
      expect(body.result?.status.state).toBe('completed');
    };
    const batch = async (count: number, contextOf: (index: number) => string, bytes: number) => {
      for (let start = 0; start < count; start += 50) await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_, offset) => send(contextOf(start + offset), bytes)));
    };

    await batch(1_500, (index) => `warm-${index}`, 20_000); // both stores reach their bounds
    const baseline = heapMB();
    await batch(5_000, (index) => `distinct-${index}`, 20_000);
    const afterDistinct = heapMB();
    await batch(5_000, (index) => `repeated-${index % 10}`, 2_000);
    const afterRepeated = heapMB();

    const figures = `heap: ${baseline.toFixed(1)} MB at the bounds, ${afterDistinct.toFixed(1)} MB after 5,000 distinct contexts, ${afterRepeated.toFixed(1)} MB after 5,000 repeated`;
    if (process.env.SHOW_FIGURES) console.log(figures);
    expect(afterDistinct - baseline, figures).toBeLessThan(12);
    expect(afterRepeated - baseline, figures).toBeLessThan(12);
  }, 180_000);
});
