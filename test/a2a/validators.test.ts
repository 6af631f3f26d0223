// The hand-written A2A validators (src/a2a/validation.ts, src/a2a/schemas.ts) against the zod/mini schemas they
// replaced (test/a2a/zod-oracle.ts, issue 17): on a corpus of valid, mutated and arbitrary payloads both accept and
// refuse the same values, return the same copies (same keys, same order, `__proto__` dropped) and report the same
// issues and message. Then the bounds: deep, wide and huge payloads decode or fail with a SerializeError, quickly,
// and no error ever quotes a received value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { A2AProtocolVersion } from '../../src/a2a/constants.js';
import * as current from '../../src/a2a/decode.js';
import { SerializeError } from '../../src/errors/serialize-error.js';
import { mutate, type Mutation } from '../helpers/json-mutations.js';
import * as oracle from './zod-oracle.js';

type Decode = (value: unknown, version: A2AProtocolVersion) => unknown;
type Decoders = typeof current;

const decoders = (module: Pick<Decoders, 'decodeSendResult' | 'decodeStreamEvent' | 'decodeTask' | 'decodeMessageSendParams' | 'decodeTaskQueryParams' | 'decodeAgentCard'>): Record<string, Decode> => ({
  decodeSendResult: (value, version) => module.decodeSendResult(value, version),
  decodeStreamEvent: (value, version) => module.decodeStreamEvent(value, version, 'stream[2]'),
  decodeTask: (value, version) => module.decodeTask(value, version),
  decodeMessageSendParams: (value, version) => module.decodeMessageSendParams(value, version),
  decodeTaskQueryParams: (value) => module.decodeTaskQueryParams(value),
  decodeAgentCard: (value) => module.decodeAgentCard(value),
});
const CURRENT = decoders(current);
const ORACLE = decoders(oracle);

type Outcome = { ok: true; value: unknown; keys: unknown } | { ok: false; error: unknown };

const PROTOTYPE_NAMES = new Map<unknown, string>([
  [Object.prototype, 'Object'],
  [Array.prototype, 'Array'],
  [null, 'null'],
]);

/** Every object's prototype and own keys in order, depth first: what `toStrictEqual` does not compare. */
function keyOrder(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 12) return null;
  const prototype = PROTOTYPE_NAMES.get(Object.getPrototypeOf(value)) ?? 'other';
  return [prototype, Reflect.ownKeys(value).map((key) => [String(key), keyOrder((value as Record<PropertyKey, unknown>)[key], depth + 1)])];
}

function outcome(decode: Decode, value: unknown, version: A2AProtocolVersion): Outcome {
  try {
    const decoded = decode(value, version);
    return { ok: true, value: decoded, keys: keyOrder(decoded) };
  } catch (error) {
    if (!SerializeError.isInstance(error)) throw error;
    return { ok: false, error: { name: error.name, message: error.message, subject: error.subject, issues: error.issues } };
  }
}

/** Both implementations agree on `value` for every decoder and version; returns how many decoders accepted it. */
function expectSameOutcome(value: unknown): number {
  let accepted = 0;
  for (const name of Object.keys(CURRENT)) {
    for (const version of ['0.3', '1.0'] as const) {
      const expected = outcome(ORACLE[name] as Decode, value, version);
      const actual = outcome(CURRENT[name] as Decode, value, version);
      expect(actual, `${name}(${version})`).toStrictEqual(expected);
      if (actual.ok) accepted++;
    }
  }
  return accepted;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

const v03Message = (): JSONObject => ({
  kind: 'message',
  messageId: 'msg-1',
  role: 'agent',
  parts: [
    { kind: 'text', text: 'see attachments', metadata: { lang: 'en' } },
    { kind: 'file', file: { bytes: 'aGk=', name: 'a.txt', mimeType: 'text/plain' } },
    { kind: 'file', file: { uri: 'https://files.example/b.png', extra: 1 } },
    { kind: 'data', data: { ok: true, nested: { deep: [1, 2] } } },
  ],
  contextId: 'ctx-1',
  extensions: ['x'],
  referenceTaskIds: ['t-0'],
});
const v03Task = (): JSONObject => ({
  kind: 'task',
  id: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'failed', timestamp: '2025-06-01T12:00:00Z', message: v03Message() },
  history: [v03Message()],
  artifacts: [{ artifactId: 'artifact-1', name: 'answer', description: 'the answer', parts: [{ kind: 'text', text: 'done' }], metadata: { step: 1 } }],
  metadata: { object_type: 'error', error_code: 'A2A_500' },
  tenant: 'acme',
});
const SEEDS: JSONObject[] = [
  v03Task(),
  v03Message(),
  { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state: 'working', progress: 0.5 }, final: false, metadata: { step: 1 } },
  { kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx-1', artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'partial' }] }, append: true, lastChunk: false },
  { task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'r', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] } }, artifacts: [{ artifactId: 'a', parts: [{ raw: 'aGk=', filename: 'a.txt' }, { url: 'https://x.example' }, { data: { n: 1 } }] }] } },
  { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi', metadata: { a: 1 } }] } },
  { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_INPUT_REQUIRED' } } },
  { artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, lastChunk: true } },
  { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, configuration: { blocking: false, historyLength: 2, acceptedOutputModes: ['text/plain'] }, metadata: { trace: 't' } },
  { id: 'task-1', historyLength: 3, metadata: { a: 1 } },
  { name: 'inventory', description: 'Stock', url: 'https://agent.example/a2a', protocolVersion: '0.3.0', version: '1.0.0', capabilities: { streaming: true, push: false }, supportedInterfaces: [{ url: 'https://agent.example/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], skills: [] },
];

const KEYS = ['kind', 'state', 'status', 'parts', 'text', 'role', 'final', 'task', 'message', 'statusUpdate', 'artifactUpdate', 'data', 'raw', 'url', 'metadata', 'file', 'bytes', 'uri', 'name', 'id', '__proto__', 'constructor', 'toString'];
const VALUES = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('task', 'message', 'status-update', 'artifact-update', 'text', 'file', 'data', 'user', 'agent', 'completed', 'TASK_STATE_FAILED', 'ROLE_AGENT', 'JSONRPC'),
);
const MUTATION: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ action: fc.constant('delete' as const), path: fc.array(fc.nat(), { maxLength: 6 }) }),
  fc.record({ action: fc.constant('set' as const), path: fc.array(fc.nat(), { maxLength: 6 }), value: VALUES }),
  fc.record({ action: fc.constant('retype' as const), path: fc.array(fc.nat(), { maxLength: 6 }), value: VALUES }),
  fc.record({ action: fc.constant('add' as const), path: fc.array(fc.nat(), { maxLength: 6 }), key: fc.constantFrom(...KEYS), value: VALUES }),
  fc.record({ action: fc.constant('wrap' as const), path: fc.array(fc.nat(), { maxLength: 6 }) }),
);

describe('the A2A validators against the zod schemas they replaced', () => {
  it('agree on every seed payload, and accept each of them somewhere', () => {
    for (const seed of SEEDS) expect(expectSameOutcome(seed), JSON.stringify(seed)).toBeGreaterThan(0);
  });

  it('agree on mutated payloads: the same accepted copies, the same issues and messages', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), fc.array(MUTATION, { minLength: 1, maxLength: 5 }), (seed, mutations) => {
        const count = expectSameOutcome(mutate(seed, mutations));
        if (count > 0) accepted++;
        else refused++;
      }),
      { seed: 1717, numRuns: 600 },
    );
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('agree on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expectSameOutcome(value);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('agree on values JSON cannot carry (undefined, NaN, Infinity, null prototypes, boxed values, sparse arrays)', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3, withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withObjectString: true }), (value) => {
        expectSameOutcome(value);
      }),
      { seed: 99, numRuns: 300 },
    );
    const message = { kind: 'message', messageId: 'm', role: 'user', parts: [] };
    for (const value of [
      { ...message, taskId: undefined },
      { ...message, metadata: Object.create(null) },
      { ...message, metadata: new Date(0) },
      { ...message, metadata: { [Symbol('x')]: 1, a: 1 } },
      { message: { ...message }, configuration: { historyLength: Number.NaN } },
      { message: { ...message }, configuration: { historyLength: Number.POSITIVE_INFINITY } },
      Object.assign(Object.create({ kind: 'message' }), { messageId: 'm', role: 'user', parts: [] }),
      { ...message, parts: [, { kind: 'text', text: 'x' }] }, // eslint-disable-line no-sparse-arrays
      JSON.parse('{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"__proto__":{"x":1}},"__proto__":{"y":2}}],"__proto__":{"z":3}}'),
    ]) {
      expectSameOutcome(value);
    }
  });

  it('report the issues in the same order, capped at 20, with the same message', () => {
    const parts = Array.from({ length: 60 }, (_, index) => (index % 3 === 0 ? { kind: 'text', text: 1 } : index % 3 === 1 ? { kind: 'file', file: {} } : { kind: 'video' }));
    expectSameOutcome({ ...v03Message(), role: 'robot', parts, messageId: 7 });
    expectSameOutcome({ ...v03Task(), status: { state: 'bogus', message: { kind: 'message' } }, history: 'x', artifacts: [{ parts: [null] }] });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Bounds: depth, width, size; nothing received in a message

const ALL: Array<[string, Decode]> = Object.entries(CURRENT);

/** Runs every decoder on `value` in both versions: a value or a SerializeError, each within `budgetMs`. */
function expectBounded(value: unknown, budgetMs = 2_000): SerializeError[] {
  const errors: SerializeError[] = [];
  for (const [name, decode] of ALL) {
    for (const version of ['0.3', '1.0'] as const) {
      const started = performance.now();
      try {
        decode(value, version);
      } catch (error) {
        expect(SerializeError.isInstance(error), `${name}(${version}) threw ${String(error)}`).toBe(true);
        const serialize = error as SerializeError;
        expect(serialize.issues.length).toBeGreaterThan(0);
        expect(serialize.issues.length).toBeLessThanOrEqual(20);
        expect(serialize.message.length).toBeLessThanOrEqual(1100);
        errors.push(serialize);
      }
      expect(performance.now() - started, `${name}(${version})`).toBeLessThan(budgetMs);
    }
  }
  return errors;
}

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { inner: value } : [value];
  return value;
}

describe('decoding hostile payloads (bounds)', () => {
  it('decodes metadata and data nested 100,000 levels deep without walking into them', () => {
    const deep = nested(100_000, 'leaf');
    const message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'data', data: { deep } }], metadata: { deep } };
    expectBounded(message);
    expect(current.decodeSendResult(message, '0.3')).toMatchObject({ kind: 'message', metadata: { deep } });
  });

  it('refuses a value nested 100,000 levels deep where an object is expected, with one issue', () => {
    const errors = expectBounded(nested(100_000, null));
    for (const error of errors) expect(error.issues).toHaveLength(1);
  });

  it('checks 200,000 parts in linear time, reporting the first 20 bad ones', () => {
    const good = { kind: 'message', messageId: 'm', role: 'agent', parts: Array.from({ length: 200_000 }, (_, index) => ({ kind: 'text', text: `part ${index}` })) };
    expectBounded(good);
    const bad = { ...good, parts: Array.from({ length: 200_000 }, () => ({ kind: 'text', text: 0 })) };
    const error = expectBounded(bad).find((each) => each.subject === 'A2A send result');
    expect(error?.issues.map((issue) => issue.path)).toEqual(Array.from({ length: 20 }, (_, index) => `result.parts[${index}].text`));
  });

  it('copes with an object of 100,000 unknown keys and a 10 MB string', () => {
    const wide: JSONObject = { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text', text: 'x'.repeat(10_000_000) }] };
    for (let index = 0; index < 100_000; index++) wide[`extra${index}`] = index;
    expectBounded(wide);
    expect(Object.keys(current.decodeSendResult(wide, '0.3'))).toHaveLength(100_004);
  });

  it('never puts a received value in an error: only paths and what was expected', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 40 }), fc.constantFrom(...SEEDS), fc.array(fc.nat(), { maxLength: 6 }), (text, seed, path) => {
        const planted = `QZX${text}`;
        for (const action of ['set', 'retype'] as const) {
          const value = mutate(seed, [{ action, path, value: planted }]);
          for (const error of expectBounded(value)) {
            expect(error.message).not.toContain(planted);
            expect(JSON.stringify(error.issues)).not.toContain(planted);
          }
        }
      }),
      { seed: 31337, numRuns: 200 },
    );
  });
});
