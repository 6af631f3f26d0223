// A streamed task's chunks are written as chunk keys and folded into its record every CHUNKS_PER_FOLD chunks: whatever
// the fold boundary, each chunk is stored exactly once, so after a restart (memory lost, storage kept) the artifact of
// the abandoned task is exactly what was streamed, in order — never a chunk twice, never one missing.
import { describe, expect, it } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import { CHUNKS_PER_FOLD } from '../../src/cloudflare/durable-task-store.js';
import { createEvent } from '../../src/runner/event.js';
import type { RunnableAgent } from '../../src/runner/runnable-agent.js';
import { FakeNamespace } from './fake-platform.js';

const CARD = { name: 'streamer' };
const chunkText = (i: number) => `c${i} `;
const streamed = (n: number) => Array.from({ length: n }, (_, i) => chunkText(i)).join('');
const textOf = (task: any) => (task?.artifacts?.[0]?.parts ?? []).map((part: any) => part.text ?? '').join('');
const flush = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/** An agent that streams `n` chunks, then keeps running until its object dies. */
function streamer(n: number): RunnableAgent {
  return {
    name: 'streamer',
    async *runEvents(invocation) {
      const origin = { invocationId: invocation.invocationId, author: 'streamer' };
      for (let i = 0; i < n; i++) yield createEvent(origin, { response: { object: 'chat.completion.chunk', partial: true, done: false, choices: [{ index: 0, delta: { content: chunkText(i) } }] } });
      await new Promise(() => {});
    },
  } as RunnableAgent;
}

function deployment(n: number) {
  const namespace = new FakeNamespace(createA2ADurableObject({ agent: streamer(n), card: CARD, namespace: 'A2A_TASKS' }));
  const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
  const call = (method: string, params: unknown) =>
    worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }), namespace.env);
  const rpc = async (method: string, params: unknown) => (await (await call(method, params)).json()) as any;
  /** The JSON-RPC frames of an SSE answer. */
  const stream = async (method: string, params: unknown) =>
    (await (await call(method, params)).text())
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)));
  return { namespace, rpc, stream, storage: (id: string) => namespace.storages.get(id.slice(5))! };
}

describe('chunks folded into the task record (fake platform)', () => {
  it.each([1, CHUNKS_PER_FOLD - 1, CHUNKS_PER_FOLD, CHUNKS_PER_FOLD + 1, 2 * CHUNKS_PER_FOLD - 1, 2 * CHUNKS_PER_FOLD, 2 * CHUNKS_PER_FOLD + 1, 600])(
    'keeps exactly the %i chunks streamed, in order, across a restart',
    async (n) => {
      const d = deployment(n);
      const id = (await d.rpc('message/send', { configuration: { blocking: false }, message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'go' }] } })).result.id;
      for (let i = 0; i < 400 && textOf((await d.rpc('tasks/get', { id })).result) !== streamed(n); i++) await flush();
      const running = (await d.rpc('tasks/get', { id })).result;
      expect(running.status.state).toBe('working');
      expect(textOf(running)).toBe(streamed(n));

      d.namespace.restart();
      const read = (await d.rpc('tasks/get', { id })).result;
      expect(read.status.state).toBe('failed');
      expect(read.metadata.error_code).toBe('TASK_ABANDONED');
      expect(textOf(read).trim().split(' ')).toHaveLength(n); // no chunk stored twice (a short failure message)
      expect(textOf(read)).toBe(streamed(n)); // every chunk once, in order
      const frames = await d.stream('tasks/resubscribe', { id });
      expect(frames).toHaveLength(1);
      expect(textOf(frames[0].result)).toBe(streamed(n));

      const chunkKeys = [...d.storage(id).data.keys()].filter((key) => key.startsWith('a2a:chunk:'));
      expect(chunkKeys).toEqual([]); // the terminal write folded them all
    },
    20_000,
  );
});
