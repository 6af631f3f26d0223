/**
 * Subgraphs of a checkpointed run: an agent node running a graph agent checkpoints the child under
 * `<parent run id>␟<node id>` (CHILD_RUN_SEPARATOR); when the parent resumes and re-runs that node, the child resumes from its own
 * checkpoint (its completed nodes are not run again), and a node visited again later runs its child anew.
 */
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FAILED, CHILD_RUN_SEPARATOR, createGraphAgent, END, InMemoryCheckpointer, type AgentNodeOptions, type Checkpointer, type CompiledGraph } from '../../src/graph/index.js';
import type { RunnableAgent } from '../../src/runner/index.js';
import { comparable, completed, countingNode, failed, graphWith, recordingCheckpointer, recordsOf, switches, withoutTimestamps, type Switches } from './checkpoint-fixtures.js';

/** The delegate node's child run of run `p`. */
const CHILD = `p${CHILD_RUN_SEPARATOR}delegate`;

function childAgent(on: Switches): RunnableAgent {
  const { graph } = graphWith();
  for (const id of ['c1', 'c2', 'c3']) graph.addNode(id, countingNode(id, on));
  return createGraphAgent('child', graph.setEntryPoint('c1').addEdge('c1', 'c2').addEdge('c2', 'c3').setFinishPoint('c3').compile());
}

/** `prepare → delegate (the child) → finish`; the child's records and trail come home. */
function parentGraph(on: Switches, options: AgentNodeOptions = {}, sibling?: (graph: ReturnType<typeof graphWith>['graph']) => void): CompiledGraph {
  const { graph, collector } = graphWith();
  graph
    .addNode('prepare', countingNode('prepare', on))
    .addAgentNode('delegate', childAgent(on), {
      outputMapper: (_parent, result) => ({ ...collector.subgraphStateUpdate(result), child_trail: result.finalState?.trail ?? null }),
      ...options,
    })
    .addNode('finish', countingNode('finish', on))
    .setEntryPoint('prepare')
    .addEdge('prepare', 'delegate')
    .addEdge('delegate', 'finish')
    .setFinishPoint('finish');
  sibling?.(graph);
  return graph.compile();
}

describe('a checkpointed parent with a graph-agent node', () => {
  it('checkpoints the child under <parent run id>␟<node id>, deleted with the parent', async () => {
    const checkpointer = recordingCheckpointer();
    completed(await parentGraph(switches()).run({}, { checkpointer, runId: 'p' }));
    expect([...checkpointer.store.keys()].sort()).toEqual(['p', CHILD]);
    expect(checkpointer.puts.filter((checkpoint) => checkpoint.runId === CHILD).map((checkpoint) => checkpoint.status)).toEqual(['running', 'running', 'running', 'completed']);
    await checkpointer.delete('p');
    expect(checkpointer.store.size).toBe(0);
  });

  it('resumes a child that failed: only its failed node runs again, and the records of both runs come home', async () => {
    const reference = completed(await parentGraph(switches(), { propagateChildErrors: true }).run({}));
    const on = switches();
    on.broken.add('c2');
    const graph = parentGraph(on, { propagateChildErrors: true });
    const checkpointer = new InMemoryCheckpointer();
    const first = failed(await graph.run({}, { checkpointer, runId: 'p' }));
    expect(first.error.message).toContain('c2 is broken');
    expect((await checkpointer.get(CHILD))?.status).toBe('failed');
    on.broken.clear();
    const resumed = completed(await graph.resume('p', { checkpointer }));
    expect(on.calls).toEqual({ prepare: 1, c1: 1, c2: 2, c3: 1, finish: 1 });
    expect(resumed.state.child_trail).toEqual(reference.state.child_trail);
    expect(resumed.state.trail).toEqual(reference.state.trail);
    expect(recordsOf(resumed.state).map((record) => [record.nodeId, record.severity, record.message])).toEqual([
      ['delegate', 'fatal', 'node c2 failed at step 1: c2 is broken'],
      ['c2', 'fatal', 'c2 is broken'],
    ]);
    expect((resumed.state.execution_errors as Array<{ path?: string[] }>)[1]?.path).toEqual(['delegate']);
  });

  it('resumes a child aborted mid-run: its completed nodes are not run again, and the run ends as an uninterrupted one', async () => {
    const reference = await parentGraph(switches()).run({});
    const on = switches();
    const controller = new AbortController();
    on.abortAt = { step: 1, controller }; // the child's step 1 (c2); the parent's step 1 is the agent node
    const graph = parentGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    expect((await graph.run({}, { checkpointer, runId: 'p', signal: controller.signal })).status).toBe('aborted');
    on.abortAt = undefined;
    const resumed = await graph.resume('p', { checkpointer });
    expect(comparable(resumed)).toEqual(comparable(reference));
    expect(on.calls).toEqual({ prepare: 1, c1: 1, c2: 2, c3: 1, finish: 1 });
  });

  it('replays a child that completed in a step that was aborted after it, without running its nodes', async () => {
    const controller = new AbortController();
    let stop = true;
    const withSibling = (on: Switches, signal?: AbortController) =>
      parentGraph(on, {}, (graph) =>
        graph.addNode('sibling', async (_state, context) => {
          on.calls.sibling = (on.calls.sibling ?? 0) + 1;
          while (signal && stop && on.calls.c3 !== 1) await new Promise((resolve) => setTimeout(resolve, 1));
          if (signal && stop) signal.abort(new Error('stopped after the child'));
          context.signal.throwIfAborted();
          return { trail: ['sibling'] };
        }).addEdge('prepare', 'sibling').addEdge('sibling', END),
      );
    const reference = await withSibling(switches()).run({});
    const on = switches();
    const graph = withSibling(on, controller);
    const checkpointer = new InMemoryCheckpointer();
    expect((await graph.run({}, { checkpointer, runId: 'p', signal: controller.signal })).status).toBe('aborted');
    expect((await checkpointer.get(CHILD))?.status).toBe('completed');
    stop = false;
    const resumed = await graph.resume('p', { checkpointer });
    expect(comparable(resumed)).toEqual(comparable(reference));
    expect(on.calls).toEqual({ prepare: 1, c1: 1, c2: 1, c3: 1, sibling: 2, finish: 1 });
  });

  it('runs the child anew when the node is visited again in a later step', async () => {
    const loop = (on: Switches) => {
      const { graph, collector } = graphWith();
      return graph
        .addAgentNode('delegate', childAgent(on), { outputMapper: (_parent, result) => collector.subgraphStateUpdate(result) })
        .addNode('count', countingNode('count', on))
        .setEntryPoint('delegate')
        .addEdge('delegate', 'count')
        .addConditionalEdges('count', (state) => ((state.trail as string[]).length < 2 ? 'delegate' : END))
        .compile();
    };
    const plainCalls = switches();
    const plain = await loop(plainCalls).run({});
    const on = switches();
    const checkpointed = await loop(on).run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'p' });
    expect(comparable(checkpointed)).toEqual(comparable(plain));
    expect(on.calls).toEqual(plainCalls.calls);
    expect(on.calls).toMatchObject({ c1: 2, c2: 2, c3: 2, count: 2 });
  });

  it('fails the agent node with CHECKPOINT_FAILED when the old child checkpoint cannot be deleted', async () => {
    const inner = new InMemoryCheckpointer();
    const undeletable: Checkpointer = { get: (id) => inner.get(id), put: (checkpoint) => inner.put(checkpoint), delete: async () => Promise.reject(new Error('read-only store')) };
    const outcome = failed(await parentGraph(switches()).run({}, { checkpointer: undeletable, runId: 'p' }));
    const record = (outcome.fallbackState.execution_errors as Array<{ nodeId: string; error: { code: string; message: string } }>)[0];
    expect(record?.nodeId).toBe('delegate');
    expect(record?.error.code).toBe(CHECKPOINT_FAILED);
    expect(record?.error.message).toContain('read-only store');
    expect(withoutTimestamps(outcome.fallbackState.child_trail)).toBeNull();
  });
});
