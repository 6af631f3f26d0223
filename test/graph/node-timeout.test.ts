/**
 * Per-node time limits (`addNode(id, fn, { timeoutMs })`): the attempt's signal aborts with a retryable
 * `NODE_TIMEOUT` `WorkflowError`, the node ends then even if it ignores its signal, its late result and emissions
 * are discarded, the failure becomes a record like any other, and no timer outlives the run. Time is faked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkflowError } from '../../src/errors/index.js';
import {
  emitCustomStateDelta,
  END,
  ExecutionErrorCollector,
  InMemoryCheckpointer,
  interrupt,
  messagesStateSchema,
  NODE_TIMEOUT,
  START,
  StateGraph,
  type ExecutionError,
  type GraphOutcome,
  type NodeFunction,
  type NodeOptions,
} from '../../src/graph/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import { deferred } from '../helpers/async.js';

const isTimeout = (error: unknown) => WorkflowError.isInstance(error) && error.code === NODE_TIMEOUT;

/** `slow` (timed) → `finish`, with a collector. */
function timedGraph(slow: NodeFunction, options: NodeOptions, collector = new ExecutionErrorCollector()) {
  return new StateGraph(messagesStateSchema())
    .use(collector)
    .addNode('slow', slow, options)
    .addNode('finish', () => ({ finished: true }))
    .addEdge('slow', 'finish')
    .setEntryPoint('slow')
    .setFinishPoint('finish')
    .compile();
}

function records(state: Record<string, unknown>): ExecutionError[] {
  return state.execution_errors as ExecutionError[];
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('addNode timeoutMs', () => {
  it('ends a node that ignores its signal at the time limit, aborts its signal and records NODE_TIMEOUT', async () => {
    let signal: AbortSignal | undefined;
    const graph = timedGraph((_state, context) => {
      signal = context.signal;
      return new Promise(() => {}); // never settles, never looks at its signal
    }, { timeoutMs: 50 });
    const events: RunEvent[] = [];
    const running = graph.run({}, { onEvent: (event) => events.push(event) });

    await vi.advanceTimersByTimeAsync(49);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const outcome = (await running) as Extract<GraphOutcome, { status: 'failed' }>;

    expect(outcome.status).toBe('failed');
    expect(signal?.aborted).toBe(true);
    expect(isTimeout(signal?.reason)).toBe(true);
    expect(outcome.error.code).toBe(NODE_TIMEOUT);
    expect(outcome.error.nodeId).toBe('slow');
    const [record] = records(outcome.fallbackState);
    expect(record).toMatchObject({ severity: 'fatal', nodeId: 'slow', error: { type: 'flow_error', code: NODE_TIMEOUT } });
    expect(record?.error?.message).toContain('timeoutMs of 50 ms');
    const cause = outcome.error.cause as WorkflowError;
    expect(cause.retryable).toBe(true);
    expect(cause.toJSON()).toMatchObject({ code: NODE_TIMEOUT, retryable: true, nodeId: 'slow', stepNumber: 0 });
    expect(events.filter((event) => event.response?.object === 'graph.node.error')).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0); // nothing of the run's is left armed
  });

  it('discards what the node returns and emits after its time is up', async () => {
    const late = deferred<Record<string, unknown>>();
    const graph = timedGraph(async (_state, context) => {
      const update = await late.promise;
      emitCustomStateDelta(context, { late_emission: true });
      return update;
    }, { timeoutMs: 20 }, new ExecutionErrorCollector({ recoverable: isTimeout }));
    const events: RunEvent[] = [];
    const running = graph.run({}, { onEvent: (event) => events.push(event) });
    await vi.advanceTimersByTimeAsync(20);
    const outcome = await running;
    const seen = events.length;

    late.resolve({ late_result: true }); // the node finally answers, after the run went on without it
    await vi.advanceTimersByTimeAsync(0);

    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(outcome.state.late_result).toBeUndefined();
    expect(outcome.state.finished).toBe(true);
    expect(records(outcome.state)).toMatchObject([{ severity: 'recoverable', nodeId: 'slow', error: { code: NODE_TIMEOUT } }]);
    expect(events).toHaveLength(seen); // the late emission went nowhere
    expect(JSON.stringify(events)).not.toContain('late_emission');
  });

  it("ignores a question the node asks after its time is up: the timeout stands, the run waits on nothing", async () => {
    const late = deferred<void>();
    let threw: unknown;
    const sibling = deferred<void>();
    const graph = new StateGraph(messagesStateSchema())
      .use(new ExecutionErrorCollector()) // NODE_TIMEOUT is fatal by default
      .addNode('slow', async (_state, context) => {
        await late.promise;
        try {
          interrupt(context, { question: 'too late' });
        } catch (error) {
          threw = error;
        }
        return {};
      }, { timeoutMs: 20 })
      .addNode('sibling', async () => (await sibling.promise, { sibling: true })) // the step goes on after the timeout
      .addEdge(START, 'slow')
      .addEdge(START, 'sibling')
      .addEdge('slow', END)
      .addEdge('sibling', END)
      .compile();
    const running = graph.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'late-question' });
    await vi.advanceTimersByTimeAsync(20);
    late.resolve(); // the timed-out attempt asks while its step still runs
    await vi.advanceTimersByTimeAsync(0);
    sibling.resolve();
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'failed', error: { code: NODE_TIMEOUT, nodeId: 'slow' } });
    expect((outcome as { interrupts?: unknown }).interrupts).toBeUndefined();
    expect(threw).toBeDefined(); // interrupt() threw in the abandoned attempt, which nothing reads
  });

  it('is retried by the default retryOn: a timed-out attempt, then one in time', async () => {
    const attempts: number[] = [];
    const signals: AbortSignal[] = [];
    const graph = timedGraph((_state, context) => {
      attempts.push(context.attempt);
      signals.push(context.signal);
      return context.attempt === 1 ? new Promise(() => {}) : Promise.resolve({ answer: 'second time' });
    }, { timeoutMs: 30, retry: { maxAttempts: 2, initialDelayMs: 0 } });
    const running = graph.run();
    await vi.advanceTimersByTimeAsync(30);
    const outcome = await running;

    expect(outcome.status).toBe('completed');
    if (outcome.status !== 'completed') return;
    expect(attempts).toEqual([1, 2]);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]?.aborted).toBe(false); // each attempt has its own signal and its own time
    expect(outcome.state.answer).toBe('second time');
    expect(records(outcome.state)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer when the node finishes in time, and changes nothing for a synchronous node', async () => {
    const graph = new StateGraph(messagesStateSchema())
      .use(new ExecutionErrorCollector())
      .addNode('quick', async () => ({ quick: true }), { timeoutMs: 60_000 })
      .addNode('sync', () => ({ sync: true }), { timeoutMs: 1 })
      .addEdge('quick', 'sync')
      .setEntryPoint('quick')
      .setFinishPoint('sync')
      .compile();
    const outcome = await graph.run();

    expect(outcome.status).toBe('completed');
    if (outcome.status === 'completed') expect(outcome.state).toMatchObject({ quick: true, sync: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("lets the caller's abort win over the time limit: the run is aborted, not timed out", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const graph = timedGraph((_state, context) => {
      signal = context.signal;
      return new Promise(() => {});
    }, { timeoutMs: 1_000 });
    const running = graph.run({}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('user left'));
    const outcome = await running;

    expect(outcome.status).toBe('aborted');
    if (outcome.status === 'aborted') expect((outcome.reason as Error).message).toBe('user left');
    expect((signal?.reason as Error).message).toBe('user left'); // the node's signal carries the caller's reason
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports a timeoutMs that is not a positive number at compile(), and takes Infinity as no limit', () => {
    const build = (timeoutMs: unknown) =>
      new StateGraph(messagesStateSchema())
        .addNode('a', () => undefined, { timeoutMs: timeoutMs as number })
        .setEntryPoint('a')
        .setFinishPoint('a');
    for (const bad of [0, -5, Number.NaN, '50']) {
      let caught: unknown;
      try {
        build(bad).compile();
      } catch (error) {
        caught = error;
      }
      expect(WorkflowError.isInstance(caught)).toBe(true);
      expect((caught as WorkflowError).problems).toEqual([`node "a" timeoutMs must be a number > 0 or Infinity (got ${typeof bad === "string" ? JSON.stringify(bad) : String(bad)})`]);
    }
    expect(build(Infinity).compile().parts.nodes.get('a')?.timeoutMs).toBeUndefined();
  });

  it('applies to agent, LLM and tools nodes too (their options forward timeoutMs)', async () => {
    const hanging = { name: 'hanging', runEvents: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<RunEvent>>(() => {}) }) }) };
    const graph = new StateGraph(messagesStateSchema())
      .use(new ExecutionErrorCollector())
      .addAgentNode('child', hanging, { timeoutMs: 25 })
      .setEntryPoint('child')
      .setFinishPoint('child')
      .compile();
    const running = graph.run();
    await vi.advanceTimersByTimeAsync(25);
    const outcome = await running;

    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error.code).toBe(NODE_TIMEOUT);
  });
});
