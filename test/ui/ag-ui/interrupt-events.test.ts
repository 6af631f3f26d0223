// A run that stops to ask, as AG-UI events: a faultline.interrupt custom event per question (never a tool call's
// arguments) and RUN_FINISHED with AG-UI 1.0's own `interrupt` outcome — valid against @ag-ui/core's strict schemas,
// no RUN_ERROR — for an agent run's `interrupted` end and for a Runner run of a graph that asks.
import { describe, expect, it } from 'vitest';
import type { AgentRunItem } from '../../../src/agent/index.js';
import { createGraphAgent, InMemoryCheckpointer } from '../../../src/graph/index.js';
import { Runner } from '../../../src/runner/index.js';
import { toAGUIEvents, type AGUIEvent } from '../../../src/ui/history-exports.js';
import { counters, refundGraph } from '../../graph/interrupt-fixtures.js';
import { customValues, expectValidAGUI, readEvents } from './ag-ui-check.js';

const SECRET = 'sk-live-PLANTEDsecret0123456789abcdef';

function items(list: readonly unknown[]): ReadableStream<AgentRunItem> {
  return new ReadableStream({
    start(controller) {
      for (const item of list) controller.enqueue(item as AgentRunItem);
      controller.close();
    },
  });
}

const refundArgs = { orderId: '42', amount: 30, card: SECRET };
const stopped = [
  { type: 'tool-call', iteration: 1, call: { id: 'call_refund', name: 'refund', arguments: JSON.stringify({ orderId: '42', amount: 30 }) } },
  { type: 'interrupted', runId: 'run-7', interrupts: [{ id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_refund', toolName: 'refund', args: refundArgs, reason: `needs a yes (${SECRET})`, createdAt: '2026-12-05T10:00:00.000Z', expiresAt: '2026-12-05T11:00:00.000Z' }] },
];

describe('toAGUIEvents: a run that stops to ask', () => {
  it('ends an agent run’s interrupted item with faultline.interrupt and RUN_FINISHED outcome interrupt, valid AG-UI', async () => {
    const events = await readEvents(toAGUIEvents(items(stopped), { threadId: 't', runId: 'r' }));
    expectValidAGUI(events);
    expect(events.map((event) => event.type)).not.toContain('RUN_ERROR');
    expect(customValues(events, 'faultline.interrupt')).toEqual([
      { id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_refund', toolName: 'refund', reason: 'needs a yes ([REDACTED])', createdAt: '2026-12-05T10:00:00.000Z', expiresAt: '2026-12-05T11:00:00.000Z' },
    ]);
    const finished = events.at(-1) as Extract<AGUIEvent, { type: 'RUN_FINISHED' }>;
    expect(finished.outcome).toEqual({
      type: 'interrupt',
      interrupts: [{ id: 'int_1', reason: 'approval', message: 'needs a yes ([REDACTED])', toolCallId: 'call_refund', expiresAt: '2026-12-05T11:00:00.000Z', metadata: { faultline: { runId: 'run-7', toolName: 'refund', createdAt: '2026-12-05T10:00:00.000Z' } } }],
    });
    expect(finished.result).toEqual({ finishReason: 'interrupted', runId: 'run-7', interruptCount: 1 });
    expect(JSON.stringify(events)).not.toContain('PLANTEDsecret');
  });

  it('ends a Runner run of a graph that asks with its question and the interrupt outcome, its completion interrupted', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('refunds', refundGraph(counters()), { checkpointer: new InMemoryCheckpointer() }) });
    const events = await readEvents(toAGUIEvents(runner.run({ userId: 'u', sessionId: 's', message: 'refund', state: { amount: 12 }, invocationId: 'inv-ag' })));
    expectValidAGUI(events);
    expect(customValues(events, 'faultline.completion')).toEqual([{ status: 'interrupted', errorCodes: [] }]);
    const [question] = customValues(events, 'faultline.interrupt') as Array<{ id: string }>;
    expect(question).toMatchObject({ runId: 'inv-ag', kind: 'input', nodeId: 'approve', value: { refund: 12 } });
    const finished = events.at(-1) as Extract<AGUIEvent, { type: 'RUN_FINISHED' }>;
    expect(finished.outcome).toMatchObject({ type: 'interrupt', interrupts: [{ id: question!.id, reason: 'input', responseSchema: { type: 'object' } }] });
    expect(events.map((event) => event.type)).not.toContain('RUN_ERROR');
  });
});
