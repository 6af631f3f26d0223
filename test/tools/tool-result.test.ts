import { describe, expect, it } from 'vitest';
import {
  APIFailure,
  AuthenticationError,
  DataNotFoundError,
  InputValidationError,
  NetworkError,
  PermissionError,
  RateLimitError,
  serializeToolResult,
  TimeoutError,
  ToolFailure,
  ToolInternalError,
  ToolNotFound,
  ToolResult,
} from '../../src/tools/index.js';
import { SerializeError } from '../../src/errors/index.js';

describe('ToolResult', () => {
  it('serializes success as {"ok":true,"data":…}', () => {
    const result = ToolResult.success({ path: 'src/main.rs', content: '...', bytes_read: 1024 });
    expect(serializeToolResult(result)).toBe('{"ok":true,"data":{"path":"src/main.rs","content":"...","bytes_read":1024}}');
  });

  it('sends undefined data as null so the model always sees a data key', () => {
    expect(serializeToolResult(ToolResult.success(undefined))).toBe('{"ok":true,"data":null}');
  });

  it('item 91: a plain error message becomes a structured error (and RAF\'s flat form on request)', () => {
    const result = ToolResult.error('File not found');
    expect(serializeToolResult(result)).toBe('{"ok":false,"error":{"type":"ToolExecutionFailed","message":"File not found"}}');
    expect(serializeToolResult(result, { errorFormat: 'flat' })).toBe('{"ok":false,"error":"File not found"}');
  });

  it('keeps the key order ok, data, error for errorWithData', () => {
    const result = ToolResult.errorWithData('参数校验失败', { invalid_fields: ['path'] });
    expect(serializeToolResult(result)).toBe(
      '{"ok":false,"data":{"invalid_fields":["path"]},"error":{"type":"ToolExecutionFailed","message":"参数校验失败"}}',
    );
    expect(Object.keys(JSON.parse(serializeToolResult(result)))).toEqual(['ok', 'data', 'error']);
  });

  it('accepts the course\'s structured error with context and suggestion', () => {
    const result = ToolResult.error({
      type: 'InputValidationError',
      message: "Invalid user_id: 'abc'. ID must be a positive integer.",
      context: { user_id: 'abc' },
      suggestion: 'Pass a positive integer.',
    });
    expect(result.toJSON()).toEqual({
      ok: false,
      error: {
        type: 'InputValidationError',
        message: "Invalid user_id: 'abc'. ID must be a positive integer.",
        context: { user_id: 'abc' },
        suggestion: 'Pass a positive integer.',
      },
    });
  });

  it('accepts a ToolFailure and exposes only its model-facing part', () => {
    const cause = new Error('db password=hunter2 rejected');
    const result = ToolResult.error(new DataNotFoundError('No profile found for user_id: 42.', { context: { user_id: 42 }, cause }));
    expect(result.error).toEqual({
      type: 'DataNotFoundError',
      message: 'No profile found for user_id: 42.',
      context: { user_id: 42 },
      suggestion: DataNotFoundError.defaultSuggestion,
    });
    expect(serializeToolResult(result)).not.toContain('hunter2');
  });

  it('appends the suggestion to the flat form as a sentence', () => {
    const result = ToolResult.error(new DataNotFoundError('No user 42'));
    expect(JSON.parse(serializeToolResult(result, { errorFormat: 'flat' })).error).toBe(`No user 42. ${DataNotFoundError.defaultSuggestion}`);
  });

  it('gives an untyped error object the generic type, and a plain Error its message', () => {
    expect(ToolResult.error({ message: 'x' } as never).error).toEqual({ type: 'ToolExecutionFailed', message: 'x' });
    expect(ToolResult.error(new Error('raw')).error).toEqual({ type: 'ToolExecutionFailed', message: 'raw' });
  });

  it('returns partial data together with what failed (graceful degradation)', () => {
    const result = ToolResult.partial(
      { current: { temperature: 21 } },
      { forecast: new NetworkError('The forecast service could not be reached.') },
    );
    const json = JSON.parse(serializeToolResult(result));
    expect(Object.keys(json)).toEqual(['ok', 'data', 'error']);
    expect(json.ok).toBe(true);
    expect(json.data).toEqual({ current: { temperature: 21 } });
    expect(json.error.type).toBe('PartialFailure');
    expect(json.error.message).toContain('forecast (NetworkError: The forecast service could not be reached)');
    expect(json.error.context.failed.forecast.type).toBe('NetworkError');
    expect(json.error.suggestion).toMatch(/Use the data/);
  });

  it('treats a partial result without failures as a success', () => {
    expect(ToolResult.partial({ a: 1 }, {}).toJSON()).toEqual({ ok: true, data: { a: 1 } });
  });

  it('is immutable', () => {
    const result = ToolResult.success(1);
    expect(() => {
      (result as { ok: boolean }).ok = false;
    }).toThrow(TypeError);
  });

  it('is recognised by isInstance and only by it', () => {
    expect(ToolResult.isInstance(ToolResult.success(1))).toBe(true);
    expect(ToolResult.isInstance({ ok: true, data: 1 })).toBe(false);
  });

  it('throws a SerializeError for data that cannot be JSON (cycle, BigInt)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => serializeToolResult(ToolResult.success(cyclic))).toThrow(SerializeError);
    expect(() => serializeToolResult(ToolResult.success({ big: 10n }))).toThrow(/cannot be written as JSON/);
  });
});

describe('the standard tool failures', () => {
  const cases = [
    [InputValidationError, false],
    [DataNotFoundError, false],
    [AuthenticationError, false],
    [PermissionError, false],
    [RateLimitError, true],
    [TimeoutError, true],
    [NetworkError, true],
    [APIFailure, true],
    [ToolNotFound, false],
    [ToolInternalError, false],
  ] as const;

  for (const [Failure, retryable] of cases) {
    it(`${Failure.name} has type "${Failure.name}", a default message and suggestion, and retryable=${retryable}`, () => {
      const failure = new Failure();
      expect(failure.type).toBe(Failure.name);
      expect(failure.name).toBe(Failure.name);
      expect(failure.message).toBe(Failure.defaultMessage);
      expect(failure.suggestion).toBe(Failure.defaultSuggestion);
      expect(failure.retryable).toBe(retryable);
      expect(failure.toErrorInfo()).toEqual({ type: Failure.name, message: Failure.defaultMessage, suggestion: Failure.defaultSuggestion });
      expect(Failure.isInstance(failure)).toBe(true);
      expect(ToolFailure.isInstance(failure)).toBe(true);
    });
  }

  it('lets each instance override message, suggestion, context and retryable', () => {
    const failure = new APIFailure('The payment service answered 501.', { retryable: false, suggestion: 'Use another method.', context: { status: 501 } });
    expect(failure.toErrorInfo()).toEqual({
      type: 'APIFailure',
      message: 'The payment service answered 501.',
      context: { status: 501 },
      suggestion: 'Use another method.',
    });
    expect(failure.retryable).toBe(false);
  });

  it('RateLimitError states the wait in its suggestion', () => {
    expect(new RateLimitError(undefined, { retryAfterMs: 30_000 }).suggestion).toBe(
      'Wait at least 30 seconds before calling this tool again, and make fewer calls.',
    );
  });

  it('copies context so later changes by the tool do not leak into the result', () => {
    const context = { user_id: 1 };
    const failure = new DataNotFoundError('missing', { context });
    context.user_id = 2;
    expect(failure.toErrorInfo().context).toEqual({ user_id: 1 });
  });

  it('a custom category works through the base class', () => {
    const failure = new ToolFailure('QuotaExceeded', 'The monthly translation quota is used up.');
    expect(ToolResult.error(failure).error).toEqual({ type: 'QuotaExceeded', message: 'The monthly translation quota is used up.' });
    expect(JSON.parse(JSON.stringify(failure))).toEqual({ type: 'QuotaExceeded', message: 'The monthly translation quota is used up.' });
  });
});
