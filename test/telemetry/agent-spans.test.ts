// The span tree of an agent run (issue 16) with the OpenTelemetry SDK's in-memory exporter: one invoke_agent span, a
// chat span per model call (its retry as an event), an execute_tool span per tool call (a failing tool's span fails
// with the model-facing error type), GenAI attributes; a planted secret in every field a remote party or the tool
// controls appears in no exported span; content only with recordContent.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, runAgent } from '../../src/agent/index.js';
import { createOpenAICompatibleClient } from '../../src/chat/index.js';
import { defineTool, NetworkError } from '../../src/tools/index.js';
import { completions, sseResponse, textEvents, toolCallEvents } from '../helpers/openai.js';
import { exported, otel, record } from './otel-sdk.js';

const SECRET = 'sk-live-PLANTED-0123456789abcdef';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

function agentWith(telemetry: ReturnType<typeof record>['telemetry']) {
  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Weather',
    parameters: z.object({ city: z.string() }),
    retry: { maxAttempts: 2, initialDelayMs: 0 },
    execute: ({ city }) => {
      throw new NetworkError(`weather station for ${city} refused ${SECRET}`);
    },
  });
  return new AgentBuilder('support')
    .chatClient(createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', apiKey: SECRET, model: 'gpt-test', retry: { maxAttempts: 3, initialDelayMs: 0 } }))
    .tools([getWeather])
    .telemetry(telemetry)
    .secrets([SECRET])
    .build();
}

describe('an agent run as spans', () => {
  it('invoke_agent → chat (retried) + execute_tool (failing) + chat, with GenAI attributes and error types', async () => {
    server.use(
      completions(
        () => new HttpResponse(`{"error":{"message":"overloaded, key ${SECRET}"}}`, { status: 503, headers: { 'content-type': 'application/json' } }),
        () => sseResponse(toolCallEvents([{ id: 'call_1', name: 'get_weather', arguments: `{"city":"Oslo ${SECRET}"}` }])),
        () => sseResponse(textEvents([`The station is down (${SECRET}).`])),
      ),
    );
    const recorder = record({ secrets: [SECRET] });
    const items = [];
    for await (const item of agentWith(recorder.telemetry).run(`Weather in Oslo? my key is ${SECRET}`, { session: 'conv-1' })) items.push(item);
    expect(items.at(-1)).toMatchObject({ type: 'finish' });

    const run = recorder.span('invoke_agent support');
    const chats = recorder.spans().filter((span) => span.name === 'chat gpt-test');
    const tool = recorder.span('execute_tool get_weather');
    expect(chats).toHaveLength(2);
    for (const span of [...chats, tool]) {
      expect(parentOf(span)).toBe(idOf(run));
      expect(span.spanContext().traceId).toBe(run.spanContext().traceId);
    }
    expect(run.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support', 'gen_ai.conversation.id': 'conv-1', 'gen_ai.request.model': 'gpt-test' });
    expect(run.status.code).toBe(otel.SpanStatusCode.UNSET); // the run recovered: the model answered despite the tool

    const [first, second] = chats as [ReadableSpan, ReadableSpan];
    expect(first.kind).toBe(otel.SpanKind.CLIENT);
    expect(first.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-test', 'gen_ai.provider.name': 'llm.test', 'server.address': 'llm.test', 'gen_ai.response.finish_reasons': ['tool_calls'] });
    expect(first.events.map((event) => event.name)).toEqual(['faultline.retry']);
    expect(first.events[0]?.attributes).toMatchObject({ 'faultline.retry.attempt': 2, 'error.type': 'chat_client' });
    expect(second.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'] });

    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
      'faultline.tool.outcome': 'failure',
      'faultline.tool.attempts': 2,
      'error.type': 'NetworkError',
    });
    expect(tool.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(tool.events.map((event) => event.name)).toEqual(['faultline.retry', 'exception']);
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBeUndefined(); // content is opt-in
    for (const span of chats) expect([span.attributes['gen_ai.input.messages'], span.attributes['gen_ai.output.messages']]).toEqual([undefined, undefined]);

    for (const span of recorder.spans()) expect(exported(span)).not.toContain(SECRET);
  });

  it('a run whose model call fails for good fails its chat span and its run span with error.type chat_client', async () => {
    server.use(completions(() => new HttpResponse('{"error":{"message":"bad key"}}', { status: 401, headers: { 'content-type': 'application/json' } })));
    const recorder = record();
    const model = createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', apiKey: 'sk-x', model: 'gpt-test' });
    await expect(runAgent({ model, prompt: 'Hi', telemetry: recorder.telemetry, name: 'writer' })).rejects.toMatchObject({ name: 'ChatClientError' });
    const run = recorder.span('invoke_agent writer');
    const chat = recorder.span('chat gpt-test');
    expect(parentOf(chat)).toBe(idOf(run));
    for (const span of [run, chat]) {
      expect(span.status.code).toBe(otel.SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('chat_client');
    }
  });

  it('records tool arguments and results only with recordContent, redacted', async () => {
    server.use(
      completions(
        () => sseResponse(toolCallEvents([{ id: 'call_9', name: 'get_weather', arguments: `{"city":"Oslo ${SECRET}"}` }])),
        () => sseResponse(textEvents(['done'])),
      ),
    );
    const recorder = record({ secrets: [SECRET], recordContent: true });
    for await (const _ of agentWith(recorder.telemetry).run('Weather?')) void _;
    const tool = recorder.span('execute_tool get_weather');
    const [firstChat, lastChat] = recorder.spans().filter((span) => span.name === 'chat gpt-test') as [ReadableSpan, ReadableSpan];
    expect(String(firstChat.attributes['gen_ai.input.messages'])).toContain('Weather?');
    expect(String(lastChat.attributes['gen_ai.output.messages'])).toContain('done');
    for (const span of recorder.spans()) expect(exported(span)).not.toContain(SECRET);
    expect(String(tool.attributes['gen_ai.tool.call.arguments'])).toContain('Oslo');
    expect(String(tool.attributes['gen_ai.tool.call.result'])).toContain('NetworkError');
    expect(exported(tool)).not.toContain(SECRET);
  });

  it('an aborted run ends its span with error.type cancelled; no span is left open', async () => {
    server.use(completions(() => sseResponse(textEvents(['never read']))));
    const recorder = record();
    const controller = new AbortController();
    controller.abort(new DOMException('user left', 'AbortError'));
    const model = createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', model: 'gpt-test' });
    await expect(runAgent({ model, prompt: 'Hi', telemetry: recorder.telemetry, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(recorder.span('invoke_agent agent').attributes['error.type']).toBe('cancelled');
  });
});
