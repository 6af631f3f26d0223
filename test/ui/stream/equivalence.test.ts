// Our stream and the AI SDK's own `createUIMessageStream`, fed the same run (a hand adapter, as an app would write
// one, over the same items), give equivalent UIMessages through `readUIMessageStream`: the same text, reasoning and
// tool parts in the same states with the same inputs, outputs and error texts. Ours adds only what the protocol has
// no slot for (typed data parts, metadata).
import { createUIMessageStream, readUIMessageStream, type UIMessage, type UIMessageChunk, type UIMessageStreamWriter } from 'ai';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../../src/agent/index.js';
import { createScriptedChatClient, type ScriptedTurn } from '../../../src/chat/index.js';
import { defineTool, toolErrorFromResponse } from '../../../src/tools/index.js';
import { toUIMessageStream } from '../../../src/ui/index.js';
import { checkedBody } from './ui-stream.js';

/** The adapter an app writes by hand for the AI SDK: items to chunks, with the SDK's own writer. */
function writeItems(items: readonly AgentRunItem[], writer: UIMessageStreamWriter): void {
  let step = 0;
  let text: string | undefined;
  let reasoning: string | undefined;
  const close = () => {
    if (text) writer.write({ type: 'text-end', id: text });
    if (reasoning) writer.write({ type: 'reasoning-end', id: reasoning });
    text = reasoning = undefined;
  };
  const at = (iteration: number) => {
    if (iteration === step) return;
    close();
    if (step > 0) writer.write({ type: 'finish-step' });
    writer.write({ type: 'start-step' });
    step = iteration;
  };
  writer.write({ type: 'start' });
  for (const item of items) {
    if (item.type === 'text-delta' || item.type === 'reasoning-delta') {
      at(item.iteration);
      const kind = item.type === 'text-delta' ? 'text' : 'reasoning';
      if (kind === 'text' && reasoning) close();
      if ((kind === 'text' ? text : reasoning) === undefined) {
        const id = `${kind}-${item.iteration}`;
        writer.write({ type: `${kind}-start`, id });
        if (kind === 'text') text = id;
        else reasoning = id;
      }
      writer.write({ type: `${kind}-delta`, id: (kind === 'text' ? text : reasoning) as string, delta: item.delta });
    } else if (item.type === 'tool-call') {
      at(item.iteration);
      close();
      writer.write({ type: 'tool-input-start', toolCallId: item.call.id, toolName: item.call.name });
      let input: unknown = item.call.arguments;
      try {
        input = JSON.parse(item.call.arguments);
      } catch {
        // raw text
      }
      writer.write({ type: 'tool-input-available', toolCallId: item.call.id, toolName: item.call.name, input });
    } else if (item.type === 'tool-result') {
      close();
      if (item.ok) writer.write({ type: 'tool-output-available', toolCallId: item.callId, output: item.result });
      else writer.write({ type: 'tool-output-error', toolCallId: item.callId, errorText: item.result.error?.message ?? 'failed' });
    } else if (item.type === 'finish') {
      close();
      writer.write({ type: 'finish-step' });
      writer.write({ type: 'finish', finishReason: 'stop' });
    }
  }
}

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage | undefined> {
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  return message;
}

/** What both must agree on: the visible parts, without ids and the metadata only ours carries. */
function visible(message: UIMessage | undefined): unknown[] {
  return (message?.parts ?? [])
    .filter((part) => part.type === 'text' || part.type === 'reasoning' || part.type.startsWith('tool-'))
    .filter((part) => !(part.type === 'reasoning' && part.text === ''))
    .map((part) => {
      const { providerMetadata: _provider, callProviderMetadata: _call, resultProviderMetadata: _result, id: _id, ...rest } = part as Record<string, unknown>;
      return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    });
}

describe('our stream and the AI SDK’s createUIMessageStream give equivalent messages for the same run', () => {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up.',
    parameters: z.object({ id: z.string() }),
    execute: async ({ id }) => {
      if (id === 'gone') throw await toolErrorFromResponse(new Response('{}', { status: 404 }), { service: 'Items' });
      return { id, found: true };
    },
  });
  const scenarios: Array<[string, ScriptedTurn[]]> = [
    ['a plain answer', [{ text: 'Hello there, friend.' }]],
    ['reasoning, then the answer', [{ reasoning: 'Think it through.', text: 'Answer.' }]],
    [
      'tools that succeed and fail, then the answer',
      [{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 'a' } }, { id: 'c2', name: 'lookup', arguments: { id: 'gone' } }, { id: 'c3', name: 'lookup', arguments: '{"id":' }] }, { text: 'One found.' }],
    ],
  ];
  for (const [label, turns] of scenarios) {
    it(label, async () => {
      const agent = () => new AgentBuilder('same').chatClient(createScriptedChatClient(turns)).tools([lookup]).toolLogger(false).build();
      const items: AgentRunItem[] = [];
      for await (const item of agent().run('Go.')) items.push(item);
      const theirs = await lastMessage(createUIMessageStream({ execute: ({ writer }) => writeItems(items, writer) }));
      const ours = (await checkedBody(toUIMessageStream(agent().run('Go.')))).message;
      expect(visible(ours)).toEqual(visible(theirs));
      expect(visible(ours).length).toBeGreaterThan(0);
    });
  }
});
