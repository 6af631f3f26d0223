/**
 * The run-id namespace (property, fast-check, fixed seeds): a subgraph's run id joins its parent's and its node's with
 * CHILD_RUN_SEPARATOR, which no run id of a caller's and no node id may contain, so over random run ids and node ids
 * (separators of every kind, ids that are prefixes of each other, near-empty, unicode) no two distinct (run, child
 * path) pairs share a checkpoint — in InMemoryCheckpointer and in DurableObjectCheckpointer, whose part keys
 * (`<key>#<n>`) no run id reaches either — and `delete(runId)` removes a run and its children, and nothing else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DurableObjectCheckpointer } from '../../src/cloudflare/index.js';
import { ConfigError, WorkflowError } from '../../src/errors/index.js';
import { childRunId } from '../../src/graph/nodes/agent-node.js';
import { CHILD_RUN_SEPARATOR, InMemoryCheckpointer, type Checkpointer, type GraphCheckpoint } from '../../src/graph/index.js';
import { FakeStorage } from '../cloudflare/fake-platform.js';
import { completed, countingNode, graphWith, switches } from './checkpoint-fixtures.js';

const S = CHILD_RUN_SEPARATOR;

/** Ids as callers write them: separators of every kind, ids that are prefixes of others, unicode. */
const idArbitrary = fc.oneof(
  fc.constantFrom('job', 'job/child', 'child', 'job#0', 'job#1', 'job%23', 'job%', '%', '#', '/', 'a', 'ab', 'a/b', 'é', '😀', 'job' + S + 'child', S),
  fc.string({ unit: fc.constantFrom('a', 'b', '/', '#', '%', ':', S, 'é', '😀', ' '), minLength: 1, maxLength: 6 }),
);

/** A run of a caller's and the path of agent nodes down to one of its (grand)children. */
const pairArbitrary = fc.record({ runId: idArbitrary, path: fc.array(idArbitrary, { maxLength: 3 }) });

const valid = (id: string) => id !== '' && !id.includes(S);
const keyOf = (pair: { runId: string; path: string[] }) => pair.path.reduce(childRunId, pair.runId);

function checkpoint(runId: string, marker: string, big: boolean): GraphCheckpoint {
  const note = big ? marker.padEnd(70_000, '.') : marker; // over one stored part: written as `<key>#<n>` parts
  return { version: 1, runId, status: 'running', step: 0, state: { note: JSON.stringify(note) }, pending: [], updatedAt: '2025-01-01T00:00:00.000Z' };
}

const stores: Array<[string, () => Checkpointer]> = [
  ['InMemoryCheckpointer', () => new InMemoryCheckpointer()],
  ['DurableObjectCheckpointer', () => new DurableObjectCheckpointer(new FakeStorage())],
];

describe('the checkpoint keys of runs and their subgraphs (property)', () => {
  for (const [name, makeStore] of stores) {
    it(`never share a checkpoint between two (run, child path) pairs, and delete a run's children only (${name})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(pairArbitrary, { minLength: 2, maxLength: 8, selector: (pair) => JSON.stringify(pair) }), fc.boolean(), async (drawn, big) => {
          const pairs = drawn.filter((pair) => valid(pair.runId) && pair.path.every(valid));
          fc.pre(pairs.length >= 2);
          expect(new Set(pairs.map(keyOf)).size).toBe(pairs.length);
          const store = makeStore();
          for (const pair of pairs) await store.put(checkpoint(keyOf(pair), JSON.stringify(pair), big));
          for (const pair of pairs) expect(JSON.parse(JSON.parse((await store.get(keyOf(pair)))?.state.note ?? '""').replace(/\.+$/, ''))).toEqual(pair);
          const gone = pairs[0]?.runId as string;
          await store.delete(gone);
          for (const pair of pairs) expect([pair, (await store.get(keyOf(pair))) !== undefined]).toEqual([pair, pair.runId !== gone]);
        }),
        { seed: 26, numRuns: 300 },
      );
    });
  }

  it('refuses a run id or a node id with the separator, naming the character', async () => {
    await fc.assert(
      fc.asyncProperty(idArbitrary.filter((id) => id.includes(S)), async (id) => {
        const { graph } = graphWith();
        const compiled = graph.addNode('a', countingNode('a', switches())).setEntryPoint('a').setFinishPoint('a').compile();
        const refused = await compiled.run({}, { checkpointer: new InMemoryCheckpointer(), runId: id }).then(() => undefined, (error: unknown) => error);
        expect(ConfigError.isInstance(refused) && refused.message).toContain('U+001F');
        const { graph: other } = graphWith();
        const thrown = (() => {
          try {
            other.addNode(id, countingNode('a', switches())).setEntryPoint(id).setFinishPoint(id).compile();
          } catch (error) {
            return error;
          }
        })();
        expect(WorkflowError.isInstance(thrown) && thrown.message).toContain('U+001F');
      }),
      { seed: 27, numRuns: 50 },
    );
  });
});

describe('a run of a caller’s whose id looks like a child run id', () => {
  it('keeps its own checkpoint: run "job/child" and run "job"’s subgraph node "child" resume each their own', async () => {
    const on = switches();
    const child = graphWith().graph.addNode('inner', countingNode('inner', on)).setEntryPoint('inner').setFinishPoint('inner').compile();
    const { graph: parent } = graphWith();
    const jobGraph = parent.addSubgraph('child', child).setEntryPoint('child').setFinishPoint('child').compile();
    const { graph: plain } = graphWith();
    const userGraph = plain.addNode('mine', countingNode('mine', on)).setEntryPoint('mine').setFinishPoint('mine').compile();
    const checkpointer = new InMemoryCheckpointer();
    completed(await jobGraph.run({}, { checkpointer, runId: 'job' }));
    completed(await userGraph.run({}, { checkpointer, runId: 'job/child' }));
    expect((await checkpointer.get('job/child'))?.state.trail).toBe('["mine"]');
    expect((await checkpointer.get(`job${S}child`))?.state.trail).toBe('["inner"]');
    expect(completed(await userGraph.resume('job/child', { checkpointer })).state.trail).toEqual(['mine']);
    await checkpointer.delete('job');
    expect(await checkpointer.get('job/child')).toBeDefined();
  });
});
