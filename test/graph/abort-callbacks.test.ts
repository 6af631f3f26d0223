/**
 * An abort ends a run promptly even while the app's code it awaits never settles: `beforeNode`, `afterNode` (a
 * collector's `policy` among them), `onNodeError`, an async router and a typed state schema's async `validate` (at a
 * fresh run's start and at a resume's) are each raced against the run's signal, as a node body is. The run settles `aborted` within about a second of the abort, and the callback's promise settling
 * afterwards (resolving or rejecting) changes nothing and leaves no unhandled rejection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionErrorCollector, InMemoryCheckpointer, messagesStateSchema, StateGraph, stateSchema, type GraphOutcome, type NodeCallbacks, type State } from '../../src/graph/index.js';
import type { StandardSchemaV1 } from '../../src/tools/index.js';

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

type Start = (signal: AbortSignal) => Promise<GraphOutcome>;
const fresh = (compiled: ReturnType<typeof graph>): Start => (signal) => compiled.run({}, { signal });

/** A graph whose typed state's schema `validate` passes until `hangs` is set, then waits on the entry. */
function validated(entry: Hang, hangs: { now: boolean }) {
  const validate = (value: unknown) => (hangs.now ? waiting(entry)() : { value });
  const schema = stateSchema({ '~standard': { version: 1, vendor: 'test', validate } } as unknown as StandardSchemaV1<unknown, State>);
  return new StateGraph(schema)
    .addNode('work', () => {
      if (!hangs.now) throw new Error('the node failed'); // the first run fails, leaving a checkpoint to resume
      return {};
    })
    .setEntryPoint('work')
    .setFinishPoint('work')
    .compile();
}

const rows: Array<[string, (entry: Hang) => Start]> = [
  ['beforeNode', (entry) => fresh(graph({ callbacks: { beforeNode: waiting(entry) } }))],
  ['afterNode', (entry) => fresh(graph({ callbacks: { afterNode: waiting(entry) } }))],
  ['a collector policy (afterNode)', (entry) => fresh(graph({ fails: true, collector: new ExecutionErrorCollector({ policy: waiting(entry) }) }))],
  ['onNodeError', (entry) => fresh(graph({ fails: true, callbacks: { onNodeError: waiting(entry) } }))],
  ['an async router', (entry) => fresh(graph({ router: waiting(entry) }))],
  ["a typed state's async validate at the run's start", (entry) => fresh(validated(entry, { now: true }) as never)],
  [
    "a typed state's async validate at a resume",
    (entry) => async (signal) => {
      const hangs = { now: false };
      const compiled = validated(entry, hangs);
      const checkpointer = new InMemoryCheckpointer();
      expect((await compiled.run({}, { checkpointer, runId: 'r' })).status).toBe('failed');
      hangs.now = true;
      return compiled.resume('r', { checkpointer, signal });
    },
  ],
];

const PENDING = Symbol('still pending');

describe('an abort while the run awaits the app’s code that never settles', () => {
  describe.each(['rejects', 'resolves'] as const)('the code later %s', (late) => {
    it.each(rows)('%s: the run settles aborted at once', async (_name, build) => {
      const entry = hang();
      const controller = new AbortController();
      const reason = new Error('caller aborted');
      const running = build(entry)(controller.signal);
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
