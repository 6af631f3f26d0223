/**
 * Child-graph records reaching the parent (seed-systems §3, scenarios 40–46 of §8.6), with our outcomes from
 * decisions.md point 7: child records keep their `nodeId`, gain `path`, and the parent's earlier records are never
 * sent back.
 */
import { describe, expect, it } from 'vitest';
import { markRecoverable } from '../../src/errors/index.js';
import {
  createGraphAgent,
  END,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  StateGraph,
  SubgraphResult,
  type AgentNodeOptions,
  type CompiledGraph,
  type ExecutionError,
  type GraphOutcome,
  type State,
} from '../../src/graph/index.js';
import { createErrorEvent, createEvent, isRunnerCompletion, isTerminalError, Runner, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';

function recordText(...records: Array<Partial<ExecutionError>>): string {
  return JSON.stringify(records.map((record) => ({ severity: 'fatal', stepNumber: 0, timestamp: '2025-01-01T00:00:00.000Z', ...record })));
}

function recordsIn(state: State | undefined, key = 'execution_errors'): ExecutionError[] {
  const records = state?.[key];
  expect(Array.isArray(records)).toBe(true);
  return records as ExecutionError[];
}

function finalState(outcome: GraphOutcome): State {
  expect(outcome.status).toBe('completed');
  return outcome.status === 'completed' ? outcome.state : {};
}

/** Who, where, what: the parts of a record these tests compare. */
function summary(record: ExecutionError | undefined) {
  return { nodeId: record?.nodeId, severity: record?.severity, path: record?.path, message: record?.error?.message, code: record?.error?.code };
}

function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A child graph with its own collector whose single node runs `run`. */
function childGraph(nodeId: string, run: () => unknown): CompiledGraph {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode(nodeId, run)
    .setEntryPoint(nodeId)
    .setFinishPoint(nodeId)
    .compile();
}

const fatalChild = () =>
  childGraph('child_write', () => {
    throw coded('child agent database write failed', 'CHILD_AGENT_FATAL');
  });

/**
 * The parent of examples/graph/error_handling: `parent_prepare` fails recoverably (record P), the agent node runs the
 * child, `parent_finalize` writes a note from the records it sees.
 */
function parentGraph(child: RunnableAgent, options: AgentNodeOptions = {}, collector = new ExecutionErrorCollector()): CompiledGraph {
  return new StateGraph(collector.addField(messagesStateSchema()).addField('note', {}))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('parent_prepare', () => {
      throw markRecoverable(coded('cache warmup timed out', 'PARENT_SOFT'));
    })
    .addAgentNode('child_agent', child, { outputMapper: collector.subgraphOutputMapper(), ...options })
    .addNode('parent_finalize', (state) => {
      const child = recordsIn(state).find((record) => record.path !== undefined);
      return { note: child ? `parent received child error ${child.error?.message}` : 'parent saw no child error' };
    })
    .setEntryPoint('parent_prepare')
    .addEdge('parent_prepare', 'child_agent')
    .addEdge('child_agent', 'parent_finalize')
    .addEdge('parent_finalize', END)
    .compile();
}

const P = { nodeId: 'parent_prepare', severity: 'recoverable', path: undefined, message: 'cache warmup timed out', code: 'PARENT_SOFT' };

/** A hand-written child agent that yields `make(invocation id)`'s events, the way a real child would. */
function scriptedAgent(make: (invocationId: string) => RunEvent[]): RunnableAgent {
  return {
    name: 'scripted',
    async *runEvents(invocation) {
      for (const event of make(invocation.invocationId)) yield event;
    },
  };
}

describe('ExecutionErrorCollector.subgraphStateUpdate', () => {
  const collector = new ExecutionErrorCollector();

  it("maps the records of the child's final state delta, each with the agent node as path (scenario 40)", () => {
    const result = new SubgraphResult('child_agent');
    result.rawStateDelta = { execution_errors: recordText({ nodeId: 'child_write', error: { type: 'flow_error', message: 'child boom' } }), other: '1' };
    const update = collector.subgraphStateUpdate(result);
    expect(Object.keys(update ?? {})).toEqual(['execution_errors']);
    expect(recordsIn(update).map(summary)).toEqual([{ nodeId: 'child_write', severity: 'fatal', path: ['child_agent'], message: 'child boom', code: undefined }]);
  });

  it('uses the fallback delta when the child has no final delta (scenario 41)', () => {
    const result = new SubgraphResult('child_agent');
    result.fallbackStateDelta = { execution_errors: recordText({ error: { type: 'flow_error', message: 'child fallback' } }) };
    expect(recordsIn(collector.subgraphStateUpdate(result)).map((record) => record.error?.message)).toEqual(['child fallback']);
  });

  it('prefers the final delta over the fallback delta, even an empty one', () => {
    const result = new SubgraphResult('child_agent');
    result.rawStateDelta = {};
    result.fallbackStateDelta = { execution_errors: recordText({ error: { type: 'flow_error', message: 'stale fallback' } }) };
    expect(collector.subgraphStateUpdate(result)).toBeUndefined();
  });

  it('returns undefined for data that cannot be decoded (scenario 42)', () => {
    for (const text of ['{', '{"severity":"fatal"}', '[{"severity":"maybe"}]']) {
      const result = new SubgraphResult('child_agent');
      result.rawStateDelta = { execution_errors: text };
      expect(collector.subgraphStateUpdate(result)).toBeUndefined();
    }
  });

  it('returns undefined when there are no records', () => {
    const empty = new SubgraphResult('child_agent');
    expect(collector.subgraphStateUpdate(empty)).toBeUndefined();
    empty.rawStateDelta = { execution_errors: '[]', note: '"ok"' };
    expect(collector.subgraphStateUpdate(empty)).toBeUndefined();
  });

  it('prepends the agent node to a path the child record already has', () => {
    const result = new SubgraphResult('outer');
    result.rawStateDelta = { execution_errors: recordText({ nodeId: 'leaf', path: ['inner'] }) };
    expect(recordsIn(collector.subgraphStateUpdate(result))[0]?.path).toEqual(['outer', 'inner']);
  });
});

describe('SubgraphResult', () => {
  it('prefers the final state and delta when both are present (scenario 44)', () => {
    const result = new SubgraphResult('child_agent');
    result.finalState = { value: 'final' };
    result.rawStateDelta = { value: '"final"' };
    result.fallbackState = { value: 'fallback' };
    result.fallbackStateDelta = { value: '"fallback"' };
    expect(result.effectiveState()).toEqual({ value: 'final' });
    expect(result.effectiveStateDelta()).toEqual({ value: '"final"' });
  });

  it('falls back to the fallback state and delta when there is no final one (scenario 44)', () => {
    const result = new SubgraphResult('child_agent');
    result.fallbackState = { value: 'fallback' };
    result.fallbackStateDelta = { value: '"fallback"' };
    expect(result.effectiveState()).toEqual({ value: 'fallback' });
    expect(result.effectiveStateDelta()).toEqual({ value: '"fallback"' });
  });

  it('reports no effective state when only a final delta exists, as tRPC does', () => {
    const result = new SubgraphResult('child_agent');
    result.rawStateDelta = {};
    result.fallbackState = { value: 'fallback' };
    expect(result.effectiveState()).toBeUndefined();
    expect(result.effectiveStateDelta()).toEqual({});
  });
});

describe('agent nodes filling the SubgraphResult', () => {
  it('fills only the fallback side for a child that emitted records and then a terminal error (scenario 43)', async () => {
    let seen: SubgraphResult | undefined;
    const child = scriptedAgent((invocationId) => [
      createEvent(
        { invocationId, author: 'child_write' },
        {
          response: { object: 'graph.node.custom', done: false },
          stateDelta: { execution_errors: recordText({ nodeId: 'child_write', error: { type: 'flow_error', message: 'child boom' } }), _node_custom_metadata: '{"eventType":"execution_error"}' },
        },
      ),
      createErrorEvent({ invocationId, author: 'child' }, { type: 'flow_error', message: 'child failed' }),
    ]);
    const collector = new ExecutionErrorCollector();
    const outcome = await parentGraph(child, {
      outputMapper: (parent, result) => {
        seen = result;
        return collector.subgraphOutputMapper()(parent, result);
      },
    }).run({});
    expect(outcome.status).toBe('completed');
    expect(seen).toBeInstanceOf(SubgraphResult);
    expect(seen?.nodeId).toBe('child_agent');
    expect(seen?.rawStateDelta).toBeUndefined();
    expect(seen?.finalState).toBeUndefined();
    expect(Object.keys(seen?.fallbackStateDelta ?? {})).toEqual(['execution_errors']);
    expect(seen?.fallbackState).toBeDefined();
    expect(recordsIn(seen?.fallbackState).map(summary)).toEqual([{ nodeId: 'child_write', severity: 'fatal', path: undefined, message: 'child boom', code: undefined }]);
    expect(seen?.effectiveStateDelta()).toBe(seen?.fallbackStateDelta);
    expect(seen?.error).toEqual({ type: 'flow_error', message: 'child failed' });
  });

  it('keeps fallback data away from a child that ended without error (our outcome: tRPC passes it ungated)', async () => {
    let seen: SubgraphResult | undefined;
    const child = scriptedAgent((invocationId) => [
      createEvent({ invocationId, author: 'child' }, { response: { object: 'graph.node.custom', done: false }, stateDelta: { progress: '"half"' } }),
      createEvent({ invocationId, author: 'child' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'done' } }] } }),
    ]);
    await parentGraph(child, { outputMapper: (_parent, result) => void (seen = result) }).run({});
    expect(seen?.fallbackStateDelta).toBeUndefined();
    expect(seen?.fallbackState).toBeUndefined();
    expect(seen?.error).toBeUndefined();
    expect(seen?.lastResponse).toBe('done');
  });
});

describe('child graph records in the parent', () => {
  it("gives the parent the fatal child's record after its own, and the parent completes (scenario 45)", async () => {
    const state = finalState(await parentGraph(createGraphAgent('child-error-graph', fatalChild())).run({}));
    const records = recordsIn(state);
    // decisions.md point 7: exactly P then C — the child kept its own nodeId and gained path; no duplicates.
    expect(records.map(summary)).toEqual([P, { nodeId: 'child_write', severity: 'fatal', path: ['child_agent'], message: 'child agent database write failed', code: 'CHILD_AGENT_FATAL' }]);
    expect(records[1]).toMatchObject({ nodeName: 'child_write', nodeType: 'function', stepNumber: 0 });
    expect(records.some((record) => record.nodeId === 'child_agent')).toBe(false);
    expect(state.note).toBe('parent received child error child agent database write failed');
  });

  it('reports the same records in the runner.completion, with no error anywhere terminal (scenario 45)', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('parent', parentGraph(createGraphAgent('child-error-graph', fatalChild()))) });
    const events: RunEvent[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'write the order' })) events.push(event);
    const completions = events.filter(isRunnerCompletion);
    expect(completions).toHaveLength(1);
    expect(events.at(-1)).toBe(completions[0]);
    expect(completions[0]?.response?.error).toBeUndefined();
    expect(events.filter(isTerminalError)).toHaveLength(0);
    expect(executionErrorsFromStateDelta(completions[0]?.stateDelta)?.map(summary)).toEqual([
      P,
      { nodeId: 'child_write', severity: 'fatal', path: ['child_agent'], message: 'child agent database write failed', code: 'CHILD_AGENT_FATAL' },
    ]);
    expect(JSON.parse(completions[0]?.stateDelta?.note ?? 'null')).toBe('parent received child error child agent database write failed');
  });

  it("does not send the parent's earlier records back from a child that completes normally (decisions.md point 7)", async () => {
    // tRPC hands the child the parent's records and re-appends them from the child's final snapshot: [P, P, C].
    const child = childGraph('child_lookup', () => {
      throw markRecoverable(coded('child lookup timed out', 'CHILD_SOFT'));
    });
    const records = recordsIn(finalState(await parentGraph(createGraphAgent('child', child)).run({})));
    expect(records.map(summary)).toEqual([P, { nodeId: 'child_lookup', severity: 'recoverable', path: ['child_agent'], message: 'child lookup timed out', code: 'CHILD_SOFT' }]);
  });

  // The agent node removes the parent's execution-error fields from whatever the inputMapper returns.
  it("does not send the parent's records back even when an inputMapper hands them to the child (decisions.md point 7)", async () => {
    const child = childGraph('child_lookup', () => {
      throw markRecoverable(coded('child lookup timed out', 'CHILD_SOFT'));
    });
    const records = recordsIn(finalState(await parentGraph(createGraphAgent('child', child), { inputMapper: (parent) => ({ ...parent }) }).run({})));
    expect(records.map(summary)).toEqual([P, { nodeId: 'child_lookup', severity: 'recoverable', path: ['child_agent'], message: 'child lookup timed out', code: 'CHILD_SOFT' }]);
  });

  it('fails the agent node with propagateChildErrors and records it against the agent node, child code kept (scenario 46)', async () => {
    let mapped = false;
    const collector = new ExecutionErrorCollector();
    const outcome = await parentGraph(
      createGraphAgent('child-error-graph', fatalChild()),
      {
        propagateChildErrors: true,
        outputMapper: () => {
          mapped = true;
          return undefined;
        },
      },
      collector,
    ).run({});
    expect(outcome.status).toBe('failed');
    expect(mapped).toBe(false);
    if (outcome.status !== 'failed') return;
    expect(outcome.error.nodeId).toBe('child_agent');
    const records = recordsIn(outcome.fallbackState);
    expect(records[0] && summary(records[0])).toEqual(P);
    const agentRecord = records.find((record) => record.nodeId === 'child_agent');
    expect(agentRecord).toMatchObject({ severity: 'fatal', nodeName: 'child_agent', nodeType: 'agent', stepNumber: 1 });
    expect(agentRecord?.path).toBeUndefined();
    // Our outcome: tRPC fails the node with errors.New(message) and loses the code; ours keeps CHILD_AGENT_FATAL.
    expect(agentRecord?.error?.code).toBe('CHILD_AGENT_FATAL');
    expect(agentRecord?.error?.message).toContain('child agent database write failed');
  });

  it("fails the agent node with the child's own terminal message and code (scenario 46)", async () => {
    const child = scriptedAgent((invocationId) => [createErrorEvent({ invocationId, author: 'remote' }, { type: 'run_error', message: 'x', code: 'REMOTE_DOWN' })]);
    const collector = new ExecutionErrorCollector({ recoverable: () => true });
    const state = finalState(await parentGraph(child, { propagateChildErrors: true }, collector).run({}));
    const records = recordsIn(state);
    expect(records.map(summary)).toEqual([P, { nodeId: 'child_agent', severity: 'recoverable', path: undefined, message: 'x', code: 'REMOTE_DOWN' }]);
    expect(records[1]?.error?.type).toBe('run_error');
    expect(state.note).toBe('parent saw no child error');
  });

  it('lets a failed child complete the agent node when propagateChildErrors is off (the default)', async () => {
    const child = scriptedAgent((invocationId) => [createErrorEvent({ invocationId, author: 'remote' }, { type: 'run_error', message: 'x', code: 'REMOTE_DOWN' })]);
    const records = recordsIn(finalState(await parentGraph(child).run({})));
    expect(records.map(summary)).toEqual([P]);
  });

  it('gives nested grandchild records the path of every agent node from the outermost down', async () => {
    const leaf = childGraph('leaf', () => {
      throw coded('leaf write failed', 'LEAF_FATAL');
    });
    const middleCollector = new ExecutionErrorCollector();
    const middle = new StateGraph(middleCollector.addField(messagesStateSchema()))
      .withNodeCallbacks(middleCollector.nodeCallbacks())
      .addAgentNode('inner_agent', createGraphAgent('leaf-graph', leaf), { outputMapper: middleCollector.subgraphOutputMapper() })
      .setEntryPoint('inner_agent')
      .setFinishPoint('inner_agent')
      .compile();
    const outerCollector = new ExecutionErrorCollector();
    const outer = new StateGraph(outerCollector.addField(messagesStateSchema()))
      .withNodeCallbacks(outerCollector.nodeCallbacks())
      .addAgentNode('outer_agent', createGraphAgent('middle-graph', middle), { outputMapper: outerCollector.subgraphOutputMapper() })
      .setEntryPoint('outer_agent')
      .setFinishPoint('outer_agent')
      .compile();
    const records = recordsIn(finalState(await outer.run({})));
    expect(records.map(summary)).toEqual([{ nodeId: 'leaf', severity: 'fatal', path: ['outer_agent', 'inner_agent'], message: 'leaf write failed', code: 'LEAF_FATAL' }]);
    expect(JSON.stringify(records[0])).toMatch(/"error":\{[^}]*\},"path":\["outer_agent","inner_agent"\]\}$/);
  });
});
