// Restarts: miniflare stopped mid-task and started again on the same persisted storage. A task whose run died with
// its object ends failed with TASK_ABANDONED (what it streamed kept); a checkpointed graph task resumes from its last
// superstep — by its heartbeat alarm, with no request — and ends exactly as an uninterrupted run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeStateDelta } from '../../src/runner/state-delta.js';
import { deploy, message, startProbe, until, type Deployment } from './harness.js';

let dir: string;
let probe: Awaited<ReturnType<typeof startProbe>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-do-'));
  probe = await startProbe();
});
afterAll(async () => {
  await probe?.close();
  rmSync(dir, { recursive: true, force: true });
});

const nonBlocking = (text: string) => ({ ...message(text), configuration: { blocking: false } });
const textOf = (task: any) => (task?.artifacts?.[0]?.parts ?? []).map((part: any) => part.text ?? '').join('');

/** The final state a completed task carries (its artifact's state_delta), execution-error timestamps set aside. */
function finalState(task: any): Record<string, unknown> {
  const envelope = task.artifacts[0].metadata.state_delta as Record<string, { encoding: string; payload?: string }>;
  const delta = Object.fromEntries(Object.entries(envelope).map(([key, value]) => [key, value.encoding === 'nil' ? null : new TextDecoder().decode(Uint8Array.from(atob(value.payload as string), (c) => c.charCodeAt(0)))]));
  return JSON.parse(JSON.stringify(decodeStateDelta(delta), (key, value) => (key === 'timestamp' ? '<time>' : value)));
}

describe('a restart on the same persisted storage', () => {
  it('ends a task whose run died with its object failed with TASK_ABANDONED, and tasks/get, resubscribe and cancel agree', async () => {
    let d: Deployment = await deploy({ persist: join(dir, 'abandoned'), bindings: { PROBE: probe.url } });
    let taskId: string;
    try {
      taskId = (await d.front1.rpc('message/send', nonBlocking('hang'))).result.id;
      await until(async () => textOf((await d.front2.rpc('tasks/get', { id: taskId })).result) === 'first words ', 10_000, 'the first chunk');
    } finally {
      await d.dispose();
    }
    d = await deploy({ persist: join(dir, 'abandoned'), bindings: { PROBE: probe.url } });
    try {
      const read = await d.front2.rpc('tasks/get', { id: taskId });
      expect(read.result.status.state).toBe('failed');
      expect(read.result.metadata).toMatchObject({ error_type: 'run_error', error_code: 'TASK_ABANDONED', task_state: 'failed' });
      expect(read.result.metadata.error_message).toMatch(/restarted, evicted or redeployed/);
      expect(read.result.status.message.metadata).toEqual(read.result.metadata);
      expect(textOf(read.result)).toBe('first words '); // what was streamed before the restart is kept
      const frames = await d.front1.stream('tasks/resubscribe', { id: taskId });
      expect(frames).toHaveLength(1);
      expect(frames[0].result).toEqual(read.result);
      const cancel = await d.front1.rpc('tasks/cancel', { id: taskId });
      expect(cancel.error).toMatchObject({ code: -32002, message: `Task ${taskId} is failed and cannot be canceled` });
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('keeps a conversation the server began in its first task\'s object: later turns, after a restart, see it; a forged contextId does not', async () => {
    const persist = join(dir, 'conversation');
    let d: Deployment = await deploy({ persist });
    let contextId: string;
    try {
      const first = (await d.front1.rpc('message/send', message('remember 42'))).result;
      contextId = first.contextId;
      expect(contextId).toBe(`ctx-${first.id.slice('task-'.length)}`); // the conversation names its first task's object
    } finally {
      await d.dispose();
    }
    d = await deploy({ persist });
    try {
      const history = async (id: string) => JSON.parse((await d.front2.rpc('message/send', message('history', id))).result.status.message.parts[0].text);
      expect(await history(contextId)).toEqual(['user:remember 42', 'assistant:echo remember 42']);
      const other = (await d.front1.rpc('message/send', message('hello', `ctx-client-${crypto.randomUUID()}`))).result;
      expect(await history(`ctx-${other.id.slice('task-'.length)}`)).toEqual([]); // a real object that claimed no such session
      expect(await history(contextId)).toHaveLength(4);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('resumes a checkpointed graph task from its last superstep, by its alarm alone, ending as an uninterrupted run', async () => {
    const persist = join(dir, 'graph');
    probe.hits.clear();
    let d: Deployment = await deploy({ persist, bindings: { PROBE: probe.url, MODE: 'hang' } });
    let taskId: string;
    try {
      taskId = (await d.front1.rpc('message/send', nonBlocking('graph'))).result.id;
      await until(async () => probe.hits.get('/node/wait'), 10_000, 'the wait node to start');
    } finally {
      await d.dispose(); // the run dies in its second superstep; its first is checkpointed
    }
    expect(probe.hits.get('/node/lookup')).toBe(1);
    d = await deploy({ persist, bindings: { PROBE: probe.url, MODE: 'normal' } });
    try {
      // No request: the object's heartbeat alarm wakes it, it finds its task's run gone and resumes the checkpoint.
      await until(async () => probe.hits.get('/node/finish'), 15_000, 'the resumed run to finish');
      const resumed = await until(async () => {
        const read = await d.front2.rpc('tasks/get', { id: taskId });
        return read.result.status.state === 'completed' && read.result;
      }, 10_000, 'the task to complete');
      expect(probe.hits.get('/node/lookup')).toBe(1); // its superstep was not run again
      expect(probe.hits.get('/node/wait')).toBe(2); // the interrupted one was
      expect(resumed.status.message.parts[0].text).toBe('done: stock checked');
      const frames = await d.front1.stream('tasks/resubscribe', { id: taskId });
      expect(frames.map((frame) => frame.result)).toEqual([resumed]);

      const uninterrupted = (await d.front1.rpc('message/send', message('graph'))).result;
      expect(uninterrupted.status.state).toBe('completed');
      const state = finalState(resumed);
      expect(state).toEqual(finalState(uninterrupted));
      expect(state.execution_errors).toEqual([expect.objectContaining({ nodeId: 'lookup', severity: 'recoverable', error: expect.objectContaining({ code: 'PRICE_STALE' }) })]);
    } finally {
      await d.dispose();
    }
  }, 60_000);
});
