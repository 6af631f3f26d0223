// A planted secret in every string field of every item of a run — the ids a remote party chose (a tool call id, a run
// id, an interrupt id) as much as the text — leaves neither the UI message stream nor the AG-UI events, in any form:
// one variant of the run per field, each through both encoders, each still ending (`[DONE]`, RUN_FINISHED/RUN_ERROR).
import { describe, expect, it } from 'vitest';
import type { AgentRunItem } from '../../src/agent/index.js';
import { secretForms } from '../../src/internal/redact.js';
import { toAGUIEvents, toUIMessageStream } from '../../src/ui/index.js';

const SECRET = 'tok_PLANTED_9f8e7d6c5b4a3210';
const NEEDLES = secretForms(SECRET);
const USAGE = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };

/** Two runs that use every item a UI stream carries: one that finishes, one that stops to ask. */
const RUNS: Array<{ name: string; items: () => unknown[] }> = [
  {
    name: 'a run that finishes',
    items: () => [
      { type: 'reasoning-delta', iteration: 1, delta: 'Thinking about order 42. ' },
      { type: 'text-delta', iteration: 1, delta: 'Looking it up. ' },
      { type: 'tool-call', iteration: 1, call: { id: 'call_lookup', name: 'lookup', arguments: '{"orderId":"42"}' } },
      { type: 'tool-result', iteration: 1, callId: 'call_lookup', toolName: 'lookup', outcome: 'success', ok: true, result: { ok: true, data: { status: 'shipped', note: 'left at the door' } }, content: '{"ok":true,"data":{"status":"shipped"}}', attempts: 1, durationMs: 2, synthetic: false },
      { type: 'tool-call', iteration: 1, call: { id: 'call_pay', name: 'pay', arguments: '{"amount":30}' } },
      { type: 'retry', iteration: 1, source: 'tool', attempt: 1, delayMs: 5, error: { name: 'RateLimitError', message: 'slow down', code: 'rate_limited' }, callId: 'call_pay', toolName: 'pay' },
      { type: 'tool-result', iteration: 1, callId: 'call_pay', toolName: 'pay', outcome: 'failure', ok: false, result: { ok: false, error: { type: 'APIFailure', message: 'The payment service failed.', suggestion: 'Try again later.', context: { service: 'Pay', status: 503 } } }, content: '{"ok":false,"error":{"type":"APIFailure"}}', attempts: 2, durationMs: 9, synthetic: false },
      { type: 'retry', iteration: 2, source: 'model', attempt: 1, delayMs: 0, error: { name: 'ChatClientError', message: 'overloaded' }, fallbackTo: 'backup-model' },
      { type: 'error', iteration: 2, terminal: false, error: Object.assign(new Error('the session could not be saved'), { code: 'SESSION_FAILED' }) },
      { type: 'text-delta', iteration: 2, delta: 'Order 42 shipped; the payment failed.' },
      { type: 'finish', text: 'Order 42 shipped; the payment failed.', messages: [], finishReason: 'stop', iterations: 2, usage: USAGE },
    ],
  },
  {
    name: 'a run that stops to ask',
    items: () => [
      { type: 'tool-call', iteration: 1, call: { id: 'call_refund', name: 'refund', arguments: '{"orderId":"42"}' } },
      {
        type: 'interrupted',
        runId: 'run_7',
        iteration: 1,
        interrupts: [{ id: 'approval_1', runId: 'run_7', kind: 'approval', toolCallId: 'call_refund', toolName: 'refund', args: { orderId: '42' }, reason: 'refunds need a person', createdAt: '2026-12-07T10:00:00.000Z' }],
        usage: USAGE,
      },
    ],
  },
];

/** Every path to a string in `value` (an Error's message too), but an item's `type`. */
function stringPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return path.at(-1) === 'type' && path.length === 2 ? [] : [path];
  if (value instanceof Error) return [[...path, 'message']];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, Array.isArray(value) ? Number(key) : key]));
}

function planted(items: unknown[], path: Array<string | number>): unknown[] {
  let parent = items as unknown as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  parent[last] = `${String(parent[last])}-${SECRET}`;
  return items;
}

const streamOf = (items: unknown[]) =>
  new ReadableStream<AgentRunItem>({
    start(controller) {
      for (const item of items) controller.enqueue(item as AgentRunItem);
      controller.close();
    },
  });

describe('a secret planted in any field of a run', () => {
  for (const run of RUNS) {
    const paths = stringPaths(run.items());
    it(`${run.name}: never leaves, through either encoder (${paths.length} fields)`, async () => {
      expect(paths.length).toBeGreaterThan(10);
      const leaks: string[] = [];
      for (const path of paths) {
        const where = path.join('.');
        const ui = await new Response(toUIMessageStream(streamOf(planted(run.items(), path)), { secrets: [SECRET] })).text();
        expect(ui.endsWith('data: [DONE]\n\n'), where).toBe(true);
        if (NEEDLES.some((needle) => ui.includes(needle))) leaks.push(`UI stream: ${where}`);
        const events: unknown[] = [];
        for await (const event of toAGUIEvents(streamOf(planted(run.items(), path)), { secrets: [SECRET] })) events.push(event);
        expect(['RUN_FINISHED', 'RUN_ERROR'], where).toContain((events.at(-1) as { type: string }).type);
        if (NEEDLES.some((needle) => JSON.stringify(events).includes(needle))) leaks.push(`AG-UI: ${where}`);
      }
      expect(leaks).toEqual([]);
    });
  }
});
