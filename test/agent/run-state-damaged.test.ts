// A run-state store may return anything (`RunStateStore`): a record of this agent's format with any field damaged —
// every path of a real record, each replaced by each of a set of wrong values — is a typed error when resumed
// (`RUN_STATE_FAILED` naming the field, or a `ResumeError`), never a TypeError from inside the resume, and a damaged
// record runs no tool. A new message on its session (the supersede) passes over it.
import { describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { supersedeRun } from '../../src/agent/run-state.js';
import { AgentError } from '../../src/errors/agent-error.js';
import { InMemoryRunStateStore, type AgentRunState, type RunStateStore } from '../../src/interrupts/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';

const WRONG: unknown[] = [null, 42, 'x', [], {}, [null], { role: 5 }];

function agentOn(store: RunStateStore, ran: { count: number }) {
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: jsonSchema({ type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] }),
    needsApproval: true,
    execute: async (args) => {
      ran.count++;
      return { orderId: (args as { orderId: string }).orderId };
    },
  });
  const model = createScriptedChatClient([{ toolCalls: [{ name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Refunded.' }]);
  return new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store })).build();
}

/** Every path into a JSON value (objects and arrays), the value itself excluded. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [];
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...paths((value as Record<string | number, unknown>)[key], [...prefix, key])]);
}

function withValue(record: AgentRunState, path: Array<string | number>, wrong: unknown): unknown {
  const copy = structuredClone(record) as unknown as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = structuredClone(wrong);
  return copy;
}

describe('a damaged run-state record', () => {
  it('every field of a real record, damaged each way: a typed error or a resume that holds, never a TypeError', async () => {
    const store = new InMemoryRunStateStore();
    const first = await collectAgentRun(agentOn(store, { count: 0 }).run('Refund order 42', { owner: 'shop/u1/s1' }));
    expect(first.status).toBe('interrupted');
    const record = (await store.get(first.runId!)) as AgentRunState;
    const decisions = first.interrupts!.map((interrupt) => ({ id: interrupt.id, approved: true as const }));
    const damagedPaths = paths(record).filter(([key]) => key !== 'version' && key !== 'agent'); // those say "not this agent's"
    expect(damagedPaths.length).toBeGreaterThan(30);
    expect(damagedPaths).toContainEqual(['owner']);
    let refused = 0;
    for (const path of damagedPaths) {
      for (const wrong of WRONG) {
        const held = withValue(record, path, wrong);
        const damaged: RunStateStore = { get: async () => structuredClone(held) as AgentRunState, put: async () => true, delete: async () => {} };
        const ran = { count: 0 };
        try {
          await collectAgentRun(agentOn(damaged, ran).resume(first.runId!, decisions, { owner: 'shop/u1/s1' }));
        } catch (error) {
          expect(AgentError.isInstance(error), `${path.join('.')} = ${JSON.stringify(wrong)}: ${String(error)}`).toBe(true);
          if ((error as AgentError).code === 'RUN_STATE_FAILED') {
            refused++;
            expect((error as Error).message).toMatch(/^The kept record of run "run-[^"]+" of agent "refunds" is damaged \(\w+\); nothing was run\.$/);
            expect(ran.count).toBe(0);
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(damagedPaths.length); // most damage is found, not merely survived
  });

  it('an interrupt whose expiresAt is not a time is damage (read as NaN it would never expire)', async () => {
    const store = new InMemoryRunStateStore();
    const first = await collectAgentRun(agentOn(store, { count: 0 }).run('Refund order 42'));
    const record = (await store.get(first.runId!)) as AgentRunState;
    const decisions = first.interrupts!.map((interrupt) => ({ id: interrupt.id, approved: true as const }));
    for (const expiresAt of ['soon', 'x'.repeat(41), '2026-13-45T99:00:00Z']) {
      const held = { ...structuredClone(record), interrupts: record.interrupts.map((interrupt) => ({ ...interrupt, expiresAt })) };
      const damaged: RunStateStore = { get: async () => structuredClone(held), put: async () => true, delete: async () => {} };
      const ran = { count: 0 };
      await expect(collectAgentRun(agentOn(damaged, ran).resume(first.runId!, decisions))).rejects.toMatchObject({ code: 'RUN_STATE_FAILED', message: expect.stringContaining('damaged (interrupts)') });
      expect(ran.count).toBe(0);
    }
  });

  it('a new message on the session passes over a damaged record (it waits on nothing a message could close)', async () => {
    const store = new InMemoryRunStateStore();
    const first = await collectAgentRun(agentOn(store, { count: 0 }).run('Refund order 42'));
    const record = (await store.get(first.runId!)) as AgentRunState;
    const damaged: RunStateStore = { get: async () => ({ ...structuredClone(record), round: null }) as never, put: async () => true, delete: async () => {} };
    await expect(supersedeRun(damaged, 'refunds', first.runId!)).resolves.toBe(false);
    const failing: RunStateStore = { get: async () => Promise.reject(new Error('store down')), put: async () => true, delete: async () => {} };
    await expect(supersedeRun(failing, 'refunds', first.runId!)).rejects.toThrow('store down'); // a store failure is not damage
  });
});
