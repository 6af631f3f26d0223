import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { ToolError } from '../../src/errors/index.js';
import {
  APIFailure,
  DataNotFoundError,
  defineTool,
  NetworkError,
  RateLimitError,
  runTool,
  serializeToolResult,
  ToolResult,
  type ToolLogRecord,
  type ToolRetryNotice,
} from '../../src/tools/index.js';

function collectLogs() {
  const records: ToolLogRecord[] = [];
  return { records, logger: (record: ToolLogRecord) => records.push(record) };
}

const echo = defineTool({
  name: 'echo',
  description: 'Echo a message.',
  parameters: z.object({ message: z.string() }),
  execute: ({ message }) => ({ echoed: message }),
});

describe('runTool: arguments', () => {
  it('runs a valid call and returns the data as a success result', async () => {
    const run = await runTool(echo, '{"message":"hello from tool"}', { callId: 'call_1', logger: () => {} });
    expect(run).toMatchObject({ toolName: 'echo', callId: 'call_1', outcome: 'success', attempts: 1, arguments: { message: 'hello from tool' } });
    expect(serializeToolResult(run.result)).toBe('{"ok":true,"data":{"echoed":"hello from tool"}}');
  });

  it('item 95: non-JSON arguments give an InputValidationError with the parse error and the expected schema', async () => {
    const execute = vi.fn();
    const tool = defineTool({ name: 'echo', description: 'x', parameters: z.object({ message: z.string() }), execute });
    const run = await runTool(tool, 'not json', { logger: () => {} });
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.attempts).toBe(0);
    expect(execute).not.toHaveBeenCalled();
    expect(run.result.error?.type).toBe('InputValidationError');
    expect(run.result.error?.message).toMatch(/^Tool 'echo' was called with invalid JSON arguments: not json\. Parse error: .+\.$/);
    expect(run.result.error?.context).toEqual({
      received: 'not json',
      expectedSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    });
    expect(run.result.error?.suggestion).toBe("Call 'echo' again with a JSON object that matches expectedSchema.");
  });

  it('item 94: a missing required field is named, the tool is not executed', async () => {
    const execute = vi.fn();
    const tool = defineTool({ name: 'echo', description: 'x', parameters: z.object({ message: z.string() }), execute });
    const run = await runTool(tool, '{}', { logger: () => {} });
    expect(execute).not.toHaveBeenCalled();
    expect(run.result.error?.message).toBe(
      "Tool 'echo' was called with invalid arguments: message: Invalid input: expected string, received undefined (the field is missing).",
    );
    expect(run.result.error?.context?.issues).toEqual([
      { path: 'message', message: 'Invalid input: expected string, received undefined', expected: 'string', missing: true },
    ]);
  });

  it('names each bad field with what was expected and what was sent', async () => {
    const tool = defineTool({
      name: 'book',
      description: 'x',
      parameters: z.object({ guests: z.number().int().min(1), rooms: z.array(z.object({ kind: z.enum(['single', 'double']) })) }),
      execute: () => 'ok',
    });
    const run = await runTool(tool, '{"guests": 0, "rooms": [{"kind": "suite"}]}', { logger: () => {} });
    const issues = run.result.error?.context?.issues as Array<Record<string, unknown>>;
    expect(issues.map((issue) => issue.path)).toEqual(['guests', 'rooms[0].kind']);
    expect(issues[0]).toMatchObject({ received: '0' });
    expect(issues[1]).toMatchObject({ received: '"suite"' });
    expect(run.result.error?.message).toContain('rooms[0].kind: Invalid option: expected one of "single"|"double" (sent: "suite")');
  });

  it('says the tool was called without arguments when the string is empty', async () => {
    const run = await runTool(echo, '   ', { logger: () => {} });
    expect(run.result.error?.message).toMatch(/^Tool 'echo' was called without any arguments: message:/);
  });

  it('treats empty arguments as {} for a tool without required fields', async () => {
    const ping = defineTool({ name: 'ping', description: 'x', parameters: z.object({ verbose: z.boolean().optional() }), execute: () => 'pong' });
    expect((await runTool(ping, '', { logger: () => {} })).result.data).toBe('pong');
    expect((await runTool(ping, undefined, { logger: () => {} })).result.data).toBe('pong');
  });

  it('decodes arguments the model double-encoded as a JSON string', async () => {
    const run = await runTool(echo, JSON.stringify(JSON.stringify({ message: 'x' })), { logger: () => {} });
    expect(run.outcome).toBe('success');
    expect(run.argumentsCoerced).toBe(true);
  });

  it('decodes a field the model sent as a JSON-encoded string when that makes the arguments valid', async () => {
    const search = defineTool({
      name: 'search',
      description: 'x',
      parameters: z.object({ filters: z.object({ year: z.number() }), limit: z.number() }),
      execute: (args) => args,
    });
    const run = await runTool(search, '{"filters": "{\\"year\\": 2024}", "limit": "5"}', { logger: () => {} });
    expect(run.outcome).toBe('success');
    expect(run.result.data).toEqual({ filters: { year: 2024 }, limit: 5 });
  });

  it('does not coerce a string that is not JSON', async () => {
    const counter = defineTool({ name: 'count', description: 'x', parameters: z.object({ n: z.number() }), execute: ({ n }) => n });
    expect((await runTool(counter, '{"n": "five"}', { logger: () => {} })).outcome).toBe('invalid_arguments');
  });

  it('accepts already-parsed argument objects', async () => {
    expect((await runTool(echo, { message: 'parsed' }, { logger: () => {} })).result.data).toEqual({ echoed: 'parsed' });
  });

  it('rejects arguments past the size bound without parsing them', async () => {
    const run = await runTool(echo, `{"message":"${'x'.repeat(2_000)}"}`, { maxArgumentsLength: 1_000, logger: () => {} });
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.message).toBe("Tool 'echo' was called with arguments that are too large (2014 characters; the limit is 1000).");
  });

  it('lets a repair hook fix the arguments once', async () => {
    const repair = vi.fn(({ arguments: raw }: { arguments: unknown }) => String(raw).replace(/'/g, '"'));
    const run = await runTool(echo, "{'message': 'single quotes'}", { repair, logger: () => {} });
    expect(repair).toHaveBeenCalledTimes(1);
    expect(run.outcome).toBe('success');
    expect(run.argumentsRepaired).toBe(true);
    expect(run.result.data).toEqual({ echoed: 'single quotes' });
  });

  it('reports the original failure when the repair hook gives up or fails again, calling it only once', async () => {
    const givingUp = vi.fn(() => undefined);
    expect((await runTool(echo, 'nope', { repair: givingUp, logger: () => {} })).result.error?.message).toMatch(/invalid JSON arguments: nope/);
    const stillBad = vi.fn(() => '{"message": 1}');
    const run = await runTool(echo, 'nope', { repair: stillBad, logger: () => {} });
    expect(stillBad).toHaveBeenCalledTimes(1);
    expect(run.result.error?.message).toContain('message: Invalid input: expected string, received number (sent: 1)');
  });

  it('treats a repair hook that throws as giving up, and logs it', async () => {
    const records: ToolLogRecord[] = [];
    const run = await runTool(echo, 'nope', {
      repair: () => {
        throw new Error('repair model offline');
      },
      logger: (record) => records.push(record),
    });
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.message).toMatch(/invalid JSON arguments: nope/);
    expect(records.map((record) => [record.level, record.message])).toContainEqual(['error', 'the repair hook threw: repair model offline']);
  });

  it('logs rejected arguments for developers with secrets redacted', async () => {
    const { records, logger } = collectLogs();
    await runTool(echo, '{"message": 1, "api_key": "sk-live-1234567890abcdef"}', { logger });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'warn', event: 'tool.invalid_arguments', toolName: 'echo' });
    expect(JSON.stringify(records)).not.toContain('sk-live-1234567890abcdef');
  });
});

describe('runTool: failures and crashes', () => {
  it('item 91: a returned ToolResult.error reaches the model as is', async () => {
    const read = defineTool({ name: 'read_file', description: 'x', parameters: z.object({ path: z.string() }), execute: () => ToolResult.error('File not found') });
    const run = await runTool(read, '{"path":"src/missing.rs"}', { logger: () => {} });
    expect(run.outcome).toBe('error_result');
    expect(serializeToolResult(run.result, { errorFormat: 'flat' })).toBe('{"ok":false,"error":"File not found"}');
  });

  it('turns a thrown ToolFailure into its structured error', async () => {
    const lookup = defineTool({
      name: 'get_user_profile',
      description: 'x',
      parameters: z.object({ user_id: z.number() }),
      execute: ({ user_id }) => {
        throw new DataNotFoundError(`No profile found for user_id: ${user_id}.`, { context: { user_id } });
      },
    });
    const run = await runTool(lookup, '{"user_id": 42}', { logger: () => {} });
    expect(run.outcome).toBe('failure');
    expect(run.result.toJSON()).toEqual({
      ok: false,
      error: { type: 'DataNotFoundError', message: 'No profile found for user_id: 42.', context: { user_id: 42 }, suggestion: DataNotFoundError.defaultSuggestion },
    });
  });

  // RAF sends the model "Framework error: Tool execution error: …"; decisions.md point 10 hides crash details from the
  // model (a sanitized ToolInternalError) and gives them to the developer log instead.
  it('item 92: a crash gives the model a sanitized ToolInternalError and the developer the real error', async () => {
    const { records, logger } = collectLogs();
    const crashing = defineTool({
      name: 'get_user_profile',
      description: 'x',
      parameters: z.object({ user_id: z.number(), password: z.string() }),
      execute: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'rows') at db password=hunter2");
      },
    });
    const run = await runTool(crashing, '{"user_id": 7, "password": "hunter2"}', { callId: 'call_9', logger, secrets: ['hunter2'] });
    expect(run.outcome).toBe('crash');
    expect(run.result.toJSON()).toEqual({
      ok: false,
      error: {
        type: 'ToolInternalError',
        message: "The tool 'get_user_profile' failed with an unexpected internal error.",
        suggestion: 'Do not retry with the same arguments; try a different approach, or tell the user the tool failed.',
      },
    });
    expect(run.error).toBeInstanceOf(TypeError);
    const crash = records.find((record) => record.event === 'tool.crash');
    expect(crash).toMatchObject({
      level: 'error',
      toolName: 'get_user_profile',
      callId: 'call_9',
      attempt: 1,
      arguments: { user_id: 7, password: '[REDACTED]' },
      error: { name: 'TypeError' },
    });
    expect(crash?.error?.stack).toContain('TypeError');
    expect(typeof crash?.durationMs).toBe('number');
    expect(JSON.stringify(records)).not.toContain('hunter2');
    expect(serializeToolResult(run.result)).not.toContain('rows');
  });

  it('uses formatError to tell the model more about a crash', async () => {
    const tool = defineTool({
      name: 'calc',
      description: 'x',
      parameters: z.object({ expression: z.string() }),
      execute: () => {
        throw new RangeError('division by zero');
      },
      formatError: (error) => ({ type: 'MathError', message: `Cannot evaluate: ${(error as Error).message}.`, suggestion: 'Avoid dividing by zero.' }),
    });
    expect((await runTool(tool, '{"expression":"1/0"}', { logger: () => {} })).result.error).toEqual({
      type: 'MathError',
      message: 'Cannot evaluate: division by zero.',
      suggestion: 'Avoid dividing by zero.',
    });
  });

  it('falls back to the generic crash message when formatError itself throws', async () => {
    const tool = defineTool({
      name: 'calc',
      description: 'x',
      parameters: z.object({}),
      execute: () => {
        throw new Error('boom');
      },
      formatError: () => {
        throw new Error('formatter bug');
      },
    });
    expect((await runTool(tool, '{}', { logger: () => {} })).result.error?.type).toBe('ToolInternalError');
  });

  it("onToolCrash: 'throw' raises a framework ToolError instead (RAF's documented mode)", async () => {
    const cause = new Error('disk on fire');
    const tool = defineTool({
      name: 'write',
      description: 'x',
      parameters: z.object({}),
      execute: () => {
        throw cause;
      },
    });
    const rejection = runTool(tool, '{}', { onToolCrash: 'throw', callId: 'c7', logger: () => {} });
    await expect(rejection).rejects.toBeInstanceOf(ToolError);
    await expect(rejection).rejects.toMatchObject({ message: "Tool 'write' crashed: disk on fire", toolName: 'write', callId: 'c7', cause });
  });

  it('turns a crash of the argument schema itself into a ToolInternalError', async () => {
    const exploding = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: () => {
          throw new Error('schema bug');
        },
      },
    };
    const tool = defineTool({ name: 'x', description: 'x', parameters: exploding, jsonSchema: { type: 'object' }, execute: () => 1 });
    const run = await runTool(tool, '{}', { logger: () => {} });
    expect(run.outcome).toBe('crash');
    expect(run.result.error?.type).toBe('ToolInternalError');
  });

  it('replaces a result that cannot be JSON with a ToolInternalError', async () => {
    const tool = defineTool({ name: 'big', description: 'x', parameters: z.object({}), execute: () => ({ value: 10n }) });
    const run = await runTool(tool, '{}', { logger: () => {} });
    expect(run.outcome).toBe('unserializable');
    expect(run.result.error?.message).toBe("The tool 'big' returned a result that cannot be sent to the model: data.value holds a BigInt.");
  });

  it('reports a partial result as outcome "partial"', async () => {
    const weather = defineTool({
      name: 'weather',
      description: 'x',
      parameters: z.object({}),
      execute: () => ToolResult.partial({ temperature: 21 }, { forecast: new NetworkError() }),
    });
    expect((await runTool(weather, '{}', { logger: () => {} })).outcome).toBe('partial');
  });

  it('hands execute its context: signal, call id, attempt, tool name and a logger', async () => {
    const { records, logger } = collectLogs();
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'inspect',
      description: 'x',
      parameters: z.object({}),
      execute: (_args, context) => {
        seen.push(context.signal instanceof AbortSignal, context.callId, context.attempt, context.toolName);
        context.logger.info('looked up the cache', { hits: 3 });
        return 'done';
      },
    });
    await runTool(tool, '{}', { callId: 'call_ctx', logger });
    expect(seen).toEqual([true, 'call_ctx', 1, 'inspect']);
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', event: 'tool.log', message: 'looked up the cache', data: { hits: 3 }, attempt: 1, callId: 'call_ctx' }));
  });
});

describe('runTool: timeouts, retries and aborts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times out a tool that ignores its signal, and aborts that signal with a TimeoutError reason', async () => {
    let signal: AbortSignal | undefined;
    const hanging = defineTool({
      name: 'hang',
      description: 'x',
      parameters: z.object({}),
      timeoutMs: 5_000,
      execute: (_args, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    const pending = runTool(hanging, '{}', { logger: () => {} });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const run = await pending;
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as DOMException).name).toBe('TimeoutError');
    expect(run.outcome).toBe('timeout');
    expect(run.result.error).toEqual({
      type: 'TimeoutError',
      message: "The tool 'hang' did not finish within 5000 ms.",
      context: { timeoutMs: 5000 },
      suggestion: 'Try again later, or narrow the request so it can finish faster.',
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('applies the default 60 s timeout, overridable per call', async () => {
    const hanging = defineTool({ name: 'hang', description: 'x', parameters: z.object({}), execute: () => new Promise(() => {}) });
    const byDefault = runTool(hanging, '{}', { logger: () => {} });
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await byDefault).outcome).toBe('timeout');
    const overridden = runTool(hanging, '{}', { timeoutMs: 10, logger: () => {} });
    await vi.advanceTimersByTimeAsync(10);
    expect((await overridden).result.error?.message).toBe("The tool 'hang' did not finish within 10 ms.");
  });

  it('retries retryable failures with exponential backoff and full jitter, then succeeds', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const notices: ToolRetryNotice[] = [];
    let calls = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'x',
      parameters: z.object({}),
      retry: { maxAttempts: 3, initialDelayMs: 1_000, maxDelayMs: 10_000 },
      execute: () => {
        calls++;
        if (calls < 3) throw new APIFailure('The payment service failed with 503 Service Unavailable.');
        return 'paid';
      },
    });
    const pending = runTool(flaky, '{}', { onRetry: (notice) => notices.push(notice), logger: () => {} });
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    const run = await pending;
    expect(run).toMatchObject({ outcome: 'success', attempts: 3 });
    expect(run.result.data).toBe('paid');
    expect(notices.map((notice) => [notice.attempt, notice.delayMs, notice.fromRetryAfter, notice.error.type])).toEqual([
      [1, 500, false, 'APIFailure'],
      [2, 1000, false, 'APIFailure'],
    ]);
  });

  it('honours Retry-After from a RateLimitError instead of the backoff', async () => {
    const notices: ToolRetryNotice[] = [];
    let calls = 0;
    const limited = defineTool({
      name: 'search',
      description: 'x',
      parameters: z.object({}),
      retry: { maxAttempts: 2 },
      execute: () => {
        calls++;
        if (calls === 1) throw new RateLimitError('The search API rate limit was reached.', { retryAfterMs: 7_000 });
        return 'results';
      },
    });
    const pending = runTool(limited, '{}', { onRetry: (notice) => notices.push(notice), logger: () => {} });
    await vi.advanceTimersByTimeAsync(6_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).result.data).toBe('results');
    expect(notices[0]).toMatchObject({ delayMs: 7_000, fromRetryAfter: true });
  });

  it('gives up when Retry-After exceeds maxRetryAfterMs and tells the model how long to wait', async () => {
    const execute = vi.fn(() => {
      throw new RateLimitError('Rate limited.', { retryAfterMs: 600_000 });
    });
    const tool = defineTool({ name: 'search', description: 'x', parameters: z.object({}), retry: { maxAttempts: 5, maxRetryAfterMs: 60_000 }, execute });
    const run = await runTool(tool, '{}', { logger: () => {} });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(run.result.error?.suggestion).toBe('Wait at least 600 seconds before calling this tool again, and make fewer calls.');
  });

  it('reports the last failure after the attempts run out', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const execute = vi.fn(() => {
      throw new NetworkError('The weather API could not be reached.');
    });
    const tool = defineTool({ name: 'weather', description: 'x', parameters: z.object({}), retry: { maxAttempts: 3 }, execute });
    const run = await runTool(tool, '{}', { logger: () => {} });
    expect(execute).toHaveBeenCalledTimes(3);
    expect(run).toMatchObject({ outcome: 'failure', attempts: 3 });
    expect(run.result.error?.type).toBe('NetworkError');
  });

  it('does not retry without a retry option, nor non-retryable failures, nor crashes', async () => {
    const network = vi.fn(() => {
      throw new NetworkError();
    });
    await runTool(defineTool({ name: 'a', description: 'x', parameters: z.object({}), execute: network }), '{}', { logger: () => {} });
    expect(network).toHaveBeenCalledTimes(1);
    const notFound = vi.fn(() => {
      throw new DataNotFoundError();
    });
    await runTool(defineTool({ name: 'b', description: 'x', parameters: z.object({}), retry: { maxAttempts: 3 }, execute: notFound }), '{}', { logger: () => {} });
    expect(notFound).toHaveBeenCalledTimes(1);
    const crash = vi.fn(() => {
      throw new Error('bug');
    });
    await runTool(defineTool({ name: 'c', description: 'x', parameters: z.object({}), retry: { maxAttempts: 3 }, execute: crash }), '{}', { logger: () => {} });
    expect(crash).toHaveBeenCalledTimes(1);
  });

  it('retries a timed-out attempt when retries are configured', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    let calls = 0;
    const tool = defineTool({
      name: 'slow',
      description: 'x',
      parameters: z.object({}),
      timeoutMs: 100,
      retry: { maxAttempts: 2 },
      execute: () => (++calls === 1 ? new Promise(() => {}) : 'fast enough'),
    });
    const pending = runTool(tool, '{}', { logger: () => {} });
    await vi.advanceTimersByTimeAsync(100);
    const run = await pending;
    expect(run).toMatchObject({ outcome: 'success', attempts: 2 });
  });

  it('rejects with the exact abort reason when the caller aborts mid-call, and never retries', async () => {
    const controller = new AbortController();
    const execute = vi.fn(() => new Promise(() => {}));
    const tool = defineTool({ name: 'slow', description: 'x', parameters: z.object({}), retry: { maxAttempts: 3 }, execute });
    const pending = runTool(tool, '{}', { signal: controller.signal, logger: () => {} });
    await vi.advanceTimersByTimeAsync(10);
    const reason = new DOMException('user left', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects during a backoff wait when aborted, without another attempt', async () => {
    const controller = new AbortController();
    const execute = vi.fn(() => {
      throw new NetworkError();
    });
    const tool = defineTool({ name: 'net', description: 'x', parameters: z.object({}), retry: { maxAttempts: 5, initialDelayMs: 10_000, jitter: 'none' }, execute });
    const pending = runTool(tool, '{}', { signal: controller.signal, logger: () => {} });
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('does not start the tool at all when the signal is already aborted', async () => {
    const execute = vi.fn(() => 'never');
    const tool = defineTool({ name: 'x', description: 'x', parameters: z.object({}), execute });
    await expect(runTool(tool, '{}', { signal: AbortSignal.abort(), logger: () => {} })).rejects.toMatchObject({ name: 'AbortError' });
    expect(execute).not.toHaveBeenCalled();
  });

  it('leaves no pending timers or listeners after a normal call', async () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await runTool(echo, '{"message":"x"}', { signal: controller.signal, logger: () => {} });
    expect(vi.getTimerCount()).toBe(0);
    expect(remove.mock.calls.length).toBe(add.mock.calls.length);
  });
});
