// Structured output on the two other protocols (issue 14): Responses asks with `text.format: json_schema`; Anthropic,
// which has no response format, with a forced output tool whose input comes back as the answer's text. Both end in the
// typed value, and a bad answer is fed back once like on Chat Completions (test/agent/structured-output.test.ts).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import * as z from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { collectChatStream, createAnthropicClient, createOpenAIResponsesClient, type ChatRequest } from '../../src/chat/index.js';
import { OutputValidationError } from '../../src/errors/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const Order = z.object({ id: z.string(), total: z.number() });
const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const sse = (text: string) => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } });

/** An Anthropic stream calling `name` with `input` streamed in two fragments (the documented tool_use event flow). */
function anthropicToolUse(name: string, input: string, id = 'toolu_out_1'): string {
  const half = Math.ceil(input.length / 2);
  return (
    event('message_start', { message: { id: 'msg_o', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 9, output_tokens: 1 } } }) +
    event('content_block_start', { index: 0, content_block: { type: 'tool_use', id, name, input: {} } }) +
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(0, half) } }) +
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(half) } }) +
    event('content_block_stop', { index: 0 }) +
    event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } }) +
    event('message_stop', {})
  );
}

function serveAnthropic(...answers: string[]): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.post('https://anthropic.test/v1/messages', async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return sse(answers[Math.min(bodies.length - 1, answers.length - 1)] as string);
    }),
  );
  return bodies;
}

const anthropic = () => createAnthropicClient({ baseURL: 'https://anthropic.test', apiKey: 'sk-ant-test-0123456789abcdef', model: 'claude-sonnet-4-5', maxTokens: 512, retry: false });

describe('structured output on Anthropic: a forced output tool', () => {
  it('the only tool: tool_choice names it; its streamed input is the answer text; the run ends with the typed value', async () => {
    const bodies = serveAnthropic(anthropicToolUse('output', '{"id":"A-1","total":42.5}'));
    const agent = new AgentBuilder('orders').chatClient(anthropic()).build();
    const result = await collectAgentRun<z.infer<typeof Order>>(await agent.run('Order A-1?', { output: Order }));
    expect(result.output).toEqual({ id: 'A-1', total: 42.5 });
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('{"id":"A-1","total":42.5}');
    const body = bodies[0] as { tools: Array<{ name: string; input_schema: Record<string, unknown> }>; tool_choice: unknown };
    expect(body.tools.map((tool) => tool.name)).toEqual(['output']);
    expect(body.tools[0]?.input_schema).toMatchObject({ type: 'object', properties: { id: { type: 'string' }, total: { type: 'number' } } });
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'output' });
  });

  it('with the agent’s tools: tool_choice any, a real tool round first, then the output tool; a name taken by a tool is not reused', async () => {
    const bodies = serveAnthropic(anthropicToolUse('output', '{"order":"A-1"}', 'toolu_lookup'), anthropicToolUse('output_2', '{"id":"A-1","total":7}'));
    const lookup = defineTool({ name: 'output', description: 'A tool that happens to be called output.', parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } } }), execute: () => ({ total: 7 }) });
    const agent = new AgentBuilder('orders').chatClient(anthropic()).tools([lookup]).toolLogger(() => {}).build();
    const result = await collectAgentRun<z.infer<typeof Order>>(await agent.run('Order A-1?', { output: Order }));
    expect(result.output).toEqual({ id: 'A-1', total: 7 });
    expect(result.toolResults.map((item) => JSON.parse(item.content).ok)).toEqual([true]);
    const first = bodies[0] as { tools: Array<{ name: string }>; tool_choice: unknown };
    expect(first.tools.map((tool) => tool.name)).toEqual(['output', 'output_2']);
    expect(first.tool_choice).toEqual({ type: 'any' });
    // The final answer went back as text, so the transcript holds no tool_use without its result.
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: '{"id":"A-1","total":7}' });
    expect(result.messages.at(-1)).not.toHaveProperty('toolCalls');
  });

  it('an answer failing the schema is fed back once; a second failure is an OutputValidationError with the issues', async () => {
    const bodies = serveAnthropic(anthropicToolUse('output', '{"id":"A-1"}'));
    const agent = new AgentBuilder('orders').chatClient(anthropic()).build();
    const failure = await collectAgentRun(await agent.run('Order?', { output: Order })).catch((error: unknown) => error);
    expect(OutputValidationError.isInstance(failure)).toBe(true);
    expect((failure as OutputValidationError).issues.map((issue) => issue.path)).toEqual(['total']);
    expect(bodies).toHaveLength(2);
  });

  it('with extended thinking on, the output tool is offered with auto (Anthropic forbids a forced tool with thinking)', async () => {
    const bodies = serveAnthropic(anthropicToolUse('output', '{"id":"A-1","total":1}'));
    const client = createAnthropicClient({ baseURL: 'https://anthropic.test', model: 'claude-sonnet-4-5', maxTokens: 2048, retry: false, extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } } });
    await collectChatStream(client.stream({ messages: [{ role: 'user', content: 'Order?' }], responseFormat: { name: 'output', schema: { type: 'object' } } }));
    expect((bodies[0] as { tool_choice: unknown }).tool_choice).toEqual({ type: 'auto' });
  });

  it('complete(): the output tool call is the text of the answer', async () => {
    server.use(
      http.post('https://anthropic.test/v1/messages', () =>
        HttpResponse.json({ id: 'm', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'output', input: { id: 'A-1', total: 3 } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } }),
      ),
    );
    const request: ChatRequest = { messages: [{ role: 'user', content: 'Order?' }], responseFormat: { name: 'output', schema: { type: 'object' } } };
    const response = await anthropic().complete(request);
    expect(response).toMatchObject({ message: { role: 'assistant', content: '{"id":"A-1","total":3}' }, finishReason: 'stop' });
    expect(response.message).not.toHaveProperty('toolCalls');
  });
});

describe('structured output on OpenAI Responses: text.format json_schema', () => {
  it('asks with text.format and returns the typed value', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const json = '{"id":"A-1","total":42.5}';
    server.use(
      http.post('https://openai.test/v1/responses', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return sse(
          event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] } }) +
            event('response.output_text.delta', { output_index: 0, item_id: 'msg_1', content_index: 0, delta: json.slice(0, 10) }) +
            event('response.output_text.delta', { output_index: 0, item_id: 'msg_1', content_index: 0, delta: json.slice(10) }) +
            event('response.completed', { response: { id: 'resp_1', status: 'completed', output: [], usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 } } }),
        );
      }),
    );
    const agent = new AgentBuilder('orders').chatClient(createOpenAIResponsesClient({ baseURL: 'https://openai.test/v1', model: 'gpt-5-mini', retry: false })).build();
    const result = await collectAgentRun<z.infer<typeof Order>>(await agent.run('Order A-1?', { output: Order }));
    expect(result.output).toEqual({ id: 'A-1', total: 42.5 });
    expect((bodies[0] as { text: unknown }).text).toMatchObject({ format: { type: 'json_schema', name: 'output', strict: false, schema: { type: 'object' } } });
  });
});
