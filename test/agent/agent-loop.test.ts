/**
 * The agent loop end to end: a real OpenAI-compatible client over msw (recorded provider streams from
 * test/fixtures/ where a scenario fits, the builders of test/helpers/openai.ts for injected faults), one `it` per
 * scenario, each asserting the exact items of the run. Real timers throughout (msw needs them); waits are tiny.
 */
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { Agent, AgentBuilder, collectAgentRun, InMemorySessionStore, type AgentEvents, type AgentRunItem } from '../../src/agent/index.js';
import {
  createFallbackChatClient,
  createOpenAICompatibleClient,
  type ChatClient,
  type ChatMessage,
  type OpenAICompatibleClientOptions,
  type ToolCall,
} from '../../src/chat/index.js';
import { AgentError, ChatClientError, ConfigError, SessionError, StreamError, ToolError } from '../../src/errors/index.js';
import { defineTool, ToolInternalError, ToolResult, type AnyTool, type ToolContext } from '../../src/tools/index.js';
import {
  anError,
  expectValidTranscript,
  finishOf,
  fixtureStream,
  modelEndpoint,
  readRun,
  recordedError,
  sleep,
  stringsIn,
  failureItem,
  messageItem,
  modelRetryItem,
  successItem,
  textItems,
} from '../helpers/agent-run.js';
import { BASE_URL, chunk, COMPLETIONS_URL, sseResponse, textEvents, toolCallEvents } from '../helpers/openai.js';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const BACKUP_URL = 'https://backup.test/v1';
const MODEL_NAME = 'llm.test/test-model';
const INSTRUCTIONS = 'Answer weather questions. Use the tools.';
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 };

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function model(overrides: Partial<OpenAICompatibleClientOptions> = {}): ChatClient {
  return createOpenAICompatibleClient({ baseURL: BASE_URL, apiKey: API_KEY, model: 'test-model', retry: fastRetry, ...overrides });
}

/** An agent builder over `client` with `tools` and a silent tool log. */
function builder(tools: readonly AnyTool[] = [], client: ChatClient = model()): AgentBuilder {
  return new AgentBuilder('weather-agent').chatClient(client).tools(tools).toolLogger(() => {});
}

/** Serves `answers` at the primary completions URL, one per model call (the last repeats). */
function serve(...answers: Parameters<typeof modelEndpoint>[1][]): ReturnType<typeof modelEndpoint> {
  const endpoint = modelEndpoint(COMPLETIONS_URL, ...answers);
  server.use(endpoint.handler);
  return endpoint;
}

type Weather = { city: string; temperatureC: number; sky: string };
const weatherOf = (city: string): Weather => ({ city, temperatureC: city === 'Paris' ? 21 : 18, sky: 'sunny' });

function weatherTool(execute: (args: { city: string }, context: ToolContext) => unknown = ({ city }) => weatherOf(city)): AnyTool {
  return defineTool({ name: 'get_weather', description: 'Current weather for a city.', parameters: z.object({ city: z.string() }), execute });
}

const timeTool = defineTool({ name: 'get_time', description: 'Local time in a city.', parameters: z.object({ city: z.string() }), execute: () => '12:00' });

const usage = (promptTokens: number, completionTokens: number, extra: { reasoningTokens?: number; cachedPromptTokens?: number } = {}) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
  ...extra,
});
/** The usage of the recorded OpenAI streams, whose usage chunk reports zero cached and zero reasoning tokens. */
const recordedUsage = (promptTokens: number, completionTokens: number) => usage(promptTokens, completionTokens, { reasoningTokens: 0, cachedPromptTokens: 0 });
/** The usage chunk of the builders' streams (`usageChunk()`). */
const BUILDER_USAGE = usage(10, 5);

const assistantCalls = (...calls: ToolCall[]): ChatMessage => ({ role: 'assistant', content: null, toolCalls: calls });
const toolMessage = (call: ToolCall, result: unknown): ChatMessage => ({ role: 'tool', content: JSON.stringify(result), toolCallId: call.id });
/** A message as sent on the wire (OpenAI shape). */
const wireCalls = (...calls: ToolCall[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
});

/** Recorded fixture facts (see test/fixtures/README.md). */
const TEXT_FIXTURE_DELTAS = ['Sure', '!', ' One', ' café', ' au', ' lait', ' and', ' a', ' cro', 'issant', ' 🥐', ' coming', ' right', ' up', ' ☕'];
const TEXT_FIXTURE_ANSWER = 'Sure! One café au lait and a croissant 🥐 coming right up ☕';
const TOOL_FIXTURE_CALL: ToolCall = { id: 'call_2Uzw0AEZQeOex2CP', name: 'get_weather', arguments: '{"city":"Paris"}' };
const PARALLEL_FIXTURE_CALLS: ToolCall[] = [
  { id: 'call_JMW1whyEaYG438VE', name: 'get_weather', arguments: '{"city": "Paris"}' },
  { id: 'call_DNYTawLBoN8fj3KN', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
];

const ABORTED_MESSAGE = "The run was cancelled before the tool 'get_weather' finished; its outcome is unknown.";
const CRASH_RESULT = {
  type: 'ToolInternalError',
  message: "The tool 'get_weather' failed with an unexpected internal error.",
  suggestion: ToolInternalError.defaultSuggestion,
};

const EVENT_NAMES = ['model-request', 'model-response', 'tool-start', 'tool-end', 'tool-error', 'retry', 'error'] as const satisfies ReadonlyArray<keyof AgentEvents>;
type Observed = { name: keyof AgentEvents; payload: Record<string, unknown> };

/** Listens to every observability event of `agent`; `off()` unbinds every listener. */
function observe(agent: Agent): { events: Observed[]; off: () => void } {
  const events: Observed[] = [];
  const unbind = EVENT_NAMES.map((name) => agent.on(name, ((payload: Record<string, unknown>) => events.push({ name, payload })) as AgentEvents[typeof name]));
  return { events, off: () => unbind.forEach((off) => off()) };
}

const payloadsOf = (events: readonly Observed[], name: keyof AgentEvents) => events.filter((event) => event.name === name).map((event) => event.payload);

describe('Agent.run over an OpenAI-compatible model', () => {
  it('streams a plain answer (recorded OpenAI text stream) and finishes', async () => {
    const endpoint = serve(() => fixtureStream('openai-text.sse'));
    const agent = builder().build();
    const items = await readRun(await agent.run('A café au lait and a croissant, please.'));
    expect(items).toEqual([
      ...textItems(1, TEXT_FIXTURE_DELTAS),
      { type: 'usage', iteration: 1, usage: recordedUsage(14, 16) },
      messageItem(1, { role: 'assistant', content: TEXT_FIXTURE_ANSWER }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 1,
        usage: recordedUsage(14, 16),
        text: TEXT_FIXTURE_ANSWER,
        messages: [{ role: 'assistant', content: TEXT_FIXTURE_ANSWER }],
      },
    ]);
    expect(endpoint.calls).toBe(1);
    expect(endpoint.bodies[0]?.messages).toEqual([{ role: 'user', content: 'A café au lait and a croissant, please.' }]);
  });

  it('runs one tool round (recorded OpenAI tool call) and sends the tool message back to the model', async () => {
    const endpoint = serve(() => fixtureStream('openai-tool-call.sse'), () => sseResponse(textEvents(['It is 21 °C', ' and sunny in Paris.'])));
    const agent = builder([weatherTool()]).instructions(INSTRUCTIONS).build();
    const items = await readRun(await agent.run('Weather in Paris?'));
    const paris = weatherOf('Paris');
    const answer = 'It is 21 °C and sunny in Paris.';
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call: TOOL_FIXTURE_CALL },
      { type: 'usage', iteration: 1, usage: recordedUsage(57, 15) },
      messageItem(1, assistantCalls(TOOL_FIXTURE_CALL)),
      successItem(1, TOOL_FIXTURE_CALL, paris),
      ...textItems(2, ['It is 21 °C', ' and sunny in Paris.']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: answer }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: recordedUsage(67, 20),
        text: answer,
        messages: [assistantCalls(TOOL_FIXTURE_CALL), toolMessage(TOOL_FIXTURE_CALL, { ok: true, data: paris }), { role: 'assistant', content: answer }],
      },
    ]);
    expect(endpoint.calls).toBe(2);
    expect(endpoint.bodies[1]?.messages).toEqual([
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: 'Weather in Paris?' },
      wireCalls(TOOL_FIXTURE_CALL),
      { role: 'tool', content: '{"ok":true,"data":{"city":"Paris","temperatureC":21,"sky":"sunny"}}', tool_call_id: TOOL_FIXTURE_CALL.id },
    ]);
    expect(endpoint.bodies[1]?.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Current weather for a city.', parameters: weatherTool().jsonSchema } }]);
    expectValidTranscript(finishOf(items).messages);
  });

  it('runs several rounds: two tool rounds, then the answer (three model calls)', async () => {
    const first: ToolCall = { id: 'call_round_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
    const second: ToolCall = { id: 'call_round_2', name: 'get_time', arguments: '{"city":"Paris"}' };
    const endpoint = serve(
      () => sseResponse(toolCallEvents([first])),
      () => sseResponse(toolCallEvents([second])),
      () => sseResponse(textEvents(['Sunny, and it is noon.'])),
    );
    const agent = builder([weatherTool(), timeTool]).build();
    const items = await readRun(await agent.run('Weather and time in Paris?'));
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call: first },
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, assistantCalls(first)),
      successItem(1, first, weatherOf('Paris')),
      { type: 'tool-call', iteration: 2, call: second },
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, assistantCalls(second)),
      successItem(2, second, '12:00'),
      ...textItems(3, ['Sunny, and it is noon.']),
      { type: 'usage', iteration: 3, usage: BUILDER_USAGE },
      messageItem(3, { role: 'assistant', content: 'Sunny, and it is noon.' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 3,
        usage: usage(30, 15),
        text: 'Sunny, and it is noon.',
        messages: [
          assistantCalls(first),
          toolMessage(first, { ok: true, data: weatherOf('Paris') }),
          assistantCalls(second),
          toolMessage(second, { ok: true, data: '12:00' }),
          { role: 'assistant', content: 'Sunny, and it is noon.' },
        ],
      },
    ]);
    expect(endpoint.calls).toBe(3);
    expect(endpoint.bodies[2]?.messages).toEqual([
      { role: 'user', content: 'Weather and time in Paris?' },
      wireCalls(first),
      { role: 'tool', content: JSON.stringify({ ok: true, data: weatherOf('Paris') }), tool_call_id: first.id },
      wireCalls(second),
      { role: 'tool', content: '{"ok":true,"data":"12:00"}', tool_call_id: second.id },
    ]);
    expectValidTranscript(finishOf(items).messages);
  });

  it('runs parallel tool calls (recorded OpenAI stream) concurrently, reports each as it ends, and answers them in call order', async () => {
    const started: string[] = [];
    const finished: string[] = [];
    let bothStarted!: () => void;
    const barrier = new Promise<void>((resolve) => (bothStarted = resolve));
    // Each call waits until the other one has started: run one after the other, the first would never finish.
    const tool = weatherTool(async ({ city }) => {
      started.push(city);
      if (started.length === 2) bothStarted();
      await Promise.race([barrier, sleep(2_000).then(() => Promise.reject(new Error(`${city}: the other call never started`)))]);
      if (city === 'Paris') await sleep(20); // the first call finishes last
      finished.push(city);
      return weatherOf(city);
    });
    const endpoint = serve(() => fixtureStream('openai-parallel-tool-calls.sse'), () => sseResponse(textEvents(['Paris 21 °C, Tokyo 18 °C.'])));
    const items = await readRun(await builder([tool]).build().run('Weather in Paris and Tokyo?'));
    const [paris, tokyo] = PARALLEL_FIXTURE_CALLS as [ToolCall, ToolCall];
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call: paris },
      { type: 'tool-call', iteration: 1, call: tokyo },
      { type: 'usage', iteration: 1, usage: usage(80, 46, { reasoningTokens: 0 }) },
      messageItem(1, assistantCalls(paris, tokyo)),
      successItem(1, tokyo, weatherOf('Tokyo')), // Tokyo ends first: its result is not held behind Paris
      successItem(1, paris, weatherOf('Paris')),
      ...textItems(2, ['Paris 21 °C, Tokyo 18 °C.']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: 'Paris 21 °C, Tokyo 18 °C.' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: usage(90, 51, { reasoningTokens: 0 }),
        text: 'Paris 21 °C, Tokyo 18 °C.',
        messages: [
          assistantCalls(paris, tokyo),
          toolMessage(paris, { ok: true, data: weatherOf('Paris') }),
          toolMessage(tokyo, { ok: true, data: weatherOf('Tokyo') }),
          { role: 'assistant', content: 'Paris 21 °C, Tokyo 18 °C.' },
        ],
      },
    ]);
    expect(started).toEqual(['Paris', 'Tokyo']);
    expect(finished).toEqual(['Tokyo', 'Paris']);
    expect((endpoint.bodies[1]?.messages as unknown[]).slice(1)).toEqual([
      wireCalls(paris, tokyo),
      { role: 'tool', content: JSON.stringify({ ok: true, data: weatherOf('Paris') }), tool_call_id: paris.id },
      { role: 'tool', content: JSON.stringify({ ok: true, data: weatherOf('Tokyo') }), tool_call_id: tokyo.id },
    ]);
    expectValidTranscript(finishOf(items).messages);
  });

  it('sends a tool error result (ToolResult.error) to the model, which answers', async () => {
    const error = { type: 'DataNotFoundError', message: 'No weather station in Atlantis.', suggestion: 'Ask the user for a real city.' };
    const call: ToolCall = { id: 'call_atlantis', name: 'get_weather', arguments: '{"city":"Atlantis"}' };
    const endpoint = serve(() => sseResponse(toolCallEvents([call])), () => sseResponse(textEvents(['Which city did you mean?'])));
    const agent = builder([weatherTool(() => ToolResult.error(error))]).build();
    const items = await readRun(await agent.run('Weather in Atlantis?'));
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call },
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, assistantCalls(call)),
      failureItem(1, call, 'error_result', error, { attempts: 1 }),
      ...textItems(2, ['Which city did you mean?']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: 'Which city did you mean?' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: usage(20, 10),
        text: 'Which city did you mean?',
        messages: [assistantCalls(call), toolMessage(call, { ok: false, error }), { role: 'assistant', content: 'Which city did you mean?' }],
      },
    ]);
    expect((endpoint.bodies[1]?.messages as unknown[]).at(-1)).toEqual({ role: 'tool', content: JSON.stringify({ ok: false, error }), tool_call_id: call.id });
    expectValidTranscript(finishOf(items).messages);
  });

  it('a crashing tool: the model sees a sanitized ToolInternalError, the caller a recoverable ToolError', async () => {
    const crash = new Error('database login failed with password hunter2');
    const endpoint = serve(() => fixtureStream('openai-tool-call.sse'), () => sseResponse(textEvents(['The weather service is down.'])));
    const agent = builder([
      weatherTool(() => {
        throw crash;
      }),
    ])
      .secrets(['hunter2'])
      .build();
    const items = await readRun(await agent.run('Weather in Paris?'));
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call: TOOL_FIXTURE_CALL },
      { type: 'usage', iteration: 1, usage: recordedUsage(57, 15) },
      messageItem(1, assistantCalls(TOOL_FIXTURE_CALL)),
      {
        type: 'error',
        iteration: 1,
        terminal: false,
        error: anError(ToolError, {
          message: "Tool 'get_weather' crashed: database login failed with password [REDACTED]",
          toolName: 'get_weather',
          callId: TOOL_FIXTURE_CALL.id,
          // The cause is a redacted stand-in of the crash: same name and stack shape, the secret masked.
          cause: expect.objectContaining({ name: crash.name, message: 'database login failed with password [REDACTED]', stack: expect.stringContaining('[REDACTED]') }),
        }),
      },
      failureItem(1, TOOL_FIXTURE_CALL, 'crash', CRASH_RESULT, { attempts: 1 }),
      ...textItems(2, ['The weather service is down.']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: 'The weather service is down.' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: recordedUsage(67, 20),
        text: 'The weather service is down.',
        messages: [assistantCalls(TOOL_FIXTURE_CALL), toolMessage(TOOL_FIXTURE_CALL, { ok: false, error: CRASH_RESULT }), { role: 'assistant', content: 'The weather service is down.' }],
      },
    ]);
    expect(JSON.stringify(endpoint.bodies)).not.toContain('hunter2');
    expectValidTranscript(finishOf(items).messages);
  });

  it("with .onToolCrash('throw') a crash ends the run with a terminal ToolError, after a synthetic tool message", async () => {
    const crash = new TypeError("Cannot read properties of undefined (reading 'temp')");
    const store = new InMemorySessionStore();
    const endpoint = serve(() => fixtureStream('openai-tool-call.sse'));
    const agent = builder([
      weatherTool(() => {
        throw crash;
      }),
    ])
      .onToolCrash('throw')
      .sessionStore(store)
      .build();
    const items = await readRun(await agent.run('Weather in Paris?', { session: 'crash' }));
    const synthetic = { type: 'ToolInternalError', message: "The tool 'get_weather' failed with an unexpected internal error." };
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call: TOOL_FIXTURE_CALL },
      { type: 'usage', iteration: 1, usage: recordedUsage(57, 15) },
      messageItem(1, assistantCalls(TOOL_FIXTURE_CALL)),
      failureItem(1, TOOL_FIXTURE_CALL, 'crash', synthetic, { synthetic: true }),
      {
        type: 'error',
        iteration: 1,
        terminal: true,
        error: anError(ToolError, { message: "Tool 'get_weather' crashed: Cannot read properties of undefined (reading 'temp')", toolName: 'get_weather', callId: TOOL_FIXTURE_CALL.id, cause: expect.objectContaining({ name: crash.name, message: crash.message }) }),
      },
    ]);
    expect(endpoint.calls).toBe(1);
    const transcript = await store.load('crash');
    expect(transcript).toEqual([{ role: 'user', content: 'Weather in Paris?' }, assistantCalls(TOOL_FIXTURE_CALL), toolMessage(TOOL_FIXTURE_CALL, { ok: false, error: synthetic })]);
    expectValidTranscript(transcript);
  });

  it('an unknown tool gets a ToolNotFound result listing the available tools', async () => {
    const call: ToolCall = { id: 'call_typo', name: 'get_wether', arguments: '{"city":"Paris"}' };
    serve(() => sseResponse(toolCallEvents([call])), () => sseResponse(textEvents(['Retrying with the right tool.'])));
    const items = await readRun(await builder([weatherTool(), timeTool]).build().run('Weather in Paris?'));
    const notFound = {
      type: 'ToolNotFound',
      message: "No tool named 'get_wether' is available. Did you mean 'get_weather'? Available tools: get_weather, get_time.",
      context: { requested: 'get_wether', available: ['get_weather', 'get_time'], closest: 'get_weather' },
      suggestion: 'Call one of the available tools (get_weather, get_time) instead.',
    };
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call },
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, assistantCalls(call)),
      { ...(failureItem(1, call, 'not_found', notFound) as object), durationMs: 0 },
      ...textItems(2, ['Retrying with the right tool.']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: 'Retrying with the right tool.' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: usage(20, 10),
        text: 'Retrying with the right tool.',
        messages: [assistantCalls(call), toolMessage(call, { ok: false, error: notFound }), { role: 'assistant', content: 'Retrying with the right tool.' }],
      },
    ]);
    expectValidTranscript(finishOf(items).messages);
  });

  it('invalid JSON arguments give an InputValidationError result and the tool is not executed', async () => {
    const raw = '{"city": "Par';
    const parseError = (() => {
      try {
        JSON.parse(raw);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    const call: ToolCall = { id: 'call_broken_json', name: 'get_weather', arguments: raw };
    const execute = vi.fn(({ city }: { city: string }) => weatherOf(city));
    const tool = weatherTool(execute);
    serve(() => sseResponse(toolCallEvents([call])), () => sseResponse(textEvents(['Sorry, let me try again.'])));
    const items = await readRun(await builder([tool]).build().run('Weather in Paris?'));
    const invalid = {
      type: 'InputValidationError',
      message: `Tool 'get_weather' was called with invalid JSON arguments: ${raw}. Parse error: ${parseError}.`,
      context: { received: raw, expectedSchema: tool.jsonSchema },
      suggestion: "Call 'get_weather' again with a JSON object that matches expectedSchema.",
    };
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call },
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, assistantCalls(call)),
      failureItem(1, call, 'invalid_arguments', invalid),
      ...textItems(2, ['Sorry, let me try again.']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: 'Sorry, let me try again.' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: usage(20, 10),
        text: 'Sorry, let me try again.',
        messages: [assistantCalls(call), toolMessage(call, { ok: false, error: invalid }), { role: 'assistant', content: 'Sorry, let me try again.' }],
      },
    ]);
    expect(execute).not.toHaveBeenCalled();
    expectValidTranscript(finishOf(items).messages);
  });

  it('schema-invalid arguments give an InputValidationError naming the field, and the tool is not executed', async () => {
    const call: ToolCall = { id: 'call_bad_city', name: 'get_weather', arguments: '{"city": 42}' };
    const execute = vi.fn(({ city }: { city: string }) => weatherOf(city));
    const tool = weatherTool(execute);
    serve(() => sseResponse(toolCallEvents([call])), () => sseResponse(textEvents(['Which city?'])));
    const items = await readRun(await builder([tool]).build().run('Weather in 42?'));
    const invalid = {
      type: 'InputValidationError',
      message: "Tool 'get_weather' was called with invalid arguments: city: Invalid input: expected string, received number (sent: 42).",
      context: {
        issues: [{ path: 'city', message: 'Invalid input: expected string, received number', received: '42', expected: 'string' }],
        expectedSchema: tool.jsonSchema,
      },
      suggestion: "Call 'get_weather' again with a JSON object that matches expectedSchema, fixing the fields listed in issues.",
    };
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call },
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, assistantCalls(call)),
      failureItem(1, call, 'invalid_arguments', invalid),
      ...textItems(2, ['Which city?']),
      { type: 'usage', iteration: 2, usage: BUILDER_USAGE },
      messageItem(2, { role: 'assistant', content: 'Which city?' }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: usage(20, 10),
        text: 'Which city?',
        messages: [assistantCalls(call), toolMessage(call, { ok: false, error: invalid }), { role: 'assistant', content: 'Which city?' }],
      },
    ]);
    expect(execute).not.toHaveBeenCalled();
    expectValidTranscript(finishOf(items).messages);
  });

  it('stops after maxIterations model calls with finish reason max_iterations', async () => {
    const calls: ToolCall[] = [1, 2, 3, 4].map((round) => ({ id: `call_loop_${round}`, name: 'get_weather', arguments: '{"city":"Paris"}' }));
    const endpoint = serve(...calls.map((call) => () => sseResponse(toolCallEvents([call]))));
    const items = await readRun(await builder([weatherTool()]).maxIterations(3).build().run('Weather in Paris, forever?'));
    const used = calls.slice(0, 3);
    const result = { ok: true, data: weatherOf('Paris') };
    expect(items).toEqual([
      ...used.flatMap((call, index) => [
        { type: 'tool-call', iteration: index + 1, call },
        { type: 'usage', iteration: index + 1, usage: BUILDER_USAGE },
        messageItem(index + 1, assistantCalls(call)),
        successItem(index + 1, call, weatherOf('Paris')),
      ]),
      {
        type: 'finish',
        finishReason: 'max_iterations',
        iterations: 3,
        usage: usage(30, 15),
        text: '',
        messages: used.flatMap((call) => [assistantCalls(call), toolMessage(call, result)]),
      },
    ]);
    expect(endpoint.calls).toBe(3);
    expectValidTranscript(finishOf(items).messages);
  });
});

describe('Agent.run: model failures', () => {
  it('401 (recorded body echoing the key): not retried, a terminal ChatClientError without the key', async () => {
    const recorded = recordedError('401');
    const body = recorded.rawBody.replace(/sk-proj-\*+wjh3/, API_KEY);
    expect(body).toContain(API_KEY);
    const endpoint = serve(() => new HttpResponse(body, { status: 401, headers: recorded.headers }));
    const agent = builder([weatherTool()]).build();
    const items = await readRun(await agent.run('Weather in Paris?'));
    const expected = {
      name: 'ChatClientError',
      reason: 'http',
      status: 401,
      retryable: false,
      attempts: 1,
      code: 'invalid_api_key',
      requestId: recorded.headers['x-request-id'],
      message: 'Chat API (llm.test) returned 401 Unauthorized: Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com/account/api-keys.',
    };
    expect(items).toEqual([{ type: 'error', iteration: 1, terminal: true, error: anError(ChatClientError, expected) }]);
    expect(endpoint.calls).toBe(1);
    const error = (items.at(-1) as { error: ChatClientError }).error;
    expect(error.message).toContain('401');
    expect(`${error.message} ${JSON.stringify(error)} ${error.providerMessage}`).not.toContain(API_KEY);
    await expect(collectAgentRun(await agent.run('Weather in Paris?'))).rejects.toSatisfy((rejected) => ChatClientError.isInstance(rejected) && (rejected as ChatClientError).status === 401);
    expect(endpoint.calls).toBe(2);
  });

  it('429 with a retry-after hint: a model retry event, then the answer', async () => {
    const recorded = recordedError('429');
    const endpoint = serve(
      () => new HttpResponse(recorded.rawBody, { status: 429, headers: { ...recorded.headers, 'retry-after': '1', 'retry-after-ms': '10' } }),
      () => sseResponse(textEvents(['After the wait.'])),
    );
    const agent = builder().build();
    const retries: Array<Parameters<AgentEvents['retry']>[0]> = [];
    agent.on('retry', (event) => retries.push(event));
    const items = await readRun(await agent.run('Hello?'));
    expect(items).toEqual([
      modelRetryItem(1, 1, { name: 'ChatClientError', status: 429, retryAfterMs: 10 }, { delayMs: 10 }),
      ...textItems(1, ['After the wait.']),
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, { role: 'assistant', content: 'After the wait.' }),
      { type: 'finish', finishReason: 'stop', iterations: 1, usage: BUILDER_USAGE, text: 'After the wait.', messages: [{ role: 'assistant', content: 'After the wait.' }] },
    ]);
    expect(endpoint.calls).toBe(2);
    expect(retries).toEqual([
      {
        runId: expect.stringMatching(/^run-/),
        agent: 'weather-agent',
        source: 'model',
        attempt: 1,
        delayMs: 10,
        error: expect.objectContaining({ name: 'ChatClientError', status: 429, retryAfterMs: 10, code: 'rate_limit_exceeded', requestId: recorded.headers['x-request-id'] }),
      },
    ]);
  });

  it('500 twice, then the answer: three HTTP calls, two retry events, no error item', async () => {
    const recorded = recordedError('500');
    const failure = () => new HttpResponse(recorded.rawBody, { status: 500, headers: recorded.headers });
    const endpoint = serve(failure, failure, () => fixtureStream('openai-text.sse'));
    const agent = builder().build();
    const retries: Array<Parameters<AgentEvents['retry']>[0]> = [];
    agent.on('retry', (event) => retries.push(event));
    const items = await readRun(await agent.run('Breakfast?'));
    expect(items).toEqual([
      modelRetryItem(1, 1, { name: 'ChatClientError', status: 500 }),
      modelRetryItem(1, 2, { name: 'ChatClientError', status: 500 }),
      ...textItems(1, TEXT_FIXTURE_DELTAS),
      { type: 'usage', iteration: 1, usage: recordedUsage(14, 16) },
      messageItem(1, { role: 'assistant', content: TEXT_FIXTURE_ANSWER }),
      { type: 'finish', finishReason: 'stop', iterations: 1, usage: recordedUsage(14, 16), text: TEXT_FIXTURE_ANSWER, messages: [{ role: 'assistant', content: TEXT_FIXTURE_ANSWER }] },
    ]);
    expect(endpoint.calls).toBe(3);
    expect(retries.map(({ source, attempt, error }) => ({ source, attempt, status: error && (error as { status?: number }).status }))).toEqual([
      { source: 'model', attempt: 1, status: 500 },
      { source: 'model', attempt: 2, status: 500 },
    ]);
  });

  it('a network error on every attempt: a terminal ChatClientError with reason network', async () => {
    const endpoint = serve(() => HttpResponse.error());
    const items = await readRun(await builder().build().run('Hello?'));
    expect(items).toEqual([
      modelRetryItem(1, 1, { name: 'ChatClientError', reason: 'network' }),
      modelRetryItem(1, 2, { name: 'ChatClientError', reason: 'network' }),
      {
        type: 'error',
        iteration: 1,
        terminal: true,
        error: anError(ChatClientError, { reason: 'network', retryable: true, attempts: 3, message: 'Request to Chat API (llm.test) failed: Failed to fetch' }),
      },
    ]);
    expect(endpoint.calls).toBe(3);
  });

  it('a connection dropped mid-stream after output: the text so far, then a terminal read_failed StreamError (no replay)', async () => {
    const endpoint = serve(() => sseResponse(textEvents(['It is ', 'sunny', ' and never finished']), { dropAfter: 3 }));
    const items = await readRun(await builder().build().run('Weather?'));
    expect(items).toEqual([
      ...textItems(1, ['It is ', 'sunny']),
      { type: 'error', iteration: 1, terminal: true, error: anError(StreamError, {
          reason: 'read_failed',
          afterOutput: true,
          message: 'The connection to Chat API (llm.test) dropped while reading the answer: terminated: other side closed',
        }),
      },
    ]);
    expect(endpoint.calls).toBe(1);
  });

  it('a malformed chunk: a terminal malformed_chunk StreamError naming the chunk', async () => {
    const endpoint = serve(() => sseResponse([chunk({ role: 'assistant', content: '' }), chunk({ content: 'Sunny' }), '{"id": broken']));
    const items = await readRun(await builder().build().run('Weather?'));
    expect(items).toEqual([
      ...textItems(1, ['Sunny']),
      {
        type: 'error',
        iteration: 1,
        terminal: true,
        error: anError(StreamError, { reason: 'malformed_chunk', afterOutput: true, chunk: '{"id": broken', message: 'The model stream sent a chunk that is not JSON: {"id": broken' }),
      },
    ]);
    expect(endpoint.calls).toBe(1);
  });

  it('aborting mid-stream ends the run promptly with the exact abort reason', async () => {
    const endpoint = serve(() => sseResponse(textEvents(['Once upon', ' a time']), { stallAfter: 2 }));
    const controller = new AbortController();
    const reason = new DOMException('the user closed the tab', 'AbortError');
    const items: AgentRunItem[] = [];
    let abortedAt = 0;
    for await (const item of await builder().build().run('Tell me a story', { signal: controller.signal })) {
      items.push(item);
      if (item.type === 'text-delta' && abortedAt === 0) {
        abortedAt = performance.now();
        controller.abort(reason);
      }
    }
    const elapsed = performance.now() - abortedAt;
    expect(items).toEqual([...textItems(1, ['Once upon']), { type: 'error', iteration: 1, terminal: true, error: reason }]);
    expect((items.at(-1) as { error: unknown }).error).toBe(reason);
    expect(elapsed).toBeLessThan(1_000);
    expect(endpoint.calls).toBe(1);
    await sleep(5);
    expect(endpoint.requests[0]?.signal.aborted).toBe(true);
  });

  it('aborting while tools run: synthetic Aborted tool results, then the exact abort reason; the session transcript stays valid', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    let running = 0;
    const tool = weatherTool(
      (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          if (++running === 2) setTimeout(() => controller.abort(reason), 1);
        }),
    );
    const endpoint = serve(() => fixtureStream('openai-parallel-tool-calls.sse'));
    const agent = builder([tool]).sessionStore(store).build();
    const started = performance.now();
    const items = await readRun(await agent.run('Weather in Paris and Tokyo?', { session: 'interrupted', signal: controller.signal }));
    const [paris, tokyo] = PARALLEL_FIXTURE_CALLS as [ToolCall, ToolCall];
    const aborted = { type: 'Aborted', message: ABORTED_MESSAGE };
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call: paris },
      { type: 'tool-call', iteration: 1, call: tokyo },
      { type: 'usage', iteration: 1, usage: usage(80, 46, { reasoningTokens: 0 }) },
      messageItem(1, assistantCalls(paris, tokyo)),
      failureItem(1, paris, 'aborted', aborted, { synthetic: true }),
      failureItem(1, tokyo, 'aborted', aborted, { synthetic: true }),
      { type: 'error', iteration: 1, terminal: true, error: reason },
    ]);
    expect((items.at(-1) as { error: unknown }).error).toBe(reason);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(endpoint.calls).toBe(1);
    const transcript = await store.load('interrupted');
    expect(transcript).toEqual([
      { role: 'user', content: 'Weather in Paris and Tokyo?' },
      assistantCalls(paris, tokyo),
      toolMessage(paris, { ok: false, error: aborted }),
      toolMessage(tokyo, { ok: false, error: aborted }),
    ]);
    expectValidTranscript(transcript);
  });

  it('a stream that stalls after output: a terminal idle-timeout ChatClientError', async () => {
    const endpoint = serve(() => sseResponse(textEvents(['Sunny', ' and']), { stallAfter: 2 }));
    const items = await readRun(await builder([], model({ timeouts: { idleMs: 50 } })).build().run('Weather?'));
    expect(items).toEqual([
      ...textItems(1, ['Sunny']),
      {
        type: 'error',
        iteration: 1,
        terminal: true,
        error: anError(ChatClientError, { reason: 'timeout', timeout: 'idle', retryable: false, message: 'Chat API (llm.test) sent nothing for 50 ms mid-stream (idle timeout)' }),
      },
    ]);
    expect(endpoint.calls).toBe(1);
  });

  it("model fallback: the primary's 503s become a recoverable error item, the secondary answers", async () => {
    const recorded = recordedError('503');
    const primary = serve(() => new HttpResponse(recorded.rawBody, { status: 503, headers: recorded.headers }));
    const secondary = modelEndpoint(`${BACKUP_URL}/chat/completions`, () => sseResponse(textEvents(['Backup ', 'answer.'])));
    server.use(secondary.handler);
    const client = createFallbackChatClient([model(), model({ baseURL: BACKUP_URL })]);
    const agent = builder([], client).build();
    const retries: Array<Parameters<AgentEvents['retry']>[0]> = [];
    agent.on('retry', (event) => retries.push(event));
    const items = await readRun(await agent.run('Hello?'));
    expect(items).toEqual([
      modelRetryItem(1, 1, { name: 'ChatClientError', status: 503 }),
      modelRetryItem(1, 2, { name: 'ChatClientError', status: 503 }),
      {
        type: 'error',
        iteration: 1,
        terminal: false,
        error: anError(ChatClientError, {
          status: 503,
          retryable: true,
          attempts: 3,
          requestId: recorded.headers['x-request-id'],
          message: `Chat API (llm.test) returned 503 Service Unavailable: ${(JSON.parse(recorded.rawBody) as { error: { message: string } }).error.message}`,
        }),
      },
      modelRetryItem(1, 1, { name: 'ChatClientError', status: 503 }, { delayMs: 0, fallbackTo: 'backup.test/test-model' }),
      ...textItems(1, ['Backup ', 'answer.']),
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, { role: 'assistant', content: 'Backup answer.' }),
      { type: 'finish', finishReason: 'stop', iterations: 1, usage: BUILDER_USAGE, text: 'Backup answer.', messages: [{ role: 'assistant', content: 'Backup answer.' }] },
    ]);
    expect(primary.calls).toBe(3);
    expect(secondary.calls).toBe(1);
    expect(secondary.bodies[0]?.messages).toEqual(primary.bodies[0]?.messages);
    expect(retries.map(({ attempt, fallbackTo }) => ({ attempt, fallbackTo }))).toEqual([
      { attempt: 1, fallbackTo: undefined },
      { attempt: 2, fallbackTo: undefined },
      { attempt: 1, fallbackTo: 'backup.test/test-model' },
    ]);
  });
});

describe('Agent.run: sessions', () => {
  it('a second run of a session sends the first run’s messages, and the store keeps the whole transcript', async () => {
    const store = new InMemorySessionStore();
    const endpoint = serve(() => fixtureStream('openai-text.sse'), () => sseResponse(textEvents(['That is 7 euros.'])));
    const agent = builder().instructions(INSTRUCTIONS).sessionStore(store).build();
    const first = await collectAgentRun(await agent.run('A café au lait and a croissant, please.', { session: 's1' }));
    expect(first.text).toBe(TEXT_FIXTURE_ANSWER);
    const items = await readRun(await agent.run('How much is it?', { session: 's1' }));
    expect(items).toEqual([
      ...textItems(1, ['That is 7 euros.']),
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, { role: 'assistant', content: 'That is 7 euros.' }),
      { type: 'finish', finishReason: 'stop', iterations: 1, usage: BUILDER_USAGE, text: 'That is 7 euros.', messages: [{ role: 'assistant', content: 'That is 7 euros.' }] },
    ]);
    expect(endpoint.bodies[1]?.messages).toEqual([
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: 'A café au lait and a croissant, please.' },
      { role: 'assistant', content: TEXT_FIXTURE_ANSWER },
      { role: 'user', content: 'How much is it?' },
    ]);
    expect(await store.load('s1')).toEqual([
      { role: 'user', content: 'A café au lait and a croissant, please.' },
      { role: 'assistant', content: TEXT_FIXTURE_ANSWER },
      { role: 'user', content: 'How much is it?' },
      { role: 'assistant', content: 'That is 7 euros.' },
    ]);
    expect(store.sessionIds).toEqual(['s1']);
  });

  it('a session interrupted during tools can be continued: the next request is a valid transcript', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    const tool = weatherTool(
      (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          setTimeout(() => controller.abort(new Error('stop')), 1);
        }),
    );
    const endpoint = serve(() => fixtureStream('openai-tool-call.sse'), () => sseResponse(textEvents(['Where were we?'])));
    const agent = builder([tool]).sessionStore(store).build();
    await readRun(await agent.run('Weather in Paris?', { session: 's2', signal: controller.signal }));
    const items = await readRun(await agent.run('Never mind.', { session: 's2' }));
    expect(finishOf(items).text).toBe('Where were we?');
    expect(endpoint.bodies[1]?.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      wireCalls(TOOL_FIXTURE_CALL),
      { role: 'tool', content: JSON.stringify({ ok: false, error: { type: 'Aborted', message: ABORTED_MESSAGE } }), tool_call_id: TOOL_FIXTURE_CALL.id },
      { role: 'user', content: 'Never mind.' },
    ]);
    expectValidTranscript(await store.load('s2'));
  });
});

// How a run that cannot start ends (input, options, aborted signal, session load): test/agent/run-shape.test.ts.

describe('Agent.on: observability', () => {
  it('delivers serializable payloads without the API key, and stops after unbinding', async () => {
    const recorded = recordedError('500');
    const endpoint = serve(
      () => new HttpResponse(recorded.rawBody, { status: 500, headers: recorded.headers }),
      () => fixtureStream('openai-parallel-tool-calls.sse'),
      () => sseResponse(textEvents(['Paris is sunny; Tokyo is unknown.'])),
      () => new HttpResponse(recordedError('401').rawBody.replace(/sk-proj-\*+wjh3/, API_KEY), { status: 401, headers: recordedError('401').headers }),
    );
    const tool = weatherTool(({ city }) => {
      if (city === 'Tokyo') throw new Error('Tokyo station offline');
      return weatherOf(city);
    });
    const agent = builder([tool]).build();
    const { events, off } = observe(agent);

    const items = await readRun(await agent.run('Weather in Paris and Tokyo?'));
    expect(finishOf(items).text).toBe('Paris is sunny; Tokyo is unknown.');
    expectValidTranscript(finishOf(items).messages);
    const failed = await readRun(await agent.run('And now?'));
    expect(failed.at(-1)).toMatchObject({ type: 'error', terminal: true });
    expect(endpoint.calls).toBe(4);

    for (const { payload } of events) {
      expect(JSON.parse(JSON.stringify(payload))).toStrictEqual(payload);
      expect(JSON.stringify(payload)).not.toContain(API_KEY);
    }
    const [paris, tokyo] = PARALLEL_FIXTURE_CALLS as [ToolCall, ToolCall];
    const runId = payloadsOf(events, 'model-request')[0]?.runId;
    expect(runId).toMatch(/^run-/);
    const base = { runId, agent: 'weather-agent' };
    expect(payloadsOf(events, 'model-request')).toEqual([
      { ...base, iteration: 1, model: MODEL_NAME, messageCount: 1, tools: ['get_weather'] },
      { ...base, iteration: 2, model: MODEL_NAME, messageCount: 4, tools: ['get_weather'] },
      { runId: expect.not.stringMatching(runId as string), agent: 'weather-agent', iteration: 1, model: MODEL_NAME, messageCount: 1, tools: ['get_weather'] },
    ]);
    expect(payloadsOf(events, 'model-response')).toEqual([
      { ...base, iteration: 1, finishReason: 'tool_calls', toolCalls: 2, textLength: 0, usage: usage(80, 46, { reasoningTokens: 0 }), durationMs: expect.any(Number) },
      { ...base, iteration: 2, finishReason: 'stop', toolCalls: 0, textLength: 33, usage: BUILDER_USAGE, durationMs: expect.any(Number) },
    ]);
    expect(payloadsOf(events, 'tool-start')).toEqual([
      { ...base, iteration: 1, callId: paris.id, toolName: 'get_weather', arguments: paris.arguments },
      { ...base, iteration: 1, callId: tokyo.id, toolName: 'get_weather', arguments: tokyo.arguments },
    ]);
    expect(payloadsOf(events, 'tool-end')).toEqual([
      { ...base, iteration: 1, callId: paris.id, toolName: 'get_weather', outcome: 'success', ok: true, attempts: 1, durationMs: expect.any(Number), result: { ok: true, data: weatherOf('Paris') } },
      { ...base, iteration: 1, callId: tokyo.id, toolName: 'get_weather', outcome: 'crash', ok: false, attempts: 1, durationMs: expect.any(Number), result: { ok: false, error: CRASH_RESULT } },
    ]);
    expect(payloadsOf(events, 'tool-error')).toEqual([
      { ...base, iteration: 1, callId: tokyo.id, toolName: 'get_weather', outcome: 'crash', error: CRASH_RESULT, cause: { name: 'Error', message: 'Tokyo station offline' } },
    ]);
    expect(payloadsOf(events, 'retry')).toEqual([
      { ...base, source: 'model', attempt: 1, delayMs: expect.any(Number), error: expect.objectContaining({ name: 'ChatClientError', kind: 'chat_client', status: 500, retryable: true }) },
    ]);
    expect(payloadsOf(events, 'error')).toEqual([
      {
        ...base,
        iteration: 1,
        terminal: false,
        error: expect.objectContaining({ name: 'ToolError', kind: 'tool', toolName: 'get_weather', callId: tokyo.id, message: "Tool 'get_weather' crashed: Tokyo station offline" }),
      },
      {
        runId: expect.any(String),
        agent: 'weather-agent',
        iteration: 1,
        terminal: true,
        error: expect.objectContaining({ name: 'ChatClientError', status: 401, message: expect.stringContaining('Incorrect API key provided: [REDACTED]') }),
      },
    ]);

    off();
    const delivered = events.length;
    serve(() => sseResponse(textEvents(['Quiet.'])));
    await collectAgentRun(await agent.run('Hello?'));
    expect(events).toHaveLength(delivered);
  });

  it('a throwing listener becomes a recoverable error item; the run goes on', async () => {
    serve(() => sseResponse(textEvents(['Still here.'])));
    const agent = builder().build();
    agent.on('model-request', () => {
      throw new Error('metrics backend down');
    });
    const items = await readRun(await agent.run('Hello?'));
    expect(items).toEqual([
      { type: 'error', iteration: 1, terminal: false, error: anError(AgentError, { name: 'AgentError', kind: 'other', message: 'An agent "model-request" listener threw: metrics backend down' }) },
      ...textItems(1, ['Still here.']),
      { type: 'usage', iteration: 1, usage: BUILDER_USAGE },
      messageItem(1, { role: 'assistant', content: 'Still here.' }),
      { type: 'finish', finishReason: 'stop', iterations: 1, usage: BUILDER_USAGE, text: 'Still here.', messages: [{ role: 'assistant', content: 'Still here.' }] },
    ]);
  });
});

describe('Agent.run: recorded DeepSeek streams', () => {
  it('streams reasoning as reasoning-delta items and keeps it out of the next request', async () => {
    const call: ToolCall = { id: 'call_0_5c1e9a7d-3f2b-4d8e-a6c4-2b9f0e7d1a35', name: 'get_weather', arguments: '{"city":"Paris"}' };
    const reasoning = ['We', ' need', ' 17', ' ×', ' 23', '.', ' 17', '×', '20', ' =', ' 340', ',', ' 17', '×', '3', ' =', ' 51', ',', ' so', ' 340', ' +', ' 51', ' =', ' 391', '.'];
    const answer = ['17', ' ×', ' 23', ' =', ' **', '391', '**', '.'];
    const endpoint = serve(() => fixtureStream('deepseek-tool-call.sse'), () => fixtureStream('deepseek-reasoner.sse'));
    const items = await readRun(await builder([weatherTool()]).build().run('Weather in Paris, then 17 × 23?'));
    const result = { ok: true, data: weatherOf('Paris') };
    expect(items).toEqual([
      { type: 'tool-call', iteration: 1, call },
      { type: 'usage', iteration: 1, usage: usage(172, 19, { cachedPromptTokens: 128 }) },
      messageItem(1, assistantCalls(call)),
      successItem(1, call, weatherOf('Paris')),
      ...reasoning.map((delta) => ({ type: 'reasoning-delta', iteration: 2, delta })),
      ...textItems(2, answer),
      { type: 'usage', iteration: 2, usage: usage(70, 33, { reasoningTokens: 25, cachedPromptTokens: 64 }) },
      messageItem(2, { role: 'assistant', content: '17 × 23 = **391**.', reasoning: reasoning.join('') }),
      {
        type: 'finish',
        finishReason: 'stop',
        iterations: 2,
        usage: usage(242, 52, { reasoningTokens: 25, cachedPromptTokens: 192 }),
        text: '17 × 23 = **391**.',
        messages: [assistantCalls(call), toolMessage(call, result), { role: 'assistant', content: '17 × 23 = **391**.', reasoning: reasoning.join('') }],
      },
    ]);
    expect(endpoint.bodies[1]?.messages).toEqual([
      { role: 'user', content: 'Weather in Paris, then 17 × 23?' },
      wireCalls(call),
      { role: 'tool', content: JSON.stringify(result), tool_call_id: call.id },
    ]);
    expectValidTranscript(finishOf(items).messages);
  });
});

describe('Agent.on: payloads stay secret-free and plain', () => {
  it("a tool crash's 'error' event does not carry a configured secret in its cause", async () => {
    serve(() => fixtureStream('openai-tool-call.sse'), () => sseResponse(textEvents(['The service is down.'])));
    const agent = builder([
      weatherTool(() => {
        throw new Error('login failed for password hunter2');
      }),
    ])
      .secrets(['hunter2'])
      .build();
    const { events } = observe(agent);
    await readRun(await agent.run('Weather in Paris?'));
    expect(payloadsOf(events, 'error')).toHaveLength(1);
    expect(events.filter(({ payload }) => stringsIn(payload).some((text) => text.includes('hunter2')))).toEqual([]);
  });

  it('refuses an API key that no HTTP header can carry, without quoting it', () => {
    const key = 'sk-live-FIRSTLINE-0123456789\nSECONDLINE-abcdef0123';
    let caught: unknown;
    try {
      model({ apiKey: key });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect(JSON.stringify(caught) + String((caught as Error).message)).not.toMatch(/FIRSTLINE|SECONDLINE/);
  });

  it("'retry' and 'error' payloads and items never carry the API key, even when a network error quotes it", async () => {
    const key = 'sk-live-QUOTEDKEY-0123456789abcdef';
    const leakyFetch: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error(`connect ECONNREFUSED while sending Authorization: Bearer ${key}`) });
    };
    const agent = builder([], model({ apiKey: key, fetch: leakyFetch })).build();
    const { events } = observe(agent);
    const items = await readRun(await agent.run('Hello?'));
    expect(items).toEqual([
      modelRetryItem(1, 1, { reason: 'network' }),
      modelRetryItem(1, 2, { reason: 'network' }),
      { type: 'error', iteration: 1, terminal: true, error: anError(ChatClientError, { reason: 'network', attempts: 3 }) },
    ]);
    expect(payloadsOf(events, 'retry')).toHaveLength(2);
    const leaks = events.filter(({ payload }) => stringsIn(payload).some((text) => text.includes('QUOTEDKEY')));
    expect(leaks).toEqual([]);
    expect(JSON.stringify(items)).toContain('[REDACTED]');
    expect(JSON.stringify(items)).not.toContain('QUOTEDKEY');
  });

  it("a 'tool-end' payload is plain JSON even when the tool returns a Date", async () => {
    serve(() => fixtureStream('openai-tool-call.sse'), () => sseResponse(textEvents(['Noted.'])));
    const agent = builder([weatherTool(({ city }) => ({ city, observedAt: new Date(0) }))]).build();
    const { events } = observe(agent);
    await readRun(await agent.run('Weather in Paris?'));
    const [end] = payloadsOf(events, 'tool-end');
    expect(end?.result).toStrictEqual({ ok: true, data: { city: 'Paris', observedAt: '1970-01-01T00:00:00.000Z' } });
    expect(JSON.parse(JSON.stringify(end))).toStrictEqual(end);
  });

  it("a 'tool-end' payload, and the tool result the model is sent, do not carry the agent's configured secrets", async () => {
    serve(() => fixtureStream('openai-tool-call.sse'), () => sseResponse(textEvents(['Noted.'])));
    const agent = builder([weatherTool(({ city }) => ({ city, source: 'https://weather.test/?key=tool-secret-123' }))])
      .secrets(['tool-secret-123'])
      .build();
    const { events } = observe(agent);
    const items = await readRun(await agent.run('Weather in Paris?'));
    // Nor does the tool result itself: it is what the model is sent (and the session, the Runner's events, screens).
    expect(items.find((item) => item.type === 'tool-result')).toMatchObject({ content: expect.stringContaining('key=[REDACTED]') });
    expect(JSON.stringify(items)).not.toContain('tool-secret-123');
    expect(events.filter(({ payload }) => stringsIn(payload).some((text) => text.includes('tool-secret-123')))).toEqual([]);
  });
});
