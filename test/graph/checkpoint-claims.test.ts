/**
 * Exactly-once resume: a run claims its checkpoint (a compare-and-swap on its revision) before it runs a node, so of
 * concurrent resumes of one failed run exactly one runs the fixed node; the others run nothing and fail with
 * `RESUME_IN_PROGRESS` (or, once the winner completed, replay it). A live run holds a lease it renews; a lapsed one,
 * or one whose process is known gone (`takeOver`), is taken over; a run whose checkpoint changed under it stops with
 * `RUN_TAKEN_OVER`. The same on the exclusive `InMemoryCheckpointer` and `DurableObjectCheckpointer` (in Node, over a
 * fake storage; test/cloudflare/durable-claims.test.ts runs it in workerd) and on the documented Map store.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DurableObjectCheckpointer } from '../../src/cloudflare/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { InMemoryCheckpointer, RESUME_IN_PROGRESS, RUN_TAKEN_OVER, type Checkpointer, type CompiledGraph, type GraphCheckpoint, type GraphOutcome } from '../../src/graph/index.js';
import { FakeStorage } from '../cloudflare/fake-platform.js';
import { chainGraph, completed, countingNode, expectCode, failed, graphWith, mapCheckpointer, switches, type Switches } from './checkpoint-fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A gate a node waits at until it is opened (`opened` resolves when a node reached it). */
function gate(): { wait: () => Promise<void>; open: () => void; reached: Promise<void> } {
  let open = () => {};
  let reach = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return {
    wait: () => {
      reach();
      return opened;
    },
    open,
    reached,
  };
}

/** `reserve → charge → ship`; `charge` counts its runs, fails while broken and waits `before()` first. */
function paymentGraph(on: Switches, before: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 5))): CompiledGraph {
  const { graph } = graphWith();
  const charge = countingNode('charge', on);
  return graph
    .addNode('reserve', countingNode('reserve', on))
    .addNode('charge', async (state, context) => {
      await before();
      return charge(state, context);
    })
    .addNode('ship', countingNode('ship', on))
    .setEntryPoint('reserve')
    .addEdge('reserve', 'charge')
    .addEdge('charge', 'ship')
    .setFinishPoint('ship')
    .compile();
}

const stores: Array<[string, () => Checkpointer]> = [
  ['InMemoryCheckpointer (exclusive)', () => new InMemoryCheckpointer()],
  ['the documented Map store (not exclusive)', () => mapCheckpointer()],
  ['DurableObjectCheckpointer over a fake storage (exclusive)', () => new DurableObjectCheckpointer(new FakeStorage())],
];

const codeOf = (outcome: GraphOutcome) => (outcome.status === 'failed' ? outcome.error.code : outcome.status);

for (const [name, makeStore] of stores) {
  describe(`concurrent resumes over ${name}`, () => {
    it('run the fixed node once when 20 resumes of one failed run arrive at once; the others run nothing', async () => {
      const on = switches();
      on.broken.add('charge');
      const graph = paymentGraph(on);
      const checkpointer = makeStore();
      failed(await graph.run({}, { checkpointer, runId: 'order-42' }));
      on.broken.clear();
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => graph.resume('order-42', { checkpointer })));
      expect(on.calls).toEqual({ reserve: 1, charge: 2, ship: 1 }); // the failed attempt, then exactly one more
      const codes = outcomes.map(codeOf);
      expect(codes.filter((code) => code === 'completed').length).toBeGreaterThanOrEqual(1);
      expect(codes.filter((code) => code !== 'completed' && code !== RESUME_IN_PROGRESS)).toEqual([]);
      expect(codes.filter((code) => code === RESUME_IN_PROGRESS).length).toBeGreaterThan(0);
      for (const outcome of outcomes) if (outcome.status === 'completed') expect(outcome.state.trail).toEqual(['reserve', 'charge', 'ship']);
      // Every refusal is typed, retryable, and ran nothing: its fallback state is empty.
      for (const outcome of outcomes) {
        if (outcome.status !== 'failed') continue;
        expect(outcome.error).toMatchObject({ name: 'WorkflowError', code: RESUME_IN_PROGRESS, retryable: true });
        expect(outcome.error.message).toMatch(/run "order-42" (is being run by|was claimed by) another/);
        expect(outcome.steps).toBe(0);
      }
      expect(completed(await graph.resume('order-42', { checkpointer })).state.trail).toEqual(['reserve', 'charge', 'ship']); // a replay
      expect(on.calls.charge).toBe(2);
    });

    it('refuse a resume that arrives while the winner is mid-step, with when its claim lapses, and let it replay once done', async () => {
      const on = switches();
      on.broken.add('charge');
      let hold: ReturnType<typeof gate> | undefined;
      const graph = paymentGraph(on, () => hold?.wait() ?? Promise.resolve());
      const checkpointer = makeStore();
      failed(await graph.run({}, { checkpointer, runId: 'r' }));
      on.broken.clear();
      hold = gate();
      const winner = graph.resume('r', { checkpointer });
      await hold.reached;
      const late = expectCode(await graph.resume('r', { checkpointer }), RESUME_IN_PROGRESS);
      expect(late.error.retryAfterMs).toBeGreaterThan(25_000);
      expect(late.error.retryAfterMs).toBeLessThanOrEqual(30_000);
      expect(late.error.message).toContain('is being run by another run in this process');
      expect(on.calls.charge).toBe(1); // the winner waits before it counts; the late one ran nothing
      const fresh = expectCode(await graph.run({}, { checkpointer, runId: 'r' }), RESUME_IN_PROGRESS); // a fresh run of its id too
      expect(fresh.error.message).toContain('this run ran nothing');
      hold.open();
      expect(completed(await winner).state.trail).toEqual(['reserve', 'charge', 'ship']);
      completed(await graph.resume('r', { checkpointer }));
      expect(on.calls).toEqual({ reserve: 1, charge: 2, ship: 1 });
    });

    it('release the claim when a run ends — completed, failed or aborted — so the next resume runs at once', async () => {
      const on = switches();
      const checkpointer = makeStore();
      const graph = paymentGraph(on);
      completed(await graph.run({}, { checkpointer, runId: 'done' }));
      on.broken.add('charge');
      failed(await graph.run({}, { checkpointer, runId: 'failed' }));
      const controller = new AbortController();
      const aborting = paymentGraph(on, async () => controller.abort(new Error('stop')));
      expect((await aborting.run({}, { checkpointer, runId: 'aborted', signal: controller.signal })).status).toBe('aborted');
      await new Promise((resolve) => setTimeout(resolve, 5)); // an aborted run releases in the background
      for (const runId of ['done', 'failed', 'aborted']) {
        const stored = (await checkpointer.get(runId)) as GraphCheckpoint;
        expect([runId, stored.owner, stored.leaseUntil]).toEqual([runId, undefined, undefined]);
        expect(stored.revision).toBeGreaterThan(1);
      }
      on.broken.clear();
      completed(await graph.resume('failed', { checkpointer }));
      completed(await graph.resume('aborted', { checkpointer }));
    });
  });
}

/** A running checkpoint of `paymentGraph` at `charge`, held by a run of another process until `leaseUntil`. */
function heldElsewhere(leaseUntil: number, revision?: number): GraphCheckpoint {
  const checkpoint: GraphCheckpoint = { version: 1, runId: 'r', status: 'running', step: 1, state: { trail: '["reserve"]', execution_errors: '[]' }, pending: ['charge'], updatedAt: new Date().toISOString() };
  if (revision !== undefined) checkpoint.revision = revision;
  return { ...checkpoint, owner: 'a-run-of-another-process', leaseUntil: new Date(leaseUntil).toISOString() };
}

describe('a claim held by another process', () => {
  it('refuses a resume until its lease lapses, then the resume takes it over', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const on = switches();
    const checkpointer = mapCheckpointer();
    checkpointer.store.set('r', JSON.stringify(heldElsewhere(Date.now() + 30_000, 7)));
    const refused = expectCode(await paymentGraph(on, async () => {}).resume('r', { checkpointer }), RESUME_IN_PROGRESS);
    expect(refused.error.retryAfterMs).toBe(30_000);
    expect(refused.error.message).toContain('is being run by another process');
    expect(refused.error.message).toContain('takeOver: true');
    expect(on.calls).toEqual({});
    vi.setSystemTime(Date.now() + 30_001);
    expect(completed(await paymentGraph(on, async () => {}).resume('r', { checkpointer })).state.trail).toEqual(['reserve', 'charge', 'ship']);
    expect(on.calls).toEqual({ charge: 1, ship: 1 });
    expect(JSON.parse(checkpointer.store.get('r') as string)).toMatchObject({ status: 'completed', revision: 10 }); // 7, then its claim, the step after charge, the end
  });

  it('is taken over at once with takeOver: true (the caller knows that process is gone)', async () => {
    const on = switches();
    const checkpointer = mapCheckpointer();
    checkpointer.store.set('r', JSON.stringify(heldElsewhere(Date.now() + 30_000)));
    completed(await paymentGraph(on, async () => {}).resume('r', { checkpointer, takeOver: true }));
    expect(on.calls).toEqual({ charge: 1, ship: 1 });
  });

  it('is taken over at once on an exclusive store: only this process writes it, so its owner is gone', async () => {
    const on = switches();
    const checkpointer = new InMemoryCheckpointer();
    await checkpointer.put(heldElsewhere(Date.now() + 30_000));
    completed(await paymentGraph(on, async () => {}).resume('r', { checkpointer }));
    expect(on.calls).toEqual({ charge: 1, ship: 1 });
  });

  it('resumes a checkpoint written before revisions existed (it counts as revision 0)', async () => {
    const on = switches();
    const checkpointer = mapCheckpointer();
    const { owner: _owner, leaseUntil: _lease, ...old } = heldElsewhere(0);
    checkpointer.store.set('r', JSON.stringify(old));
    completed(await paymentGraph(on, async () => {}).resume('r', { checkpointer }));
    expect(JSON.parse(checkpointer.store.get('r') as string).revision).toBe(3); // 0, then its claim, the step after charge, the end
  });
});

describe('a live run', () => {
  it('renews its claim every third of its lease during a long step, and lets it go at the end', async () => {
    vi.useFakeTimers();
    const on = switches();
    const checkpointer = mapCheckpointer();
    const graph = paymentGraph(on, () => new Promise((resolve) => setTimeout(resolve, 10_000)));
    const running = graph.run({}, { checkpointer, runId: 'r', leaseMs: 3_000 });
    await vi.advanceTimersByTimeAsync(1);
    const stored = () => JSON.parse(checkpointer.store.get('r') as string) as GraphCheckpoint;
    const first = stored();
    expect(first).toMatchObject({ status: 'running', step: 1, owner: expect.any(String) });
    expect(Date.parse(first.leaseUntil as string) - Date.now()).toBeGreaterThan(2_900);
    await vi.advanceTimersByTimeAsync(5_000); // well past the first lease: renewed meanwhile
    const renewed = stored();
    expect(renewed.owner).toBe(first.owner);
    expect(renewed.revision).toBeGreaterThanOrEqual((first.revision as number) + 4); // renewals at 1, 2, 3, 4 and 5 s
    expect(Date.parse(renewed.leaseUntil as string) - Date.now()).toBeGreaterThan(1_900);
    await vi.advanceTimersByTimeAsync(5_000);
    completed(await running);
    expect(stored()).toMatchObject({ status: 'completed' });
    expect(stored().owner).toBeUndefined();
  });

  it('stops with RUN_TAKEN_OVER at its next write when its checkpoint was taken over meanwhile, writing nothing more', async () => {
    const on = switches();
    const hold = gate();
    const checkpointer = mapCheckpointer();
    const running = paymentGraph(on, () => hold.wait()).run({}, { checkpointer, runId: 'r' });
    await hold.reached;
    const mine = JSON.parse(checkpointer.store.get('r') as string) as GraphCheckpoint;
    const theirs = { ...mine, owner: 'another-process', revision: (mine.revision as number) + 1 }; // a process that took over
    checkpointer.store.set('r', JSON.stringify(theirs));
    hold.open();
    const outcome = expectCode(await running, RUN_TAKEN_OVER);
    expect(outcome.error.message).toContain('its checkpoint changed since this run wrote revision');
    expect(on.calls).toEqual({ reserve: 1, charge: 1 }); // `ship` never ran
    expect(JSON.parse(checkpointer.store.get('r') as string)).toEqual(theirs);
  });

  it('a renewal whose timer fired while the completion was being written writes nothing after it (a slow store)', async () => {
    vi.useFakeTimers();
    const on = switches();
    const fast = mapCheckpointer();
    // A store that takes 200 ms per write (a remote database): the renewal timer fires while the completion is in flight.
    const slow: Checkpointer = { ...fast, put: (checkpoint) => new Promise((resolve) => setTimeout(() => resolve(fast.put(checkpoint)), 200)) };
    // One node of 200 ms: the renewal (a third of the lease after the first write) fires during the completion's write.
    const charge = countingNode('charge', on);
    const graph = graphWith()
      .graph.addNode('charge', async (state, context) => (await new Promise((resolve) => setTimeout(resolve, 200)), charge(state, context)))
      .setEntryPoint('charge')
      .setFinishPoint('charge')
      .compile();
    const running = graph.run({}, { checkpointer: slow, runId: 'r', leaseMs: 1_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    completed(await running);
    await vi.advanceTimersByTimeAsync(5_000); // any renewal still queued has had its turn
    expect(JSON.parse(fast.store.get('r') as string)).toMatchObject({ status: 'completed' });
    completed(await graph.resume('r', { checkpointer: slow }).then(async (outcome) => (await vi.advanceTimersByTimeAsync(1_000), outcome)));
    expect(on.calls.charge).toBe(1); // the completed run is replayed: nothing runs twice
  });

  it('is refused options that cannot hold a claim', async () => {
    const graph = paymentGraph(switches());
    const checkpointer = new InMemoryCheckpointer();
    await expect(graph.run({}, { checkpointer, leaseMs: 999 })).rejects.toThrow(ConfigError);
    await expect(graph.run({}, { checkpointer, leaseMs: 1.5e3 + 0.5 })).rejects.toThrow(/leaseMs must be an integer from 1000 to 604800000/);
    // past any date a claim can name (it failed as the store's error, "Invalid time value"), and past a week
    await expect(graph.run({}, { checkpointer, leaseMs: 1e20 })).rejects.toThrow(/leaseMs must be an integer from 1000 to 604800000 \(7 days\) \(got 100000000000000000000\)/);
    await expect(graph.run({}, { checkpointer, leaseMs: 604_800_001 })).rejects.toThrow(ConfigError);
    await expect(graph.resume('r', { checkpointer, takeOver: 'yes' as never })).rejects.toThrow(/takeOver must be a boolean/);
  });
});

describe('an abort while a step’s checkpoint is being written', () => {
  it('releases the claim once that write lands, so a resume is not held off for the lease', async () => {
    const rows = new Map<string, string>();
    let inOrder: Promise<unknown> = Promise.resolve();
    let release!: () => void;
    const slowWrite = new Promise<void>((resolve) => (release = resolve));
    const controller = new AbortController();
    const checkpointer: Checkpointer = {
      get: async (runId) => (rows.has(runId) ? (JSON.parse(rows.get(runId)!) as GraphCheckpoint) : undefined),
      // one connection: writes are applied in the order they were given
      put: (checkpoint) => {
        const mine = inOrder.then(async () => {
          if (checkpoint.status === 'running' && checkpoint.step === 1 && checkpoint.owner !== undefined) {
            controller.abort(new Error('stop'));
            await slowWrite;
          }
          const held = rows.has(checkpoint.runId) ? ((JSON.parse(rows.get(checkpoint.runId)!) as GraphCheckpoint).revision ?? 0) : 0;
          if (checkpoint.revision !== undefined && held !== checkpoint.revision - 1) return false;
          rows.set(checkpoint.runId, JSON.stringify(checkpoint));
          return true;
        });
        inOrder = mine.catch(() => {});
        return mine;
      },
      delete: async (runId) => void rows.delete(runId),
    };
    const graph = chainGraph(switches());
    expect((await graph.run({}, { checkpointer, runId: 'ab', signal: controller.signal })).status).toBe('aborted');
    release();
    await vi.waitFor(() => expect((JSON.parse(rows.get('ab')!) as GraphCheckpoint).owner).toBeUndefined());
    completed(await graph.resume('ab', { checkpointer }));
  });
});
