// A model may ask for any number of tool calls in one turn: at most MAX_PARALLEL_TOOL_CALLS tools run at once (a
// turn of thousands starts no thousands of requests), the rest start in call order as earlier ones end, and every
// call still gets its result, in the transcript in call order.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { runAgent } from '../../src/agent/index.js';
import { MAX_PARALLEL_TOOL_CALLS } from '../../src/agent/run-tools.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { defineTool } from '../../src/tools/index.js';

describe('tool calls of one model turn', () => {
  it(`run at most ${MAX_PARALLEL_TOOL_CALLS} at once, start in call order, and all get their result`, async () => {
    const count = MAX_PARALLEL_TOOL_CALLS * 3 + 7;
    let running = 0;
    let peak = 0;
    const startedOrder: number[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Waits a little.',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        startedOrder.push(n);
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 1 + (n % 5)));
        running--;
        return { n };
      },
    });
    const calls = Array.from({ length: count }, (_, n) => ({ id: `c${n}`, name: 'probe', arguments: { n } }));
    let seen: unknown[] = [];
    const model = createScriptedChatClient([{ toolCalls: calls }, (request) => ((seen = request.messages.filter((message) => message.role === 'tool')), { text: 'done' })]);
    const result = await runAgent({ model, tools: [probe], prompt: 'go', toolLogger: false });
    expect(result.text).toBe('done');
    expect(peak).toBe(MAX_PARALLEL_TOOL_CALLS);
    expect(startedOrder).toEqual(calls.map((_, n) => n));
    expect(seen.map((message) => (message as { toolCallId: string }).toolCallId)).toEqual(calls.map((call) => call.id));
    expect(seen.every((message) => JSON.parse((message as { content: string }).content).ok === true)).toBe(true);
  });
});
