// The agent's `retry` event (issue 15, item 2): a tool retry names its tool as well as its call, and the payload is
// plain JSON without the agent's secrets.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, type AgentEvents } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { APIFailure, defineTool } from '../../src/tools/index.js';

const SECRET = 'tok-live-8f2c91d04b7e4a55';

type RetryEvent = Parameters<AgentEvents['retry']>[0];

function flakyAgent(failures: number) {
  let calls = 0;
  const inventory = defineTool({
    name: 'check_inventory',
    description: 'Stock of a product.',
    parameters: z.object({ sku: z.string() }),
    retry: { maxAttempts: 3, initialDelayMs: 1, jitter: 'none' },
    execute: ({ sku }) => {
      calls++;
      if (calls <= failures) throw new APIFailure(`Inventory API answered 503 for ${sku} (token ${SECRET})`, { context: { sku, token: SECRET } });
      return { sku, stock: 4 };
    },
  });
  const agent = new AgentBuilder('shop')
    .chatClient(createScriptedChatClient([{ toolCalls: [{ id: 'call_7', name: 'check_inventory', arguments: { sku: 'A-1' } }] }, { text: '4 in stock.' }]))
    .tools([inventory])
    .secrets([SECRET])
    .toolLogger(false)
    .build();
  const retries: RetryEvent[] = [];
  agent.on('retry', (event) => retries.push(event));
  return { agent, retries };
}

describe("the agent's retry event", () => {
  it('names the tool and the call of a tool retry', async () => {
    const { agent, retries } = flakyAgent(2);
    const result = await collectAgentRun(await agent.run('Stock of A-1?'));
    expect(result.toolResults[0]).toMatchObject({ toolName: 'check_inventory', outcome: 'success', attempts: 3 });
    expect(retries).toEqual([
      { runId: expect.any(String), agent: 'shop', source: 'tool', attempt: 1, delayMs: 1, callId: 'call_7', toolName: 'check_inventory', error: expect.objectContaining({ type: 'APIFailure' }) },
      { runId: expect.any(String), agent: 'shop', source: 'tool', attempt: 2, delayMs: 2, callId: 'call_7', toolName: 'check_inventory', error: expect.objectContaining({ type: 'APIFailure' }) },
    ]);
  });

  it('is plain JSON without the secrets the agent was given', async () => {
    const { agent, retries } = flakyAgent(1);
    await collectAgentRun(await agent.run('Stock of A-1?'));
    expect(retries).toHaveLength(1);
    const event = retries[0] as RetryEvent;
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    expect(JSON.stringify(event)).not.toContain(SECRET);
    expect(event.error).toMatchObject({ type: 'APIFailure', message: expect.stringContaining('Inventory API answered 503 for A-1'), context: { sku: 'A-1' } });
  });
});
