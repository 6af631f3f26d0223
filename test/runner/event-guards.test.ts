/**
 * `isRunnerCompletion` and `isTerminalError` are type guards: inside their `if`, `event.response` (and for a terminal
 * error, `event.response.error`) need no `?.` — checked by `tsc -p tsconfig.test.json` through `expectTypeOf` — and
 * they still answer exactly tRPC's predicates at run time.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ResponseError } from '../../src/errors/index.js';
import { fatalWriteGraph } from '../helpers/graphs.js';
import { createGraphAgent } from '../../src/graph/index.js';
import {
  createErrorEvent,
  createEvent,
  isRunnerCompletion,
  isTerminalError,
  Runner,
  type EventResponse,
  type RunEvent,
  type RunnerCompletionEvent,
  type TerminalErrorEvent,
} from '../../src/runner/index.js';

const origin = { invocationId: 'invocation-1', author: 'agent' };

describe('isRunnerCompletion and isTerminalError', () => {
  it('narrow a RunEvent to the completion and the terminal-error event types', () => {
    expectTypeOf(isRunnerCompletion).guards.toEqualTypeOf<RunnerCompletionEvent>();
    expectTypeOf(isTerminalError).guards.toEqualTypeOf<TerminalErrorEvent>();
    const event: RunEvent = createEvent(origin, { response: { object: 'runner.completion', done: true } });
    if (isRunnerCompletion(event)) {
      expectTypeOf(event.response).toMatchTypeOf<EventResponse>();
      expectTypeOf(event.response.object).toEqualTypeOf<'runner.completion'>();
      expectTypeOf(event.response.done).toEqualTypeOf<true>();
      expectTypeOf(event.response.error).toEqualTypeOf<ResponseError | undefined>();
    }
    if (isTerminalError(event)) expectTypeOf(event.response.error).toEqualTypeOf<ResponseError>();
    expectTypeOf<RunnerCompletionEvent>().toMatchTypeOf<RunEvent>();
    expectTypeOf<TerminalErrorEvent>().toMatchTypeOf<RunEvent>();
  });

  it('answer as before at run time, for undefined and null too', () => {
    const completion = createEvent(origin, { response: { object: 'runner.completion', done: true } });
    const unfinished = createEvent(origin, { response: { object: 'runner.completion', done: false } });
    const nodeError = createEvent(origin, { response: { object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'x' } } });
    const terminal = createErrorEvent(origin, { type: 'run_error', message: 'down' });
    expect([completion, unfinished, nodeError, terminal, undefined, null].map((event) => isRunnerCompletion(event))).toEqual([true, false, false, false, false, false]);
    expect([completion, unfinished, nodeError, terminal, undefined, null].map((event) => isTerminalError(event))).toEqual([false, false, false, true, false, false]);
  });

  it("read a graph run's code off the completion without optional chaining", async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('writer', fatalWriteGraph()) });
    const codes: string[] = [];
    let completions = 0;
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'write' })) {
      if (isTerminalError(event)) codes.push(event.response.error.code ?? '');
      if (isRunnerCompletion(event)) completions += event.response.done ? 1 : 0;
    }
    expect(completions).toBe(1);
    expect(codes).toEqual(['WRITE_FATAL']);
  });
});
