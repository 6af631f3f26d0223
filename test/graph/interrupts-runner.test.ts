/**
 * An interrupted graph beyond `run()`: under the Runner as a graph agent its completion says interrupted — the
 * interrupts and the state, no error, no failed span; a subgraph that asks fails its parent's node with the typed
 * SUBGRAPH_INTERRUPTED (never a silent empty result); and neither events nor spans ever carry what was asked or
 * answered (a planted secret in both is found in neither).
 */
import { describe, expect, it } from 'vitest';
import { createGraphAgent, decodeStateDelta, END, InMemoryCheckpointer, interrupt, START, StateGraph, StateSchema, SUBGRAPH_INTERRUPTED } from '../../src/graph/index.js';
import { isRunnerCompletion, isTerminalError, Runner, sessionKeyOf, type RunEvent } from '../../src/runner/index.js';
import { exported, otel, record } from '../telemetry/otel-sdk.js';
import { counters, interruptsOf, refundGraph } from './interrupt-fixtures.js';

const SECRET = 'PLANTED-SECRET-7f3a9c';

describe('an interrupted graph under the Runner', () => {
  it('ends with a completion that says interrupted: the interrupts and the state, no error; the same invocation resumed later completes', async () => {
    const count = counters();
    const checkpointer = new InMemoryCheckpointer();
    const graph = refundGraph(count);
    const recorder = record();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('refunds', graph, { checkpointer }), telemetry: recorder.telemetry });
    const events: RunEvent[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'refund', state: { amount: 12 }, invocationId: 'inv-1' })) events.push(event);
    const completion = events.at(-1)!;
    expect(isRunnerCompletion(completion)).toBe(true);
    expect(events.filter((event) => isTerminalError(event))).toEqual([]);
    expect(completion.response?.error).toBeUndefined();
    const [question] = completion.response!.interrupts!;
    expect(question).toMatchObject({ runId: 'inv-1', kind: 'input', nodeId: 'approve', value: { refund: 12 } });
    expect(decodeStateDelta(completion.stateDelta ?? {})).toMatchObject({ amount: 12 });
    expect(recorder.span('invoke_agent shop').status.code).not.toBe(otel.SpanStatusCode.ERROR);
    expect(count).toMatchObject({ before: 1, after: 0 });
    // Resumed with the graph agent's checkpointer (the run id is the invocation id), then replayed by the Runner.
    // The run is the session's: a direct resume names it as its owner.
    expect(await graph.resume('inv-1', { checkpointer, decisions: [{ id: question!.id, value: { ok: true } }] })).toMatchObject({ status: 'failed' });
    expect(await graph.resume('inv-1', { checkpointer, decisions: [{ id: question!.id, value: { ok: true } }], owner: sessionKeyOf('shop', 'u', 's') })).toMatchObject({ status: 'completed' });
    const again: RunEvent[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'refund', invocationId: 'inv-1' })) again.push(event);
    expect(again.at(-1)!.response?.interrupts).toBeUndefined();
    expect(decodeStateDelta(again.at(-1)!.stateDelta ?? {})).toMatchObject({ approved: true, trail: ['approve', 'note', 'refund'] });
    expect(count).toMatchObject({ before: 2, after: 1, refunds: 1 });
  });

  it('reports a refused resume of the graph agent with its code, not a bare run error', async () => {
    const checkpointer = new InMemoryCheckpointer();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('refunds', refundGraph(counters()), { checkpointer }) });
    for await (const _ of runner.run({ userId: 'u', sessionId: 's', message: 'refund', invocationId: 'inv-2' })) void _;
    const events: RunEvent[] = [];
    // The same invocation again, without answering: the run still waits, and the resume is refused.
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'refund', invocationId: 'inv-2' })) events.push(event);
    expect(events.find((event) => isTerminalError(event))?.response?.error).toMatchObject({ code: 'RESUME_INCOMPLETE', message: expect.stringContaining('undecided') });
  });
});

describe('a subgraph whose node asks', () => {
  it('fails its parent’s node with SUBGRAPH_INTERRUPTED naming the question, instead of completing it empty', async () => {
    const child = new StateGraph(new StateSchema()).addNode('ask', (_state, context) => void interrupt(context, 'ok?')).addEdge(START, 'ask').addEdge('ask', END).compile();
    const parent = new StateGraph(new StateSchema()).addSubgraph('child', child).addEdge(START, 'child').addEdge('child', END).compile();
    const outcome = await parent.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'p' });
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error).toMatchObject({ code: SUBGRAPH_INTERRUPTED, nodeId: 'child', message: expect.stringMatching(/stopped to ask \("interrupt-/) });
  });

  it('fails it the same way when the parent is resumed: never run on past the unanswered question', async () => {
    const count = { before: 0, after: 0, next: 0 };
    const child = new StateGraph(new StateSchema().addField('approved'))
      .addNode('ask', (_state, context) => {
        count.before++;
        const answer = interrupt<{ ok: boolean }>(context, { q: 1 });
        count.after++;
        return { approved: answer.ok };
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile();
    const parent = new StateGraph(new StateSchema().addField('out'))
      .addSubgraph('sub', child)
      .addNode('next', () => (count.next++, { out: 'ran past the question' }))
      .addEdge(START, 'sub')
      .addEdge('sub', 'next')
      .addEdge('next', END)
      .compile();
    const checkpointer = new InMemoryCheckpointer();
    const first = await parent.run({}, { checkpointer, runId: 'p' });
    expect(first.status === 'failed' && first.error.code).toBe(SUBGRAPH_INTERRUPTED);
    for (let resume = 0; resume < 2; resume++) {
      const again = await parent.resume('p', { checkpointer });
      expect(again.status === 'failed' && again.error.code).toBe(SUBGRAPH_INTERRUPTED);
    }
    expect(count).toEqual({ before: 1, after: 0, next: 0 });
  });
});

describe('what was asked and answered', () => {
  it('is named by at most 50 ids in the graph.interrupt event, the rest counted', async () => {
    let graph = new StateGraph(new StateSchema());
    for (let index = 0; index < 60; index++) graph = graph.addNode(`n${index}`, (_state, context) => void interrupt(context, index)).addEdge(START, `n${index}`).addEdge(`n${index}`, END);
    const events: RunEvent[] = [];
    const outcome = await graph.compile().run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r', onEvent: (event) => events.push(event) });
    expect(interruptsOf(outcome)).toHaveLength(60);
    const metadata = JSON.parse(events.find((event) => event.response?.object === 'graph.interrupt')!.stateDelta!._pregel_metadata!);
    expect(metadata).toMatchObject({ count: 60, stepNumber: 0 });
    expect(metadata.interruptIds).toHaveLength(50);
    expect(metadata.nodeIds).toEqual(Array.from({ length: 50 }, (_, index) => `n${index}`));
  });

  it('appears in no event and no span: the graph.interrupt and graph.resume events carry ids and counts only', async () => {
    const recorder = record();
    const events: RunEvent[] = [];
    const checkpointer = new InMemoryCheckpointer();
    const graph = new StateGraph(new StateSchema().addField('done'))
      .addNode('ask', (_state, context) => {
        interrupt(context, { card: SECRET });
        return { done: true };
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile();
    const options = { checkpointer, onEvent: (event: RunEvent) => events.push(event), telemetry: recorder.telemetry };
    const [question] = interruptsOf(await graph.run({}, { ...options, runId: 'r' }));
    await graph.resume('r', { ...options, decisions: [{ id: question!.id, value: { pin: SECRET } }] });
    await graph.resume('r', { ...options, decisions: [{ id: question!.id, value: { pin: SECRET } }] }); // a replay
    await graph.resume('r', { ...options, decisions: [{ id: question!.id, value: { pin: `${SECRET}-2` } }] }).catch(() => {}); // a conflict
    const objects = events.map((event) => event.response?.object);
    expect(objects.filter((object) => object === 'graph.interrupt' || object === 'graph.resume')).toEqual(['graph.interrupt', 'graph.resume', 'graph.resume', 'graph.resume']);
    for (const event of events) expect(JSON.stringify(event)).not.toContain(SECRET);
    for (const span of recorder.spans()) expect(exported(span)).not.toContain(SECRET);
    const resumes = recorder.spans().flatMap((span) => span.events.filter((event) => event.name === 'faultline.resume'));
    expect(resumes.map((event) => event.attributes?.['faultline.resume.refused'])).toEqual([undefined, undefined, 'RESUME_CONFLICT']);
  });
});
