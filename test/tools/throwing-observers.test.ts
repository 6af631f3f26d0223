/**
 * A developer's observers cannot change an outcome: a tool log sink that throws (a log transport down) or returns a
 * rejected promise, runTool's `onRetry` and a chat request's `onRetry` that throw, are dropped through `quietCall`
 * like every other hook. Before, the sink's TypeError rejected runTool (an expected failure or a crash became a raw
 * rejection, and ended an agent run), and a throwing `onRetry` ended the call instead of the retry happening.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { collectChatStream, createOpenAICompatibleClient, createScriptedChatClient } from '../../src/chat/index.js';
import { sseResponse, textEvents } from '../../src/testing/index.js';
import { DataNotFoundError, defineTool, RateLimitError, runTool } from '../../src/tools/index.js';

const lookup = defineTool({ name: 'lookup', description: 'd', parameters: z.object({}), execute: () => { throw new DataNotFoundError('No order 42.'); } });
const crashing = defineTool({ name: 'crash', description: 'd', parameters: z.object({}), execute: () => { throw new Error('boom'); } });
const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ message: z.string() }), execute: ({ message }) => message });
const throwingSink = () => { throw new TypeError('log transport down'); };
const rejectingSink = () => Promise.reject(new TypeError('log transport down')) as unknown as void;

describe('a tool log sink that throws or rejects', () => {
  for (const [label, sink] of [['throws', throwingSink], ['rejects', rejectingSink]] as const) {
    it(`${label}: every outcome of runTool is still its own, and nothing is left unhandled`, async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => void unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      onTestFinished(() => void process.off('unhandledRejection', onUnhandled));
      expect((await runTool(lookup, '{}', { logger: sink })).outcome).toBe('failure');
      expect((await runTool(crashing, '{}', { logger: sink })).outcome).toBe('crash');
      expect((await runTool(echo, '{"message": 5}', { logger: sink })).outcome).toBe('invalid_arguments');
      const logging = defineTool({ name: 'logs', description: 'd', parameters: z.object({}), execute: (_args, { logger }) => { logger.info('hello'); return 'ok'; } });
      expect((await runTool(logging, '{}', { logger: sink })).outcome).toBe('success');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    });
  }

  it('the sink still receives every record', async () => {
    const events: string[] = [];
    await runTool(crashing, '{}', { logger: (record) => { events.push(record.event); throw new TypeError('down'); } });
    expect(events).toEqual(['tool.crash']);
  });

  it('an agent run with a throwing toolLogger completes', async () => {
    const model = createScriptedChatClient([{ toolCalls: [{ name: 'crash', arguments: '{}' }] }, { text: 'done' }]);
    const agent = new AgentBuilder('a').chatClient(model).tools([crashing]).toolLogger(throwingSink).build();
    const outcome = await collectAgentRun(await agent.run('hi')).then(() => 'completed', (error: Error) => `${error.name}: ${error.message}`);
    expect(outcome).toBe('completed');
  });
});

describe('an onRetry that throws', () => {
  it('runTool: the retry still happens and the call succeeds', async () => {
    let calls = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'd',
      parameters: z.object({}),
      retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 },
      execute: () => {
        if (++calls < 2) throw new RateLimitError('slow down');
        return 'ok';
      },
    });
    let notices = 0;
    const run = await runTool(flaky, '{}', { logger: false, onRetry: () => { notices++; throw new TypeError('metrics down'); } });
    expect(run.outcome).toBe('success');
    expect(run.attempts).toBe(2);
    expect(notices).toBe(1);
  });

  it('a chat request: the retry still happens and the answer arrives', async () => {
    let calls = 0;
    const fetch = async () =>
      ++calls === 1
        ? new Response(JSON.stringify({ error: { message: 'overloaded' } }), { status: 503, headers: { 'content-type': 'application/json' } })
        : sseResponse(textEvents(['hello']));
    const client = createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', apiKey: 'k', model: 'm', retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 }, fetch });
    let notices = 0;
    const response = await collectChatStream(
      client.stream({ messages: [{ role: 'user', content: 'Hi' }], onRetry: () => { notices++; throw new TypeError('metrics down'); } }),
    );
    expect(response.message.content).toBe('hello');
    expect(calls).toBe(2);
    expect(notices).toBe(1);
  });
});
