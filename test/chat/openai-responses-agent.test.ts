// The agent loop on createOpenAIResponsesClient (issue 14), and a fallback chain across protocols: reasoning items
// go back on the next Responses request, a turn cut by max_output_tokens is not run, and a transcript that moves
// Anthropic → Responses → Anthropic stays valid for each (each client sends back only its own replay items).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createAnthropicClient, createFallbackChatClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';
import { modelEndpoint } from '../helpers/agent-run.js';

const RESPONSES_URL = 'https://openai.test/v1/responses';
const MESSAGES_URL = 'https://anthropic.test/v1/messages';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const sse = (text: string) => () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } });

function serve(url: string, ...answers: HttpResponseResolver[]): Array<Record<string, unknown>> {
  const endpoint = modelEndpoint(url, ...answers);
  server.use(endpoint.handler);
  return endpoint.bodies;
}

const responses = () => createOpenAIResponsesClient({ baseURL: 'https://openai.test/v1', apiKey: 'sk-proj-test-0123456789abcdef', model: 'gpt-5-mini', retry: false });
const anthropic = () => createAnthropicClient({ baseURL: 'https://anthropic.test', apiKey: 'sk-ant-test-0123456789abcdef', model: 'claude-sonnet-4-5', maxTokens: 512, retry: false });

function agent(model: ChatClient, execute: (args: Record<string, unknown>) => unknown = () => ({ c: 21 })) {
  const tool = (name: string, field: string) =>
    defineTool({ name, description: `${name}.`, parameters: jsonSchema({ type: 'object', properties: { [field]: { type: 'string' } }, required: [field] }), execute: (args) => execute(args as Record<string, unknown>) });
  return new AgentBuilder('a').chatClient(model).instructions('Use the tools.').tools([tool('get_weather', 'city'), tool('lookup', 'order')]).toolLogger(() => {}).build();
}

describe('the agent loop on OpenAI Responses', () => {
  it('a tool round with reasoning: the reasoning item goes back verbatim before its function_call, then the output', async () => {
    const bodies = serve(RESPONSES_URL, sse(fixture('responses-function-call.sse')), sse(fixture('responses-text.sse')));
    const cities: unknown[] = [];
    const result = await collectAgentRun(await agent(responses(), (args) => (cities.push(args.city), { c: 21 })).run('Weather in Paris?'));
    expect(cities).toEqual(['Paris']);
    expect(result.text).toBe('Hello, café 🥐!');
    expect(result.iterations).toBe(2);
    const input = (bodies[1] as { input: Array<Record<string, unknown>> }).input;
    expect(input.map((item) => item.type ?? item.role)).toEqual(['system', 'user', 'reasoning', 'function_call', 'function_call_output']);
    expect(input[2]).toMatchObject({ id: 'rs_68af1c2c11ac8190c1d2e3f405162738', encrypted_content: 'gAAAAABor1wsEncryptedReasoningBlob0123456789==' });
    expect(input[3]).toEqual({ type: 'function_call', id: 'fc_68af1c2d7b3c8190d1e2f30415263748', call_id: 'call_Qx8vN2kP4rT6wY1zB3dF5hJ7', name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(input[4]).toEqual({ type: 'function_call_output', call_id: 'call_Qx8vN2kP4rT6wY1zB3dF5hJ7', output: '{"ok":true,"data":{"c":21}}' });
  });

  it('max_output_tokens cuts a call: not run, an InputValidationError result, finish length, and a valid next request', async () => {
    serve(RESPONSES_URL, sse(fixture('responses-incomplete-tool-call.sse')));
    const executed: unknown[] = [];
    const result = await collectAgentRun(await agent(responses(), (args) => executed.push(args)).run('Where is order A-1001?'));
    expect(executed).toEqual([]);
    expect(result.finishReason).toBe('length');
    expect(JSON.parse(result.toolResults[0]?.content ?? '{}').error).toMatchObject({ type: 'InputValidationError', context: { tool: 'lookup', cutOffAtOutputLimit: true } });
  });
});

describe('a fallback chain across protocols', () => {
  it('Anthropic → Responses → Anthropic in one run: each request carries only its own provider’s replay items', async () => {
    const thinkingTool = fixture('anthropic-thinking-tool-use.sse');
    const anthropicBodies = serve(
      MESSAGES_URL,
      sse(thinkingTool),
      () => HttpResponse.json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { status: 529 }),
      sse(fixture('anthropic-text.sse')),
    );
    const responsesBodies = serve(RESPONSES_URL, sse(fixture('responses-function-call.sse')));
    const model = createFallbackChatClient([anthropic(), responses()]);
    const result = await collectAgentRun(await agent(model).run('Weather in Paris, twice?'));
    expect(result.text).toBe('Hello, café 🥐!');
    expect(result.iterations).toBe(3);
    expect(anthropicBodies).toHaveLength(3);
    expect(responsesBodies).toHaveLength(1);
    // The Responses request: the Anthropic turn as plain items, no thinking block or signature.
    const input = (responsesBodies[0] as { input: Array<Record<string, unknown>> }).input;
    expect(input.map((item) => item.type ?? item.role)).toEqual(['system', 'user', 'function_call', 'function_call_output']);
    expect(JSON.stringify(input)).not.toMatch(/signature|redacted_thinking|ErUBCkYIBRgCIkDx/);
    // Back on Anthropic: its own thinking blocks return with their signature; the Responses turn goes as plain tool_use.
    const last = (anthropicBodies[2] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages;
    expect(last.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(last[1]?.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    expect(last[3]?.content.map((block) => block.type)).toEqual(['tool_use']);
    expect(JSON.stringify(last)).not.toMatch(/rs_68af|encrypted_content/);
  });
});
