// runTool and runToolCall check their options before a tool runs: a NaN timeoutMs meant no limit at all, a mistyped
// onToolCrash reported crashes the default way, an unknown option was ignored, a null call became "No tool named
// 'undefined'". Each is a ConfigError listing every problem; valid options run the tool as before.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool, jsonSchema, runTool, runToolCall } from '../../src/tools/index.js';

const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: jsonSchema({ type: 'object' }), execute: async (args) => args });

async function problemsOf(call: () => Promise<unknown>): Promise<readonly string[]> {
  const error = await call().catch((caught: unknown) => caught);
  expect(ConfigError.isInstance(error), String(error)).toBe(true);
  return (error as ConfigError).problems;
}

describe('runTool / runToolCall options', () => {
  it.each([
    ['a NaN timeoutMs', { timeoutMs: Number.NaN }, 'timeoutMs must be a number > 0 or Infinity (got NaN)'],
    ['a string timeoutMs', { timeoutMs: '5' }, 'timeoutMs must be a number > 0 or Infinity (got "5")'],
    ['a negative maxArgumentsLength', { maxArgumentsLength: -1 }, 'maxArgumentsLength must be an integer ≥ 1 (got -1)'],
    ['a mistyped onToolCrash', { onToolCrash: 'throws' }, `onToolCrash must be 'result' or 'throw' (got "throws")`],
    ['a bad retry', { retry: { maxAttempts: -5 } }, 'retry.maxAttempts must be an integer ≥ 1 (got -5)'],
    ['a signal that is not one', { signal: 'x' }, 'signal must be an AbortSignal (got "x")'],
    ['an unknown option', { timeout: 5 }, 'unknown option "timeout" (did you mean timeoutMs?)'],
    ['a telemetry that is not one', { telemetry: 5 }, 'telemetry must come from openTelemetry(otel) (or be NO_TELEMETRY)'],
    ['null options', null, "the call's options must be an object (got null)"],
  ])('%s is refused by both, before the tool runs', async (_name, options, problem) => {
    expect(await problemsOf(() => runTool(echo, '{}', options as never))).toContain(problem);
    expect(await problemsOf(() => runToolCall([echo], { id: 'c1', name: 'echo', arguments: '{}' }, options as never))).toContain(problem);
  });

  it('a call that is not an object is refused; valid options run the tool', async () => {
    expect(await problemsOf(() => runToolCall([echo], null as never))).toEqual(['the call must be an object { id, name, arguments } (got null)']);
    const run = await runToolCall([echo], { id: 'c1', name: 'echo', arguments: '{"a":1}' }, { timeoutMs: Infinity, onToolCrash: 'throw', retry: false, secrets: [] });
    expect(run.result).toMatchObject({ ok: true, data: { a: 1 } });
  });
});
