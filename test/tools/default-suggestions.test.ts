// A standard tool failure thrown by hand with a message alone tells the model nothing the error does not hold: its
// default suggestion never points at fields, issues, a schema listing or a wait time the result lacks. Every class of
// faultline/tools with a default suggestion is checked, so a new one is too.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as Tools from '../../src/tools/index.js';

type FailureClass = (new (message?: string) => Error) & { defaultSuggestion: string; name: string };

const classes = (Object.values(Tools) as unknown[]).filter(
  (value): value is FailureClass => typeof value === 'function' && typeof (value as { defaultSuggestion?: unknown }).defaultSuggestion === 'string',
);

/** Things a suggestion may point at only when the model-facing error carries them. */
const pointers: Array<[RegExp, (error: Record<string, unknown>) => boolean]> = [
  [/fields? listed|listed (in|fields)|the issues|issues listed/i, (error) => JSON.stringify(error.context ?? {}).includes('issues')],
  [/expectedSchema|schema (below|above|listed)/i, (error) => JSON.stringify(error.context ?? {}).includes('expectedSchema')],
  [/retry-after|in \d+ ?(ms|s|seconds)/i, (error) => JSON.stringify(error.context ?? {}).includes('retryAfter')],
  [/available tools listed|one of the (tools|names) listed/i, (error) => JSON.stringify(error.context ?? {}).includes('available')],
];

describe('default suggestions of the standard tool failures', () => {
  it('finds the standard failures (the check is not vacuous)', () => {
    expect(classes.map((each) => each.name)).toEqual(expect.arrayContaining(['InputValidationError', 'DataNotFoundError', 'RateLimitError', 'ToolInternalError']));
  });

  it.each(classes.map((each) => [each.name, each] as const))('%s thrown with a message alone points at nothing it lacks', async (_name, Failure) => {
    const tool = Tools.defineTool({ name: 'convert', description: 'Converts.', parameters: z.object({}), execute: () => { throw new Failure('JPY is not supported yet.'); } });
    const { result } = await Tools.runTool(tool, '{}', { logger: false });
    expect(result.ok).toBe(false);
    const error = (result as unknown as { error: Record<string, unknown> }).error;
    const suggestion = String(error.suggestion ?? '');
    expect(suggestion).not.toBe('');
    for (const [pointer, holds] of pointers) if (pointer.test(suggestion)) expect(holds(error), `${Failure.name}: "${suggestion}"`).toBe(true);
  });
});
