// A failed setup is not cached (a binding not ready, a flaky read of env): after a restart, recovery with a setup that
// failed does not abandon a task that can resume — the next call or heartbeat builds the agent and resumes it. A
// factory that keeps failing is given up on once `maxResumes` heartbeat alarms found it failing: the task ends `no-agent`.
import { describe, expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import { createGraphAgent, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { FakeNamespace } from './fake-platform.js';
import { until } from '../helpers/async.js';

const CARD = { name: 'node-agent' };

function stuckGraph(counter: { runs: number; release: boolean }) {
  return new StateGraph(messagesStateSchema())
    .addNode('first', async () => ({ last_response: 'one' }))
    .addNode('stuck', async (_state, context) => {
      counter.runs++;
      if (counter.release) return { last_response: 'done' };
      await new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
      return {};
    })
    .addEdge('first', 'stuck')
    .setEntryPoint('first')
    .setFinishPoint('stuck')
    .compile();
}

/** A deployment whose factory throws while `flaky.failures` > 0, with a task restarted mid-run. */
async function restartedTask(maxResumes?: number) {
  const counter = { runs: 0, release: false };
  const flaky = { failures: 0, builds: 0 };
  const namespace = new FakeNamespace(
    createA2ADurableObject({
      agent: ({ checkpointer }) => {
        flaky.builds++;
        if (flaky.failures > 0) {
          flaky.failures--;
          throw new TypeError('binding not ready');
        }
        return createGraphAgent('g', stuckGraph(counter), { checkpointer });
      },
      card: CARD,
      namespace: 'A2A_TASKS',
      ...(maxResumes === undefined ? {} : { maxResumes }),
    }),
  );
  const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
  const rpc = async (method: string, params: unknown) =>
    (await worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }), namespace.env)).json() as Promise<any>;
  const id: string = (await rpc('message/send', { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'go' }] }, configuration: { blocking: false } })).result.id;
  await until(() => counter.runs === 1, 10_000, 'the run to reach its stuck node');
  namespace.restart(); // the object's instance is gone mid-run; its checkpoint is stored
  counter.release = true;
  return { namespace, rpc, id, flaky, object: () => namespace.object(id.slice(5)), storage: () => namespace.storages.get(id.slice(5))! };
}

describe('recovery with an agent that cannot be built yet', () => {
  it('a factory that fails once after a restart does not abandon a task that can resume', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const d = await restartedTask();
      d.flaky.failures = 1; // one passing failure: the next build succeeds
      await d.object().alarm();
      expect(await d.storage().getAlarm()).not.toBeNull(); // the heartbeat kept: it tries again
      const read = await until(async () => {
        const task = (await d.rpc('tasks/get', { id: d.id })).result;
        return task.status.state !== 'working' && task;
      }, 10_000, 'the task to end');
      expect(read.metadata?.error_code).not.toBe('TASK_ABANDONED');
      expect(read.status.state).toBe('completed');
    } finally {
      error.mockRestore();
    }
  });

  it('calls retry the build without using up resumes; alarms count, and after maxResumes the task ends no-agent', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const d = await restartedTask(2);
      d.flaky.failures = Infinity;
      for (let call = 0; call < 5; call++) expect((await d.rpc('tasks/get', { id: d.id })).result.status.state).toBe('working');
      await d.object().alarm(); // one of maxResumes
      expect((await d.rpc('tasks/get', { id: d.id })).result.status.state).toBe('working');
      await d.object().alarm(); // the second: used up
      const abandoned = (await d.rpc('tasks/get', { id: d.id })).result;
      expect(abandoned.metadata.error_code).toBe('TASK_ABANDONED');
      expect(abandoned.metadata.error_message).toMatch(/the agent could not be set up to resume it/);
    } finally {
      error.mockRestore();
    }
  });
});
