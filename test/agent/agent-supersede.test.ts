// agent.supersede: the user moved on from a run that stopped to ask. One compare-and-swap closes it — a later resume
// is refused RUN_NOT_INTERRUPTED and runs nothing — and of a resume and a supersede of one run, exactly one wins.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError, ResumeError } from '../../src/errors/index.js';
import { InMemoryRunStateStore } from '../../src/interrupts/index.js';
import { defineTool } from '../../src/tools/index.js';

function refunds(gate?: Promise<void>) {
  const runs: string[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an order.',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: async ({ orderId }) => (await gate, runs.push(orderId), { orderId }),
  });
  const store = new InMemoryRunStateStore();
  const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Refunded.' }]);
  return { runs, store, agent: new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store })).build() };
}

describe('agent.supersede', () => {
  it('closes a waiting run once: its resume is refused typed and nothing runs', async () => {
    const { agent, runs, store } = refunds();
    const first = await collectAgentRun(agent.run('Refund order 42'));
    expect(first.status).toBe('interrupted');
    expect(await agent.supersede(first.runId!)).toBe(true);
    expect(await store.get(first.runId!)).toMatchObject({ status: 'ended', interrupts: [], supersededAt: expect.any(String) });
    expect(await agent.supersede(first.runId!)).toBe(false);
    const refusal = await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }])).catch((error: unknown) => error);
    expect(ResumeError.isInstance(refusal) && refusal.code).toBe('RUN_NOT_INTERRUPTED');
    expect((refusal as Error).message).toContain('a new message on its session answered its pending calls as not run');
    expect(runs).toEqual([]);
    expect(await agent.supersede('run-unknown')).toBe(false);
    await expect(agent.supersede('' as string)).rejects.toThrow(ConfigError);
  });

  it('loses to a resume that claimed the run first: the approved call runs, the run is not marked', async () => {
    let open!: () => void;
    const { agent, runs, store } = refunds(new Promise<void>((resolve) => (open = resolve)));
    const first = await collectAgentRun(agent.run('Refund order 42'));
    const resumed = collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await agent.supersede(first.runId!)).toBe(false);
    open();
    expect((await resumed).text).toBe('Refunded.');
    expect(runs).toEqual(['42']);
    expect((await store.get(first.runId!))?.supersededAt).toBeUndefined();
  });
});
