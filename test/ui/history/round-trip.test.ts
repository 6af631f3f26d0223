// The history round trip, per chat wire (Chat Completions, Anthropic Messages, OpenAI Responses) and per scenario
// (success, reasoning with signatures, a tool failing each way, a mid-stream provider error, max iterations, stop()
// mid-answer with an unanswered call): a first run against the provider (msw), its items written as the UI stream
// contract through the AI SDK's createUIMessageStream, read back with readUIMessageStream into the UIMessage useChat
// holds, posted back with the next user message through readChatRequest — and the next request the provider gets is
// valid (every call answered) and sends back exactly what the first run sent: the same tool content, arguments,
// thinking signatures and reasoning items. The transcript equals the run's own (its session), plus — for a step a
// failure or a stop cut — the part of that step the user saw.
import { http, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { UIMessageChunk } from 'ai';
import { AgentBuilder, InMemorySessionStore, type AgentRunItem } from '../../../src/agent/index.js';
import type { ChatMessage } from '../../../src/chat/index.js';
import { APIFailure, AuthenticationError, DataNotFoundError, defineTool, RateLimitError, type AnyTool } from '../../../src/tools/index.js';
import { readChatRequest } from '../../../src/ui/history-exports.js';
import { expectValidTranscript, fixtureStream } from '../../helpers/agent-run.js';
import { WIRES, type SentEntry, type Wire } from '../../helpers/provider-wire.js';
import { chatBody, contractChunks, uiMessageOf, userUIMessage } from './contract-stream.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const FIRST = 'Weather in Paris, and my orders?';
const NEXT = 'Thanks. And tomorrow?';

const weather = defineTool({ name: 'get_weather', description: 'Current weather for a city.', parameters: z.object({ city: z.string() }), execute: ({ city }) => ({ city, temperatureC: 21, sky: 'sunny' }) });

/** One tool per way a tool fails: 404, 401, 429 retried then fine, 500, a crash, invalid arguments, a timeout. */
function failingTools(): AnyTool[] {
  let rateCalls = 0;
  const city = z.object({ city: z.string() });
  return [
    weather,
    defineTool({ name: 'find_order', description: '404', parameters: city, execute: () => { throw new DataNotFoundError('No order for Paris.', { suggestion: 'Ask for the order number.' }); } }),
    defineTool({ name: 'account', description: '401', parameters: city, execute: () => { throw new AuthenticationError('The account service refused our key.'); } }),
    defineTool({
      name: 'rates',
      description: '429 then fine',
      parameters: city,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 5 },
      execute: () => {
        if (++rateCalls === 1) throw new RateLimitError('Rate limited.', { retryAfterMs: 2 });
        return { eur: 1 };
      },
    }),
    defineTool({ name: 'billing', description: '500', parameters: city, execute: () => { throw new APIFailure('Billing answered 500.'); } }),
    defineTool({ name: 'crash', description: 'crashes', parameters: city, execute: () => { throw new TypeError("Cannot read properties of undefined (reading 'x')"); } }),
    defineTool({ name: 'strict', description: 'invalid arguments', parameters: z.object({ count: z.number() }), execute: () => 1 }),
    defineTool({ name: 'slow', description: 'times out', parameters: city, timeoutMs: 20, execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })) }),
  ];
}

const call = (id: string, name: string, args = '{"city":"Paris"}') => ({ id, name, arguments: args });

interface Scenario {
  name: string;
  tools: () => AnyTool[];
  /** The first run's model answers. */
  answers: (wire: Wire) => HttpResponseResolver[];
  maxIterations?: number;
  /** Aborts the run once its tools started (stop() while a tool runs). */
  stop?: boolean;
  /** The browser stops reading after this chunk. */
  cutAfter?: (chunk: UIMessageChunk) => boolean;
  /** What the user saw of a step the run does not keep (a step a failure cut). */
  visible?: ChatMessage[];
}

const FIXTURE_TURNS: Record<Wire['id'], () => HttpResponseResolver[]> = {
  'openai-chat': () => [() => WIRES[0]!.respond({ toolCalls: [call('call_w1', 'get_weather')] }), () => fixtureStream('deepseek-reasoner.sse')],
  'anthropic-messages': () => [() => fixtureStream('anthropic-thinking-tool-use.sse'), () => fixtureStream('anthropic-text.sse')],
  'openai-responses': () => [() => fixtureStream('responses-function-call.sse'), () => fixtureStream('responses-text.sse')],
};

const SCENARIOS: Scenario[] = [
  {
    name: 'success: text, a tool call, its result, the answer',
    tools: () => [weather],
    answers: (wire) => [() => wire.respond({ text: ['Let me ', 'check.'], toolCalls: [call('call_w1', 'get_weather', '{"city": "Paris"}')] }), () => wire.respond({ text: 'It is 21 °C and sunny.' })],
  },
  {
    name: 'reasoning the provider needs back (recorded thinking signatures, reasoning items)',
    tools: () => [weather],
    answers: (wire) => FIXTURE_TURNS[wire.id](),
  },
  {
    name: 'a tool failing each way (404, 401, 429 retried, 500, a crash, invalid arguments, a timeout)',
    tools: failingTools,
    answers: (wire) => [
      () =>
        wire.respond({
          toolCalls: [
            call('c_ok', 'get_weather'),
            call('c_404', 'find_order'),
            call('c_401', 'account'),
            call('c_429', 'rates'),
            call('c_500', 'billing'),
            call('c_crash', 'crash'),
            call('c_invalid', 'strict', '{"count":"many"}'),
            call('c_timeout', 'slow'),
          ],
        }),
      () => wire.respond({ text: 'Some of that failed; here is what I know.' }),
    ],
  },
  {
    name: 'a mid-stream provider error (the partial text the user saw is kept)',
    tools: () => [weather],
    answers: (wire) => [() => wire.malformed(['The weather ', 'in Par'])],
    visible: [{ role: 'assistant', content: 'The weather in Par' }],
  },
  {
    name: 'max iterations',
    tools: () => [weather],
    maxIterations: 1,
    answers: (wire) => [() => wire.respond({ toolCalls: [call('call_w1', 'get_weather')] })],
  },
  {
    name: 'stop() mid-answer with an unanswered call (answered as the run answered it)',
    tools: () => [defineTool({ name: 'get_weather', description: 'hangs', parameters: z.object({ city: z.string() }), execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })) })],
    answers: (wire) => [() => wire.respond({ text: 'Let me check.', toolCalls: [call('call_w1', 'get_weather')] })],
    stop: true,
    cutAfter: (chunk) => chunk.type === 'tool-input-available',
  },
];

/** Serves `answers` at the wire's endpoint (the last repeats) and records each JSON body. */
function serve(wire: Wire, answers: HttpResponseResolver[]): Array<Record<string, unknown>> {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.post(wire.url, async (info) => {
      bodies.push((await info.request.clone().json()) as Record<string, unknown>);
      return (answers[Math.min(bodies.length - 1, answers.length - 1)] as HttpResponseResolver)(info);
    }),
  );
  return bodies;
}

function agentFor(wire: Wire, tools: AnyTool[], scenario: Pick<Scenario, 'maxIterations'>, store?: InMemorySessionStore) {
  const builder = new AgentBuilder('weather').chatClient(wire.client(wire.baseURL, { apiKey: 'sk-test-0123456789abcdef', retry: false })).instructions('Answer weather questions.').tools(tools).toolLogger(() => {});
  if (scenario.maxIterations !== undefined) builder.maxIterations(scenario.maxIterations);
  if (store) builder.sessionStore(store);
  return builder.build();
}

/** The first run: its items and the transcript it kept (its session: the user message, then what it added). */
async function firstRun(wire: Wire, scenario: Scenario): Promise<{ items: AgentRunItem[]; transcript: ChatMessage[]; bodies: Array<Record<string, unknown>> }> {
  const bodies = serve(wire, scenario.answers(wire));
  const store = new InMemorySessionStore();
  const controller = new AbortController();
  const items: AgentRunItem[] = [];
  for await (const item of agentFor(wire, scenario.tools(), scenario, store).run(FIRST, { session: 's1', signal: controller.signal })) {
    items.push(item);
    if (scenario.stop && item.type === 'tool-call') setTimeout(() => controller.abort(new Error('the user pressed stop')), 5);
  }
  return { items, transcript: await store.load('s1'), bodies };
}

/** What the provider is sent for `transcript` (one more model call, answered with text). */
async function sentFor(wire: Wire, tools: AnyTool[], transcript: ChatMessage[]): Promise<Record<string, unknown>> {
  server.resetHandlers();
  const bodies = serve(wire, [() => wire.respond({ text: 'Tomorrow too.' })]);
  for await (const item of agentFor(wire, tools, {}).run(transcript)) expect(item.type === 'error' && item.terminal ? item.error : undefined).toBeUndefined();
  expect(bodies).toHaveLength(1);
  return bodies[0] as Record<string, unknown>;
}

/** Every tool call the provider is sent has exactly one result after it, and every result answers a call. */
function expectEveryCallAnswered(entries: readonly SentEntry[]): void {
  const calls = entries.filter((entry) => entry.role === 'tool-call').map((entry) => (entry as { id: string }).id);
  const results = entries.filter((entry) => entry.role === 'tool-result').map((entry) => (entry as { callId: string }).callId);
  expect([...results].sort()).toEqual([...calls].sort());
}

describe.each(WIRES.map((wire) => [wire.title, wire] as const))('the history useChat posts back, on %s', (_title, wire) => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
    const { items, transcript, bodies } = await firstRun(wire, scenario);
    const assistants = transcript.filter((message) => message.role === 'assistant');
    const answer = await uiMessageOf(contractChunks(items, { assistants, cutAfter: scenario.cutAfter }));
    // What the browser holds: a stopped run leaves its call unanswered; a failed one keeps its error data part.
    if (scenario.stop) expect(answer.parts.filter((part) => 'state' in part && part.state === 'input-available')).toHaveLength(1);
    if (scenario.visible) expect(answer.parts.map((part) => part.type)).toContain('data-faultline-error');
    const posted = await chatBody([userUIMessage('u1', FIRST), answer, userUIMessage('u2', NEXT)]);
    const chat = await readChatRequest(new Request('http://127.0.0.1/api/chat', { method: 'POST', body: JSON.stringify(posted) }));

    // The transcript is the run's own, plus what the user saw of a cut step, plus the new message.
    const expected = [...transcript, ...(scenario.visible ?? []), { role: 'user', content: NEXT }];
    expect(chat.messages).toEqual(expected);
    expectValidTranscript(chat.messages);

    // The provider gets a valid request that sends back exactly what the first run sent it.
    const sent = await sentFor(wire, scenario.tools(), chat.messages);
    expect(sent).toEqual(await sentFor(wire, scenario.tools(), expected as ChatMessage[]));
    const entries = wire.sent(sent);
    expectEveryCallAnswered(entries);
    const before = wire.sent(bodies.at(-1) as Record<string, unknown>);
    expect(entries.slice(0, before.length)).toEqual(before);
  });

  it('sends the recorded thinking signatures and reasoning items back verbatim', async () => {
    const scenario = SCENARIOS[1] as Scenario;
    const { items, transcript } = await firstRun(wire, scenario);
    const answer = await uiMessageOf(contractChunks(items, { assistants: transcript.filter((message) => message.role === 'assistant') }));
    const chat = await readChatRequest(await chatBody([userUIMessage('u1', FIRST), answer, userUIMessage('u2', NEXT)]));
    const sent = JSON.stringify(await sentFor(wire, scenario.tools(), chat.messages));
    if (wire.id === 'anthropic-messages') {
      expect(sent).toContain('"signature":"ErUBCkYIBRgCIkDxSignaturePartOne+PartTwo=="');
      expect(sent).toContain('"type":"redacted_thinking"');
    }
    if (wire.id === 'openai-responses') expect(sent).toContain('"type":"reasoning","summary":[{"type":"summary_text","text":"The user asks for the weather; call get_weather."}],"encrypted_content":"gAAAAABor1wsEncryptedReasoningBlob0123456789=="');
    expect(chat.messages[1]?.reasoning).toBe(transcript[1]?.reasoning);
    expect(chat.messages[1]?.replay).toEqual(transcript[1]?.replay);
  });
});
