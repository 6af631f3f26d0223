// An agent run as the AI SDK UI message stream, scenario by scenario: every frame validates against `ai`'s own
// `uiMessageChunkSchema`, the structure holds (parts closed, tool calls answered, one ending, `[DONE]`), and the
// message `readUIMessageStream` builds — what `useChat` keeps — holds each failure as a typed part.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../../src/agent/index.js';
import { createScriptedChatClient, type ChatChunk, type ChatClient, type ChatStream, type ScriptedTurn } from '../../../src/chat/index.js';
import { ChatClientError } from '../../../src/errors/index.js';
import { defineTool, RateLimitError, toolErrorFromResponse, type AnyTool } from '../../../src/tools/index.js';
import { toUIMessageStream, toUIMessageStreamResponse, type FaultlineErrorData, type UIMessageStreamOptions } from '../../../src/ui/index.js';
import { checkedBody, chunksOfType } from './ui-stream.js';

const weatherParameters = z.object({ city: z.string() });

function weather(execute: (args: { city: string }) => unknown, extra: Partial<Parameters<typeof defineTool>[0]> = {}): AnyTool {
  return defineTool({ name: 'get_weather', description: 'Current weather for a city.', parameters: weatherParameters, execute, ...extra } as Parameters<typeof defineTool>[0]);
}

function agentWith(turns: readonly ScriptedTurn[], tools: readonly AnyTool[] = [], maxIterations = 10) {
  return new AgentBuilder('ui').chatClient(createScriptedChatClient(turns)).tools(tools).maxIterations(maxIterations).toolLogger(false).build();
}

const askWeather: ScriptedTurn = { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] };

async function streamOf(turns: readonly ScriptedTurn[], tools: readonly AnyTool[] = [], options?: UIMessageStreamOptions) {
  return checkedBody(toUIMessageStream(agentWith(turns, tools).run('Weather in Paris?'), options));
}

/** The data of the message's `data-faultline-error` parts. */
function errorParts(message: { parts: ReadonlyArray<{ type: string }> } | undefined): FaultlineErrorData[] {
  return (message?.parts ?? []).filter((part) => part.type === 'data-faultline-error').map((part) => (part as unknown as { data: FaultlineErrorData }).data);
}

function toolPart(message: { parts: ReadonlyArray<{ type: string }> } | undefined): Record<string, unknown> {
  return (message?.parts ?? []).find((part) => part.type === 'tool-get_weather') as unknown as Record<string, unknown>;
}

describe('a run that succeeds', () => {
  it('is a step per model call, a tool part with its exact arguments and content, and a text part, then finish stop', async () => {
    const body = await streamOf([askWeather, { text: 'It is 21 °C in Paris.' }], [weather(({ city }) => ({ city, celsius: 21 }))], { messageId: 'msg-1' });
    expect(body.chunks[0]).toEqual({ type: 'start', messageId: 'msg-1' });
    expect(body.chunks.map((chunk) => chunk.type).filter((type) => type !== 'text-delta')).toEqual([
      'start',
      'start-step',
      'tool-input-start',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'text-start',
      'text-end',
      'finish-step',
      'finish',
    ]);
    const tool = toolPart(body.message);
    expect(tool).toMatchObject({
      toolCallId: 'call_1',
      state: 'output-available',
      input: { city: 'Paris' },
      output: { ok: true, data: { city: 'Paris', celsius: 21 } },
      callProviderMetadata: { faultline: { arguments: '{"city":"Paris"}' } },
      resultProviderMetadata: { faultline: { content: '{"ok":true,"data":{"city":"Paris","celsius":21}}' } },
    });
    expect(body.message?.parts.find((part) => part.type === 'text')).toEqual({ type: 'text', text: 'It is 21 °C in Paris.', state: 'done' });
    expect(chunksOfType(body.chunks, 'text-start').map((chunk) => chunk.id)).toEqual(['t2-1']);
    expect(body.message?.metadata).toEqual({ faultline: { finishReason: 'stop', interrupts: 0, iterations: 2, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } } });
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(body.errors).toEqual([]);
  });

  it('is served with the protocol headers by toUIMessageStreamResponse', async () => {
    const response = toUIMessageStreamResponse(agentWith([{ text: 'Hi.' }]).run('Hello?'), { headers: { 'x-request-id': 'r1' } });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'text/event-stream',
      'x-vercel-ai-ui-message-stream': 'v1',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-request-id': 'r1',
    });
    const body = await checkedBody(response.body as ReadableStream<Uint8Array>);
    expect(body.message?.parts.at(-1)).toEqual({ type: 'text', text: 'Hi.', state: 'done' });
  });
});

describe('a tool failing each way: a tool-output-error with the model-facing message, and a typed data-faultline-error', () => {
  const http = (status: number, headers: Record<string, string> = {}) =>
    weather(async () => {
      throw await toolErrorFromResponse(new Response('{"error":{"message":"upstream said no"}}', { status, headers }), { service: 'Weather API' });
    });
  const cases: Array<[string, AnyTool, Partial<FaultlineErrorData>]> = [
    ['404', http(404), { type: 'DataNotFoundError', code: 'failure', retryable: false }],
    ['401', http(401), { type: 'AuthenticationError', code: 'failure', retryable: false }],
    ['429 with Retry-After', http(429, { 'retry-after': '2' }), { type: 'RateLimitError', code: 'failure', retryable: true, retryAfterMs: 2_000 }],
    ['500', http(500), { type: 'APIFailure', code: 'failure', retryable: true }],
    [
      'a crash',
      weather(() => {
        throw new Error('segfault in /srv/app/weather.js line 42');
      }),
      { type: 'ToolInternalError', code: 'crash', retryable: false },
    ],
    ['a timeout', weather(() => new Promise(() => {}), { timeoutMs: 20 }), { type: 'TimeoutError', code: 'timeout', retryable: true }],
  ];
  for (const [label, tool, expected] of cases) {
    it(label, async () => {
      const body = await streamOf([askWeather, { text: 'Sorry.' }], [tool]);
      const part = toolPart(body.message);
      const [error] = errorParts(body.message);
      expect(part).toMatchObject({ state: 'output-error', errorText: error?.message, resultProviderMetadata: { faultline: { content: expect.stringContaining('"ok":false') } } });
      expect(error).toMatchObject({ ...expected, kind: 'tool', scope: 'tool', toolCallId: 'call_1', toolName: 'get_weather' });
      expect(error?.cause).toBeUndefined(); // the model view: no developer detail
      expect(JSON.parse((part.resultProviderMetadata as { faultline: { content: string } }).faultline.content).error.message).toBe(error?.message);
      expect(body.text).not.toContain('segfault');
      expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    });
  }

  it('invalid arguments: the raw text as input and in the metadata, an InputValidationError', async () => {
    const body = await streamOf([{ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city": ' }] }, { text: 'Oops.' }], [weather(() => 'never')]);
    expect(toolPart(body.message)).toMatchObject({ state: 'output-error', input: '{"city": ', callProviderMetadata: { faultline: { arguments: '{"city": ' } } });
    expect(errorParts(body.message)[0]).toMatchObject({ type: 'InputValidationError', code: 'invalid_arguments', retryable: false, suggestion: expect.any(String) });
  });

  it("with expose: 'developer', each error part also carries its cause, redacted and without a stack", async () => {
    const crash = weather(() => {
      throw new Error('db login failed for password hunter2-PLANTED');
    });
    const body = await streamOf([askWeather, { text: 'Sorry.' }], [crash], { expose: 'developer', secrets: ['hunter2-PLANTED'] });
    const [error] = errorParts(body.message);
    expect(error?.cause).toMatchObject({ name: 'Error', message: 'db login failed for password [REDACTED]' });
    expect(body.text).not.toContain('hunter2-PLANTED');
    expect(body.text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack frame
  });

  it('a retry in progress is a transient data part (not kept), then the output when the retry succeeds', async () => {
    let attempts = 0;
    const flaky = weather(
      () => {
        if (++attempts === 1) throw new RateLimitError('Slow down.', { retryAfterMs: 5 });
        return 'sunny';
      },
      { retry: { maxAttempts: 2 } },
    );
    const body = await streamOf([askWeather, { text: 'Sunny.' }], [flaky]);
    const retries = body.chunks.filter((chunk) => chunk.type === 'data-faultline-retry');
    expect(retries).toEqual([
      {
        type: 'data-faultline-retry',
        transient: true,
        data: {
          source: 'tool',
          attempt: 1,
          delayMs: 5,
          toolCallId: 'call_1',
          toolName: 'get_weather',
          error: expect.objectContaining({ type: 'RateLimitError', message: 'Slow down.', kind: 'tool', retryable: true, scope: 'tool', toolCallId: 'call_1' }),
        },
      },
    ]);
    expect(body.message?.parts.some((part) => part.type === 'data-faultline-retry')).toBe(false);
    expect(toolPart(body.message)).toMatchObject({ state: 'output-available', output: { ok: true, data: 'sunny' } });
  });
});

describe('a run that fails', () => {
  it('a provider error mid-answer: the partial text part is closed, then the kept error, error and finish error', async () => {
    const failure = new ChatClientError('The model provider returned 503 Service Unavailable', { status: 503 });
    const body = await streamOf([{ text: 'The weather in Par', error: failure, chunkSize: 6 }]);
    const types = body.chunks.map((chunk) => chunk.type);
    expect(types.slice(-5)).toEqual(['text-end', 'finish-step', 'data-faultline-error', 'error', 'finish']);
    expect(body.message?.parts.find((part) => part.type === 'text')).toEqual({ type: 'text', text: 'The weather in Par', state: 'done' });
    expect(errorParts(body.message)).toEqual([
      { type: 'ChatClientError', message: 'The model provider returned 503 Service Unavailable', kind: 'chat_client', retryable: true, scope: 'run' },
    ]);
    expect(chunksOfType(body.chunks, 'error')).toEqual([{ type: 'error', errorText: 'The model provider returned 503 Service Unavailable' }]);
    expect(body.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'error', messageMetadata: { faultline: { finishReason: 'error', interrupts: 0 } } });
    expect(body.errors).toEqual(['The model provider returned 503 Service Unavailable']);
  });

  it('an unknown error: a generic message in the model view, the real one with the developer view', async () => {
    const model: ChatClient = { name: 'broken', stream: () => { throw new TypeError('internal table users_v2 is locked'); }, complete: () => Promise.reject(new Error('unused')) };
    const run = () => new AgentBuilder('ui').chatClient(model).build().run('Hi');
    const shown = await checkedBody(toUIMessageStream(run()));
    expect(errorParts(shown.message)).toEqual([{ type: 'Error', message: 'The run failed with an unexpected error.', kind: 'other', retryable: false, scope: 'run' }]);
    expect(shown.text).not.toContain('users_v2');
    const developer = await checkedBody(toUIMessageStream(run(), { expose: 'developer' }));
    expect(errorParts(developer.message)[0]?.cause).toMatchObject({ name: 'TypeError', message: 'internal table users_v2 is locked' });
  });

  it('max iterations: finish with the protocol reason tool-calls, faultline’s reason in the message metadata', async () => {
    const again: ScriptedTurn = { toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: { city: 'Paris' } }] };
    const loop = agentWith([askWeather, again], [weather(() => 'sunny')], 2);
    const body = await checkedBody(toUIMessageStream(loop.run('Weather?')));
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { faultline: { finishReason: 'max_iterations', iterations: 2 } } });
    expect(body.message?.metadata?.faultline?.finishReason).toBe('max_iterations');
  });

  it('onError maps a failure: its message (and errorText) replaced, the rest kept', async () => {
    const failure = new ChatClientError('Upstream 503', { status: 503 });
    const seen: unknown[] = [];
    const body = await streamOf([{ error: failure }], [], {
      onError: (error, data) => {
        seen.push(error);
        return data.scope === 'run' ? 'The assistant is unavailable, try again in a minute.' : undefined;
      },
    });
    expect(seen).toEqual([failure]);
    expect(errorParts(body.message)[0]).toMatchObject({ type: 'ChatClientError', message: 'The assistant is unavailable, try again in a minute.', retryable: true });
    expect(chunksOfType(body.chunks, 'error')[0]?.errorText).toBe('The assistant is unavailable, try again in a minute.');
  });
});

describe('reasoning, replay and refusals', () => {
  /** A client streaming `chunks` as one call. */
  const once = (chunks: ChatChunk[]): ChatClient => ({
    name: 'once',
    stream: () =>
      new ReadableStream<ChatChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }) as ChatStream,
    complete: () => Promise.reject(new Error('unused')),
  });

  it('the replay items of a model call travel on a reasoning part’s providerMetadata.faultline', async () => {
    const replay = [{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'Cold front.', signature: 'EqQBsig' } }];
    const agent = new AgentBuilder('thinker').chatClient(once([{ type: 'reasoning-delta', delta: 'Cold front.' }, { type: 'text-delta', delta: 'Rain.' }, { type: 'finish', reason: 'stop', replay }])).build();
    const body = await checkedBody(toUIMessageStream(agent.run('Weather?')));
    const reasoning = body.message?.parts.filter((part) => part.type === 'reasoning');
    expect(reasoning).toEqual([
      { type: 'reasoning', id: 'r1-1', text: 'Cold front.', state: 'done', providerMetadata: undefined },
      { type: 'reasoning', id: 'r1-2', text: '', state: 'done', providerMetadata: { faultline: { replay } } },
    ]);
    expect(chunksOfType(body.chunks, 'reasoning-start').map((chunk) => chunk.id)).toEqual(['r1-1', 'r1-2']);
  });

  it('a refusal: a kept model error part, and finish other with the reason refusal', async () => {
    const agent = new AgentBuilder('careful').chatClient(once([{ type: 'text-delta', delta: 'I cannot help with that.' }, { type: 'finish', reason: 'refusal' }])).build();
    const body = await checkedBody(toUIMessageStream(agent.run('Something bad')));
    expect(errorParts(body.message)).toEqual([expect.objectContaining({ type: 'ChatClientError', kind: 'chat_client', scope: 'model', message: expect.stringContaining('refused') })]);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'other', messageMetadata: { faultline: { finishReason: 'refusal' } } });
  });
});

describe('the run’s own items decide nothing about the ending: a run stream that ends early or breaks still ends well', () => {
  /** The items one by one, then the end (or `error`). */
  function streamOfItems(items: unknown[], error?: unknown): ReadableStream<AgentRunItem> {
    let index = 0;
    return new ReadableStream<AgentRunItem>({
      pull(controller) {
        if (index < items.length) controller.enqueue(items[index++] as AgentRunItem);
        else if (error !== undefined) controller.error(error);
        else controller.close();
      },
    });
  }

  it('ended without a finish: an incomplete StreamError, then finish error', async () => {
    const body = await checkedBody(toUIMessageStream(streamOfItems([{ type: 'text-delta', iteration: 1, delta: 'Half' }])));
    expect(errorParts(body.message)).toEqual([expect.objectContaining({ type: 'StreamError', kind: 'stream', scope: 'run', message: 'The agent run ended without a finish or a terminal error' })]);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });

  it('a stream that errors: a read_failed StreamError, then finish error', async () => {
    const body = await checkedBody(toUIMessageStream(streamOfItems([{ type: 'tool-call', iteration: 1, call: { id: 'c1', name: 'x', arguments: '{}' } }], new Error('socket hang up'))));
    expect(errorParts(body.message).map((error) => [error.scope, error.type])).toEqual([
      ['tool', 'Interrupted'],
      ['run', 'StreamError'],
    ]);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });

  it('items that are not items: the stream still ends with a typed error and finish', async () => {
    const body = await checkedBody(toUIMessageStream(streamOfItems([{ type: 'text-delta', iteration: 1, delta: 'ok' }, null, { type: 'finish' }])));
    expect(errorParts(body.message)[0]).toMatchObject({ type: 'AgentError', scope: 'run' });
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });
});
