// The A2A surface on Durable Objects, in workerd: two Worker scripts (separate isolates) bound to one namespace
// answer for any task — live reads, cancellation and resubscription across isolates, concurrent turns on one session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy, message, until, type Deployment, type FrameReader } from './harness.js';

let d: Deployment;
beforeAll(async () => {
  d = await deploy();
}, 60_000);
afterAll(() => d?.dispose());

const textOf = (task: any) => (task?.artifacts?.[0]?.parts ?? []).map((part: any) => part.text ?? '').join('');

async function readUntilFinal(reader: FrameReader): Promise<any[]> {
  const frames: any[] = [];
  for (let frame = await reader.next(); frame !== undefined; frame = await reader.next()) frames.push(frame);
  return frames;
}

describe('A2A on Durable Objects: any isolate answers for any task', () => {
  it('runs the two fronts in separate isolates', async () => {
    const one = await (await d.front1.fetch('/__isolate')).json();
    const two = await (await d.front2.fetch('/__isolate')).json();
    expect(one.script).toBe('front1');
    expect(two.script).toBe('front2');
    expect(one.isolate).not.toBe(two.isolate);
  });

  it('serves the same agent card from both', async () => {
    const one = await (await d.front1.fetch('/.well-known/agent-card.json')).json();
    const two = await (await d.front2.fetch('/.well-known/agent.json')).json();
    expect(one.name).toBe('do-agent');
    expect(two).toEqual(one);
  });

  it('reads a task streamed through one isolate live through the other, and resubscribes to it there', async () => {
    const stream = await d.front1.open('message/stream', message('slow 1200'));
    const first = await stream.next();
    expect(first.result.kind).toBe('task');
    const taskId = first.result.id;
    const own: any[] = [first];
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      own.push(frame);
      if (frame.result.kind === 'artifact-update') break;
    }
    const live = await d.front2.rpc('tasks/get', { id: taskId });
    expect(live.result.status.state).toBe('working');
    expect(textOf(live.result)).toMatch(/^c0 /);

    const resubscribed = await d.front2.open('tasks/resubscribe', { id: taskId });
    const snapshot = await resubscribed.next();
    expect(snapshot.result).toMatchObject({ kind: 'task', id: taskId, status: { state: 'working' } });
    const followed = await readUntilFinal(resubscribed);
    own.push(...(await readUntilFinal(stream)));

    const final = followed.at(-1).result;
    expect(final).toMatchObject({ kind: 'status-update', taskId, final: true, status: { state: 'completed' } });
    expect(own.at(-1).result).toEqual(final);
    // What the resubscriber got — the snapshot's artifact, then each chunk — adds up to what the streamer got.
    const chunks = (frames: any[]) => frames.filter((frame) => frame.result.kind === 'artifact-update').map((frame) => frame.result.artifact.parts.map((part: any) => part.text).join('')).join('');
    expect(textOf(snapshot.result) + chunks(followed)).toBe(chunks(own));
    const done = await d.front1.rpc('tasks/get', { id: taskId });
    expect(done.result.status.state).toBe('completed');
    expect(textOf(done.result)).toBe(chunks(own));
  }, 30_000);

  it('cancels a running task from the other isolate, with the same answer as the in-memory handler', async () => {
    const sent = await d.front1.rpc('message/send', { ...message('slow 20000'), configuration: { blocking: false } });
    const taskId = sent.result.id;
    await until(async () => (await d.front2.rpc('tasks/get', { id: taskId })).result.status.state === 'working', 10_000, 'the task to work');
    const started = Date.now();
    const canceled = await d.front2.rpc('tasks/cancel', { id: taskId });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(canceled.result.status.state).toBe('canceled');
    expect(canceled.result.status.message.parts[0].text).toBe('The task was canceled by request.');
    const read = await d.front1.rpc('tasks/get', { id: taskId });
    expect(read.result.status).toEqual(canceled.result.status);
    const again = await d.front1.rpc('tasks/cancel', { id: taskId });
    expect(again.error).toMatchObject({ code: -32002, message: `Task ${taskId} is canceled and cannot be canceled` });
  }, 30_000);

  it('ends the SSE stream of a task canceled elsewhere with its final canceled event', async () => {
    const stream = await d.front1.open('message/stream', message('slow 20000'));
    const first = await stream.next();
    await stream.next(); // a chunk: the run is going
    await d.front2.rpc('tasks/cancel', { id: first.result.id });
    const rest = await readUntilFinal(stream);
    expect(rest.at(-1).result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'canceled' } });
  }, 30_000);

  it('cancels the task of a message/stream whose client went away, as the in-memory handler does', async () => {
    const stream = await d.front1.open('message/stream', message('slow 20000'));
    const first = await stream.next();
    await stream.next();
    await stream.cancel();
    const canceled = await until(async () => {
      const read = await d.front2.rpc('tasks/get', { id: first.result.id });
      return read.result.status.state === 'canceled' && read.result;
    }, 10_000, 'the task to be canceled');
    expect(canceled.status.message.parts[0].text).toBe('The task was canceled by request.');
  }, 30_000);

  it('keeps every turn of 50 concurrent message/send on one contextId split across both isolates', async () => {
    const contextId = `ctx-shared-${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? d.front1 : d.front2).rpc('message/send', message(`turn ${index}`, contextId))),
    );
    for (const [index, answer] of answers.entries()) {
      expect(answer.result?.status?.state, JSON.stringify(answer)).toBe('completed');
      expect(answer.result.status.message.parts[0].text).toBe(`ok turn ${index}`);
    }
    const history = await d.front2.rpc('message/send', message('history', contextId));
    const seen: string[] = JSON.parse(history.result.status.message.parts[0].text);
    expect(seen).toHaveLength(100);
    for (let index = 0; index < 50; index++) {
      expect(seen).toContain(`user:turn ${index}`);
      expect(seen).toContain(`assistant:ok turn ${index}`);
      expect(seen.indexOf(`assistant:ok turn ${index}`)).toBe(seen.indexOf(`user:turn ${index}`) + 1); // each turn whole
    }
  }, 60_000);

  it('keeps every turn of 20 concurrent turns on a conversation the server began, split across both isolates', async () => {
    const { contextId } = (await d.front1.rpc('message/send', message('begin'))).result;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? d.front1 : d.front2).rpc('message/send', message(`turn ${index}`, contextId))));
    for (const answer of answers) expect(answer.result?.status?.state, JSON.stringify(answer)).toBe('completed');
    const seen: string[] = JSON.parse((await d.front2.rpc('message/send', message('history', contextId))).result.status.message.parts[0].text);
    expect(seen).toHaveLength(2 + 40);
    for (let index = 0; index < 20; index++) expect(seen.indexOf(`assistant:ok turn ${index}`)).toBe(seen.indexOf(`user:turn ${index}`) + 1);
  }, 60_000);

  it('keeps running a non-blocking message/send in its object after the answer', async () => {
    const sent = await d.front2.rpc('message/send', { ...message('slow 300'), configuration: { blocking: false } });
    expect(['submitted', 'working']).toContain(sent.result.status.state);
    const done = await until(async () => {
      const read = await d.front1.rpc('tasks/get', { id: sent.result.id });
      return read.result.status.state === 'completed' && read.result;
    }, 10_000, 'the task to complete');
    expect(done.status.message.parts[0].text).toMatch(/^c0 c1 /);
  }, 30_000);

  it('answers unknown and foreign task ids with TaskNotFound from either isolate', async () => {
    for (const front of [d.front1, d.front2]) {
      for (const id of [`task-${'0'.repeat(64)}`, `task-${'f'.repeat(64)}`, 'task-00000000-0000-4000-8000-000000000000', 'no-such-task', '../../etc', 'x'.repeat(5000)]) {
        for (const method of ['tasks/get', 'tasks/cancel']) {
          const answer = await front.rpc(method, { id });
          expect(answer.error?.code, `${method} ${id.slice(0, 20)}`).toBe(-32001);
        }
      }
    }
  });
});
