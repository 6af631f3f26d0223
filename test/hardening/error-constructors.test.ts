/**
 * Every error class the package exports, found by walking the root entry (so a class added later is covered without
 * editing this file), constructed the way plain JS calls it: from `(message)` alone, and with arguments of any type
 * in every position. None may throw; each must be an `Error` with a string `message`, a `toJSON()` that gives JSON,
 * and a `ResponseError` from `toResponseError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as faultline from '../../src/index.js';
import { AgentNotFoundError, JSONRPCError, StreamError, toResponseError } from '../../src/errors/index.js';
import { ToolFailure } from '../../src/tools/index.js';

type ErrorClass = new (...args: unknown[]) => Error;

const errorClasses: Array<[string, ErrorClass]> = Object.entries(faultline)
  .filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error)
  .map(([name, value]) => [name, value as ErrorClass]);

/** Values plain JS passes where a message or options belong. */
const oddValue = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, 0, -1, Number.NaN, true, '', 'x', [], {}, [1, 'a'], { reason: 42 }, { problems: 'one' }, { issues: 7 }, { headers: 'h' }),
  fc.anything({ maxDepth: 2 }),
  fc.constant(Symbol('odd')),
  fc.constant(() => 'a function'),
  fc.constant(10n),
);

function expectUsable(error: Error): void {
  expect(error).toBeInstanceOf(Error);
  expect(typeof error.message).toBe('string');
  const json = (error as { toJSON?: () => unknown }).toJSON?.();
  if (json !== undefined) expect(() => JSON.stringify(json)).not.toThrow();
  const wire = toResponseError(error);
  expect(typeof wire?.type).toBe('string');
  expect(typeof wire?.message).toBe('string');
}

describe('every exported error class', () => {
  it('is found by walking the root entry', () => {
    const names = errorClasses.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['AgentError', 'StreamError', 'AgentNotFoundError', 'JSONRPCError', 'A2ATransportError', 'ToolFailure', 'RateLimitError']));
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  it.each(errorClasses)('%s constructs from (message) alone', (_name, Class) => {
    const error = new Class('something failed');
    expectUsable(error);
    expect(error.message).toBe(Class === AgentNotFoundError ? 'Agent not found: "something failed". No agents are registered.' : 'something failed');
  });

  it.each(errorClasses)('%s constructs from arguments of any type in every position', (_name, Class) => {
    fc.assert(
      fc.property(fc.array(oddValue, { maxLength: 4 }), (args) => {
        expectUsable(new Class(...args));
      }),
      { seed: 1101, numRuns: 150 },
    );
  });

  it('reads the examples of the issue as documented', () => {
    const stream = new StreamError('m');
    expect(stream.reason).toBe('malformed_chunk');
    expect(stream.afterOutput).toBe(false);
    const notFound = new AgentNotFoundError('x', {} as never);
    expect(notFound.availableIds).toEqual([]);
    expect(notFound.agentId).toBe('x');
    const rpc = new JSONRPCError('boom' as never, undefined as never);
    expect(rpc.message).toBe('boom');
    expect(rpc.rpcCode).toBe(-32603);
    const failure = new ToolFailure('QuotaExceeded' as never, undefined as never);
    expect(failure.type).toBe('ToolExecutionFailed');
    expect(failure.message).toBe('QuotaExceeded');
  });
});
