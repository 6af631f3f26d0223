// A model may ask for any number of tool calls in one turn: at most `maxParallelToolCalls` tools run at once (64 by
// default: a turn of thousands starts no thousands of requests), the rest start in call order as earlier ones end, and
// every call still gets its result, in the transcript in call order.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, DEFAULT_MAX_PARALLEL_TOOL_CALLS, runAgent } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool } from '../../src/tools/index.js';

/** A turn of `count` calls of a tool that records how many run at once and the order they start in. */
function probeTurn(count: number) {
  const seen = { running: 0, peak: 0, started: [] as number[], toolMessages: [] as unknown[] };
  const probe = defineTool({
    name: 'probe',
    description: 'Waits a little.',
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      seen.started.push(n);
      seen.peak = Math.max(seen.peak, ++seen.running);
      await new Promise((resolve) => setTimeout(resolve, 1 + (n % 5)));
      seen.running--;
      return { n };
    },
  });
  const calls = Array.from({ length: count }, (_, n) => ({ id: `c${n}`, name: 'probe', arguments: { n } }));
  const model = createScriptedChatClient([{ toolCalls: calls }, (request) => ((seen.toolMessages = request.messages.filter((message) => message.role === 'tool')), { text: 'done' })]);
  const expectAllAnswered = (text: string | undefined, limit: number): void => {
    expect(text).toBe('done');
    expect(seen.peak).toBe(Math.min(limit, count));
    expect(seen.started).toEqual(calls.map((_, n) => n));
    expect(seen.toolMessages.map((message) => (message as { toolCallId: string }).toolCallId)).toEqual(calls.map((call) => call.id));
    expect(seen.toolMessages.every((message) => JSON.parse((message as { content: string }).content).ok === true)).toBe(true);
  };
  return { probe, model, expectAllAnswered };
}

describe('tool calls of one model turn', () => {
  it(`run at most ${DEFAULT_MAX_PARALLEL_TOOL_CALLS} at once by default, start in call order, and all get their result`, async () => {
    const turn = probeTurn(DEFAULT_MAX_PARALLEL_TOOL_CALLS * 3 + 7);
    const result = await runAgent({ model: turn.model, tools: [turn.probe], prompt: 'go', toolLogger: false });
    turn.expectAllAnswered(result.text, DEFAULT_MAX_PARALLEL_TOOL_CALLS);
  });

  it.each([1, 5, 200])('run at most maxParallelToolCalls = %i at once (runAgent)', async (limit) => {
    const turn = probeTurn(23);
    const result = await runAgent({ model: turn.model, tools: [turn.probe], prompt: 'go', toolLogger: false, maxParallelToolCalls: limit });
    turn.expectAllAnswered(result.text, limit);
  });

  it('run one after another with the builder’s maxParallelToolCalls(1)', async () => {
    const turn = probeTurn(9);
    const agent = new AgentBuilder('serial').chatClient(turn.model).tools([turn.probe]).toolLogger(false).maxParallelToolCalls(1).build();
    const result = await collectAgentRun(agent.run('go'));
    turn.expectAllAnswered(result.text, 1);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4'])('refuse maxParallelToolCalls = %s with a ConfigError naming it', async (limit) => {
    const turn = probeTurn(1);
    const building = () => new AgentBuilder('bad').chatClient(turn.model).maxParallelToolCalls(limit as number).build();
    expect(building).toThrow(ConfigError);
    expect(building).toThrow(/maxParallelToolCalls must be an integer ≥ 1/);
    await expect(runAgent({ model: turn.model, prompt: 'go', maxParallelToolCalls: limit as number })).rejects.toThrow(/maxParallelToolCalls must be an integer ≥ 1/);
  });
});
