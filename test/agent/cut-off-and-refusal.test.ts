// A turn the output limit cut, a refusal, a content filter (issue 14): never an empty success, never a tool run with
// half its arguments. The cut turn's calls are answered with an InputValidationError saying why, the transcript stays
// a valid next request, and the run's finish says `length`; a refusal or a filter is an error item to branch on; a
// turn that finishes to call tools and sends none the client can read fails the run (never its text as the answer),
// and so does a turn that gives two calls one id (neither runs: each answer is matched by its id).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createOpenAICompatibleClient, createScriptedChatClient } from '../../src/chat/index.js';
import { ChatClientError } from '../../src/errors/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';
import { BASE_URL, chunk, completions, sseResponse } from '../helpers/openai.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const sse = (text: string) => () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } });

function agent(executed: string[]) {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up an order.',
    parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } }, required: ['order'] }),
    execute: (args) => {
      executed.push((args as { order: string }).order);
      return { status: 'shipped' };
    },
  });
  const model = createOpenAICompatibleClient({ baseURL: BASE_URL, apiKey: 'sk-test-0123456789abcdef', model: 'gpt-4o', retry: false });
  return new AgentBuilder('support').chatClient(model).tools([lookup]).toolLogger(() => {}).build();
}

describe('a turn cut by the output limit (finish_reason: length)', () => {
  it('its cut-off call is not run: the model gets an InputValidationError saying so, and the run ends with length', async () => {
    server.use(completions(sse(fixture('openai-length-tool-call.sse'))));
    const executed: string[] = [];
    const result = await collectAgentRun(await agent(executed).run('Where is order A-1001?'));
    expect(executed).toEqual([]);
    expect(result.finishReason).toBe('length');
    const [answer] = result.toolResults;
    const error = JSON.parse(answer?.content ?? '{}').error;
    expect(error).toMatchObject({ type: 'InputValidationError', context: { tool: 'lookup', cutOffAtOutputLimit: true } });
    expect(error.message).toMatch(/cut off at the output token limit/);
    expect(error.suggestion).toMatch(/shorter arguments/);
    // The transcript is a valid next request: the assistant's call, then exactly one tool message for it.
    const roles = result.messages.map((message) => `${message.role}${message.toolCalls ? `(${message.toolCalls.length} calls)` : ''}`);
    expect(roles).toEqual(['assistant(1 calls)', 'tool']);
    expect(result.messages[1]?.toolCallId).toBe('call_cut1');
  });

  it('a complete call of the same cut turn still runs; only the cut one is refused', async () => {
    server.use(
      completions(() =>
        sseResponse([
          chunk({ tool_calls: [{ index: 0, id: 'c-ok', type: 'function', function: { name: 'lookup', arguments: '{"order":"A-1"}' } }] }, null),
          chunk({ tool_calls: [{ index: 1, id: 'c-cut', type: 'function', function: { name: 'lookup', arguments: '{"order":"A-' } }] }, null),
          chunk({}, 'length'),
          '[DONE]',
        ]),
      ),
    );
    const executed: string[] = [];
    const result = await collectAgentRun(await agent(executed).run('Two orders?'));
    expect(executed).toEqual(['A-1']);
    // The refused call ends first on the stream (it never runs); collected results and the transcript keep call order.
    expect(result.toolResults.map((item) => [item.callId, JSON.parse(item.content).error?.type ?? 'ok'])).toEqual([
      ['c-ok', 'ok'],
      ['c-cut', 'InputValidationError'],
    ]);
    expect(result.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual(['c-ok', 'c-cut']);
    expect(result.finishReason).toBe('length');
  });
});

describe('a refusal and a content filter are typed outcomes', () => {
  it('a refusal: the finish says refusal, and a ChatClientError (refused) item carries the words', async () => {
    server.use(completions(sse(fixture('openai-refusal.sse'))));
    const result = await collectAgentRun(await agent([]).run('Something disallowed'));
    expect(result.finishReason).toBe('refusal');
    const [error] = result.errors;
    expect(ChatClientError.isInstance(error) && error.reason).toBe('refused');
    expect((error as ChatClientError).providerMessage).toBe("I'm sorry, I can't help with that.");
  });

  it('a content filter: the finish says content_filter, and a ChatClientError (content_filter) item', async () => {
    server.use(completions(() => sseResponse([chunk({ content: 'Here is' }, null), chunk({}, 'content_filter'), '[DONE]'])));
    const result = await collectAgentRun(await agent([]).run('Something filtered'));
    expect(result.finishReason).toBe('content_filter');
    expect(result.errors.map((error) => ChatClientError.isInstance(error) && error.reason)).toEqual(['content_filter']);
  });

  it('a turn that finishes tool_calls with no call it could read ends the run with a terminal invalid_response, never as the answer', async () => {
    // e.g. a server that writes its call into the text instead of tool_calls
    server.use(completions(() => sseResponse([chunk({ content: '<tool_call>{"name":"lookup"}</tool_call>' }, null), chunk({}, 'tool_calls'), '[DONE]'])));
    const executed: string[] = [];
    const error = await collectAgentRun(await agent(executed).run('Where is order 42?')).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ChatClientError.isInstance(error) && [error.reason, error.retryable]).toEqual(['invalid_response', false]);
    expect((error as Error).message).toMatch(/finished its turn to call tools \(finish_reason tool_calls\) but sent no tool call/);
    expect(executed).toEqual([]);
  });

  it('a turn that gives two calls one id ends the run with a terminal invalid_response; neither call runs', async () => {
    const executed: string[] = [];
    const lookup = defineTool({ name: 'lookup', description: 'Looks up an order.', parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } }, required: ['order'] }), execute: (args) => void executed.push((args as { order: string }).order) });
    const calls = [
      { id: 'call_same', name: 'lookup', arguments: { order: '42' } },
      { id: 'call_same', name: 'lookup', arguments: { order: '43' } },
    ];
    const repeated = new AgentBuilder('support').chatClient(createScriptedChatClient([{ toolCalls: calls }, { text: 'Done.' }])).tools([lookup]).toolLogger(() => {}).build();
    const error = await collectAgentRun(await repeated.run('Where are orders 42 and 43?')).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ChatClientError.isInstance(error) && [error.reason, error.retryable]).toEqual(['invalid_response', false]);
    expect((error as Error).message).toBe('scripted gave two tool calls of one turn the id call_same: neither is run');
    expect(executed).toEqual([]);
  });

  it('a plain answer has no such item', async () => {
    server.use(completions(() => sseResponse([chunk({ content: 'Fine.' }, 'stop'), '[DONE]'])));
    const result = await collectAgentRun(await agent([]).run('Hello'));
    expect(result.errors).toEqual([]);
    expect(result.finishReason).toBe('stop');
  });
});
