// The Durable Object deployment is a storage and routing layer over the A2A handler's own code: for malformed
// requests, structured task failures and secrets it answers byte for byte what createA2AHandler answers (ids and
// timestamps aside), in the same workerd.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretForms } from '../../src/internal/redact.js';
import { deploy, message, type Deployment } from './harness.js';

const SECRET = 'sk-live-planted-DO-0123456789abcdef';
let d: Deployment;
beforeAll(async () => {
  d = await deploy();
}, 60_000);
afterAll(() => d?.dispose());

async function post(path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await d.front1.fetch(path, { method: 'POST', headers, body });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
}
const rpc = (method: string, params: unknown, id: unknown = 7) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Ids and timestamps differ between any two runs: everything else must not. */
function normalized(text: string): string {
  return text
    .replace(/(task|ctx)-[0-9a-f]{64}/g, '$1-<id>') // a new conversation's contextId names its first task's object
    .replace(/(task|ctx|msg|artifact|invocation|runner-completion)-[0-9a-f-]{36}/g, '$1-<id>')
    .replace(/"messageId":"[^"]+"/g, '"messageId":"<id>"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>');
}

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

const MALFORMED: Array<[string, string, Record<string, string>?]> = [
  ['not JSON', '{"jsonrpc":'],
  ['wrong content type', rpc('message/send', message('x')), { 'content-type': 'text/plain' }],
  ['a batch', `[${rpc('tasks/get', { id: 'x' })}]`],
  ['no method', JSON.stringify({ jsonrpc: '2.0', id: 1 })],
  ['an object id', rpc('tasks/get', { id: 'x' }, { nested: true })],
  ['an unknown method', rpc('tasks/explode', {})],
  ['a push-notification method', rpc('tasks/pushNotificationConfig/set', {})],
  ['the extended card', rpc('agent/getAuthenticatedExtendedCard', {})],
  ['params too deep', `{"jsonrpc":"2.0","id":1,"method":"message/send","params":${deep(150)}}`],
  ['a message without parts', rpc('message/send', { message: { kind: 'message', messageId: 'm', role: 'user' } })],
  ['task params without an id', rpc('tasks/get', { historyLength: 2 })],
  ['an unknown task (0.3)', rpc('tasks/get', { id: 'task-00000000-0000-4000-8000-000000000000' })],
  ['an unknown task (1.0)', rpc('GetTask', { id: 'task-00000000-0000-4000-8000-000000000000' }), { 'content-type': 'application/json', 'a2a-version': '1.0' }],
  ['an unsupported version', rpc('tasks/get', { id: 'x' }), { 'content-type': 'application/json', 'a2a-version': '9.9' }],
];

describe('the Durable Object deployment answers as createA2AHandler does', () => {
  for (const [name, body, headers] of MALFORMED) {
    it(`for ${name}`, async () => {
      const durable = await post('/', body, headers);
      const memory = await post('/memory', body, headers);
      expect(durable.status).toBe(memory.status);
      expect(normalized(durable.text)).toBe(normalized(memory.text));
      expect(JSON.parse(durable.text).error).toBeDefined();
    });
  }

  it('for a structured failure, unary and streamed, in 0.3 and 1.0', async () => {
    for (const [method, headers] of [
      ['message/send', undefined],
      ['message/stream', undefined],
      ['SendMessage', { 'content-type': 'application/json', 'a2a-version': '1.0' }],
      ['SendStreamingMessage', { 'content-type': 'application/json', 'a2a-version': '1.0' }],
    ] as const) {
      const params = method.length > 14 || method === 'SendMessage' ? { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'fail' }] } } : message('fail');
      const durable = await post('/', rpc(method, params), headers);
      const memory = await post('/memory', rpc(method, params), headers);
      expect(normalized(durable.text), method).toBe(normalized(memory.text));
      expect(durable.text).toMatch(/LOOKUP_DOWN/);
    }
  });

  it('for tasks/get and tasks/resubscribe of a failed task', async () => {
    const durableTask = JSON.parse((await post('/', rpc('message/send', message('fail')))).text).result;
    const memoryTask = JSON.parse((await post('/memory', rpc('message/send', message('fail')))).text).result;
    for (const method of ['tasks/get', 'tasks/resubscribe']) {
      const durable = await post('/', rpc(method, { id: durableTask.id }));
      const memory = await post('/memory', rpc(method, { id: memoryTask.id }));
      expect(normalized(durable.text), method).toBe(normalized(memory.text));
    }
  });

  it('for a completed task: streamed, read back (with historyLength) and resubscribed, in 0.3 and 1.0', async () => {
    const v1 = { 'content-type': 'application/json', 'a2a-version': '1.0' };
    const streamed = { durable: await post('/', rpc('message/stream', message('hello'))), memory: await post('/memory', rpc('message/stream', message('hello'))) };
    expect(normalized(streamed.durable.text)).toBe(normalized(streamed.memory.text));
    const firstId = (text: string) => JSON.parse((text.split('\n\n')[0] ?? '').slice(6)).result.id as string;
    const ids = { durable: firstId(streamed.durable.text), memory: firstId(streamed.memory.text) };
    for (const [method, params, headers] of [
      ['tasks/get', { historyLength: 1 }, undefined],
      ['tasks/get', { historyLength: 0 }, undefined],
      ['GetTask', { historyLength: 1 }, v1],
      ['SubscribeToTask', {}, v1],
      ['CancelTask', {}, v1],
    ] as const) {
      const durable = await post('/', rpc(method, { id: ids.durable, ...params }), headers);
      const memory = await post('/memory', rpc(method, { id: ids.memory, ...params }), headers);
      expect(normalized(durable.text), `${method} ${JSON.stringify(params)}`).toBe(normalized(memory.text));
    }
  });

  it('for a message naming a task: unknown is -32001 and a finished one takes no text, never a new task in its place', async () => {
    const named = (taskId: string) => ({ message: { ...message('hello').message, taskId } });
    const finished: Record<string, string> = {};
    for (const path of ['/', '/memory']) finished[path] = JSON.parse((await post(path, rpc('message/send', message('fail')))).text).result.id;
    for (const method of ['message/send', 'message/stream']) {
      for (const unknown of ['task-00000000-0000-4000-8000-000000000000', `task-${'0'.repeat(64)}`, 'not-a-task']) {
        const durable = await post('/', rpc(method, named(unknown)));
        const memory = await post('/memory', rpc(method, named(unknown)));
        expect(normalized(durable.text), `${method} ${unknown}`).toBe(normalized(memory.text));
        expect(durable.text).toMatch(/"code":-32001/);
      }
      const durable = await post('/', rpc(method, named(finished['/'] as string)));
      const memory = await post('/memory', rpc(method, named(finished['/memory'] as string)));
      expect(normalized(durable.text), method).toBe(normalized(memory.text));
      expect(durable.text).toMatch(/"code":-32602.*RUN_NOT_INTERRUPTED/);
    }
    // the finished tasks are as they were: one message each
    for (const path of ['/', '/memory']) {
      const task = JSON.parse((await post(path, rpc('tasks/get', { id: finished[path] }))).text).result;
      expect(task.status.state).toBe('failed');
      expect(task.history.filter((entry: { role: string }) => entry.role === 'user')).toHaveLength(1);
    }
  });

  it('for a running task canceled, and for canceling it again', async () => {
    const answers: Record<string, string[]> = {};
    for (const path of ['/', '/memory']) {
      const id = JSON.parse((await post(path, rpc('message/send', { ...message('slow 20000'), configuration: { blocking: false } }))).text).result.id;
      await new Promise((resolve) => setTimeout(resolve, 150));
      answers[path] = [(await post(path, rpc('tasks/cancel', { id }))).text, (await post(path, rpc('tasks/cancel', { id }))).text, (await post(path, rpc('tasks/get', { id, historyLength: 5 }))).text];
    }
    // The canceled task's artifact holds what was streamed before the cancel: its length is timing, the rest is not.
    const shape = (text: string) => normalized(text).replace(/"text":"(c\d+ )+"/g, '"text":"<streamed>"');
    expect(answers['/']?.map(shape)).toEqual(answers['/memory']?.map(shape));
    expect(answers['/']?.[0]).toMatch(/"state":"canceled"/);
  });

  it('never lets the planted secret out, in any form, from any answer about a task that carried it', async () => {
    const answers: string[] = [];
    const sent = await post('/', rpc('message/send', message('fail')));
    answers.push(sent.text, (await post('/', rpc('message/stream', message('fail')))).text);
    const taskId = JSON.parse(sent.text).result.id;
    for (const method of ['tasks/get', 'tasks/resubscribe', 'tasks/cancel']) answers.push((await post('/', rpc(method, { id: taskId }))).text);
    answers.push((await post('/', rpc('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'fail' }] } }), { 'content-type': 'application/json', 'a2a-version': '1.0' })).text);
    expect(answers.join('\n')).toMatch(/REDACTED/);
    for (const form of secretForms(SECRET)) for (const answer of answers) expect(answer).not.toContain(form);
  });
});
