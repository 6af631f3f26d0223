/**
 * The graph builder and `compile()` (seed-systems §1, STYLE.md "the builder collects all problems and reports them at
 * `compile()`"), and the state schema's reducers. Every build problem is a sentence in the `problems` list of one
 * `WorkflowError`; nothing throws while building.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, WorkflowError } from '../../src/errors/index.js';
import {
  END,
  messagesStateSchema,
  reducers,
  START,
  StateGraph,
  StateSchema,
  type NodeFunction,
  type Reducer,
  type State,
} from '../../src/graph/index.js';
import type { ChatClient } from '../../src/chat/index.js';
import type { AnyTool } from '../../src/tools/index.js';
import type { RunnableAgent } from '../../src/runner/index.js';

const noop: NodeFunction = () => ({});
const NO_PATH = 'no path from the entry point reaches the end: add setFinishPoint(nodeId), an edge to END, or a node with ends: [END]';

/** The `WorkflowError` that `compile()` throws (fails the test when it compiles). */
function compileError(graph: StateGraph, options?: Parameters<StateGraph['compile']>[0]): WorkflowError {
  try {
    graph.compile(options);
  } catch (error) {
    expect(WorkflowError.isInstance(error)).toBe(true);
    return error as WorkflowError;
  }
  throw new Error('expected compile() to throw a WorkflowError');
}

function problemsOf(graph: StateGraph, options?: Parameters<StateGraph['compile']>[0]): readonly string[] {
  return compileError(graph, options).problems;
}

function graph(): StateGraph {
  return new StateGraph(new StateSchema());
}

describe('StateGraph.compile', () => {
  it('reports every build problem at once in one WorkflowError listing each', () => {
    const builder = graph()
      .addNode('a', noop)
      .addNode('a', noop)
      .addNode(END, noop)
      .addNode('b', 'not a function' as unknown as NodeFunction)
      .addNode('c', noop, { retry: { maxAttempts: 0 } })
      .addEdge('ghost', 'a')
      .addEdge('a', 'phantom')
      .addConditionalEdges('a', () => 'x', { x: 'nowhere' });

    const error = compileError(builder);

    expect(error.problems).toEqual([
      'node "a" is added twice',
      'node id "__end__" is reserved',
      'node "b" needs a function',
      'node "c" retry.maxAttempts must be an integer ≥ 1 (got 0)',
      'no entry point: call setEntryPoint(nodeId)',
      'edge from unknown node "ghost"',
      'edge to unknown node "phantom"',
      'conditional edge from "a" maps "x" to unknown node "nowhere"',
    ]);
    expect(error.name).toBe('WorkflowError');
    expect(error.kind).toBe('workflow');
    expect(error.message).toBe(
      `The graph cannot be compiled: 8 problems: ${error.problems.map((problem, index) => `(${index + 1}) ${problem}`).join('; ')}`,
    );
    expect(Object.isFrozen(error.problems)).toBe(true);
  });

  it('does not throw while building, only at compile()', () => {
    expect(() => graph().addNode('', noop).addNode(START, noop).addEdge('x', 'y').addConditionalEdges('x', 42 as never)).not.toThrow();
  });

  it('names a single problem directly in the message', () => {
    const error = compileError(graph().addNode('a', noop).addEdge('a', END));

    expect(error.problems).toEqual(['no entry point: call setEntryPoint(nodeId)']);
    expect(error.message).toBe('The graph cannot be compiled: no entry point: call setEntryPoint(nodeId)');
  });

  it('reports an entry point that names an unknown node (from which, then, nothing reaches END)', () => {
    expect(problemsOf(graph().addNode('a', noop).setFinishPoint('a').setEntryPoint('ghost'))).toEqual(['edge to unknown node "ghost" (the entry point)', NO_PATH]);
  });

  it('reports an edge from and an edge to an unknown node', () => {
    const builder = graph().addNode('a', noop).setEntryPoint('a').setFinishPoint('a').addEdge('from_nowhere', 'a').addEdge('a', 'to_nowhere');

    expect(problemsOf(builder)).toEqual(['edge from unknown node "from_nowhere"', 'edge to unknown node "to_nowhere"']);
  });

  it('reports an edge that starts at END', () => {
    const problems = problemsOf(graph().addNode('a', noop).setEntryPoint('a').setFinishPoint('a').addEdge(END, 'a'));

    expect(problems).toContain('no edge can start at END');
  });

  it('reports a conditional edge from an unknown node, to an unknown node of its path map, and without a router', () => {
    const builder = graph()
      .addNode('a', noop)
      .setEntryPoint('a')
      .setFinishPoint('a')
      .addConditionalEdges('ghost', () => 'done', { done: END })
      .addConditionalEdges('a', () => 'left', { left: END, right: 'missing' })
      .addConditionalEdges('a', 'route' as never);

    expect(problemsOf(builder)).toEqual([
      'the conditional edge from "a" needs a router function',
      'conditional edge from unknown node "ghost"',
      'conditional edge from "a" maps "right" to unknown node "missing"',
    ]);
  });

  it('reports a node added twice', () => {
    expect(problemsOf(graph().addNode('a', noop).addNode('a', noop).setEntryPoint('a').setFinishPoint('a'))).toEqual(['node "a" is added twice']);
  });

  it('reports the reserved ids START and END and an empty id', () => {
    const builder = graph().addNode(START, noop).addNode(END, noop).addNode('', noop).addNode('  ', noop).addNode('a', noop).setEntryPoint('a').setFinishPoint('a');

    expect(problemsOf(builder)).toEqual([
      'node id "__start__" is reserved',
      'node id "__end__" is reserved',
      'a node id must be a non-empty string (got "")',
      'a node id must be a non-empty string (got "  ")',
    ]);
  });

  it('reports a node that is not a function', () => {
    const builder = graph()
      .addNode('a', undefined as unknown as NodeFunction)
      .addNode('b', { run: noop } as unknown as NodeFunction)
      .setEntryPoint('a')
      .addEdge('a', 'b')
      .setFinishPoint('b');

    expect(problemsOf(builder)).toEqual(['node "a" needs a function', 'node "b" needs a function']);
  });

  it('reports every invalid retry option of a node', () => {
    const builder = graph()
      .addNode('a', noop, {
        retry: { maxAttempts: 1.5, initialDelayMs: -1, multiplier: 0.5, jitter: 'some' as never, retryOn: 'always' as never },
      })
      .setEntryPoint('a')
      .setFinishPoint('a');

    expect(problemsOf(builder)).toEqual([
      'node "a" retry.maxAttempts must be an integer ≥ 1 (got 1.5)',
      'node "a" retry.initialDelayMs must be a finite number ≥ 0 (got -1)',
      'node "a" retry.multiplier must be a finite number ≥ 1 (got 0.5)',
      "node \"a\" retry.jitter must be 'full' or 'none' (got \"some\")",
      'node "a" retry.retryOn must be a function',
    ]);
  });

  it('reports a Command destination (ends) that is not a node', () => {
    expect(problemsOf(graph().addNode('a', noop, { ends: ['b', END] }).setEntryPoint('a'))).toEqual(['node "a" declares an unknown destination "b"']);
  });

  it('reports a step limit that is not an integer of at least 1', () => {
    const builder = graph().addNode('a', noop).setEntryPoint('a').setFinishPoint('a');

    expect(problemsOf(builder, { stepLimit: 0 })).toEqual(['stepLimit must be an integer ≥ 1 (got 0)']);
    expect(problemsOf(builder, { stepLimit: 2.5 })).toEqual(['stepLimit must be an integer ≥ 1 (got 2.5)']);
  });

  it('reports special nodes built without what they need', () => {
    const builder = graph()
      .addLLMNode('llm', {} as ChatClient)
      .addToolsNode('tools', [{ name: 'fake' } as unknown as AnyTool])
      .addAgentNode('child', {} as RunnableAgent)
      .addNode('a', noop)
      .setEntryPoint('a')
      .setFinishPoint('a');

    expect(problemsOf(builder)).toEqual([
      'LLM node "llm" needs a chat client',
      'tools node "tools" needs tools made by defineTool()',
      'agent node "child" needs an agent with runEvents() (see toRunnableAgent)',
    ]);
  });

  describe('the path from the entry point to END', () => {
    it('is missing when the nodes only loop among themselves', () => {
      const builder = graph().addNode('a', noop).addNode('b', noop).setEntryPoint('a').addEdge('a', 'b').addEdge('b', 'a');

      expect(problemsOf(builder)).toEqual([NO_PATH]);
    });

    it('is missing when only a node unreachable from the entry reaches END', () => {
      const builder = graph().addNode('a', noop).addNode('island', noop).setEntryPoint('a').addEdge('a', 'a').setFinishPoint('island');

      expect(problemsOf(builder)).toEqual([NO_PATH]);
    });

    it('is missing when a conditional edge has a path map without END and nothing else ends', () => {
      const builder = graph().addNode('a', noop).addNode('b', noop).setEntryPoint('a').addConditionalEdges('a', () => 'again', { again: 'b' }).addEdge('b', 'a');

      expect(problemsOf(builder)).toEqual([NO_PATH]);
    });

    it('exists through a finish point', () => {
      const compiled = graph().addNode('a', noop).addNode('b', noop).setEntryPoint('a').addEdge('a', 'b').setFinishPoint('b').compile();

      expect(compiled.parts.entries).toEqual(['a']);
    });

    it('exists through a conditional edge without a path map (its router may return END)', () => {
      expect(() => graph().addNode('a', noop).setEntryPoint('a').addConditionalEdges('a', () => END).compile()).not.toThrow();
    });

    it('exists through a path map that maps a key to END', () => {
      expect(() => graph().addNode('a', noop).setEntryPoint('a').addConditionalEdges('a', () => 'stop', { stop: END, again: 'a' }).compile()).not.toThrow();
    });

    it('exists through a node that declares ends: [END]', () => {
      expect(() => graph().addNode('a', noop, { ends: [END] }).setEntryPoint('a').compile()).not.toThrow();
    });

    it('exists through a node whose declared destination has a finish point', () => {
      expect(() => graph().addNode('a', noop, { ends: ['b'] }).addNode('b', noop).setEntryPoint('a').setFinishPoint('b').compile()).not.toThrow();
    });
  });

  it('returns a compiled graph that later builder changes do not affect', async () => {
    const builder = graph().addNode('a', () => ({ ran: 'a' })).setEntryPoint('a').setFinishPoint('a');
    const compiled = builder.compile();

    builder.addNode('b', () => ({ ran: 'b' })).addEdge('a', 'b');

    await expect(compiled.invoke()).resolves.toEqual({ ran: 'a' });
  });
});

describe('StateSchema', () => {
  it('overwrites fields without a reducer, declared or not', () => {
    const schema = new StateSchema().addField('status', {});

    expect(schema.reduce({ status: 'old', other: 1 }, { status: 'new', other: 2, extra: true })).toEqual({ status: 'new', other: 2, extra: true });
  });

  it('appends lists with reducers.append: existing then update, a single value as one item', () => {
    const schema = new StateSchema().addField('log', { reducer: reducers.append as Reducer, default: () => [] });

    expect(schema.reduce({ log: ['a'] }, { log: ['b', 'c'] })).toEqual({ log: ['a', 'b', 'c'] });
    expect(schema.reduce({ log: ['a'] }, { log: 'b' })).toEqual({ log: ['a', 'b'] });
    expect(schema.reduce({}, { log: ['first'] })).toEqual({ log: ['first'] });
  });

  it('merges objects shallowly with reducers.merge, the update winning', () => {
    const schema = new StateSchema().addField('responses', { reducer: reducers.merge as Reducer });

    expect(schema.reduce({ responses: { a: 1, b: { deep: 1 } } }, { responses: { b: { other: 2 }, c: 3 } })).toEqual({ responses: { a: 1, b: { other: 2 }, c: 3 } });
  });

  it('applies a custom reducer to the current value and the update', () => {
    const schema = new StateSchema().addField('visits', { reducer: (existing: number | undefined, update: number) => (existing ?? 0) + update, default: () => 0 });

    const once = schema.reduce(schema.initialState(), { visits: 2 });

    expect(schema.reduce(once, { visits: 3 })).toEqual({ visits: 5 });
  });

  it('mutates neither the state nor the update', () => {
    const schema = new StateSchema()
      .addField('log', { reducer: reducers.append as Reducer })
      .addField('responses', { reducer: reducers.merge as Reducer });
    const state: State = { log: ['a'], responses: { a: 1 }, plain: 'x' };
    const update: State = { log: ['b'], responses: { b: 2 }, plain: 'y' };
    const before = structuredClone({ state, update });
    const deepFreeze = (value: State) => {
      for (const item of Object.values(value)) Object.freeze(item);
      return Object.freeze(value);
    };

    const next = schema.reduce(deepFreeze(state), deepFreeze(update));

    expect({ state, update }).toEqual(before);
    expect(next).toEqual({ log: ['a', 'b'], responses: { a: 1, b: 2 }, plain: 'y' });
    expect(next.log).not.toBe(state.log);
    expect(next.responses).not.toBe(state.responses);
  });

  it('gives every fresh state its own copy of each default', () => {
    const schema = messagesStateSchema();
    const first = schema.initialState();
    const second = schema.initialState({ user_input: 'hi' });

    expect(first).toEqual({ messages: [], node_responses: {} });
    expect(second).toEqual({ messages: [], node_responses: {}, user_input: 'hi' });
    expect(first.messages).not.toBe(second.messages);
  });

  it('keeps __proto__ keys of an update as plain data and never pollutes prototypes', () => {
    const schema = new StateSchema().addField('settings', { reducer: reducers.merge as Reducer });
    const update = JSON.parse('{"__proto__": {"polluted": "yes"}, "settings": {"__proto__": {"polluted": "yes"}, "theme": "dark"}}') as State;

    const next = schema.reduce({}, update);

    expect(({} as State).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(next, '__proto__')).toBe(true);
    expect((next as State).polluted).toBeUndefined();
    const settings = next.settings as State;
    expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(settings, '__proto__')).toBe(true);
    expect(settings.theme).toBe('dark');
    expect(settings.polluted).toBeUndefined();
  });

  it('keeps __proto__ keys returned by a node as data through a whole run', async () => {
    const compiled = new StateGraph(new StateSchema())
      .addNode('hostile', () => JSON.parse('{"__proto__": {"polluted": "yes"}, "ok": true}') as State)
      .setEntryPoint('hostile')
      .setFinishPoint('hostile')
      .compile();

    const state = await compiled.invoke();

    expect(({} as State).polluted).toBeUndefined();
    expect(state.ok).toBe(true);
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
  });

  it('refuses field names that could reach a prototype', () => {
    for (const name of ['__proto__', 'constructor', 'prototype', '']) {
      expect(() => new StateSchema().addField(name, {})).toThrow(ConfigError);
    }
  });
});
