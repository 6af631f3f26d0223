// The agent loop on createAnthropicClient (issue 14): a tool round (tool_use → our tool → tool_result, with is_error
// when the tool failed), and a turn cut by max_tokens mid tool_use JSON (the call is not run: an InputValidationError
// result, finish length). Recorded-shape streams from test/fixtures/anthropic-*.sse.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createAnthropicClient } from '../../src/chat/anthropic/index.js';
import { collectChatStream } from '../../src/chat/index.js';
import { ChatClientError } from '../../src/errors/index.js';
import { defineTool, jsonSchema, ToolResult } from '../../src/tools/index.js';

const MESSAGES_URL = 'https://anthropic.test/v1/messages';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const sse = (text: string) => () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } });

function serve(...answers: HttpResponseResolver[]): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.post(MESSAGES_URL, async (info) => {
      bodies.push((await info.request.clone().json()) as Record<string, unknown>);
      return (answers[Math.min(bodies.length - 1, answers.length - 1)] as HttpResponseResolver)(info);
    }),
  );
  return bodies;
}

function agent(execute: (args: { city?: string; order?: string }) => unknown) {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Weather of a city.',
    parameters: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: (args) => execute(args as { city: string }),
  });
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up an order.',
    parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } }, required: ['order'] }),
    execute: (args) => execute(args as { order: string }),
  });
  const model = createAnthropicClient({ baseURL: 'https://anthropic.test', apiKey: 'sk-ant-test-0123456789abcdef', model: 'claude-sonnet-4-5', maxTokens: 512, retry: false });
  return new AgentBuilder('a').chatClient(model).instructions('Use the tools.').tools([weather, lookup]).toolLogger(() => {}).build();
}

describe('the agent loop on Anthropic', () => {
  it('a tool round: the tool runs on the streamed input, its result goes back as a tool_result, the model answers', async () => {
    const bodies = serve(sse(fixture('anthropic-tool-use.sse')), sse(fixture('anthropic-text.sse')));
    const cities: string[] = [];
    const result = await collectAgentRun(await agent(({ city }) => (cities.push(city ?? ''), { c: 21 })).run('Weather in Paris?'));
    expect(cities).toEqual(['Paris']);
    expect(result.text).toBe('Hello, café 🥐!');
    expect(result.finishReason).toBe('stop');
    expect(result.iterations).toBe(2);
    expect(result.usage).toEqual({ promptTokens: 472 + 35, completionTokens: 89 + 15, totalTokens: 472 + 35 + 89 + 15, cachedPromptTokens: 10 });
    const second = bodies[1] as { system: string; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(second.system).toBe('Use the tools.');
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[1]?.content).toEqual([
      { type: 'text', text: 'Let me check the weather.' },
      { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(second.messages[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', content: '{"ok":true,"data":{"c":21}}' }]);
  });

  it('extended thinking with tools: the signed thinking and redacted_thinking blocks go back before the tool_use', async () => {
    const bodies = serve(sse(fixture('anthropic-thinking-tool-use.sse')), sse(fixture('anthropic-text.sse')));
    const result = await collectAgentRun(await agent(() => ({ c: 21 })).run('Weather in Paris?'));
    expect(result.text).toBe('Hello, café 🥐!');
    const assistant = (bodies[1] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages[1];
    expect(assistant?.role).toBe('assistant');
    expect(assistant?.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    expect(assistant?.content[0]).toEqual({ type: 'thinking', thinking: 'The user wants the weather in Paris; I should call get_weather.', signature: 'ErUBCkYIBRgCIkDxSignaturePartOne+PartTwo==' });
  });

  it('a failed tool: its structured error goes back with is_error: true', async () => {
    const bodies = serve(sse(fixture('anthropic-tool-use.sse')), sse(fixture('anthropic-text.sse')));
    await collectAgentRun(await agent(() => ToolResult.error('Weather station offline')).run('Weather in Paris?'));
    const results = (bodies[1] as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[2]?.content;
    expect(results?.[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.parse(String(results?.[0]?.content))).toMatchObject({ ok: false, error: { message: 'Weather station offline' } });
  });

  it('max_tokens cuts a tool_use JSON: the call is not run, the model gets an InputValidationError, the run ends with length', async () => {
    const bodies = serve(sse(fixture('anthropic-max-tokens-tool-use.sse')));
    const executed: unknown[] = [];
    const result = await collectAgentRun(await agent((args) => executed.push(args)).run('Where is order A-1001?'));
    expect(executed).toEqual([]);
    expect(bodies).toHaveLength(1);
    expect(result.finishReason).toBe('length');
    const error = JSON.parse(result.toolResults[0]?.content ?? '{}').error;
    expect(error).toMatchObject({ type: 'InputValidationError', context: { tool: 'lookup', cutOffAtOutputLimit: true } });
    expect(result.messages.map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(result.messages[1]?.toolCallId).toBe('toolu_01CutOff000000000000001');
    // The transcript is a valid next request: the cut call goes back with input {}, its result says why.
    const next = serve(sse(fixture('anthropic-text.sse')));
    const model = createAnthropicClient({ baseURL: 'https://anthropic.test', apiKey: 'sk-ant-test-0123456789abcdef', model: 'claude-sonnet-4-5', maxTokens: 512, retry: false });
    await collectChatStream(model.stream({ messages: [{ role: 'user', content: 'Where is order A-1001?' }, ...result.messages, { role: 'user', content: 'Try again.' }] }));
    const sent = (next[0] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages;
    expect(sent[1]?.content).toEqual([{ type: 'tool_use', id: 'toolu_01CutOff000000000000001', name: 'lookup', input: {} }]);
    expect(sent[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01CutOff000000000000001', is_error: true });
  });

  it('a refusal is a typed outcome: finish refusal and a ChatClientError (refused) item', async () => {
    serve(sse(fixture('anthropic-refusal.sse')));
    const result = await collectAgentRun(await agent(() => ({})).run('Something disallowed'));
    expect(result.finishReason).toBe('refusal');
    expect(result.errors.map((error) => ChatClientError.isInstance(error) && error.reason)).toEqual(['refused']);
  });
});
