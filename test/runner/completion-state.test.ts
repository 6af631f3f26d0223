/**
 * `completionState(event)`: the business state of a `runner.completion`, decoded once — no `JSON.parse` per key —
 * next to its wire form, which stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { createGraphAgent, ExecutionErrorCollector, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { completionState, createEvent, isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';
import { fatalWriteGraph } from '../helpers/graphs.js';

const origin = { invocationId: 'invocation-1', author: 'app' };
const completion = (stateDelta?: Record<string, string | null>) => createEvent(origin, { response: { object: 'runner.completion', done: true }, ...(stateDelta ? { stateDelta } : {}) });

async function completionOf(runner: Runner): Promise<RunEvent> {
  let found: RunEvent | undefined;
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Order 42' })) if (isRunnerCompletion(event)) found = event;
  if (!found) throw new Error('no runner.completion');
  return found;
}

describe('completionState', () => {
  it("decodes a graph run's final state off its completion, the wire form left as it was", async () => {
    const graph = new StateGraph(messagesStateSchema())
      .use(new ExecutionErrorCollector())
      .addNode('reserve', () => ({ inventory_status: 'reserved', order: { id: 42, lines: [1, 2] }, last_response: 'reserved' }))
      .setEntryPoint('reserve')
      .setFinishPoint('reserve')
      .compile();
    const event = await completionOf(new Runner({ appName: 'shop', agent: createGraphAgent('orders', graph) }));
    const wire = JSON.stringify(event.stateDelta);
    const state = completionState(event);

    expect(state).toMatchObject({ inventory_status: 'reserved', order: { id: 42, lines: [1, 2] }, execution_errors: [] });
    expect(JSON.stringify(event.stateDelta)).toBe(wire);
    expect(event.stateDelta?.inventory_status).toBe('"reserved"');
  });

  it('decodes the fallback state of a failed run, records included', async () => {
    const event = await completionOf(new Runner({ appName: 'shop', agent: createGraphAgent('writer', fatalWriteGraph()) }));
    const state = completionState(event);
    expect(state?.execution_errors).toMatchObject([{ severity: 'fatal', nodeId: 'write', error: { code: 'WRITE_FATAL' } }]);
  });

  it('leaves graph metadata keys out, keeps null values and text that is not JSON', () => {
    const state = completionState(completion({ _node_metadata: '{"nodeId":"x"}', _completion_metadata: '{}', note: null, raw: 'not json', count: '3' }));
    expect(state).toEqual({ note: null, raw: 'not json', count: 3 });
  });

  it('gives {} for a completion without state and undefined for any other event', () => {
    expect(completionState(completion())).toEqual({});
    expect(completionState(createEvent(origin, { response: { object: 'graph.execution', done: true }, stateDelta: { a: '1' } }))).toBeUndefined();
    expect(completionState(createEvent(origin, { response: { object: 'runner.completion', done: false }, stateDelta: { a: '1' } }))).toBeUndefined();
    expect(completionState(undefined)).toBeUndefined();
    expect(completionState(null)).toBeUndefined();
  });

  it('returns a fresh copy each call, safe for a __proto__ key', () => {
    const event = completion({ order: '{"id":42}', ['__proto__']: '{"polluted":true}' });
    const first = completionState(event) as { order: { id: number } };
    first.order.id = 7;
    expect((completionState(event) as { order: { id: number } }).order.id).toBe(42);
    expect(Object.hasOwn(first, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
