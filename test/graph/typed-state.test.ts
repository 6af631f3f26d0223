// Typed graph state (issue 15, "Graphs"): a StateGraph over stateSchema(zod object | field definitions) gives nodes a
// typed state and typed updates, per-field reducers, node ids checked in edges, routers, path maps and Command.goto
// (against `ends`); a Standard-Schema state checks the state each run starts from (STATE_INVALID). Untyped use keeps
// working (test/graph/*.test.ts all build open graphs).
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import type { ChatMessage } from '../../src/chat/index.js';
import { ConfigError, WorkflowError } from '../../src/errors/index.js';
import {
  Command,
  END,
  ExecutionErrorCollector,
  field,
  messagesStateSchema,
  reducers,
  START,
  createGraphAgent,
  STATE_INVALID,
  StateGraph,
  StateSchema,
  stateSchema,
  type ExecutionError,
  type GraphOutcome,
  type NodeFunction,
  type State,
} from '../../src/graph/index.js';
import { completionState, isRunnerCompletion, Runner } from '../../src/runner/index.js';
import type { StandardSchemaV1 } from '../../src/tools/index.js';

const Order = z.object({
  order_id: z.string(),
  status: z.optional(z.enum(['in_stock', 'unknown'])),
  log: z.array(z.string()),
  attempts: z.number().default(0),
});

describe('stateSchema(zod object, fields): typed state and updates', () => {
  const schema = stateSchema(Order, { log: { reducer: reducers.append, default: () => [] } });

  it('gives nodes the schema output type and checks their updates', async () => {
    const graph = new StateGraph(schema)
      .addNode('lookup', (state) => {
        expectTypeOf(state.order_id).toEqualTypeOf<string>();
        expectTypeOf(state.status).toEqualTypeOf<'in_stock' | 'unknown' | undefined>();
        expectTypeOf(state.log).toEqualTypeOf<string[]>();
        return { status: 'in_stock' as const, log: [`looked up ${state.order_id}`] };
      })
      .addNode('finish', (state) => ({ log: [`finished with ${state.status ?? 'nothing'}`] }))
      .addEdge(START, 'lookup')
      .addEdge('lookup', 'finish')
      .addEdge('finish', END);
    const compiled = graph.compile();
    const outcome = await compiled.run({ order_id: 'A-1' });
    expectTypeOf(outcome).toEqualTypeOf<GraphOutcome<z.infer<typeof Order>>>();
    expect(outcome).toMatchObject({ status: 'completed', state: { order_id: 'A-1', status: 'in_stock', log: ['looked up A-1', 'finished with in_stock'], attempts: 0 } });
    if (outcome.status === 'completed') expectTypeOf(outcome.state.log).toEqualTypeOf<string[]>();
  });

  it('rejects wrong updates, unknown keys and unknown node ids at compile time', () => {
    const graph = new StateGraph(schema);
    // @ts-expect-error status is 'in_stock' | 'unknown'
    graph.addNode('bad_value', () => ({ status: 'sold_out' }));
    // @ts-expect-error no such field
    graph.addNode('bad_key', () => ({ stauts: 'unknown' }));
    // A misspelt key beside a known one: TypeScript checks no extra keys of a returned object by itself.
    // @ts-expect-error no such field, beside a known one
    graph.addNode('mixed_key', () => ({ status: 'unknown', stauts: 'unknown' }));
    // @ts-expect-error the same, from an async node
    graph.addNode('mixed_async', async () => ({ status: 'unknown', log: ['x'], stauts: 'unknown' }));
    // @ts-expect-error the same, from a block body
    graph.addNode('mixed_block', () => {
      return { status: 'in_stock', stauts: 'unknown' };
    });
    // Still fine: literals of a field's type, an update of either shape, nothing, a Command.
    graph.addNode('literal', () => ({ status: 'in_stock' }));
    graph.addNode('either', (state) => (state.order_id === '' ? { status: 'unknown' } : { log: ['x'] }));
    graph.addNode('maybe', async (state) => (state.order_id === '' ? undefined : { log: ['x'] }));
    graph.addNode('command', () => new Command({ update: { status: 'unknown' } }));
    const built = graph.addNode('a', () => ({})).addNode('b', () => undefined);
    // @ts-expect-error 'c' is not a node of this graph
    built.addEdge('a', 'c');
    // @ts-expect-error the entry point must be a node
    built.setEntryPoint('nowhere');
    // @ts-expect-error a router returns node ids or END
    built.addConditionalEdges('a', () => 'elsewhere');
    // @ts-expect-error path map values are node ids or END
    built.addConditionalEdges('a', () => 'x', { x: 'elsewhere' });
    // @ts-expect-error the router returns keys of the path map
    built.addConditionalEdges('a', () => 'y', { x: 'b' });
    built.addConditionalEdges('a', (state) => (state.status === 'unknown' ? 'retry' : 'done'), { retry: 'a', done: END });
    built.addConditionalEdges('b', () => ['a', END]);
    expect(() => built.compile()).toThrow(WorkflowError); // the runtime checks stay: 'bad_value' and friends have no edges
  });

  it('types Command.goto by the node’s ends', async () => {
    const graph = new StateGraph(schema)
      .addNode('check', (state) => new Command({ update: { status: 'unknown' }, goto: state.order_id === '' ? END : 'ship' }), { ends: ['ship'] })
      .addNode('ship', () => ({ log: ['shipped'] }))
      .setEntryPoint('check')
      .setFinishPoint('ship');
    // @ts-expect-error 'shop' is not among the node's ends
    new StateGraph(schema).addNode('typo', () => new Command({ goto: 'shop' }), { ends: ['ship'] });
    // @ts-expect-error a Command's update is typed like any other
    new StateGraph(schema).addNode('bad', () => new Command({ update: { status: 42 }, goto: 'ship' }), { ends: ['ship'] });
    const outcome = await graph.compile().run({ order_id: 'B-2' });
    expect(outcome).toMatchObject({ status: 'completed', state: { status: 'unknown', log: ['shipped'] } });
  });

  it('types the per-node fallback update', () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(schema).use(collector);
    graph.addNode('lookup', () => ({}), { fallback: { update: { status: 'unknown' }, goto: END } });
    // @ts-expect-error the fallback update is a state update
    graph.addNode('other', () => ({}), { fallback: { update: { status: 'later' } } });
    graph.addNode('reads_records', (state) => {
      expectTypeOf(state.execution_errors).toEqualTypeOf<ExecutionError[]>();
      return {};
    });
    new StateGraph(schema).use(new ExecutionErrorCollector({ stateKey: 'failures' })).addNode('named', (state) => {
      expectTypeOf(state.failures).toEqualTypeOf<ExecutionError[]>();
      return {};
    });
  });

  it('checks the first state of each run against the schema: STATE_INVALID names each issue, no node runs', async () => {
    let ran = 0;
    const compiled = new StateGraph(schema)
      .addNode('lookup', () => {
        ran++;
        return {};
      })
      .setEntryPoint('lookup')
      .setFinishPoint('lookup')
      .compile();
    const outcome = await compiled.run({ status: 'unknown' } as never);
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error.code).toBe(STATE_INVALID);
    expect(outcome.error.problems).toEqual([expect.stringMatching(/^order_id: /)]);
    expect(outcome.error.message).toMatch(/the run's first state does not match the state schema: order_id: /);
    expect(outcome.steps).toBe(0);
    expect(ran).toBe(0);
    const wrong = await compiled.run({ order_id: 7, status: 'sold_out' } as never);
    expect(wrong.status === 'failed' && wrong.error.problems.length).toBe(2);
  });

  it('under the Runner, a refused first state built from the message says how to pass the graph’s own; a given state runs', async () => {
    const compiled = new StateGraph(schema).addNode('lookup', () => ({ status: 'in_stock' as const })).setEntryPoint('lookup').setFinishPoint('lookup').compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', compiled) });
    const completionOf = async (state?: Record<string, unknown>) => {
      for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'Order 42', ...(state ? { state } : {}) })) if (isRunnerCompletion(event)) return event;
      return undefined;
    };
    const refused = await completionOf();
    expect(refused?.response.error?.code).toBe(STATE_INVALID);
    expect(refused?.response.error?.message).toMatch(/order_id: .*pass it as runner\.run\(\{ userId, sessionId, message, state \}\) or build it with createGraphAgent\(name, graph, \{ input: \(invocation\) => state \}\)$/);
    const ran = await completionOf({ order_id: '42', log: [] });
    expect(ran?.response.error).toBeUndefined();
    expect(completionState(ran)?.status).toBe('in_stock');
    const typed = completionState(ran, compiled);
    expectTypeOf(typed).toEqualTypeOf<Partial<z.output<typeof Order>> | undefined>();
    expect(typed?.order_id).toBe('42');
    // @ts-expect-error: a key the graph's state does not have
    void typed?.not_a_key;
    // A state the caller gave is their own: its refusal names the issues without the hint.
    const given = await completionOf({ order_id: 42, log: [] });
    expect(given?.response.error?.message).not.toContain('runner.run(');
  });

  it('starts from the schema output (zod defaults) and keeps keys the schema does not know (a collector’s records)', async () => {
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(schema)
      .use(collector)
      .addNode('fail', () => {
        throw new Error('boom');
      })
      .setEntryPoint('fail')
      .setFinishPoint('fail')
      .compile();
    const outcome = await compiled.run({ order_id: 'C-3' });
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.fallbackState).toMatchObject({ order_id: 'C-3', attempts: 0, log: [] });
    expect((outcome.fallbackState.execution_errors as ExecutionError[]).map((record) => record.nodeId)).toEqual(['fail']);
  });

  it('a validator that throws is a STATE_INVALID failure with its cause, not a crash', async () => {
    const throwing = { '~standard': { version: 1, vendor: 'test', validate: () => { throw new Error('validator broke'); } } } as const;
    const compiled = new StateGraph(stateSchema(throwing as unknown as StandardSchemaV1<unknown, State>)).addNode('a', () => ({})).setEntryPoint('a').setFinishPoint('a').compile();
    const outcome = await compiled.run({});
    expect(outcome.status === 'failed' && [outcome.error.code, outcome.error.message]).toEqual([STATE_INVALID, "the state schema could not check the run's first state: validator broke"]);
  });

  it('async validators work (valibot-style Promise results)', async () => {
    const asyncSchema = { '~standard': { version: 1, vendor: 'test', validate: async (value: unknown) => ({ value: { ...(value as object), checked: true } }) } } as const;
    const compiled = new StateGraph(stateSchema(asyncSchema as unknown as StandardSchemaV1<unknown, State>)).addNode('a', () => ({})).setEntryPoint('a').setFinishPoint('a').compile();
    expect(await compiled.run({ x: 1 } as never)).toMatchObject({ status: 'completed', state: { x: 1, checked: true } });
  });
});

describe('stateSchema(field definitions)', () => {
  const schema = stateSchema({
    messages: field<ChatMessage[]>({ reducer: reducers.append, default: () => [] }),
    status: field<'ok' | 'unknown'>({ default: () => 'unknown' }),
    seen: field<string[], string>({ reducer: (all, one) => [...(all ?? []), one], default: () => [] }),
    count: field<number>(),
  });

  it('types state and updates by each field, a custom reducer’s update type included', async () => {
    const compiled = new StateGraph(schema)
      .addNode('a', (state) => {
        expectTypeOf(state.messages).toEqualTypeOf<ChatMessage[]>();
        expectTypeOf(state.status).toEqualTypeOf<'ok' | 'unknown'>();
        return { seen: 'a', status: 'ok' as const, messages: [{ role: 'assistant' as const, content: 'hi' }] };
      })
      .addNode('b', (state) => ({ seen: 'b', count: state.seen.length }))
      .addEdge(START, 'a')
      .addEdge('a', 'b')
      .addEdge('b', END)
      .compile();
    // @ts-expect-error seen's update is one string
    new StateGraph(schema).addNode('x', () => ({ seen: ['a'] }));
    const outcome = await compiled.run();
    expect(outcome).toMatchObject({ status: 'completed', state: { seen: ['a', 'b'], count: 1, status: 'ok', messages: [{ role: 'assistant', content: 'hi' }] } });
  });

  it('bad definitions are one ConfigError listing each problem', () => {
    let thrown: unknown;
    try {
      stateSchema({ a: { reducer: 'append' }, b: 3, c: { default: [] } } as never);
    } catch (error) {
      thrown = error;
    }
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigError).problems).toEqual([
      'field "a" reducer must be a function (existing, update) => value',
      'field "b" must be an object {reducer?, default?} (field<T>() makes one)',
      'field "c" default must be a function returning a fresh value (e.g. () => [])',
    ]);
    expect(() => stateSchema(42 as never)).toThrow(/a Standard Schema object .* or an object of field<T>\(\) definitions/);
    expect(() => (stateSchema as (...args: unknown[]) => unknown)({ a: field() }, {})).toThrow(/field definitions come alone/);
    expect(() => stateSchema(JSON.parse('{"__proto__": {}}') as never)).toThrow(ConfigError);
  });
});

describe('untyped use keeps working', () => {
  it('open schemas take any key, any value; node ids are strings; results are checked at run time', async () => {
    const schema = new StateSchema().addField('log', { reducer: reducers.append, default: () => [] });
    const graph = new StateGraph(schema);
    const id: string = 'dynamic';
    graph.addNode(id, () => ({ anything: 1, log: ['x'] }));
    graph.addEdge(START, id);
    graph.addEdge(id, END);
    const outcome = await graph.compile().run({ extra: true });
    expect(outcome).toMatchObject({ status: 'completed', state: { anything: 1, log: ['x'], extra: true } });
    const untyped: NodeFunction = () => 'not an update';
    const bad = await new StateGraph(new StateSchema()).addNode('n', untyped).setEntryPoint('n').setFinishPoint('n').compile().run();
    expect(bad.status === 'failed' && bad.error.message).toMatch(/node n failed at step \d+: the node returned a string/);
  });

  it('addField<K, T> types one field of an open schema; messagesStateSchema() types its four', () => {
    const schema = new StateSchema().addField<'count', number>('count', { default: () => 0 });
    new StateGraph(schema).addNode('n', (state) => {
      expectTypeOf(state.count).toEqualTypeOf<number>();
      return { count: state.count + 1 };
    });
    new StateGraph(messagesStateSchema()).addNode('m', (state) => {
      expectTypeOf(state.messages).toEqualTypeOf<ChatMessage[]>();
      return { messages: { role: 'assistant', content: `${state.messages.length}` } };
    });
  });
});
