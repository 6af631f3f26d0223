/**
 * An abort ends a run promptly even while the app's code it awaits never settles: `beforeNode`, `afterNode` (a
 * collector's `policy` among them), `onNodeError` and an async router are each raced against the run's signal, as a
 * node body is. The run settles `aborted` within about a second of the abort, and the callback's promise settling
 * afterwards (resolving or rejecting) changes nothing and leaves no unhandled rejection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionErrorCollector, messagesStateSchema, StateGraph, type GraphOutcome, type NodeCallbacks } from '../../src/graph/index.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

/** A promise the test settles by hand, and a flag set once the app's code was called (the run is waiting on it). */
interface Hang {
  called: boolean;
  promise: Promise<never>;
  resolve: (value?: unknown) => void;
  reject: (reason: unknown) => void;
}

function hang(): Hang {
  const entry = { called: false } as Hang;
  entry.promise = new Promise<never>((resolve, reject) => {
    entry.resolve = resolve as (value?: unknown) => void;
    entry.reject = reject;
  });
  return entry;
}

/** `work → done` with `work`'s callbacks, its failure when `fails`, a router after it when given. */
function graph(options: { callbacks?: NodeCallbacks; fails?: boolean; router?: () => unknown; collector?: ExecutionErrorCollector }) {
  let built = new StateGraph(messagesStateSchema());
  if (options.collector) built = built.use(options.collector);
  built = built
    .addNode(
      'work',
      () => {
        if (options.fails) throw Object.assign(new Error('the node failed'), { retryable: true });
        return { last_response: 'worked' };
      },
      { callbacks: options.callbacks },
    )
    .addNode('done', () => ({ last_response: 'done' }))
    .setEntryPoint('work')
    .setFinishPoint('done');
  if (options.router) built.addConditionalEdges('work', options.router as () => 'done');
  else built.addEdge('work', 'done');
  return built.compile();
}

const waiting = (entry: Hang) => () => {
  entry.called = true;
  return entry.promise;
};

const rows: Array<[string, (entry: Hang) => ReturnType<typeof graph>]> = [
  ['beforeNode', (entry) => graph({ callbacks: { beforeNode: waiting(entry) } })],
  ['afterNode', (entry) => graph({ callbacks: { afterNode: waiting(entry) } })],
  ['a collector policy (afterNode)', (entry) => graph({ fails: true, collector: new ExecutionErrorCollector({ policy: waiting(entry) }) })],
  ['onNodeError', (entry) => graph({ fails: true, callbacks: { onNodeError: waiting(entry) } })],
  ['an async router', (entry) => graph({ router: waiting(entry) })],
];

const PENDING = Symbol('still pending');

describe('an abort while the run awaits the app’s code that never settles', () => {
  describe.each(['rejects', 'resolves'] as const)('the code later %s', (late) => {
    it.each(rows)('%s: the run settles aborted at once', async (_name, build) => {
      const entry = hang();
      const controller = new AbortController();
      const reason = new Error('caller aborted');
      const running = build(entry).run({}, { signal: controller.signal });
      for (let tick = 0; tick < 100 && !entry.called; tick++) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(entry.called).toBe(true);
      const abortedAt = Date.now();
      controller.abort(reason);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome: GraphOutcome | typeof PENDING = await Promise.race([running, new Promise<typeof PENDING>((resolve) => (timer = setTimeout(() => resolve(PENDING), 1000)))]);
      clearTimeout(timer);
      expect(outcome).not.toBe(PENDING);
      expect(Date.now() - abortedAt).toBeLessThan(1000);
      expect(outcome).toMatchObject({ status: 'aborted', reason });

      // The app's code settles after the run ended: nothing changes, nothing is left unhandled.
      const before = unhandled.length;
      if (late === 'rejects') entry.reject(new Error('late failure'));
      else entry.resolve('done');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled.slice(before)).toEqual([]);
      expect(unhandled).toEqual([]);
    });
  });
});
