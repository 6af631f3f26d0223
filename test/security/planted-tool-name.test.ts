// One rule for every field a tool name the model made reaches: a name no tool has (it may echo a key the model saw)
// is cut and redacted once where the call enters, and every output — run items, the ToolNotFound text and its
// context, events, developer logs, spans (content recorded), runToolCall's run — shows that same form; a name one of
// the tools has stays as it is. The transcript sent back to the provider keeps the call as the provider made it
// (its tool message answers exactly that call), which the test checks too.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { defineTool, runToolCall, type ToolLogRecord } from '../../src/tools/index.js';
import { exported, record } from '../telemetry/otel-sdk.js';

const CONFIGURED = 'acme-internal-7Qx2';
const NAMES: Array<[label: string, name: string, secret: string]> = [
  ['a credential-shaped name', 'sk-live-PLANTEDtoolname0123456789', 'PLANTEDtoolname0123456789'],
  ['a name holding a configured secret', `lookup_${CONFIGURED}_rows`, CONFIGURED],
  ['a 100,000-character name holding a key', `get_${'x'.repeat(100_000)}_sk-live-PLANTEDtail0123456789`, 'x'.repeat(200)],
];

const weather = defineTool({ name: 'get_weather', description: 'Weather.', parameters: z.object({ city: z.string() }), execute: ({ city }) => `sunny in ${city}` });

async function runWith(name: string) {
  const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name, arguments: '{}' }, { id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' }] }, { text: 'done' }]);
  const recorder = record({ recordContent: true });
  const logs: ToolLogRecord[] = [];
  const events: unknown[] = [];
  const agent = new AgentBuilder('planted').chatClient(model).tools([weather]).secrets([CONFIGURED]).toolLogger((entry) => logs.push(entry)).telemetry(recorder.telemetry).build();
  for (const event of ['tool-start', 'tool-end', 'tool-error', 'retry', 'error', 'model-request', 'model-response'] as const) agent.on(event, (payload: unknown) => events.push(payload));
  const items: AgentRunItem[] = [];
  for await (const item of agent.run('Go.')) items.push(item);
  return { items, events, logs, spans: recorder.spans().map(exported), model };
}

describe('a model-made tool name is shown in one form in every output', () => {
  for (const [label, name, secret] of NAMES) {
    it(`${label}: no output holds it raw, and every output shows the same form`, async () => {
      const { items, events, logs, spans, model } = await runWith(name);
      const call = items.find((item) => item.type === 'tool-call' && item.call.id === 'call_1') as Extract<AgentRunItem, { type: 'tool-call' }>;
      const result = items.find((item) => item.type === 'tool-result' && item.callId === 'call_1') as Extract<AgentRunItem, { type: 'tool-result' }>;
      const shown = call.call.name;
      expect(shown).not.toContain(secret);
      expect(shown.length).toBeLessThanOrEqual(80);
      expect(result.toolName).toBe(shown);
      expect(result.outcome).toBe('not_found');
      expect(result.result.error?.context?.requested).toBe(shown);
      expect(result.result.error?.message).toContain(`No tool named '${shown}' is available.`);
      expect(result.result.error?.context?.available).toEqual(['get_weather']);
      const named = events.filter((event) => (event as { callId?: string }).callId === 'call_1') as Array<{ toolName: string }>;
      expect(named.length).toBeGreaterThanOrEqual(2);
      for (const event of named) expect(event.toolName).toBe(shown);
      const notFound = logs.filter((entry) => entry.event === 'tool.not_found');
      expect(notFound.map((entry) => entry.toolName)).toEqual([shown]);
      // every output but the transcript (the `message` items and the finish item's messages: what a session stores
      // and the provider gets back)
      const outputs = items.map((item) => (item.type === 'finish' ? { ...item, messages: undefined } : item.type === 'message' ? { ...item, message: undefined } : item));
      for (const output of [JSON.stringify(outputs), JSON.stringify(events), JSON.stringify(logs), ...spans]) expect(output).not.toContain(secret);
      // the known tool of the same round keeps its own name everywhere
      expect(items.find((item) => item.type === 'tool-result' && item.callId === 'call_2')).toMatchObject({ toolName: 'get_weather', outcome: 'success' });
      // the transcript sent back is the provider's own call, answered by the tool message of the same id
      const second = model.requests[1]?.messages ?? [];
      const assistant = second.find((message) => message.role === 'assistant');
      expect(assistant?.toolCalls?.[0]).toMatchObject({ id: 'call_1', name });
      const answer = second.find((message) => message.role === 'tool' && message.toolCallId === 'call_1');
      expect(answer?.content).not.toContain(secret);
      const finish = items.at(-1) as Extract<AgentRunItem, { type: 'finish' }>;
      expect(finish.messages.find((message) => message.role === 'assistant')?.toolCalls?.[0]?.name).toBe(name);
      expect(items.find((item) => item.type === 'message')).toMatchObject({ iteration: 1, message: { toolCalls: [{ id: 'call_1', name }, { id: 'call_2' }] } });
    });
  }

  it('runToolCall (the public entry) names the unknown tool in the same form in its run, content and log', async () => {
    const logs: ToolLogRecord[] = [];
    const run = await runToolCall([weather], { id: 'c1', name: 'sk-live-PLANTEDtoolname0123456789', arguments: '{}' }, { logger: (entry) => logs.push(entry) });
    expect(run.toolName).not.toContain('PLANTEDtoolname');
    expect(run.content).not.toContain('PLANTEDtoolname');
    expect(logs.map((entry) => entry.toolName)).toEqual([run.toolName]);
    expect(run.result.error?.context?.requested).toBe(run.toolName);
  });

  it('a ToolNotFound lists at most 50 of 10,000 tools, saying how many more there are', async () => {
    const many = Array.from({ length: 10_000 }, (_, index) => defineTool({ name: `tool_${index}`, description: 'One of many.', parameters: z.object({}), execute: () => index }));
    const run = await runToolCall(many, { name: 'nope', arguments: '{}' }, { logger: false });
    expect(run.result.error?.context?.available).toHaveLength(50);
    expect(run.result.error?.message).toContain('and 9950 more.');
    expect(run.content.length).toBeLessThan(4_000);
  });
});
