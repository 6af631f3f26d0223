/**
 * The agent loop's whole scenario list run against each of the three HTTP chat clients (Chat Completions, Anthropic
 * Messages, OpenAI Responses): one scenario list, `describe.each` over the wires of test/helpers/provider-wire.ts,
 * each scenario asserting the same outcome for every provider — the run's exact items, the exact error for failures,
 * the number of HTTP calls, and what the model was sent back (read from the captured request in the provider's own
 * shape). A planted API key is checked to appear in no item, error or event of any run. msw is the network; real
 * timers (msw needs them), tiny retry delays and short timeouts.
 */
import { HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, type Agent, type AgentEvents, type AgentRunItem, type AgentRunOptions } from '../../src/agent/index.js';
import { createFallbackChatClient, type ChatClient, type ChatMessage, type ToolCall, type Usage } from '../../src/chat/index.js';
import { ChatClientError, StreamError, ToolError } from '../../src/errors/index.js';
import { defineTool, ToolInternalError, ToolResult, type AnyTool, type ToolContext } from '../../src/tools/index.js';
import { anError, expectValidTranscript, failureItem, finishOf, messageItem, modelEndpoint, modelRetryItem, readRun, sleep, successItem, textItems, type ModelEndpoint } from '../helpers/agent-run.js';
import { DROP_MESSAGE, fallbackPartner, WIRES, type ClientOverrides, type ModelTurn, type SentEntry, type Wire } from '../helpers/provider-wire.js';

const API_KEY = 'sk-test-PLANTED-SECRET-0123456789abcdef';
const INSTRUCTIONS = 'Answer weather questions. Use the tools.';
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 };

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type Weather = { city: string; temperatureC: number; sky: string };
const weatherOf = (city: string): Weather => ({ city, temperatureC: city === 'Paris' ? 21 : 18, sky: 'sunny' });

function weatherTool(execute: (args: { city: string }, context: ToolContext) => unknown = ({ city }) => weatherOf(city)): AnyTool {
  return defineTool({ name: 'get_weather', description: 'Current weather for a city.', parameters: z.object({ city: z.string() }), execute });
}

const timeTool = defineTool({ name: 'get_time', description: 'Local time in a city.', parameters: z.object({ city: z.string() }), execute: () => '12:00' });

/** `usage` of one turn, `turns` times over (what the run's finish adds up). */
function usageTimes(usage: Usage, turns: number): Usage {
  return Object.fromEntries(Object.entries(usage).map(([key, value]) => [key, (value as number) * turns])) as unknown as Usage;
}

const assistantCalls = (...calls: ToolCall[]): ChatMessage => ({ role: 'assistant', content: null, toolCalls: calls });
const toolMessage = (call: ToolCall, result: unknown): ChatMessage => ({ role: 'tool', content: JSON.stringify(result), toolCallId: call.id });

const CRASH_RESULT = {
  type: 'ToolInternalError',
  message: "The tool 'get_weather' failed with an unexpected internal error.",
  suggestion: ToolInternalError.defaultSuggestion,
};

/** What our stream decoders say of an event whose data is not JSON (the Chat Completions decoder words it its own way). */
const notJSONMessage = (wire: Wire, chunk: string): string =>
  wire.id === 'openai-chat' ? `The model stream sent a chunk that is not JSON: ${chunk}` : `The ${wire.label} stream sent an event that is not JSON: ${chunk}`;

/** The message of the JSON parse error `raw` raises (what the InputValidationError quotes). */
function parseErrorOf(raw: string): string {
  try {
    JSON.parse(raw);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

const EVENT_NAMES = ['model-request', 'model-response', 'tool-start', 'tool-end', 'tool-error', 'retry', 'error'] as const satisfies ReadonlyArray<keyof AgentEvents>;
type Observed = { name: keyof AgentEvents; payload: Record<string, unknown> };

/** Listens to every observability event of `agent`; `off()` unbinds every listener. */
function observe(agent: Agent): { events: Observed[]; off: () => void } {
  const events: Observed[] = [];
  const unbind = EVENT_NAMES.map((name) => agent.on(name, ((payload: Record<string, unknown>) => events.push({ name, payload })) as AgentEvents[typeof name]));
  return { events, off: () => unbind.forEach((off) => off()) };
}

const payloadsOf = (events: readonly Observed[], name: keyof AgentEvents) => events.filter((event) => event.name === name).map((event) => event.payload);

/** Every text a value shows: strings inside it, an error's message, stack and cause chain, its `toJSON()`. */
function textsOf(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const texts: string[] = [];
  if (value instanceof Error) texts.push(value.message, String(value.stack), ...textsOf(value.cause, seen));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') texts.push(JSON.stringify(value));
  for (const key of Object.keys(value)) texts.push(...textsOf((value as Record<string, unknown>)[key], seen));
  return texts;
}

/** The planted key appears nowhere in what a run gave its caller: items (errors included) and event payloads. */
function expectNoKey(items: readonly AgentRunItem[], events: readonly Observed[]): void {
  expect(textsOf(items).filter((text) => text.includes(API_KEY))).toEqual([]);
  expect(textsOf(events.map((event) => event.payload)).filter((text) => text.includes(API_KEY))).toEqual([]);
  expect(textsOf(items).join('\n')).not.toContain('PLANTED-SECRET');
}

describe.each(WIRES)('the agent loop over $title', (wire) => {
  const model = (overrides: ClientOverrides = {}): ChatClient => wire.client(wire.baseURL, { apiKey: API_KEY, retry: fastRetry, ...overrides });

  /** An agent builder over `client` with `tools` and a silent tool log. */
  const builder = (tools: readonly AnyTool[] = [], client: ChatClient = model()): AgentBuilder =>
    new AgentBuilder('weather-agent').chatClient(client).tools(tools).toolLogger(() => {});

  /** Serves `answers` at this wire's endpoint, one per model call (the last repeats). */
  function serve(...answers: HttpResponseResolver[]): ModelEndpoint {
    const endpoint = modelEndpoint(wire.url, ...answers);
    server.use(endpoint.handler);
    return endpoint;
  }
  const turn = (answer: ModelTurn): HttpResponseResolver => () => wire.respond(answer);

  /** Runs `agent` to its end, recording its events; checks the planted key leaked into neither. */
  async function run(agent: Agent, input: string, options?: AgentRunOptions): Promise<{ items: AgentRunItem[]; events: Observed[] }> {
    const { events, off } = observe(agent);
    const items = await readRun(await agent.run(input, options));
    off();
    expectNoKey(items, events);
    return { items, events };
  }

  /** The conversation request number `index` sent, provider-neutral. */
  const sent = (endpoint: ModelEndpoint, index: number): SentEntry[] => wire.sent(endpoint.bodies[index] ?? {});
  const sentCall = (call: ToolCall): SentEntry => ({ role: 'tool-call', id: call.id, name: call.name, input: JSON.parse(call.arguments) });
  /** A tool result as the model got it: the exact text, marked failed where the protocol marks failures. */
  const sentResult = (call: ToolCall, result: { ok: boolean }): SentEntry =>
    wire.marksFailedResults && !result.ok ? { role: 'tool-result', callId: call.id, content: JSON.stringify(result), isError: true } : { role: 'tool-result', callId: call.id, content: JSON.stringify(result) };
  const toolResultsSent = (endpoint: ModelEndpoint, index: number) => sent(endpoint, index).filter((entry) => entry.role === 'tool-result');
  const one = wire.usage;

  describe('tools', () => {
    it('streams a plain answer and finishes', async () => {
      const endpoint = serve(turn({ text: ['Hello', ', café 🥐', '!'] }));
      const { items, events } = await run(builder().build(), 'Say hello.');
      expect(items).toEqual([
        ...textItems(1, ['Hello', ', café 🥐', '!']),
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, { role: 'assistant', content: 'Hello, café 🥐!' }),
        { type: 'finish', finishReason: 'stop', iterations: 1, usage: one, text: 'Hello, café 🥐!', messages: [{ role: 'assistant', content: 'Hello, café 🥐!' }] },
      ]);
      expect(endpoint.calls).toBe(1);
      expect(sent(endpoint, 0)).toEqual([{ role: 'user', text: 'Say hello.' }]);
      expect(payloadsOf(events, 'model-request')).toEqual([{ runId: expect.stringMatching(/^run-/), agent: 'weather-agent', iteration: 1, model: wire.clientName, messageCount: 1, tools: [] }]);
    });

    it('runs one tool round and sends the tool result back to the model', async () => {
      const call: ToolCall = { id: 'call_paris_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
      const answer = ['It is 21 °C', ' and sunny in Paris.'];
      const endpoint = serve(turn({ toolCalls: [call] }), turn({ text: answer }));
      const { items } = await run(builder([weatherTool()]).instructions(INSTRUCTIONS).build(), 'Weather in Paris?');
      const result = { ok: true, data: weatherOf('Paris') };
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(call)),
        successItem(1, call, weatherOf('Paris')),
        ...textItems(2, answer),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: answer.join('') }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: answer.join(''),
          messages: [assistantCalls(call), toolMessage(call, result), { role: 'assistant', content: answer.join('') }],
        },
      ]);
      expect(endpoint.calls).toBe(2);
      expect(sent(endpoint, 0)).toEqual([
        { role: 'system', text: INSTRUCTIONS },
        { role: 'user', text: 'Weather in Paris?' },
      ]);
      expect(sent(endpoint, 1)).toEqual([
        { role: 'system', text: INSTRUCTIONS },
        { role: 'user', text: 'Weather in Paris?' },
        sentCall(call),
        sentResult(call, result),
      ]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('runs several rounds: two tool rounds, then the answer (three model calls)', async () => {
      const first: ToolCall = { id: 'call_round_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
      const second: ToolCall = { id: 'call_round_2', name: 'get_time', arguments: '{"city":"Paris"}' };
      const endpoint = serve(turn({ toolCalls: [first] }), turn({ toolCalls: [second] }), turn({ text: ['Sunny, and it is noon.'] }));
      const { items } = await run(builder([weatherTool(), timeTool]).build(), 'Weather and time in Paris?');
      const weather = { ok: true, data: weatherOf('Paris') };
      const time = { ok: true, data: '12:00' };
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call: first },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(first)),
        successItem(1, first, weatherOf('Paris')),
        { type: 'tool-call', iteration: 2, call: second },
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, assistantCalls(second)),
        successItem(2, second, '12:00'),
        ...textItems(3, ['Sunny, and it is noon.']),
        { type: 'usage', iteration: 3, usage: one },
        messageItem(3, { role: 'assistant', content: 'Sunny, and it is noon.' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 3,
          usage: usageTimes(one, 3),
          text: 'Sunny, and it is noon.',
          messages: [assistantCalls(first), toolMessage(first, weather), assistantCalls(second), toolMessage(second, time), { role: 'assistant', content: 'Sunny, and it is noon.' }],
        },
      ]);
      expect(endpoint.calls).toBe(3);
      expect(sent(endpoint, 2)).toEqual([{ role: 'user', text: 'Weather and time in Paris?' }, sentCall(first), sentResult(first, weather), sentCall(second), sentResult(second, time)]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('runs parallel tool calls concurrently, reports each as it ends, and answers them in call order', async () => {
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
      const paris: ToolCall = { id: 'call_par_1', name: 'get_weather', arguments: '{"city": "Paris"}' };
      const tokyo: ToolCall = { id: 'call_tyo_2', name: 'get_weather', arguments: '{"city": "Tokyo"}' };
      const endpoint = serve(turn({ toolCalls: [paris, tokyo] }), turn({ text: ['Paris 21 °C, Tokyo 18 °C.'] }));
      const { items } = await run(builder([tool]).build(), 'Weather in Paris and Tokyo?');
      const parisResult = { ok: true, data: weatherOf('Paris') };
      const tokyoResult = { ok: true, data: weatherOf('Tokyo') };
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call: paris },
        { type: 'tool-call', iteration: 1, call: tokyo },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(paris, tokyo)),
        successItem(1, tokyo, weatherOf('Tokyo')), // Tokyo ends first: its result is not held behind Paris
        successItem(1, paris, weatherOf('Paris')),
        ...textItems(2, ['Paris 21 °C, Tokyo 18 °C.']),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: 'Paris 21 °C, Tokyo 18 °C.' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: 'Paris 21 °C, Tokyo 18 °C.',
          messages: [assistantCalls(paris, tokyo), toolMessage(paris, parisResult), toolMessage(tokyo, tokyoResult), { role: 'assistant', content: 'Paris 21 °C, Tokyo 18 °C.' }],
        },
      ]);
      expect(started).toEqual(['Paris', 'Tokyo']);
      expect(finished).toEqual(['Tokyo', 'Paris']);
      expect(sent(endpoint, 1).slice(1)).toEqual([sentCall(paris), sentCall(tokyo), sentResult(paris, parisResult), sentResult(tokyo, tokyoResult)]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('sends a tool error result (ToolResult.error) to the model, which answers', async () => {
      const error = { type: 'DataNotFoundError', message: 'No weather station in Atlantis.', suggestion: 'Ask the user for a real city.' };
      const call: ToolCall = { id: 'call_atlantis', name: 'get_weather', arguments: '{"city":"Atlantis"}' };
      const endpoint = serve(turn({ toolCalls: [call] }), turn({ text: ['Which city did you mean?'] }));
      const { items } = await run(builder([weatherTool(() => ToolResult.error(error))]).build(), 'Weather in Atlantis?');
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(call)),
        failureItem(1, call, 'error_result', error, { attempts: 1 }),
        ...textItems(2, ['Which city did you mean?']),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: 'Which city did you mean?' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: 'Which city did you mean?',
          messages: [assistantCalls(call), toolMessage(call, { ok: false, error }), { role: 'assistant', content: 'Which city did you mean?' }],
        },
      ]);
      expect(toolResultsSent(endpoint, 1)).toEqual([sentResult(call, { ok: false, error } as { ok: boolean })]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('a throwing tool: the model sees a sanitized ToolInternalError, the caller a recoverable ToolError', async () => {
      const crash = new Error('database login failed with password hunter2');
      const call: ToolCall = { id: 'call_crash', name: 'get_weather', arguments: '{"city":"Paris"}' };
      const endpoint = serve(turn({ toolCalls: [call] }), turn({ text: ['The weather service is down.'] }));
      const agent = builder([
        weatherTool(() => {
          throw crash;
        }),
      ])
        .secrets(['hunter2'])
        .build();
      const { items, events } = await run(agent, 'Weather in Paris?');
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(call)),
        {
          type: 'error',
          iteration: 1,
          terminal: false,
          error: anError(ToolError, {
            message: "Tool 'get_weather' crashed: database login failed with password [REDACTED]",
            toolName: 'get_weather',
            callId: call.id,
            cause: expect.objectContaining({ name: 'Error', message: 'database login failed with password [REDACTED]' }),
          }),
        },
        failureItem(1, call, 'crash', CRASH_RESULT, { attempts: 1 }),
        ...textItems(2, ['The weather service is down.']),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: 'The weather service is down.' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: 'The weather service is down.',
          messages: [assistantCalls(call), toolMessage(call, { ok: false, error: CRASH_RESULT }), { role: 'assistant', content: 'The weather service is down.' }],
        },
      ]);
      expect(toolResultsSent(endpoint, 1)).toEqual([sentResult(call, { ok: false, error: CRASH_RESULT } as { ok: boolean })]);
      expect(JSON.stringify(endpoint.bodies)).not.toContain('hunter2');
      expect(textsOf(events.map((event) => event.payload)).filter((text) => text.includes('hunter2'))).toEqual([]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('an unknown tool gets a ToolNotFound result listing the available tools', async () => {
      const call: ToolCall = { id: 'call_typo', name: 'get_wether', arguments: '{"city":"Paris"}' };
      const endpoint = serve(turn({ toolCalls: [call] }), turn({ text: ['Retrying with the right tool.'] }));
      const { items } = await run(builder([weatherTool(), timeTool]).build(), 'Weather in Paris?');
      const notFound = {
        type: 'ToolNotFound',
        message: "No tool named 'get_wether' is available. Did you mean 'get_weather'? Available tools: get_weather, get_time.",
        context: { requested: 'get_wether', available: ['get_weather', 'get_time'], closest: 'get_weather' },
        suggestion: 'Call one of the available tools (get_weather, get_time) instead.',
      };
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(call)),
        failureItem(1, call, 'not_found', notFound, { durationMs: 0 }),
        ...textItems(2, ['Retrying with the right tool.']),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: 'Retrying with the right tool.' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: 'Retrying with the right tool.',
          messages: [assistantCalls(call), toolMessage(call, { ok: false, error: notFound }), { role: 'assistant', content: 'Retrying with the right tool.' }],
        },
      ]);
      expect(sent(endpoint, 1).slice(1)).toEqual([sentCall(call), sentResult(call, { ok: false, error: notFound } as { ok: boolean })]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('invalid JSON arguments give an InputValidationError result the model gets back, and the tool is not executed', async () => {
      const raw = '{"city": "Par';
      const call: ToolCall = { id: 'call_broken_json', name: 'get_weather', arguments: raw };
      const execute = vi.fn(({ city }: { city: string }) => weatherOf(city));
      const tool = weatherTool(execute);
      const endpoint = serve(turn({ toolCalls: [call] }), turn({ text: ['Sorry, let me try again.'] }));
      const { items } = await run(builder([tool]).build(), 'Weather in Paris?');
      const invalid = {
        type: 'InputValidationError',
        message: `Tool 'get_weather' was called with invalid JSON arguments: ${raw}. Parse error: ${parseErrorOf(raw)}.`,
        context: { received: raw, expectedSchema: tool.jsonSchema },
        suggestion: "Call 'get_weather' again with a JSON object that matches expectedSchema.",
      };
      expect(items).toEqual([
        { type: 'tool-call', iteration: 1, call },
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(call)),
        failureItem(1, call, 'invalid_arguments', invalid),
        ...textItems(2, ['Sorry, let me try again.']),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: 'Sorry, let me try again.' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: 'Sorry, let me try again.',
          messages: [assistantCalls(call), toolMessage(call, { ok: false, error: invalid }), { role: 'assistant', content: 'Sorry, let me try again.' }],
        },
      ]);
      expect(execute).not.toHaveBeenCalled();
      expect(endpoint.calls).toBe(2);
      // The call goes back under its id and name (its input as the protocol can carry it), then the error it got.
      const back = sent(endpoint, 1).slice(1);
      expect(back.map((entry) => (entry.role === 'tool-call' ? { role: entry.role, id: entry.id, name: entry.name } : entry))).toEqual([
        { role: 'tool-call', id: call.id, name: call.name },
        sentResult(call, { ok: false, error: invalid } as { ok: boolean }),
      ]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('schema-invalid arguments give an InputValidationError naming the field, and the tool is not executed', async () => {
      const call: ToolCall = { id: 'call_bad_city', name: 'get_weather', arguments: '{"city": 42}' };
      const execute = vi.fn(({ city }: { city: string }) => weatherOf(city));
      const tool = weatherTool(execute);
      const endpoint = serve(turn({ toolCalls: [call] }), turn({ text: ['Which city?'] }));
      const { items } = await run(builder([tool]).build(), 'Weather in 42?');
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
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, assistantCalls(call)),
        failureItem(1, call, 'invalid_arguments', invalid),
        ...textItems(2, ['Which city?']),
        { type: 'usage', iteration: 2, usage: one },
        messageItem(2, { role: 'assistant', content: 'Which city?' }),
        {
          type: 'finish',
          finishReason: 'stop',
          iterations: 2,
          usage: usageTimes(one, 2),
          text: 'Which city?',
          messages: [assistantCalls(call), toolMessage(call, { ok: false, error: invalid }), { role: 'assistant', content: 'Which city?' }],
        },
      ]);
      expect(execute).not.toHaveBeenCalled();
      expect(sent(endpoint, 1).slice(1)).toEqual([sentCall(call), sentResult(call, { ok: false, error: invalid } as { ok: boolean })]);
      expectValidTranscript(finishOf(items).messages);
    });

    it('stops after maxIterations model calls with finish reason max_iterations', async () => {
      const calls: ToolCall[] = [1, 2, 3, 4].map((round) => ({ id: `call_loop_${round}`, name: 'get_weather', arguments: '{"city":"Paris"}' }));
      const endpoint = serve(...calls.map((call) => turn({ toolCalls: [call] })));
      const { items } = await run(builder([weatherTool()]).maxIterations(3).build(), 'Weather in Paris, forever?');
      const used = calls.slice(0, 3);
      const result = { ok: true, data: weatherOf('Paris') };
      expect(items).toEqual([
        ...used.flatMap((call, index) => [
          { type: 'tool-call', iteration: index + 1, call },
          { type: 'usage', iteration: index + 1, usage: one },
          messageItem(index + 1, assistantCalls(call)),
          successItem(index + 1, call, weatherOf('Paris')),
        ]),
        { type: 'finish', finishReason: 'max_iterations', iterations: 3, usage: usageTimes(one, 3), text: '', messages: used.flatMap((call) => [assistantCalls(call), toolMessage(call, result)]) },
      ]);
      expect(endpoint.calls).toBe(3);
      expect(toolResultsSent(endpoint, 2)).toEqual(used.slice(0, 2).map((call) => sentResult(call, result)));
      expectValidTranscript(finishOf(items).messages);
    });
  });

  describe('model failures', () => {
    it('401 with the key quoted back: not retried, a terminal ChatClientError with a clear message and no key', async () => {
      const endpoint = serve(() => wire.httpError(401, { message: `Incorrect API key provided: ${API_KEY}.` }));
      const agent = builder([weatherTool()]).build();
      const { items, events } = await run(agent, 'Weather in Paris?');
      const expected = {
        name: 'ChatClientError',
        reason: 'http',
        status: 401,
        retryable: false,
        attempts: 1,
        code: wire.errorCode(401),
        requestId: wire.requestId(401),
        providerMessage: 'Incorrect API key provided: [REDACTED].',
        message: `${wire.label} returned 401 Unauthorized: Incorrect API key provided: [REDACTED].`,
      };
      expect(items).toEqual([{ type: 'error', iteration: 1, terminal: true, error: anError(ChatClientError, expected) }]);
      expect(endpoint.calls).toBe(1);
      expect(payloadsOf(events, 'retry')).toEqual([]);
      expect(payloadsOf(events, 'error')).toEqual([{ runId: expect.any(String), agent: 'weather-agent', iteration: 1, terminal: true, error: expect.objectContaining({ name: 'ChatClientError', status: 401 }) }]);
      await expect(collectAgentRun(await agent.run('Weather in Paris?'))).rejects.toSatisfy((rejected) => ChatClientError.isInstance(rejected) && (rejected as ChatClientError).status === 401);
      expect(endpoint.calls).toBe(2);
    });

    it('429 with a Retry-After hint: one model retry after the hinted wait, then the answer', async () => {
      const hinted = wire.hintedDelayMs(10);
      const endpoint = serve(() => wire.httpError(429, { message: 'Rate limit reached for requests.', retryAfterMs: 10 }), turn({ text: ['After the wait.'] }));
      const started = performance.now();
      const { items, events } = await run(builder().build(), 'Hello?');
      expect(performance.now() - started).toBeGreaterThanOrEqual(hinted - 2);
      expect(items).toEqual([
        modelRetryItem(1, 1, { name: 'ChatClientError', status: 429, retryAfterMs: hinted }, { delayMs: hinted }),
        ...textItems(1, ['After the wait.']),
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, { role: 'assistant', content: 'After the wait.' }),
        { type: 'finish', finishReason: 'stop', iterations: 1, usage: one, text: 'After the wait.', messages: [{ role: 'assistant', content: 'After the wait.' }] },
      ]);
      expect(endpoint.calls).toBe(2);
      expect(payloadsOf(events, 'retry')).toEqual([
        {
          runId: expect.stringMatching(/^run-/),
          agent: 'weather-agent',
          source: 'model',
          attempt: 1,
          delayMs: hinted,
          error: expect.objectContaining({ name: 'ChatClientError', status: 429, retryable: true, retryAfterMs: hinted, code: wire.errorCode(429), requestId: wire.requestId(429) }),
        },
      ]);
    });

    it('500 twice, then the answer: three HTTP calls, two retry events, no error item', async () => {
      const failure = () => wire.httpError(500, { message: 'The server had an error processing your request.' });
      const endpoint = serve(failure, failure, turn({ text: ['Breakfast is served.'] }));
      const { items, events } = await run(builder().build(), 'Breakfast?');
      expect(items).toEqual([
        modelRetryItem(1, 1, { name: 'ChatClientError', status: 500 }),
        modelRetryItem(1, 2, { name: 'ChatClientError', status: 500 }),
        ...textItems(1, ['Breakfast is served.']),
        { type: 'usage', iteration: 1, usage: one },
        messageItem(1, { role: 'assistant', content: 'Breakfast is served.' }),
        { type: 'finish', finishReason: 'stop', iterations: 1, usage: one, text: 'Breakfast is served.', messages: [{ role: 'assistant', content: 'Breakfast is served.' }] },
      ]);
      expect(endpoint.calls).toBe(3);
      expect(payloadsOf(events, 'retry').map(({ source, attempt, error }) => ({ source, attempt, status: (error as { status?: number }).status }))).toEqual([
        { source: 'model', attempt: 1, status: 500 },
        { source: 'model', attempt: 2, status: 500 },
      ]);
    });

    it('a network error on every attempt: a terminal ChatClientError with reason network', async () => {
      const endpoint = serve(() => HttpResponse.error());
      const { items } = await run(builder().build(), 'Hello?');
      expect(items).toEqual([
        modelRetryItem(1, 1, { name: 'ChatClientError', reason: 'network' }),
        modelRetryItem(1, 2, { name: 'ChatClientError', reason: 'network' }),
        { type: 'error', iteration: 1, terminal: true, error: anError(ChatClientError, { reason: 'network', retryable: true, attempts: 3, message: `Request to ${wire.label} failed: Failed to fetch` }) },
      ]);
      expect(endpoint.calls).toBe(3);
    });

    it('a connection dropped mid-stream after output: the text so far, then a terminal read_failed StreamError (no replay)', async () => {
      const endpoint = serve(() => wire.textThenDrop(['It is ', 'sunny']));
      const { items } = await run(builder().build(), 'Weather?');
      expect(items).toEqual([
        ...textItems(1, ['It is ', 'sunny']),
        {
          type: 'error',
          iteration: 1,
          terminal: true,
          error: anError(StreamError, { reason: 'read_failed', afterOutput: true, message: `The connection to ${wire.label} dropped while reading the answer: ${DROP_MESSAGE}` }),
        },
      ]);
      expect(endpoint.calls).toBe(1);
    });

    it('a malformed chunk after output: a terminal malformed_chunk StreamError naming the chunk', async () => {
      const endpoint = serve(() => wire.malformed('Sunny'));
      const { items } = await run(builder().build(), 'Weather?');
      expect(items).toEqual([
        ...textItems(1, ['Sunny']),
        { type: 'error', iteration: 1, terminal: true, error: anError(StreamError, { reason: 'malformed_chunk', afterOutput: true, chunk: wire.brokenData, message: notJSONMessage(wire, wire.brokenData) }) },
      ]);
      expect(endpoint.calls).toBe(1);
    });

    it('aborting mid-stream ends the run promptly with the exact abort reason', async () => {
      const endpoint = serve(() => wire.textThenStall(['Once upon']));
      const controller = new AbortController();
      const reason = new DOMException('the user closed the tab', 'AbortError');
      const agent = builder().build();
      const { events, off } = observe(agent);
      const items: AgentRunItem[] = [];
      let abortedAt = 0;
      for await (const item of await agent.run('Tell me a story', { signal: controller.signal })) {
        items.push(item);
        if (item.type === 'text-delta' && abortedAt === 0) {
          abortedAt = performance.now();
          controller.abort(reason);
        }
      }
      const elapsed = performance.now() - abortedAt;
      off();
      expectNoKey(items, events);
      expect(items).toEqual([...textItems(1, ['Once upon']), { type: 'error', iteration: 1, terminal: true, error: reason }]);
      expect((items.at(-1) as { error: unknown }).error).toBe(reason);
      expect(elapsed).toBeLessThan(1_000);
      expect(endpoint.calls).toBe(1);
      await sleep(5);
      expect(endpoint.requests[0]?.signal.aborted).toBe(true);
    });

    it('a stream that stalls after output: a terminal idle-timeout ChatClientError', async () => {
      const endpoint = serve(() => wire.textThenStall(['Sunny']));
      const { items } = await run(builder([], model({ timeouts: { idleMs: 50 } })).build(), 'Weather?');
      expect(items).toEqual([
        ...textItems(1, ['Sunny']),
        {
          type: 'error',
          iteration: 1,
          terminal: true,
          error: anError(ChatClientError, { reason: 'timeout', timeout: 'idle', retryable: false, message: `${wire.label} sent nothing for 50 ms mid-stream (idle timeout)` }),
        },
      ]);
      expect(endpoint.calls).toBe(1);
    });

    const partner = fallbackPartner(wire);
    it(`model fallback: the primary's 503s become a recoverable error item, the secondary (${partner.title}) answers`, async () => {
      const unavailable = 'That model is currently overloaded with other requests.';
      const primary = serve(() => wire.httpError(503, { message: unavailable }));
      const secondary = modelEndpoint(partner.url, () => partner.respond({ text: ['Backup ', 'answer.'] }));
      server.use(secondary.handler);
      const client = createFallbackChatClient([model(), partner.client(partner.baseURL, { apiKey: API_KEY, retry: fastRetry })]);
      const { items, events } = await run(builder([], client).instructions(INSTRUCTIONS).build(), 'Hello?');
      expect(items).toEqual([
        modelRetryItem(1, 1, { name: 'ChatClientError', status: 503 }),
        modelRetryItem(1, 2, { name: 'ChatClientError', status: 503 }),
        {
          type: 'error',
          iteration: 1,
          terminal: false,
          error: anError(ChatClientError, {
            reason: 'http',
            status: 503,
            retryable: true,
            attempts: 3,
            code: wire.errorCode(503),
            requestId: wire.requestId(503),
            message: `${wire.label} returned 503 Service Unavailable: ${unavailable}`,
          }),
        },
        modelRetryItem(1, 1, { name: 'ChatClientError', status: 503 }, { delayMs: 0, fallbackTo: partner.clientName }),
        ...textItems(1, ['Backup ', 'answer.']),
        { type: 'usage', iteration: 1, usage: partner.usage },
        messageItem(1, { role: 'assistant', content: 'Backup answer.' }),
        { type: 'finish', finishReason: 'stop', iterations: 1, usage: partner.usage, text: 'Backup answer.', messages: [{ role: 'assistant', content: 'Backup answer.' }] },
      ]);
      expect(primary.calls).toBe(3);
      expect(secondary.calls).toBe(1);
      // The same conversation, in each provider's own shape.
      expect(partner.sent(secondary.bodies[0] ?? {})).toEqual(wire.sent(primary.bodies[0] ?? {}));
      expect(wire.sent(primary.bodies[0] ?? {})).toEqual([
        { role: 'system', text: INSTRUCTIONS },
        { role: 'user', text: 'Hello?' },
      ]);
      expect(payloadsOf(events, 'retry').map(({ attempt, fallbackTo }) => ({ attempt, fallbackTo }))).toEqual([
        { attempt: 1, fallbackTo: undefined },
        { attempt: 2, fallbackTo: undefined },
        { attempt: 1, fallbackTo: partner.clientName },
      ]);
    });
  });
});
