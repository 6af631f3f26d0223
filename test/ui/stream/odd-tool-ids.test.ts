// A run stream handed over by hand, or relayed from a remote, may put anything in a tool call's id or name. Every
// frame stays one the AI SDK's `uiMessageChunkSchema` accepts — an id or name of another type is written as text (a
// number, a boolean) or a stand-in (`call`, `tool`) — and each call is still answered on its own part.
import { describe, expect, it } from 'vitest';
import { toUIMessageStream } from '../../../src/ui/index.js';
import { readBody, schemaProblems } from './ui-stream.js';

async function* items(list: readonly unknown[]) {
  for (const item of list) yield item as never;
}
const finish = { type: 'finish', text: '', messages: [], finishReason: 'stop', iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } };

describe('tool calls whose id or name is not a string', () => {
  it.each<[string, unknown, unknown, string, string]>([
    ['a numeric id', 7, 'get', '7', 'get'],
    ['a numeric name', 'c1', 5, 'c1', '5'],
    ['an object id and no name', { id: 1 }, undefined, 'call', 'tool'],
  ])('%s: schema-valid frames, the call answered on its part', async (_name, id, toolName, shownId, shownName) => {
    const body = await readBody(
      toUIMessageStream(
        items([
          { type: 'tool-call', iteration: 1, call: { id, name: toolName, arguments: 12 } },
          { type: 'tool-result', iteration: 1, callId: id, toolName, outcome: 'success', ok: true, result: { ok: true, data: 1 }, content: '{"ok":true,"data":1}', attempts: 1, durationMs: 1, synthetic: false },
          finish,
        ]),
      ),
    );
    expect(await schemaProblems(body.chunks)).toEqual([]);
    expect(body.chunks.filter((chunk) => chunk.type.startsWith('tool-')).map((chunk) => [chunk.type, (chunk as { toolCallId: string }).toolCallId, (chunk as { toolName?: string }).toolName])).toEqual([
      ['tool-input-start', shownId, shownName],
      ['tool-input-available', shownId, shownName],
      ['tool-output-available', shownId, undefined],
    ]);
  });
});
