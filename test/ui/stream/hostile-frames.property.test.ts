// Property (fixed seed): whatever a tool's result holds — JSON data, data nested 20,000 deep, values JSON cannot
// carry (a cycle, a cycle reached by two keys, a BigInt, a function, a Map, a throwing toJSON), values that change
// after they were handed over — the UI message stream and the AG-UI events carry it as frames their schemas accept
// and end (`[DONE]`, RUN_FINISHED), never a hang or a throw: the frame redactor copies at most 100,000 objects per
// frame and marks a cycle `[cycle]`. Also a wide shared structure (2^40 routes to its leaves) ends, cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentRunItem } from '../../../src/agent/index.js';
import { toAGUIEvents, toUIMessageStream } from '../../../src/ui/index.js';
import { hostileValue, type Producer } from '../../helpers/hostile-values.js';
import { expectValidAGUI, readEvents } from '../ag-ui/ag-ui-check.js';
import { readBody, schemaProblems } from './ui-stream.js';

const USAGE = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

function run(data: () => unknown): ReadableStream<AgentRunItem> {
  const items: AgentRunItem[] = [
    { type: 'tool-call', iteration: 1, call: { id: 'call_1', name: 'lookup', arguments: '{}' } },
    { type: 'tool-result', iteration: 1, callId: 'call_1', toolName: 'lookup', outcome: 'success', ok: true, result: { ok: true, data: data() }, content: '{"ok":true}', attempts: 1, durationMs: 1, synthetic: false },
    { type: 'finish', text: 'done', messages: [], finishReason: 'stop', iterations: 2, usage: USAGE },
  ];
  return new ReadableStream({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

/** `{left, right}` both leading to the same next level, `depth` levels: 2^depth routes to the leaf. */
function wideShared(depth: number): unknown {
  let node: unknown = { leaf: true };
  for (let level = 0; level < depth; level++) node = { left: node, right: node };
  return node;
}

describe('tool results of any shape on the UI streams', () => {
  it('give schema-valid frames that end, for the UI message stream and AG-UI', async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue, async (producer: Producer) => {
        const body = await readBody(toUIMessageStream(run(producer.make)));
        expect(body.text.endsWith('data: [DONE]\n\n'), producer.label).toBe(true);
        expect(await schemaProblems(body.chunks), producer.label).toEqual([]);
        expect(body.chunks.some((chunk) => chunk.type === 'tool-output-available'), producer.label).toBe(true);
        expectValidAGUI(await readEvents(toAGUIEvents(run(producer.make))));
      }),
      { seed: 2024, numRuns: 60 },
    );
  });

  it('marks a cycle reached by two keys instead of walking it once per route', async () => {
    const node: Record<string, unknown> = { name: 'node' };
    node.left = node;
    node.right = node;
    const body = await readBody(toUIMessageStream(run(() => node)));
    const output = body.chunks.find((chunk) => chunk.type === 'tool-output-available') as { output: unknown };
    expect(output.output).toMatchObject({ ok: true, data: { name: 'node', left: '[cycle]', right: '[cycle]' } });
  });

  it('ends a frame whose shared parts would be copied 2^40 times, cut and said so', async () => {
    const started = Date.now();
    const body = await readBody(toUIMessageStream(run(() => wideShared(40))));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(body.text).toContain('[cut: too large]');
    expect(await schemaProblems(body.chunks)).toEqual([]);
    expectValidAGUI(await readEvents(toAGUIEvents(run(() => wideShared(40)))));
  });
});
