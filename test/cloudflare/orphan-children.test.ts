// DurableObjectCheckpointer's maxRuns prunes a completed run as `delete` does: with its subgraphs' checkpoints and
// their index entries. A child that failed inside a parent that completed (propagateChildErrors is false by default)
// keeps a 'failed' checkpoint nothing can resume; it goes with its parent, so the store stays bounded.
import { describe, expect, it } from 'vitest';
import { DurableObjectCheckpointer } from '../../src/cloudflare/index.js';
import { createGraphAgent } from '../../src/graph/index.js';
import { countingNode, graphWith, switches } from '../graph/checkpoint-fixtures.js';
import { FakeStorage } from './fake-platform.js';

function parent() {
  const on = switches();
  on.broken.add('c1');
  const child = graphWith().graph.addNode('c1', countingNode('c1', on)).setEntryPoint('c1').setFinishPoint('c1').compile();
  return graphWith().graph.addAgentNode('delegate', createGraphAgent('child', child)).setEntryPoint('delegate').setFinishPoint('delegate').compile();
}

describe('DurableObjectCheckpointer maxRuns with subgraphs', () => {
  it('prunes a completed parent with its failed child checkpoint and the child index entries', async () => {
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage, { maxRuns: 5 });
    const graph = parent();
    for (let index = 0; index < 50; index++) expect((await graph.run({}, { checkpointer, runId: `nightly-${index}` })).status).toBe('completed');
    const records = [...storage.data.keys()].filter((key) => key.startsWith('checkpoint:') && !key.includes('#'));
    const parents = records.filter((key) => !key.includes('\u001f'));
    expect(parents).toHaveLength(5);
    expect(records.length).toBeLessThanOrEqual(2 * 5); // each kept parent with its one child, no orphans
    for (const child of records.filter((key) => key.includes('\u001f'))) expect(parents).toContain(child.slice(0, child.indexOf('\u001f')));
    // the index holds only runs still stored
    const indexed = [...storage.data.entries()].filter(([key]) => key.startsWith('checkpoint-completed:seq:')).map(([, id]) => `checkpoint:${id as string}`);
    for (const key of indexed) expect(records).toContain(key);
  });
});
