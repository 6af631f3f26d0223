// The Durable Object layer in Node, on a fake platform that enforces the storage limits on every call: recovery
// after a restart, damaged storage, unreachable objects, broken streams, retention, configuration errors. The same
// code runs in workerd in the miniflare tests.
import { describe, expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { FakeNamespace } from './fake-platform.js';
import { SECRET, testAgent } from './node-agent.js';
import { until } from '../helpers/async.js';

const ENV_KEY = 'Zx81kQ0pLmN4vB7cR2tYw9envkey';

const CARD = { name: 'node-agent' };

function deployment(options: Partial<Parameters<typeof createA2ADurableObject>[0]> = {}) {
  const Class = createA2ADurableObject({ agent: testAgent, card: CARD, namespace: 'A2A_TASKS', secrets: [SECRET], ...options });
  const namespace = new FakeNamespace(Class);
  const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
  const rpc = async (method: string, params: unknown) => {
    const response = await worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }), namespace.env);
    return { status: response.status, headers: response.headers, body: (response.headers.get('content-type') ?? '').includes('json') ? await response.json() : await response.text() } as { status: number; headers: Headers; body: any };
  };
  return { namespace, worker, rpc, taskObject: (id: string) => namespace.object(id.slice('task-'.length)), taskStorage: (id: string) => namespace.storages.get(id.slice('task-'.length)) };
}

const message = (text: string, contextId?: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(contextId ? { contextId } : {}) } });
const nonBlocking = (text: string) => ({ ...message(text), configuration: { blocking: false } });
const flush = () => new Promise((resolve) => setTimeout(resolve, 20));
/** Waits until the "hang" task's first chunk is kept (it then waits for good). */
const streamed = (d: ReturnType<typeof deployment>, id: string) =>
  until(async () => (await d.rpc('tasks/get', { id })).body.result.artifacts?.length > 0, 10_000, 'the first chunk to be kept');

describe('Durable Object A2A deployment (Node, fake platform)', () => {
  it('ends a task whose object restarted failed with TASK_ABANDONED, on the next request, keeping what it streamed', async () => {
    const d = deployment();
    const id = (await d.rpc('message/send', nonBlocking('hang'))).body.result.id;
    await streamed(d, id);
    expect((await d.rpc('tasks/get', { id })).body.result.status.state).toBe('working');
    d.namespace.restart();
    const read = (await d.rpc('tasks/get', { id })).body.result;
    expect(read.status.state).toBe('failed');
    expect(read.metadata).toMatchObject({ object_type: 'error', error_type: 'run_error', error_code: 'TASK_ABANDONED', task_state: 'failed' });
    expect(read.artifacts[0].parts[0].text).toBe('first words ');
    expect(read.history.at(-1)).toEqual(read.status.message);
  });

  it('ends it the same way from its alarm alone, and then schedules the end of its retention', async () => {
    const d = deployment({ retainTaskMs: 60_000 });
    const id = (await d.rpc('message/send', nonBlocking('hang'))).body.result.id;
    await streamed(d, id);
    const storage = d.taskStorage(id)!;
    expect(storage.alarm).toBeGreaterThan(Date.now()); // the heartbeat
    d.namespace.restart();
    await d.taskObject(id).alarm();
    expect(storage.alarm).toBeGreaterThan(Date.now() + 50_000); // the retention
    expect((await d.rpc('tasks/get', { id })).body.result.metadata.error_code).toBe('TASK_ABANDONED');
  });

  it('deletes an ended task when its retention ends (then tasks/get: not found)', async () => {
    const d = deployment({ retainTaskMs: 1 });
    const id = (await d.rpc('message/send', message('hello'))).body.result.id;
    await flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await d.taskObject(id).alarm();
    // the task's keys are gone; the conversation it began (kept in its object) stays for its own retention
    expect([...d.taskStorage(id)!.data.keys()].filter((key) => !key.startsWith('session:'))).toEqual([]);
    expect((await d.rpc('tasks/get', { id })).body.error.code).toBe(-32001);
  });

  it('answers a damaged task record with a JSON-RPC internal error naming the kind of failure, never a crash', async () => {
    const d = deployment();
    const id = (await d.rpc('message/send', message('hello'))).body.result.id;
    d.taskStorage(id)!.data.set('a2a:task', '{"v":1,"task":"not a task"}');
    d.namespace.restart();
    const answer = await d.rpc('tasks/get', { id });
    expect(answer.body.error).toMatchObject({ code: -32603, message: 'Internal error while handling tasks/get (TypeError)' });
  });

  it('tells a new task\'s caller only the kind of failure when the agent cannot be built, and logs it without secrets', async () => {
    const logged: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      const d = deployment({
        secrets: (env) => [(env as { OPENAI_API_KEY: string }).OPENAI_API_KEY],
        agent: () => {
          throw new Error(`provider refused OPENAI_API_KEY=${ENV_KEY} and key ${SECRET}`);
        },
      });
      d.namespace.env.OPENAI_API_KEY = ENV_KEY;
      const answer = await d.rpc('message/send', message('hello'));
      expect(answer.body.error).toEqual({ code: -32603, message: "The agent of this A2A deployment could not be set up (Error); the Worker's log has the details" });
      expect(logged.join('\n')).toMatch(/could not be set up: provider refused OPENAI_API_KEY=\[REDACTED\]/);
      for (const text of [JSON.stringify(answer.body), ...logged]) for (const secret of [ENV_KEY, SECRET]) expect(text).not.toContain(secret);
    } finally {
      error.mockRestore();
    }
  });

  it('refuses a secrets function whose result is not a list of secrets, logging why without quoting it', async () => {
    for (const [result, problem] of [
      [ENV_KEY, /the secrets function's result must be an array of strings \(got a string\)/],
      [[ENV_KEY, 'k9Z'], /the secrets function's result\[1\] must be a string of 4 characters or more, or '' \(got 3 characters\)/],
    ] as const) {
      const logged: string[] = [];
      const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
      try {
        const d = deployment({ secrets: () => result as never });
        const answer = await d.rpc('message/send', message('hello'));
        expect(answer.body.error).toEqual({ code: -32603, message: "The agent of this A2A deployment could not be set up (ConfigError); the Worker's log has the details" });
        expect(logged.join('\n')).toMatch(problem);
        for (const text of [JSON.stringify(answer.body), ...logged]) for (const secret of [ENV_KEY, 'k9Z']) expect(text).not.toContain(secret);
      } finally {
        error.mockRestore();
      }
    }
  });

  it('names a missing Durable Object binding', async () => {
    const d = deployment();
    const response = await d.worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: message('x') }) }), {});
    const body = await response.json();
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toBe('Internal error while handling message/send (ConfigError)');
  });

  it('answers HTTP 503 with Retry-After when the object cannot be reached', async () => {
    const d = deployment();
    d.namespace.unreachable = true;
    const answer = await d.rpc('message/send', message('hello'));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.body.error.message).toMatch(/^The Durable Object of task (task-[0-9a-f]{64}) could not be reached \(Error\); read it with tasks\/get \(not found: it never started\) before sending the message again$/);
    expect(answer.body.error.data.taskId).toMatch(/^task-[0-9a-f]{64}$/); // the task a resend could duplicate
  });

  it('refuses a second message for a task id that exists', async () => {
    const d = deployment();
    const id = (await d.rpc('message/send', message('hello'))).body.result.id;
    const again = await d.taskObject(id).fetch(
      new Request('https://faultline.internal/faultline/a2a', { method: 'POST', body: JSON.stringify({ operation: 'SendMessage', id: 2, version: '0.3', method: 'message/send', userId: 'u', taskId: id, params: message('again') }) }),
    );
    expect((await again.json()).error).toMatchObject({ code: -32600, message: `Task ${id} exists already; send a new message for a new task` });
  });

  it('answers a malformed call from a Worker with a JSON-RPC error', async () => {
    const d = deployment();
    for (const body of ['not json', '[]', '{"operation":"DropTables"}', JSON.stringify({ operation: 'SendMessage', id: 1, version: '0.3', method: 'm', userId: 'u', params: {} })]) {
      const answer = await d.namespace.object('x').fetch(new Request('https://faultline.internal/faultline/a2a', { method: 'POST', body }));
      expect(answer.status).toBe(400);
      expect((await answer.json()).error.code).toBe(-32603);
    }
  });

  it('checks its options, listing every problem', () => {
    expect(() => createA2ADurableObject({ agent: 42 as never, card: {} as never, namespace: '' as never, heartbeatMs: -1, retainTaskMs: 1.5 })).toThrow(ConfigError);
    try {
      createA2ADurableObject({ agent: 42 as never, card: {} as never, namespace: '' as never, heartbeatMs: -1 });
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(4);
    }
    expect(() => createA2AWorker({ namespace: 'A2A', card: { name: 'x' }, maxDepth: 0 })).toThrow(/maxDepth must be an integer > 0/);
  });

  it('keeps every turn of concurrent messages on one context', async () => {
    const d = deployment();
    const contextId = 'ctx-node-shared';
    await Promise.all(Array.from({ length: 40 }, (_, index) => d.rpc('message/send', message(`turn ${index}`, contextId))));
    const seen: string[] = JSON.parse((await d.rpc('message/send', message('history', contextId))).body.result.status.message.parts[0].text);
    expect(seen).toHaveLength(80);
    for (let index = 0; index < 40; index++) expect(seen.indexOf(`assistant:ok turn ${index}`)).toBe(seen.indexOf(`user:turn ${index}`) + 1);
  });

  it('still answers a task whose storage writes fail (the run goes on; the answer is the task)', async () => {
    const d = deployment();
    d.namespace.failOn = (name) => (name.startsWith('session:') ? undefined : /^put$/);
    const answer = await d.rpc('message/send', message('hello'));
    expect(answer.body.result.status.state, JSON.stringify(answer.body.result.status)).toBe('completed');
    const storage = d.taskStorage(answer.body.result.id)!;
    expect(storage.calls).toContain('put');
    expect(storage.data.has('a2a:task')).toBe(false);
    // This instance keeps answering with what it sent (its end could not be written): tasks/* agree with the answer.
    expect((await d.rpc('tasks/get', { id: answer.body.result.id })).body.result.status).toEqual(answer.body.result.status);
    expect((await d.rpc('tasks/cancel', { id: answer.body.result.id })).body.error.code).toBe(-32002);
  });

  it('ends a task failed, naming the session, when its session cannot be saved', async () => {
    const d = deployment();
    d.namespace.failOn = (name) => (name.startsWith('session:') ? /^put$/ : undefined);
    const task = (await d.rpc('message/send', message('hello', 'ctx-node-unsaved'))).body.result; // a client's contextId: a session object
    expect(task.status.state).toBe('failed');
    expect(task.metadata.error_type).toBe('run_error');
    expect(task.metadata.error_message).toBe('Could not save session "ctx-node-unsaved": the session object answered HTTP 500: the session storage failed (Error)');
  });

  it('ends an SSE answer whose object broke mid-stream with a JSON-RPC error frame and a clean end', async () => {
    const d = deployment();
    const encoder = new TextEncoder();
    d.namespace.get = () => ({
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode('data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}\n\n'));
              setTimeout(() => controller.error(new Error(`Durable Object reset because its code was updated (${SECRET})`)), 5);
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const answer = await d.rpc('message/stream', message('hello'));
    const frames = (answer.body as string).split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)));
    expect(frames).toHaveLength(2);
    expect(frames[1].error.code).toBe(-32603);
    expect(frames[1].error.message).toMatch(/^The stream from the Durable Object of task task-[0-9a-f]{64} broke \(Durable Object reset because its code was updated/);
    expect(frames[1].error.message).toMatch(/the task may go on: read it with tasks\/get or tasks\/resubscribe$/);
    expect(answer.body).not.toContain(SECRET);
  });
});
