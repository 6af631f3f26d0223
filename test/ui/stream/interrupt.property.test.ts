// Generated runs that end interrupted (synthetic agent items of the shape an agent run ends with when it stops for
// approvals): the UI stream always passes the protocol checks, every approval's tool part is approval-requested with
// its interrupt id, every other call still gets an output, the ending is finish tool-calls with no error; the same
// items as AG-UI are valid events ending with the interrupt outcome. Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentRunItem } from '../../../src/agent/types.js';
import { toAGUIEvents, toUIMessageStream } from '../../../src/ui/index.js';
import { expectValidAGUI, readEvents } from '../ag-ui/ag-ui-check.js';
import { checkedBody } from './ui-stream.js';

const text = fc.string({ maxLength: 20, unit: fc.constantFrom('a', 'b', ' ', 'é', '🥐', '\n') });
const spec = fc.record({
  text: fc.option(text, { nil: undefined }),
  calls: fc.array(fc.record({ asks: fc.boolean(), announced: fc.boolean(), reason: fc.option(text, { nil: undefined }) }), { minLength: 1, maxLength: 6 }),
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

function itemsOf(run: Spec): AgentRunItem[] {
  const items: unknown[] = [];
  if (run.text) items.push({ type: 'text-delta', iteration: 1, delta: run.text });
  run.calls.forEach((call, index) => {
    if (call.announced || !call.asks) items.push({ type: 'tool-call', iteration: 1, call: { id: `c${index}`, name: 'refund', arguments: `{"n":${index}}` } });
  });
  const interrupts = run.calls.flatMap((call, index) => (call.asks ? [{ id: `i${index}`, runId: 'run-p', kind: 'approval', toolCallId: `c${index}`, toolName: 'refund', args: { n: index }, createdAt: '2026-12-05T10:00:00.000Z', ...(call.reason ? { reason: call.reason } : {}) }] : []));
  items.push({ type: 'interrupted', runId: 'run-p', interrupts });
  return items as AgentRunItem[];
}

const stream = (items: readonly AgentRunItem[]) =>
  new ReadableStream<AgentRunItem>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });

describe('generated runs that stop for approvals', () => {
  it('always stream a valid UI message: approvals requested on their parts, other calls answered, finish tool-calls, no error', async () => {
    await fc.assert(
      fc.asyncProperty(spec, async (run) => {
        const body = await checkedBody(toUIMessageStream(stream(itemsOf(run))));
        const tools = (body.message?.parts ?? []).filter((part) => part.type === 'tool-refund') as unknown as Array<{ toolCallId: string; state: string; approval?: { id: string } }>;
        run.calls.forEach((call, index) => {
          const part = tools.find((tool) => tool.toolCallId === `c${index}`);
          if (call.asks) expect(part).toMatchObject({ state: 'approval-requested', approval: { id: `i${index}` } });
          else expect(part?.state).toBe('output-error');
        });
        expect(body.chunks.map((chunk) => chunk.type)).not.toContain('error');
        expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { faultline: { finishReason: 'interrupted', runId: 'run-p' } } });
      }),
      { seed: 2929, numRuns: 60 },
    );
  });

  it('always write valid AG-UI events ending with the interrupt outcome', async () => {
    await fc.assert(
      fc.asyncProperty(spec.filter((run) => run.calls.some((call) => call.asks)), async (run) => {
        const events = await readEvents(toAGUIEvents(stream(itemsOf(run)), { threadId: 't', runId: 'r' }));
        expectValidAGUI(events);
        const last = events.at(-1) as { type: string; outcome?: { type: string; interrupts: unknown[] } };
        expect(last.type).toBe('RUN_FINISHED');
        expect(last.outcome?.type).toBe('interrupt');
        expect(last.outcome?.interrupts).toHaveLength(run.calls.filter((call) => call.asks).length);
      }),
      { seed: 2930, numRuns: 60 },
    );
  });
});
