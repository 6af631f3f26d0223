/**
 * Execution-error records, their reducer and decoders (seed-systems §1.2, §1.9, §1.10; scenarios 1–9 of §8.1).
 * Where decisions.md point 2 differs from tRPC-Agent-Go (`stepNumber` always written), the test says so.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { cloneResponseError, SerializeError, type ResponseError } from '../../src/errors/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import { EXECUTION } from '../../src/graph/core/node-context.js';
import {
  cloneExecutionError,
  ExecutionErrorCollector,
  createExecutionError,
  decodeExecutionErrors,
  executionErrorReducer,
  executionErrorsFromStateDelta,
  normalizeExecutionError,
  type ExecutionError,
} from '../../src/graph/index.js';

const FIXED_TIME = '2025-03-04T05:06:07.089Z';

function record(severity: 'recoverable' | 'fatal', message: string, extra: Partial<ExecutionError> = {}): ExecutionError {
  return { severity, stepNumber: 0, timestamp: FIXED_TIME, error: { type: 'flow_error', message }, ...extra };
}

function asRecords(value: unknown): ExecutionError[] {
  expect(Array.isArray(value)).toBe(true);
  return value as ExecutionError[];
}

afterEach(() => {
  vi.useRealTimers();
});

describe('executionErrorReducer', () => {
  it('appends the update after the existing records in a new list (scenario 1)', () => {
    const existing = [record('recoverable', 'first')];
    const update = [record('fatal', 'second')];
    const merged = asRecords(executionErrorReducer(existing, update));
    expect(merged.map((item) => [item.severity, item.error?.message])).toEqual([
      ['recoverable', 'first'],
      ['fatal', 'second'],
    ]);
    expect(merged).not.toBe(existing);
    expect(merged).not.toBe(update);
  });

  it('never aliases its inputs: mutating them afterwards leaves the output unchanged (scenario 1)', () => {
    const existing = [record('recoverable', 'first', { path: ['outer'] })];
    const update = [record('fatal', 'second')];
    const merged = asRecords(executionErrorReducer(existing, update));
    (existing[0] as ExecutionError).error!.message = 'mutated first';
    (existing[0] as ExecutionError).path!.push('mutated');
    (update[0] as ExecutionError).error!.message = 'mutated second';
    (update[0] as ExecutionError).severity = 'recoverable';
    existing.push(record('fatal', 'late'));
    expect(merged).toHaveLength(2);
    expect(merged[0]?.error?.message).toBe('first');
    expect(merged[0]?.path).toEqual(['outer']);
    expect(merged[1]?.error?.message).toBe('second');
    expect(merged[1]?.severity).toBe('fatal');
  });

  it('treats a missing existing value as an empty list and still copies the update (scenario 2)', () => {
    for (const missing of [undefined, null]) {
      const update = [record('recoverable', 'only')];
      const merged = asRecords(executionErrorReducer(missing, update));
      expect(merged).toHaveLength(1);
      expect(merged[0]?.severity).toBe('recoverable');
      expect(merged).not.toBe(update);
      expect(merged[0]).not.toBe(update[0]);
      (update[0] as ExecutionError).error!.message = 'changed';
      expect(merged[0]?.error?.message).toBe('only');
    }
  });

  it('returns the update unchanged when either side is not a record list (scenario 3)', () => {
    expect(executionErrorReducer('existing', 'update')).toBe('update');
    const update = { not: 'a list' };
    expect(executionErrorReducer([record('fatal', 'x')], update)).toBe(update);
    const notRecords = [{ severity: 'unknown' }];
    expect(executionErrorReducer([record('fatal', 'x')], notRecords)).toBe(notRecords);
  });

  it('normalises JSON-decoded records before appending them', () => {
    const decoded = JSON.parse('[{"severity":"fatal","nodeId":"child_write","timestamp":"t","error":{"type":"flow_error","message":"m","code":7}}]') as unknown[];
    const merged = asRecords(executionErrorReducer([record('recoverable', 'p')], decoded));
    expect(merged[1]).toEqual({ severity: 'fatal', nodeId: 'child_write', stepNumber: 0, timestamp: 't', error: { type: 'flow_error', message: 'm', code: '7' } });
  });
});

describe('decodeExecutionErrors', () => {
  it('returns undefined for empty input (scenario 4)', () => {
    expect(decodeExecutionErrors(undefined)).toBeUndefined();
    expect(decodeExecutionErrors(null)).toBeUndefined();
    expect(decodeExecutionErrors('')).toBeUndefined();
  });

  it('throws a SerializeError for invalid JSON instead of returning records (scenario 4)', () => {
    let caught: unknown;
    try {
      decodeExecutionErrors('{');
    } catch (error) {
      caught = error;
    }
    expect(SerializeError.isInstance(caught)).toBe(true);
    expect((caught as SerializeError).message).toMatch(/^Execution errors are not valid JSON: /);
    expect((caught as SerializeError).subject).toBe('execution errors');
    expect((caught as SerializeError).cause).toBeInstanceOf(SyntaxError);
  });

  it('throws a SerializeError for JSON that is not a list of records', () => {
    expect(() => decodeExecutionErrors('{"severity":"fatal"}')).toThrow(/must be a JSON array of records/);
    expect(() => decodeExecutionErrors('[{"severity":"fatal"},{"severity":"bad"}]')).toThrow(/record 1 is not a record/);
  });

  it('returns independent copies each time the same text is decoded (scenario 6)', () => {
    const text = JSON.stringify([record('fatal', 'boom', { path: ['a'] })]);
    const first = decodeExecutionErrors(text)!;
    const second = decodeExecutionErrors(text)!;
    first[0]!.error!.message = 'mutated';
    first[0]!.path!.push('b');
    first.push(record('recoverable', 'extra'));
    expect(second).toHaveLength(1);
    expect(second[0]?.error?.message).toBe('boom');
    expect(second[0]?.path).toEqual(['a']);
  });

  it('reads a record without stepNumber as step 0 (decisions.md point 2: Go peers omit it at step 0)', () => {
    const [decoded] = decodeExecutionErrors('[{"severity":"fatal","nodeId":"write","nodeName":"write","nodeType":"function","timestamp":"2025-01-01T00:00:00Z","error":{"message":"database write failed","type":"flow_error","code":"WRITE_FATAL"}}]')!;
    expect(decoded).toEqual({
      severity: 'fatal',
      nodeId: 'write',
      nodeName: 'write',
      nodeType: 'function',
      stepNumber: 0,
      timestamp: '2025-01-01T00:00:00Z',
      error: { type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' },
    });
  });

  it('reads a numeric code as its base-10 string, 0 included', () => {
    const decoded = decodeExecutionErrors('[{"severity":"fatal","stepNumber":2,"timestamp":"t","error":{"type":"api_error","message":"m","code":500}},{"severity":"recoverable","timestamp":"t","error":{"type":"x","message":"n","code":0}}]')!;
    expect(decoded[0]?.error?.code).toBe('500');
    expect(decoded[0]?.stepNumber).toBe(2);
    expect(decoded[1]?.error?.code).toBe('0');
  });

  it('never lets __proto__ keys of decoded JSON reach a prototype', () => {
    const text =
      '[{"severity":"fatal","timestamp":"t","__proto__":{"polluted":"record"},"nodeId":"n",' +
      '"error":{"type":"flow_error","message":"m","__proto__":{"polluted":"error"}},"path":["p"]}]';
    const [decoded] = decodeExecutionErrors(text)!;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(decoded!.error)).toBe(Object.prototype);
    expect((decoded as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect((decoded!.error as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(decoded!)).toEqual(['severity', 'nodeId', 'stepNumber', 'timestamp', 'error', 'path']);
  });
});

describe('executionErrorsFromStateDelta', () => {
  it('returns undefined for a missing delta (scenario 5)', () => {
    expect(executionErrorsFromStateDelta(undefined, 'execution_errors')).toBeUndefined();
    expect(executionErrorsFromStateDelta(null, 'execution_errors')).toBeUndefined();
    expect(executionErrorsFromStateDelta({}, 'execution_errors')).toBeUndefined();
  });

  it('returns undefined when the key is absent (scenario 5)', () => {
    expect(executionErrorsFromStateDelta({ other: '[]' }, 'execution_errors')).toBeUndefined();
  });

  it('decodes the records under the given key, execution_errors by default', () => {
    const delta = { execution_errors: JSON.stringify([record('fatal', 'default key')]), biz_errors: JSON.stringify([record('recoverable', 'custom key')]) };
    expect(executionErrorsFromStateDelta(delta)?.map((item) => item.error?.message)).toEqual(['default key']);
    expect(executionErrorsFromStateDelta(delta, 'biz_errors')?.map((item) => item.error?.message)).toEqual(['custom key']);
  });

  it('does not read inherited keys such as toString', () => {
    expect(executionErrorsFromStateDelta({ other: '[]' }, 'toString')).toBeUndefined();
  });

  it('throws a SerializeError for an undecodable value', () => {
    expect(() => executionErrorsFromStateDelta({ execution_errors: '{' }, 'execution_errors')).toThrow(SerializeError);
  });
});

describe('createExecutionError', () => {
  it('builds a record without node fields when there is no context (scenario 7)', () => {
    const created = createExecutionError(undefined, new Error('boom'), 'fatal');
    expect(created.severity).toBe('fatal');
    expect(created.error).toEqual({ type: 'flow_error', message: 'boom' });
    expect(created.nodeId).toBeUndefined();
    expect(created.nodeName).toBeUndefined();
    expect(created.nodeType).toBeUndefined();
    expect(created.stepNumber).toBe(0);
    expect(Object.keys(created)).toEqual(['severity', 'stepNumber', 'timestamp', 'error']);
  });

  it('copies node id, name, type and step from the context and stamps the time as ISO-8601', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(FIXED_TIME));
    const created = createExecutionError({ nodeId: 'write', nodeName: 'Write order', nodeType: 'function', stepNumber: 3 }, Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' }), 'recoverable');
    expect(created).toEqual({
      severity: 'recoverable',
      nodeId: 'write',
      nodeName: 'Write order',
      nodeType: 'function',
      stepNumber: 3,
      timestamp: FIXED_TIME,
      error: { type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' },
    });
  });

  it('writes JSON keys in the order severity, nodeId, nodeName, nodeType, stepNumber, timestamp, error', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(FIXED_TIME));
    const created = createExecutionError({ stepNumber: 1, nodeType: 'llm', nodeName: 'Plan', nodeId: 'plan' }, new Error('x'), 'fatal');
    expect(Object.keys(created)).toEqual(['severity', 'nodeId', 'nodeName', 'nodeType', 'stepNumber', 'timestamp', 'error']);
    expect(JSON.stringify(created)).toBe(
      `{"severity":"fatal","nodeId":"plan","nodeName":"Plan","nodeType":"llm","stepNumber":1,"timestamp":"${FIXED_TIME}","error":{"type":"flow_error","message":"x"}}`,
    );
  });

  it('always writes stepNumber, 0 included (decisions.md point 2; Go omits it at step 0)', () => {
    const created = createExecutionError({ nodeId: 'write', stepNumber: 0 }, new Error('x'), 'fatal');
    expect(JSON.stringify(created)).toContain('"stepNumber":0');
    expect(JSON.parse(JSON.stringify(created))).toHaveProperty('stepNumber', 0);
  });

  it('always carries an error, typed as present: a failure without an error value says so', () => {
    const created = createExecutionError({ nodeId: 'n' }, undefined, 'fatal');
    expect(created.error).toEqual({ type: 'flow_error', message: 'the node failed with no error value' });
    expectTypeOf(created.error).toEqualTypeOf<ResponseError>();
    expect(createExecutionError({ nodeId: 'n' }, null, 'fatal').error).toEqual({ type: 'flow_error', message: 'the node failed with null' });
    expect(normalizeExecutionError({ severity: 'recoverable' })?.error).toEqual({ type: 'flow_error', message: 'the record carries no error details' });
  });
});

describe('the fatal event message of a record', () => {
  it('is empty when the record has no error text (scenario 9)', async () => {
    // A collector never builds a record without `error` (every thrown value converts), so the reachable form of
    // "no error text" is an error with an empty message: the event message is "" and still present.
    const events: RunEvent[] = [];
    const context = {
      nodeId: 'silent',
      nodeName: 'silent',
      nodeType: 'function',
      stepNumber: 0,
      invocationId: 'inv-1',
      [EXECUTION]: { emit: (event: RunEvent) => events.push(event), addFallbackUpdate: () => {} },
    };
    await expect(new ExecutionErrorCollector().afterNode(context, {}, undefined, new Error(''))).resolves.toBeUndefined();
    expect(events).toHaveLength(1);
    const metadata = JSON.parse(events[0]!.stateDelta!._node_custom_metadata!) as Record<string, unknown>;
    expect(metadata).toHaveProperty('message', '');
    expect((metadata.payload as ExecutionError).error).toEqual({ type: 'flow_error', message: '' });
  });
});

describe('record key order with a path', () => {
  it('puts path last, after error, whatever order the input had', () => {
    const scrambled = { path: ['outer', 'inner'], error: { message: 'm', type: 't' }, timestamp: FIXED_TIME, stepNumber: 2, nodeType: 'function', nodeName: 'Leaf', nodeId: 'leaf', severity: 'fatal' };
    const expected = ['severity', 'nodeId', 'nodeName', 'nodeType', 'stepNumber', 'timestamp', 'error', 'path'];
    expect(Object.keys(cloneExecutionError(scrambled as ExecutionError))).toEqual(expected);
    expect(Object.keys(normalizeExecutionError(JSON.parse(JSON.stringify(scrambled)))!)).toEqual(expected);
    expect(Object.keys(asRecords(executionErrorReducer([], [scrambled]))[0]!)).toEqual(expected);
    expect(JSON.stringify(cloneExecutionError(scrambled as ExecutionError))).toBe(
      `{"severity":"fatal","nodeId":"leaf","nodeName":"Leaf","nodeType":"function","stepNumber":2,"timestamp":"${FIXED_TIME}","error":{"type":"t","message":"m"},"path":["outer","inner"]}`,
    );
  });
});

describe('cloning', () => {
  it('keeps code and param after the source changes (scenario 8)', () => {
    const source: ResponseError = { type: 'biz_error', message: 'bad field', code: 'BIZ_001', param: 'field' };
    const clone = cloneResponseError(source);
    source.code = 'CHANGED';
    source.param = 'other';
    expect(clone).toEqual({ type: 'biz_error', message: 'bad field', code: 'BIZ_001', param: 'field' });
    expect(cloneResponseError(undefined)).toBeUndefined();
  });

  it('deep-copies a record with its error and path (scenario 8)', () => {
    const source = record('fatal', 'boom', { nodeId: 'n', path: ['a'], error: { type: 'flow_error', message: 'boom', code: 'BIZ_001', param: 'field' } });
    const clone = cloneExecutionError(source);
    source.error!.code = 'CHANGED';
    source.error!.param = 'other';
    source.path!.push('b');
    expect(clone.error).toEqual({ type: 'flow_error', message: 'boom', code: 'BIZ_001', param: 'field' });
    expect(clone.path).toEqual(['a']);
  });
});
