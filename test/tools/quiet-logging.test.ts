// Quiet defaults of the developer log (issue 15, item 3): expected failures print nothing, a crash prints exactly one
// redacted line, `false` prints nothing at all, `console` gets every record, a function receives every record.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool, runTool, runToolCall, toolErrorFromResponse, ToolResult, type ToolLogRecord } from '../../src/tools/index.js';

const SECRET = 'pw-3b9e77c1d2f04a86';
const METHODS = ['log', 'debug', 'info', 'warn', 'error'] as const;
type Printed = { method: (typeof METHODS)[number]; args: unknown[] };

let printed: Printed[] = [];
beforeEach(() => {
  printed = [];
  for (const method of METHODS) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push({ method, args }));
});
afterEach(() => vi.restoreAllMocks());

const userParameters = z.object({ id: z.number(), password: z.string().optional() });
/** Answers with an error result: an expected failure. */
const noUserTool = (name = 'get_user') =>
  defineTool({ name, description: 'A user by id.', parameters: userParameters, execute: () => ToolResult.error({ type: 'DataNotFoundError', message: 'No user 42.', suggestion: 'Check the id.' }) });
/** Maps the API's 404 to a ToolFailure: an expected failure. */
const users404Tool = (name = 'get_user') =>
  defineTool({
    name,
    description: 'A user by id.',
    parameters: userParameters,
    execute: async ({ id }) => {
      throw await toolErrorFromResponse(new Response(`{"error":"user ${id} not found"}`, { status: 404, statusText: 'Not Found' }), { service: 'Users API' });
    },
  });
/** Throws a plain error quoting a secret, over two lines: a crash. */
const crashingTool = (name = 'get_user') =>
  defineTool({
    name,
    description: 'A user by id.',
    parameters: userParameters,
    execute: () => {
      throw new TypeError(`login with ${SECRET} failed:\n  the database said no`);
    },
  });
const noUser = noUserTool();
const users404 = users404Tool();
const crashing = crashingTool();

describe('the default developer log', () => {
  it('prints nothing for a tool error result', async () => {
    const run = await runTool(noUser, '{"id":42}');
    expect(run.outcome).toBe('error_result');
    expect(printed).toEqual([]);
  });

  it('prints nothing for an HTTP 404 the tool mapped with toolErrorFromResponse', async () => {
    const run = await runTool(users404, '{"id":42}');
    expect(run).toMatchObject({ outcome: 'failure', result: { ok: false, error: { type: 'DataNotFoundError' } } });
    expect(printed).toEqual([]);
  });

  it('prints nothing for the other expected failures: invalid arguments, an unknown tool, a timeout', async () => {
    const slow = defineTool({ name: 'slow', description: 'Slow.', parameters: z.object({}), timeoutMs: 5, execute: () => new Promise(() => {}) });
    expect((await runTool(noUser, '{"id":"forty-two"}')).outcome).toBe('invalid_arguments');
    expect((await runToolCall([noUser], { id: 'call_1', name: 'get_usr', arguments: '{}' })).outcome).toBe('not_found');
    expect((await runTool(slow, '{}')).outcome).toBe('timeout');
    expect(printed).toEqual([]);
  });

  it('prints a crash as exactly one line on console.error, without the secret or the stack', async () => {
    const run = await runTool(crashing, { id: 42, password: SECRET }, { callId: 'call_9', secrets: [SECRET] });
    expect(run.outcome).toBe('crash');
    expect(printed).toHaveLength(1);
    const [line] = printed;
    expect(line?.method).toBe('error');
    expect(line?.args).toHaveLength(1);
    const text = String(line?.args[0]);
    expect(text).toBe('[faultline] tool.crash get_user (call_9): crashed: login with [REDACTED] failed: the database said no');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('\n');
  });

  it('in an agent run, a crash is printed once, and the expected failures not at all', async () => {
    const agent = new AgentBuilder('support')
      .chatClient(
        createScriptedChatClient([
          { toolCalls: [{ id: 'call_1', name: 'crash_user', arguments: { id: 1 } }, { id: 'call_2', name: 'missing_user', arguments: { id: 2 } }, { id: 'call_3', name: 'lookup', arguments: { id: 3 } }] },
          { text: 'Done.' },
        ]),
      )
      .tools([
        crashingTool('crash_user'),
        users404Tool('missing_user'),
        noUserTool('lookup'),
      ])
      .secrets([SECRET])
      .build();
    const result = await collectAgentRun(await agent.run('Users 1, 2 and 3?'));
    expect(result.toolResults.map((item) => item.outcome)).toEqual(['crash', 'failure', 'error_result']);
    expect(printed.map((entry) => [entry.method, entry.args.length])).toEqual([['error', 1]]);
    expect(String(printed[0]?.args[0])).toMatch(/^\[faultline\] tool\.crash crash_user \(call_1\): crashed: login with \[REDACTED\] failed/);
  });
});

describe('logger: false', () => {
  it('prints nothing at all, not even a crash', async () => {
    await runTool(crashing, '{"id":1}', { logger: false });
    await runTool(users404, '{"id":1}', { logger: false });
    await runToolCall([crashing], { name: 'nope', arguments: '{}' }, { logger: false });
    expect(printed).toEqual([]);
  });

  it('silences an agent built with toolLogger(false)', async () => {
    const agent = new AgentBuilder('quiet')
      .chatClient(createScriptedChatClient([{ toolCalls: [{ name: 'get_user', arguments: { id: 1 } }] }, { text: 'Sorry.' }]))
      .tools([crashing])
      .toolLogger(false)
      .build();
    const result = await collectAgentRun(await agent.run('User 1?'));
    expect(result.toolResults[0]?.outcome).toBe('crash');
    expect(printed).toEqual([]);
  });
});

describe('a logger function', () => {
  it('receives every record, of every level, redacted', async () => {
    const records: ToolLogRecord[] = [];
    let calls = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails, then crashes.',
      parameters: z.object({ id: z.number() }),
      retry: { maxAttempts: 2, initialDelayMs: 1, jitter: 'none' },
      execute: async (_args, { logger }) => {
        logger.debug(`attempt ${++calls}`);
        if (calls === 1) throw await toolErrorFromResponse(new Response('busy', { status: 503 }), { service: 'Users API' });
        throw new Error(`boom ${SECRET}`);
      },
    });
    const logger = (record: ToolLogRecord) => void records.push(record);
    await runTool(flaky, '{"id":"x"}', { logger });
    await runTool(flaky, '{"id":1}', { logger, secrets: [SECRET] });
    await runToolCall([flaky], { name: 'flaky2', arguments: '{}' }, { logger });
    expect(records.map((record) => [record.level, record.event])).toEqual([
      ['warn', 'tool.invalid_arguments'],
      ['debug', 'tool.log'],
      ['info', 'tool.retry'],
      ['debug', 'tool.log'],
      ['error', 'tool.crash'],
      ['warn', 'tool.not_found'],
    ]);
    expect(JSON.stringify(records)).not.toContain(SECRET);
    expect(records[4]?.error?.stack).toContain('boom [REDACTED]');
    expect(printed).toEqual([]);
  });
});

describe('logger: console', () => {
  it('prints every record on the method of its level, the real error beside a crash line', async () => {
    await runTool(users404, '{"id":42}', { logger: console, callId: 'call_1' });
    await runTool(crashing, '{"id":42}', { logger: console, callId: 'call_2', secrets: [SECRET] });
    expect(printed.map((entry) => [entry.method, String(entry.args[0]).split(':')[0]])).toEqual([
      ['warn', '[faultline] tool.failure get_user (call_1)'],
      ['error', '[faultline] tool.crash get_user (call_2)'],
    ]);
    expect(printed[1]?.args[1]).toMatchObject({ name: 'TypeError', message: expect.stringContaining('[REDACTED]') });
    expect(JSON.stringify(printed)).not.toContain(SECRET);
  });
});

describe('AgentBuilder.toolLogger', () => {
  it('rejects a value that is neither false, console nor a function', () => {
    const build = () => new AgentBuilder('a').chatClient(createScriptedChatClient([])).toolLogger('verbose' as never).build();
    expect(build).toThrow(ConfigError);
    expect(build).toThrow('toolLogger must be false, console or a function');
  });
});
