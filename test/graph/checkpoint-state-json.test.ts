/**
 * A checkpoint keeps the state exactly or not at all: a value JSON would silently change or drop at any depth (a
 * Map, a Set, a function, a Symbol, an Error, a class instance without own data) fails the checkpointed run with
 * `CHECKPOINT_FAILED` naming the key path — never the value — instead of resuming on different state; plain nested
 * objects and arrays still checkpoint, and a resumed run ends on the state of a run never interrupted.
 */
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FAILED, InMemoryCheckpointer, messagesStateSchema, StateGraph, type CompiledGraph, type State } from '../../src/graph/index.js';
import { completed, expectCode, failed } from './checkpoint-fixtures.js';

const SECRET = 'sk-live-0123456789';

/** `fill` writes `payload`; `check` fails while `broken` (the interruption), then reports what it sees. */
function cartGraph(payload: () => unknown, on: { broken: boolean }): CompiledGraph {
  return new StateGraph(messagesStateSchema())
    .addNode('fill', () => ({ payload: payload() }))
    .addNode('check', (state: State) => {
      if (on.broken) throw new Error('payment gateway down');
      return { seen: JSON.stringify(state.payload) ?? 'nothing' };
    })
    .addEdge('fill', 'check')
    .setEntryPoint('fill')
    .setFinishPoint('check')
    .compile();
}

class Token {}

describe('a state value JSON would change or drop, at any depth', () => {
  const cases: Array<[string, () => unknown, string, string]> = [
    ['a Map as the value', () => new Map([['sku', SECRET]]), 'payload', 'a Map'],
    ['a nested Map', () => ({ cart: new Map([['sku', SECRET]]) }), 'payload.cart', 'a Map'],
    ['a Set in an array', () => ({ tags: ['a', new Set([SECRET])] }), 'payload.tags[1]', 'a Set'],
    ['a nested function', () => ({ hooks: { onPaid: () => SECRET } }), 'payload.hooks.onPaid', 'a function'],
    ['a function in an array', () => [1, () => SECRET], 'payload[1]', 'a function'],
    ['a nested Symbol', () => ({ id: Symbol(SECRET) }), 'payload.id', 'a Symbol'],
    ['a nested class instance without own data', () => ({ token: new Token() }), 'payload.token', 'an instance of Token'],
    ['a nested Error', () => ({ last: new Error(SECRET) }), 'payload.last', 'an Error'],
    ['a key that needs quoting', () => ({ 'the cart': new Map([['sku', SECRET]]) }), 'payload["the cart"]', 'a Map'],
    // written as null: a resume would read null where the run had the number, or the item
    ['a nested NaN', () => ({ totals: { ratio: Number.NaN } }), 'payload.totals.ratio', 'NaN'],
    ['an Infinity in an array', () => ({ limits: [1, Number.POSITIVE_INFINITY] }), 'payload.limits[1]', 'Infinity'],
    ['an undefined in an array', () => ({ picks: ['a', undefined] }), 'payload.picks[1]', 'undefined in a list'],
    ['a hole in an array', () => ({ picks: ['a', , 'c'] }), 'payload.picks[1]', 'undefined in a list'], // eslint-disable-line no-sparse-arrays
  ];
  for (const [what, payload, path, kind] of cases) {
    it(`fails the run with CHECKPOINT_FAILED naming the path: ${what}`, async () => {
      const on = { broken: false };
      const outcome = expectCode(await cartGraph(payload, on).run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r' }), CHECKPOINT_FAILED);
      expect(outcome.error.message).toContain(`state key "payload": ${path} is ${kind}`);
      expect(outcome.error.message).not.toContain(SECRET);
      expect(outcome.error.message).not.toContain('sku');
    });
  }

  it('still refuses a function at the top of the state, as before', async () => {
    const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({ onPaid: () => SECRET })).setEntryPoint('a').setFinishPoint('a').compile();
    const outcome = expectCode(await graph.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r' }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toContain('state key "onPaid": onPaid is a function');
  });

  it('refuses a succeeded node’s update of a failed step that holds one (it would be replayed changed)', async () => {
    const graph = new StateGraph(messagesStateSchema())
      .addNode('start', () => ({}))
      .addNode('left', () => ({ cart: { items: new Set([SECRET]) } }))
      .addNode('right', () => {
        throw new Error('down');
      })
      .addEdge('start', 'left')
      .addEdge('start', 'right')
      .setEntryPoint('start')
      .setFinishPoint('left')
      .setFinishPoint('right')
      .compile();
    const outcome = expectCode(await graph.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r' }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toContain('the update of node "left"');
    expect(outcome.error.message).toContain('state key "cart": cart.items is a Set');
    expect(outcome.error.message).not.toContain(SECRET);
  });

  it('runs as before without a checkpointer (only a checkpoint has to be JSON)', async () => {
    const outcome = completed(await cartGraph(() => ({ cart: new Map([['sku', 2]]) }), { broken: false }).run({}));
    expect(outcome.state.payload).toEqual({ cart: new Map([['sku', 2]]) });
  });
});

describe('state JSON keeps exactly', () => {
  const cases: Array<[string, () => unknown]> = [
    ['a plain nested object', () => ({ customer: { address: { city: 'Oslo', lines: ['1 Main St'] } }, total: 12.5, paid: false, note: null })],
    ['nested arrays', () => [[1, 2], [{ sku: 'a', qty: 2 }], [], [[['deep']]]]],
    ['an empty object and strings', () => ({ empty: {}, text: 'a "quoted" \u2028 line' })],
  ];
  for (const [what, payload] of cases) {
    it(`resumes to the state of a run never interrupted: ${what}`, async () => {
      const on = { broken: true };
      const graph = cartGraph(payload, on);
      const checkpointer = new InMemoryCheckpointer();
      const first = failed(await graph.run({}, { checkpointer, runId: 'r' }));
      expect(first.error.code).not.toBe(CHECKPOINT_FAILED);
      on.broken = false;
      const resumed = completed(await graph.resume('r', { checkpointer }));
      const plain = completed(await graph.run({}));
      expect(resumed.state).toEqual(plain.state);
      expect(resumed.state.payload).toEqual(payload());
    });
  }

  it('keeps a Date as its ISO string, as at the top of the state (it says how it is written: toJSON)', async () => {
    const on = { broken: true };
    const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    const graph = cartGraph(() => ({ at, list: [at] }), on);
    const checkpointer = new InMemoryCheckpointer();
    failed(await graph.run({}, { checkpointer, runId: 'r' }));
    on.broken = false;
    const resumed = completed(await graph.resume('r', { checkpointer }));
    expect(resumed.state.payload).toEqual({ at: '2025-01-02T03:04:05.000Z', list: ['2025-01-02T03:04:05.000Z'] });
  });
});
