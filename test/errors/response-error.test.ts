import { describe, expect, it } from 'vitest';
import {
  ChatClientError,
  cloneResponseError,
  ErrorType,
  isResponseError,
  normalizeResponseError,
  StreamError,
  toResponseError,
  WorkflowError,
  type ResponseError,
} from '../../src/errors/index.js';

/** An error with Go-style method conventions, like the seed's business error packages. */
class CodedError extends Error {
  constructor(
    message: string,
    private readonly conventions: { errorType?: string; errorCode?: string; code?: string | number | bigint },
  ) {
    super(message);
  }
  errorType(): string | undefined {
    return this.conventions.errorType;
  }
}

function withMethods(message: string, methods: Record<string, () => unknown>): Error {
  return Object.assign(new Error(message), methods);
}

describe('toResponseError (seed-systems §1.3, decisions.md point 4)', () => {
  it('scenario 35: keeps type, code and message of a ResponseError', () => {
    const error: ResponseError = { type: 'biz_error', code: 'E42', message: 'bad' };
    expect(toResponseError(error)).toEqual({ type: 'biz_error', code: 'E42', message: 'bad' });
  });

  it('scenario 35: returns a clone, not the same object', () => {
    const error: ResponseError = { type: 'biz_error', code: 'E42', message: 'bad' };
    const converted = toResponseError(error);
    expect(converted).not.toBe(error);
    error.code = 'CHANGED';
    expect(converted?.code).toBe('E42');
  });

  it('scenario 36: reads errorType() and a numeric code() from a member of a joined (Aggregate) error', () => {
    const coded = withMethods('fatal thing', { errorType: () => 'fatal', code: () => -1 });
    const joined = new AggregateError([new Error('wrapper: boom'), coded], '');
    const converted = toResponseError(joined);
    expect(converted?.type).toBe('fatal');
    expect(converted?.code).toBe('-1');
    expect(converted?.message).toBe('wrapper: boom\nfatal thing');
  });

  it('scenario 37: gives undefined for null and undefined', () => {
    expect(toResponseError(null)).toBeUndefined();
    expect(toResponseError(undefined)).toBeUndefined();
  });

  it('scenario 37: falls back to flow_error with no code for a plain error', () => {
    const converted = toResponseError(new Error('boom'));
    expect(converted).toEqual({ type: 'flow_error', message: 'boom' });
    expect(converted).not.toHaveProperty('code');
  });

  it('scenario 38: uses errorCode()', () => {
    expect(toResponseError(withMethods('x', { errorCode: () => 'E_CODE' }))?.code).toBe('E_CODE');
  });

  it('scenario 38: uses a string code()', () => {
    expect(toResponseError(withMethods('x', { code: () => 'E_STR' }))?.code).toBe('E_STR');
  });

  it('scenario 38: stringifies integer codes base-10 (Go int32 / int64 become number / bigint)', () => {
    expect(toResponseError(withMethods('x', { code: () => 32 }))?.code).toBe('32');
    expect(toResponseError(withMethods('x', { code: () => 64n }))?.code).toBe('64');
    expect(toResponseError(Object.assign(new Error('x'), { code: 2n ** 70n }))?.code).toBe('1180591620717411303424');
  });

  it('scenario 39: a code of 0 gives "0" (no emptiness check for numbers)', () => {
    expect(toResponseError(withMethods('x', { code: () => 0 }))?.code).toBe('0');
    expect(toResponseError(Object.assign(new Error('x'), { code: -0 }))?.code).toBe('0');
  });

  it('scenario 39: an empty errorCode() falls through to code', () => {
    expect(toResponseError(withMethods('x', { errorCode: () => '', code: () => 'X' }))?.code).toBe('X');
  });

  it('honours plain properties as well as methods (err.code is how JS errors carry codes)', () => {
    const error = Object.assign(new Error('connection reset'), { code: 'ECONNRESET', errorType: 'network' });
    expect(toResponseError(error)).toEqual({ type: 'network', message: 'connection reset', code: 'ECONNRESET' });
  });

  it('prefers a non-empty string code over a numeric one found earlier in the chain', () => {
    const inner = Object.assign(new Error('inner'), { code: 'INNER' });
    const outer = Object.assign(new Error('outer', { cause: inner }), { code: 500 });
    expect(toResponseError(outer)?.code).toBe('INNER');
  });

  it('falls back to a numeric code when the only string code is empty', () => {
    const inner = Object.assign(new Error('inner'), { code: 7 });
    const outer = Object.assign(new Error('outer', { cause: inner }), { code: '' });
    expect(toResponseError(outer)?.code).toBe('7');
  });

  it('takes type and code through the cause chain', () => {
    const root = new CodedError('inventory lookup timed out', { errorType: 'flow_error' });
    Object.assign(root, { errorCode: () => 'ORDER_INVENTORY_SOFT_TIMEOUT' });
    const wrapped = new Error('node lookup failed', { cause: root });
    expect(toResponseError(wrapped)).toEqual({
      type: 'flow_error',
      message: 'node lookup failed',
      code: 'ORDER_INVENTORY_SOFT_TIMEOUT',
    });
  });

  it('lets the first errorType implementer win even when it answers empty (deeper ones are not consulted)', () => {
    const deep = withMethods('deep', { errorType: () => 'deep_type' });
    const outer = Object.assign(new Error('outer', { cause: deep }), { errorType: () => '' });
    expect(toResponseError(outer, 'run_error')?.type).toBe('run_error');
  });

  it('finds a ResponseError embedded deep in the cause chain and ignores outer conventions', () => {
    const embedded: ResponseError = { type: 'remote_error', message: 'remote validation failed', code: 'REMOTE_VALIDATION_FAILED', param: 'sku' };
    const outer = Object.assign(new Error('wrapper', { cause: new Error('middle', { cause: embedded }) }), {
      errorType: () => 'outer_type',
      code: 'OUTER',
    });
    expect(toResponseError(outer)).toEqual(embedded);
  });

  it('fills an embedded ResponseError with an empty message from the outer error, and an empty type from the fallback', () => {
    const outer = new Error('outer message', { cause: { type: '', message: '', code: 'C1' } });
    expect(toResponseError(outer, 'api_error')).toEqual({ type: 'api_error', message: 'outer message', code: 'C1' });
  });

  it('finds a ResponseError inside an AggregateError', () => {
    const embedded = { type: 'flow_error', message: 'child failed', code: 'CHILD' };
    expect(toResponseError(new AggregateError([new Error('a'), embedded], 'many'))?.code).toBe('CHILD');
  });

  it('uses the given fallback type', () => {
    expect(toResponseError(new Error('boom'), ErrorType.RunError)?.type).toBe('run_error');
  });

  it('maps framework errors to their wire types', () => {
    expect(toResponseError(new ChatClientError('Chat API returned 503', { status: 503 }))?.type).toBe('api_error');
    expect(toResponseError(new StreamError('bad chunk', { reason: 'malformed_chunk' }))?.type).toBe('stream_error');
    expect(toResponseError(new WorkflowError('step limit', { code: 'STEP_LIMIT' }))).toEqual({
      type: 'flow_error',
      message: 'step limit',
      code: 'STEP_LIMIT',
    });
  });

  it('skips the legacy numeric code of a DOMException', () => {
    const converted = toResponseError(new DOMException('The operation was aborted.', 'AbortError'));
    expect(converted).toEqual({ type: 'flow_error', message: 'The operation was aborted.' });
  });

  it('converts non-error values', () => {
    expect(toResponseError('plain text')).toEqual({ type: 'flow_error', message: 'plain text' });
    expect(toResponseError(42)).toEqual({ type: 'flow_error', message: '42' });
    expect(toResponseError({ reason: 'x' })).toEqual({ type: 'flow_error', message: '{"reason":"x"}' });
  });

  it('terminates on a cause chain that loops', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.defineProperty(first, 'cause', { value: second });
    expect(toResponseError(first)).toEqual({ type: 'flow_error', message: 'first' });
  });

  it('treats a throwing convention method as not implemented', () => {
    const error = withMethods('x', {
      errorType: () => {
        throw new Error('bad method');
      },
      code: () => 'STILL_READ',
    });
    expect(toResponseError(error)).toEqual({ type: 'flow_error', message: 'x', code: 'STILL_READ' });
  });
});

describe('ResponseError helpers', () => {
  it('isResponseError accepts plain {type, message, code?, param?} only', () => {
    expect(isResponseError({ type: 'a', message: 'b' })).toBe(true);
    expect(isResponseError({ type: 'a', message: 'b', code: 'c', param: 'd' })).toBe(true);
    expect(isResponseError({ type: 'a', message: 'b', code: 1 })).toBe(false);
    expect(isResponseError({ type: 'a' })).toBe(false);
    expect(isResponseError(Object.assign(new Error('b'), { type: 'a' }))).toBe(false);
    expect(isResponseError(null)).toBe(false);
    expect(isResponseError([])).toBe(false);
  });

  it('cloneResponseError keeps code and param after the source changes (scenario 8)', () => {
    const source: ResponseError = { type: 'flow_error', message: 'm', code: 'BIZ_001', param: 'field' };
    const clone = cloneResponseError(source);
    source.code = 'OTHER';
    source.param = 'other';
    expect(clone).toEqual({ type: 'flow_error', message: 'm', code: 'BIZ_001', param: 'field' });
    expect(cloneResponseError(undefined)).toBeUndefined();
  });

  it('cloneResponseError drops unknown keys', () => {
    const source = { type: 't', message: 'm', extra: 'x' } as ResponseError;
    expect(cloneResponseError(source)).toEqual({ type: 't', message: 'm' });
  });

  it('normalizeResponseError stringifies a numeric code from a peer and rejects non-errors', () => {
    expect(normalizeResponseError({ type: 'api_error', message: 'x', code: 500 })).toEqual({ type: 'api_error', message: 'x', code: '500' });
    expect(normalizeResponseError({ message: 'only message' })).toEqual({ type: '', message: 'only message' });
    expect(normalizeResponseError({ type: 'x' })).toBeUndefined();
    expect(normalizeResponseError('text')).toBeUndefined();
  });
});
