import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as fc from 'fast-check';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool, runTool, runToolCall, serializeToolResult, type ToolLogRecord } from '../../src/tools/index.js';

const getWeather = defineTool({ name: 'get_weather', description: 'x', parameters: z.object({ city: z.string() }), execute: ({ city }) => ({ city, temperature: 21 }) });
const search = defineTool({ name: 'search', description: 'x', parameters: z.object({ query: z.string() }), execute: ({ query }) => [query] });

describe('runToolCall', () => {
  it('runs the named tool with the call id of the model', async () => {
    const run = await runToolCall([getWeather, search], { id: 'call_abc', name: 'get_weather', arguments: '{"city":"Paris"}' }, { logger: () => {} });
    expect(run).toMatchObject({ toolName: 'get_weather', callId: 'call_abc', outcome: 'success' });
    expect(serializeToolResult(run.result)).toBe('{"ok":true,"data":{"city":"Paris","temperature":21}}');
  });

  it('item 93: an unknown tool gives a ToolNotFound result listing the available tools and the closest match', async () => {
    const records: ToolLogRecord[] = [];
    const run = await runToolCall([getWeather, search], { id: 'call_x', name: 'get_wether', arguments: '{}' }, { logger: (record) => records.push(record) });
    expect(run).toMatchObject({ outcome: 'not_found', attempts: 0, callId: 'call_x', toolName: 'get_wether' });
    expect(run.result.toJSON()).toEqual({
      ok: false,
      error: {
        type: 'ToolNotFound',
        message: "No tool named 'get_wether' is available. Did you mean 'get_weather'? Available tools: get_weather, search.",
        context: { requested: 'get_wether', available: ['get_weather', 'search'], closest: 'get_weather' },
        suggestion: 'Call one of the available tools (get_weather, search) instead.',
      },
    });
    expect(records).toEqual([expect.objectContaining({ level: 'warn', event: 'tool.not_found', callId: 'call_x' })]);
  });

  it('does not guess when nothing is close', async () => {
    const run = await runToolCall([getWeather, search], { name: 'x', arguments: '{}' }, { logger: () => {} });
    expect(run.result.error?.message).toBe("No tool named 'x' is available. Available tools: get_weather, search.");
  });

  it('says when no tools are available at all', async () => {
    const run = await runToolCall([], { name: 'anything', arguments: '{}' }, { logger: () => {} });
    expect(run.result.error?.message).toBe("No tool named 'anything' is available. No tools are available.");
    expect(run.result.error?.suggestion).toBe('Answer without calling tools.');
  });

  it('accepts a Map of tools', async () => {
    const tools = new Map([[search.name, search]]);
    expect((await runToolCall(tools, { name: 'search', arguments: '{"query":"q"}' }, { logger: () => {} })).result.data).toEqual(['q']);
  });

  it('shortens an absurdly long requested name and survives a non-string name', async () => {
    const long = await runToolCall([search], { name: 'n'.repeat(10_000), arguments: '{}' }, { logger: () => {} });
    expect(long.result.error!.message.length).toBeLessThan(300);
    const weird = await runToolCall([search], { name: 42 as unknown as string, arguments: '{}' }, { logger: () => {} });
    expect(weird.result.error?.type).toBe('ToolNotFound');
  });
});

describe('runTool and runToolCall from plain JavaScript: a first argument of the wrong shape', () => {
  const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
  it.each([
    ['an object of tools by name', { get_weather: getWeather }, /tools is an object, not an array or Map of tools made by defineTool\(\) \(to pass tools by name, use new Map/],
    ['null', null, /tools is null/],
    ['undefined', undefined, /tools is undefined/],
    ['a string', 'get_weather', /tools is a string/],
    ['an array holding null', [getWeather, null], /tools\[1\] is null, not a tool made by defineTool\(\)/],
    ['an array holding a plain object', [{ name: 'get_weather', execute: () => 1 }], /tools\[0\] is an object/],
    ['a Map holding a function', new Map([['get_weather', () => 1]]), /tools\.get\("get_weather"\) is a function/],
    ['seven bad entries', Array.from({ length: 7 }, () => 1), /tools\[4\] is a number.*and 2 more entries are not tools/],
  ])('%s rejects with a ConfigError naming it, before anything runs', async (_title, tools, says) => {
    const error = await runToolCall(tools as never, call).then(() => undefined, (reason: unknown) => reason);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(says);
  });

  it('a Map and a Set of tools are tool sets like an array', async () => {
    for (const tools of [new Map([['get_weather', getWeather]]), new Set([getWeather])]) expect((await runToolCall(tools, call)).outcome).toBe('success');
  });

  it.each([null, undefined, 'get_weather', { name: 'get_weather', execute: () => 1 }])('runTool(%s) rejects with a ConfigError', async (tool) => {
    const error = await runTool(tool as never, '{}').then(() => undefined, (reason: unknown) => reason);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/not a tool made by defineTool\(\)/);
  });

  it('any value as the tool set gives a run or a ConfigError, never another error (property)', async () => {
    await fc.assert(fc.asyncProperty(fc.anything(), async (tools) => {
      const outcome = await runToolCall(tools as never, call).then(() => 'run', (reason: unknown) => reason);
      if (outcome !== 'run') expect(ConfigError.isInstance(outcome), String(outcome)).toBe(true);
    }), { numRuns: 300 });
  });
});
