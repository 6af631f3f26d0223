/**
 * Fan-out scaling: a superstep of n concurrent nodes, each writing its own state key, then one join. The per-node cost
 * at 10,000 nodes must stay within 3× the per-node cost at 1,000 — a step reduces in time linear in its updates (one
 * state copy per step, routing through a set), where copying the state per update made it quadratic (12–17 s at
 * 10,000). A ratio in one process, never an absolute duration (2-core CI).
 */
import { describe, expect, it } from 'vitest';
import { Command, END, StateGraph, StateSchema, type CompiledGraph } from '../../src/graph/index.js';

function fanOut(width: number): CompiledGraph {
  const ids = Array.from({ length: width }, (_, index) => `worker_${index}`);
  const graph = new StateGraph(new StateSchema()).addNode('fan', () => new Command({ goto: ids }), { ends: ids });
  for (const [index, id] of ids.entries()) graph.addNode(id, () => ({ [`key_${index}`]: index })).addEdge(id, 'join');
  return graph
    .addNode('join', (state) => ({ joined: Object.keys(state).length }))
    .addEdge('join', END)
    .setEntryPoint('fan')
    .compile({ stepLimit: 10 });
}

async function perNodeMicroseconds(width: number, rounds: number): Promise<number> {
  const compiled = fanOut(width);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const outcome = await compiled.run();
    times.push(performance.now() - started);
    expect(outcome.status).toBe('completed');
    if (outcome.status === 'completed') expect(outcome.state.joined).toBe(width);
  }
  times.sort((a, b) => a - b);
  return ((times[Math.floor(times.length / 2)] as number) * 1000) / width;
}

describe('a superstep that fans out to many nodes', () => {
  it('costs about the same per node at 10,000 nodes as at 1,000', async () => {
    await perNodeMicroseconds(1_000, 2); // warm-up
    const small = await perNodeMicroseconds(1_000, 5);
    const large = await perNodeMicroseconds(10_000, 3);
    expect(large / small, `per node: ${small.toFixed(1)} µs at 1,000, ${large.toFixed(1)} µs at 10,000`).toBeLessThan(3);
  }, 60_000);
});
