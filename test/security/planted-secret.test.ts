/**
 * Planted secrets: an API key, an `Authorization: Bearer` token and a tool secret given to the SDK the documented
 * ways (the chat client's `apiKey` and `headers`, the A2A client's `headers`, the tools' and the agent's `secrets`),
 * then servers, tools and networks that echo them back in every way we could think of: HTTP error bodies and
 * headers, mid-stream provider errors, malformed chunks, dropped connections and network errors whose messages quote
 * them, JSON-RPC errors, crashing tools, tool failures' causes, tool log data, tool arguments. Everything the SDK
 * produces from that is collected — each error (message, `String()`, `JSON.stringify`, `toJSON()`, stack,
 * `util.inspect`, every link of its cause chain), every tool log record, every agent event and run item, every
 * runner event — and none may contain a secret (src/internal/redact.ts: configured secrets, the values of
 * credential-like headers and token-shaped strings are removed).
 *
 * Deliberately not checked, because they are the developer's, the model's or the remote's own data, not something
 * the SDK produced: the raw `error`/`arguments` of a `ToolRun` (the developer's own thrown value and input); what a
 * model that itself sent a secret as a tool argument wrote (its `tool-call` item, the assistant message of the
 * transcript, and the model-facing `InputValidationError` quoting its arguments back to it); the decoded payloads an
 * A2A call returns (the runner events made from them are checked).
 *
 * Servers echo what they received on the wire (the msw handlers read the request headers), so each test also proves
 * that the secret was really sent.
 */
import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AAgent, createA2AClient, type A2AClientOptions } from '../../src/a2a/index.js';
import { AgentBuilder, type Agent, type AgentEvents, type AgentRunItem } from '../../src/agent/index.js';
import { createOpenAICompatibleClient, type ChatClient, type ChatRetryNotice, type OpenAICompatibleClientOptions } from '../../src/chat/index.js';
import { A2ATransportError, ChatClientError, JSONRPCError, SerializeError, StreamError, ToolError } from '../../src/errors/index.js';
import {
  createGraphAgent,
  decodeStateDelta,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  routeToolCalls,
  StateGraph,
} from '../../src/graph/index.js';
import { isRunnerCompletion, Runner, toRunnableAgent, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { chunk, sseText, textEvents, toolCallEvents } from '../../src/testing/openai-stream.js';
import { chainOf, Evidence } from '../helpers/evidence.js';
import {
  AuthenticationError,
  defineTool,
  NetworkError,
  runTool,
  runToolCall,
  type AnyTool,
  type RunToolOptions,
  type ToolLogRecord,
} from '../../src/tools/index.js';

// ---------------------------------------------------------------------------------------------------------------
// The secrets

/** The chat client's `apiKey` (token-shaped, so also caught by pattern). */
const API_KEY = 'sk-plant-7f3a9c1e5b2d4680';
/** Sent as `Authorization: Bearer <token>` through `headers` (not token-shaped: only configuration can catch it). */
const BEARER_TOKEN = 'hdr-plant-3c9e1a7b5d2f8460';
/** A tool's own credential, passed through the tools' (and the agent's) `secrets` option. */
const TOOL_SECRET = 'tool-plant-9b1d3f5a7c2e4068';
const SECRETS = [API_KEY, BEARER_TOKEN, TOOL_SECRET] as const;

const LLM_BASE = 'https://llm.secret.test';
const A2A_BASE = 'https://remote.secret.test';
const fastRetry = { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 };

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// ---------------------------------------------------------------------------------------------------------------
// Collecting everything the SDK produced

const logInto = (evidence: Evidence) => (record: ToolLogRecord) => evidence.record(record);

interface Guarded {
  name: string;
  isInstance(value: unknown): boolean;
}

/** `error` is an instance of `errorClass` (by its brand) with `fields`. */
function expectTyped(error: unknown, errorClass: Guarded, fields: Record<string, unknown> = {}): void {
  expect(errorClass.isInstance(error), `expected a ${errorClass.name}, got ${inspect(error)}`).toBe(true);
  expect(error).toMatchObject(fields);
}

/** Awaits `work`, which must fail; returns the failure. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

// ---------------------------------------------------------------------------------------------------------------
// Servers that echo what they received

/** What a server received: the Authorization header value and its bare token, and the x-api-key value. */
interface Received {
  authorization: string;
  token: string;
  apiKeyHeader: string;
  /** What the server quotes: the bare token (OpenAI quotes a bad key so) or the whole header value. */
  quoted: string;
}

function receivedOf(request: Request, quoteBareToken: boolean): Received {
  const authorization = request.headers.get('authorization') ?? '';
  const token = authorization.replace(/^Bearer\s+/i, '');
  return { authorization, token, apiKeyHeader: request.headers.get('x-api-key') ?? '', quoted: quoteBareToken ? token : authorization };
}

const encoder = new TextEncoder();

/** A body that sends `first` and then fails with `error`, as a connection reset mid-answer does. */
function droppingBody(first: string, error: Error): ReadableStream<Uint8Array> {
  let pulls = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(encoder.encode(first));
        else controller.error(error);
      },
    },
    { highWaterMark: 0 },
  );
}

const sse = (text: string, init: ResponseInit = {}) => new HttpResponse(text, { ...init, headers: { 'content-type': 'text/event-stream', ...init.headers } });

/**
 * `fetch` that fails for URLs containing `/network-error` with an error quoting the request's credentials (as a
 * proxy or an instrumented fetch might), and otherwise goes to msw.
 */
const leakyFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.includes('/network-error')) {
    const headers = new Headers(init?.headers);
    throw new TypeError(`fetch failed: connect ECONNREFUSED 203.0.113.7:443 while sending authorization: ${headers.get('authorization')}`, {
      cause: Object.assign(new Error(`proxy CONNECT refused for credentials ${headers.get('x-api-key') ?? headers.get('authorization')}`), { code: 'ECONNREFUSED' }),
    });
  }
  return fetch(input, init);
};

// ---------------------------------------------------------------------------------------------------------------
// The chat client

interface ChatFault {
  name: string;
  /** `complete()` instead of `stream()`. */
  call?: 'complete';
  respond: (received: Received, attempt: number) => Response;
  /** The typed failure the caller gets. */
  expected: (error: unknown) => void;
}

const CHAT_FAULTS: readonly ChatFault[] = [
  {
    name: 'a 401 whose JSON body quotes the key',
    respond: ({ quoted }) =>
      HttpResponse.json(
        { error: { message: `Incorrect API key provided: ${quoted}. You can find your API key at https://platform.example/keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
        { status: 401, headers: { 'x-request-id': 'req_401' } },
      ),
    expected: (error) => expectTyped(error, ChatClientError, { status: 401, retryable: false, code: 'invalid_api_key' }),
  },
  {
    name: 'a 401 whose text body quotes the Authorization header',
    respond: ({ authorization }) => new HttpResponse(`Unauthorized. Received header Authorization: ${authorization}`, { status: 401, headers: { 'content-type': 'text/plain' } }),
    expected: (error) => expectTyped(error, ChatClientError, { status: 401 }),
  },
  {
    name: 'a 403 problem+json whose detail quotes the token',
    respond: ({ quoted }) => HttpResponse.json({ title: 'Forbidden', detail: `The token ${quoted} lacks the chat:write scope.` }, { status: 403 }),
    expected: (error) => expectTyped(error, ChatClientError, { status: 403 }),
  },
  {
    name: 'a 500 dumping an exception that quotes the header, retried, then a 401 quoting it again',
    respond: ({ authorization, quoted }, attempt) =>
      attempt === 1
        ? HttpResponse.json({ name: 'Error', message: `upstream rejected ${authorization}`, stack: `Error: upstream rejected ${authorization}\n    at proxy (/srv/proxy.js:10:5)` }, { status: 500 })
        : HttpResponse.json({ error: { message: `Invalid credentials ${quoted}` } }, { status: 401 }),
    expected: (error) => expectTyped(error, ChatClientError, { status: 401, attempts: 2 }),
  },
  {
    name: 'a 502 HTML page quoting the forwarded header and token',
    respond: ({ authorization, quoted }) =>
      new HttpResponse(`<html><body><h1>Bad gateway</h1><pre>forwarded: authorization=${authorization}; token=${quoted}</pre></body></html>`, { status: 502, headers: { 'content-type': 'text/html' } }),
    expected: (error) => expectTyped(error, ChatClientError, { status: 502 }),
  },
  {
    name: 'a network error whose message and cause quote the header',
    respond: () => {
      throw new Error('unreachable: the fetch wrapper fails first');
    },
    expected: (error) => expectTyped(error, ChatClientError, { reason: 'network' }),
  },
  {
    name: 'a mid-stream provider error quoting the token',
    respond: ({ quoted }) => sse(sseText([chunk({ role: 'assistant', content: 'Hel' }), { error: { message: `The key ${quoted} was revoked mid-request`, type: 'invalid_request_error', code: 'key_revoked' } }])),
    expected: (error) => expectTyped(error, StreamError, { reason: 'provider_error', afterOutput: true }),
  },
  {
    name: 'an `event: error` quoting the token',
    respond: ({ quoted }) => sse(`${sseText([chunk({ role: 'assistant', content: 'Hel' })])}event: error\ndata: token ${quoted} expired\n\n`),
    expected: (error) => expectTyped(error, StreamError, { reason: 'provider_error' }),
  },
  {
    name: 'a malformed chunk quoting the header',
    respond: ({ authorization }) => sse(`${sseText([chunk({ role: 'assistant', content: 'Hel' })])}data: {"choices": [{"delta": {"content": "auth=${authorization}\n\n`),
    expected: (error) => expectTyped(error, StreamError, { reason: 'malformed_chunk' }),
  },
  {
    name: 'a connection dropped mid-stream with an error quoting the header',
    respond: ({ authorization, quoted }) =>
      new HttpResponse(droppingBody(sseText([chunk({ role: 'assistant', content: 'Hel' })]), new TypeError(`terminated: other side closed (authorization: ${authorization}, token ${quoted})`)), {
        headers: { 'content-type': 'text/event-stream' },
      }),
    expected: (error) => expectTyped(error, StreamError, { reason: 'read_failed' }),
  },
  {
    name: 'a 200 JSON error body quoting the token, to complete()',
    call: 'complete',
    respond: ({ quoted }) => HttpResponse.json({ error: { message: `invalid token ${quoted}` } }),
    expected: (error) => expectTyped(error, ChatClientError, { reason: 'invalid_response' }),
  },
  {
    name: 'a 200 body that is not JSON and quotes the header, to complete()',
    call: 'complete',
    respond: ({ authorization }) => new HttpResponse(`Unauthorized: ${authorization}`, { headers: { 'content-type': 'application/json' } }),
    expected: (error) => expectTyped(error, ChatClientError, { reason: 'invalid_response' }),
  },
];

interface ChatVariant {
  label: string;
  options: Partial<OpenAICompatibleClientOptions>;
  /** The secret the server receives (as the bare token). */
  sent: string;
  /** Whether the echoing servers quote the bare token (as OpenAI quotes a key) or only the whole header value. */
  quoteBareToken: boolean;
}

const API_KEY_VARIANT: ChatVariant = { label: 'apiKey', options: { apiKey: API_KEY }, sent: API_KEY, quoteBareToken: true };
const HEADER_VARIANT: ChatVariant = { label: 'Authorization header', options: { headers: { Authorization: `Bearer ${BEARER_TOKEN}` } }, sent: BEARER_TOKEN, quoteBareToken: false };

/** Serves `respond` at `<LLM_BASE>/<path>/v1/chat/completions`, counting attempts; records what arrived. */
function serveChat(path: string, quoteBareToken: boolean, ...answers: Array<(received: Received, attempt: number) => Response>): { received: Received[] } {
  const received: Received[] = [];
  server.use(
    http.post(`${LLM_BASE}/${path}/v1/chat/completions`, ({ request }) => {
      const what = receivedOf(request, quoteBareToken);
      received.push(what);
      const answer = answers[Math.min(received.length - 1, answers.length - 1)] as (received: Received, attempt: number) => Response;
      return answer(what, received.length);
    }),
  );
  return { received };
}

function chatClient(path: string, variant: ChatVariant): ChatClient {
  return createOpenAICompatibleClient({ baseURL: `${LLM_BASE}/${path}/v1`, model: 'plant-model', fetch: leakyFetch, retry: fastRetry, ...variant.options });
}

/** Calls the model once (streamed or not); every chunk, retry notice and the failure go to `evidence`. */
async function callModel(client: ChatClient, evidence: Evidence, call: 'stream' | 'complete' = 'stream'): Promise<unknown> {
  const request = { messages: [{ role: 'user' as const, content: 'Hello' }], onRetry: (notice: ChatRetryNotice) => evidence.value('retry notice', notice) };
  return failureOf(async () => {
    if (call === 'complete') {
      evidence.value('response', await client.complete(request));
      return;
    }
    for await (const piece of client.stream(request)) evidence.value(`chunk ${piece.type}`, piece);
  });
}

function chatPath(fault: ChatFault, variant: ChatVariant): string {
  const slug = `${variant.label}-${fault.name}`.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  return fault.name.startsWith('a network error') ? `network-error/${slug}` : slug;
}

describe('the chat client', () => {
  for (const variant of [API_KEY_VARIANT, HEADER_VARIANT]) {
    describe(`with the secret in ${variant.label}`, () => {
      for (const fault of CHAT_FAULTS) {
        it(`keeps it out of the failure for ${fault.name}`, async () => {
          const path = chatPath(fault, variant);
          const { received } = serveChat(path, variant.quoteBareToken, fault.respond);
          const evidence = new Evidence(SECRETS);
          const error = await callModel(chatClient(path, variant), evidence, fault.call);
          fault.expected(error);
          evidence.error('chat failure', error);
          if (!path.startsWith('network-error')) expect(received[0]?.token).toBe(variant.sent);
          expect(evidence.sightings()).toEqual([]);
        });
      }
    });
  }

  it('keeps a bearer token given through headers out of a 401 that quotes only the token', async () => {
    const fault = CHAT_FAULTS[0] as ChatFault;
    const { received } = serveChat('bare-token-401', true, fault.respond);
    const evidence = new Evidence(SECRETS);
    const error = await callModel(chatClient('bare-token-401', HEADER_VARIANT), evidence);
    fault.expected(error);
    expect(received[0]?.token).toBe(BEARER_TOKEN);
    evidence.error('chat failure', error);
    expect(evidence.sightings()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Tools

const toolOptions = (evidence: Evidence): RunToolOptions => ({ logger: logInto(evidence), secrets: [TOOL_SECRET] });

/** A crash that quotes every secret, with a cause chain that does too. */
function secretCrash(): Error {
  return new Error(`upstream login with ${TOOL_SECRET} and key ${API_KEY} failed`, {
    cause: Object.assign(new Error(`HTTP 401 from vault: Bearer ${BEARER_TOKEN} (client secret ${TOOL_SECRET})`), { code: 'E_VAULT' }),
  });
}

const loginTool = (execute: (args: { user: string; password: string }) => unknown, formatError?: () => never): AnyTool =>
  defineTool({ name: 'login', description: 'Logs a user in.', parameters: z.object({ user: z.string(), password: z.string() }), execute, ...(formatError ? { formatError } : {}) });

const SECRET_ARGUMENTS = JSON.stringify({ user: 'ada', password: TOOL_SECRET, apiKey: API_KEY, note: `Bearer ${BEARER_TOKEN}` });

/** The model-facing result of a run (its raw `error` and `arguments` are the developer's own values: not checked). */
function collectResult(evidence: Evidence, run: Awaited<ReturnType<typeof runTool>>): void {
  evidence.value('tool result (model)', run.result.toJSON());
}

describe('tools', () => {
  it('a crash quoting every secret: the model gets a sanitized error, the log the redacted story', async () => {
    const evidence = new Evidence(SECRETS);
    const run = await runTool(loginTool(() => { throw secretCrash(); }), SECRET_ARGUMENTS, toolOptions(evidence));
    expect(run.outcome).toBe('crash');
    expect(run.result.error?.type).toBe('ToolInternalError');
    collectResult(evidence, run);
    expect(evidence.logEvents).toEqual(['tool.crash']);
    expect(evidence.sightings()).toEqual([]);
  });

  it("a crash with onToolCrash 'throw': the ToolError and its cause chain are redacted", async () => {
    const evidence = new Evidence(SECRETS);
    const error = await failureOf(() => runTool(loginTool(() => { throw secretCrash(); }), SECRET_ARGUMENTS, { ...toolOptions(evidence), onToolCrash: 'throw' }));
    expect(ToolError.isInstance(error)).toBe(true);
    evidence.error('thrown ToolError', error);
    expect(chainOf(error)).toHaveLength(3);
    expect(evidence.sightings()).toEqual([]);
  });

  it('an AggregateError crash whose members quote the secrets', async () => {
    const evidence = new Evidence(SECRETS);
    const crash = new AggregateError([new Error(`mirror 1 refused ${TOOL_SECRET}`), new Error(`mirror 2 refused ${API_KEY}`)], `all mirrors failed for ${TOOL_SECRET}`);
    const run = await runTool(loginTool(() => { throw crash; }), SECRET_ARGUMENTS, toolOptions(evidence));
    collectResult(evidence, run);
    const thrown = await failureOf(() => runTool(loginTool(() => { throw crash; }), SECRET_ARGUMENTS, { ...toolOptions(evidence), onToolCrash: 'throw' }));
    evidence.error('thrown ToolError', thrown);
    expect(evidence.sightings()).toEqual([]);
  });

  it('a ToolFailure whose cause quotes the secrets: the model sees its message, the log the redacted cause', async () => {
    const evidence = new Evidence(SECRETS);
    const tool = loginTool(() => {
      throw new AuthenticationError('The vault rejected the credentials.', { cause: secretCrash() });
    });
    const run = await runTool(tool, SECRET_ARGUMENTS, toolOptions(evidence));
    expect(run.outcome).toBe('failure');
    collectResult(evidence, run);
    expect(evidence.logEvents).toEqual(['tool.failure']);
    expect(evidence.sightings()).toEqual([]);
  });

  it('a retried NetworkError whose cause quotes the secrets: retry records and notices stay clean', async () => {
    const evidence = new Evidence(SECRETS);
    const tool = loginTool(() => {
      throw new NetworkError('The vault did not answer.', { cause: secretCrash() });
    });
    const run = await runTool(tool, SECRET_ARGUMENTS, { ...toolOptions(evidence), retry: fastRetry, onRetry: (notice) => evidence.value('tool retry notice', notice) });
    expect(run.attempts).toBe(2);
    collectResult(evidence, run);
    expect(evidence.logEvents).toEqual(['tool.retry', 'tool.failure']);
    expect(evidence.sightings()).toEqual([]);
  });

  it('a timeout of a call whose arguments hold the secrets: the tool.timeout record redacts them', async () => {
    const evidence = new Evidence(SECRETS);
    const run = await runTool(loginTool(() => new Promise(() => {})), SECRET_ARGUMENTS, { ...toolOptions(evidence), timeoutMs: 5 });
    expect(run.outcome).toBe('timeout');
    collectResult(evidence, run);
    expect(evidence.logEvents).toEqual(['tool.timeout', 'tool.failure']);
    expect(evidence.sightings()).toEqual([]);
  });

  it("the tool's own log calls with secrets in the message and the data", async () => {
    const evidence = new Evidence(SECRETS);
    const tool = defineTool({
      name: 'fetch_report',
      description: 'Fetches a report.',
      parameters: z.object({}),
      execute: (_args, context) => {
        context.logger.warn(`calling the reports API with key ${API_KEY} and secret ${TOOL_SECRET}`, {
          apiKey: API_KEY,
          headers: { authorization: `Bearer ${BEARER_TOKEN}`, 'x-trace': `secret=${TOOL_SECRET}` },
          url: `https://reports.test/v1?key=${TOOL_SECRET}`,
        });
        return { rows: 3 };
      },
    });
    const run = await runTool(tool, '{}', toolOptions(evidence));
    expect(run.outcome).toBe('success');
    collectResult(evidence, run);
    expect(evidence.logEvents).toEqual(['tool.log']);
    expect(evidence.sightings()).toEqual([]);
  });

  it('rejected arguments holding the secrets: the tool.invalid_arguments record redacts them', async () => {
    const evidence = new Evidence(SECRETS);
    const invalidJSON = `{"user": "ada", "password": "${TOOL_SECRET}", "apiKey": "${API_KEY}", "token": "Bearer ${BEARER_TOKEN}"`;
    const wrongTypes = JSON.stringify({ user: 42, password: TOOL_SECRET, note: `Bearer ${BEARER_TOKEN}` });
    for (const raw of [invalidJSON, wrongTypes]) {
      const run = await runTool(loginTool(() => 'never'), raw, toolOptions(evidence));
      expect(run.outcome).toBe('invalid_arguments');
      // The model-facing InputValidationError quotes what the model itself sent: not checked (see the file header).
    }
    expect(evidence.logEvents).toEqual(['tool.invalid_arguments', 'tool.invalid_arguments']);
    expect(evidence.sightings()).toEqual([]);
  });

  it('a repair hook and a formatError that throw errors quoting the secrets', async () => {
    const evidence = new Evidence(SECRETS);
    const repair = () => {
      throw secretCrash();
    };
    const invalid = await runTool(loginTool(() => 'never'), '{"user": 1}', { ...toolOptions(evidence), repair });
    expect(invalid.outcome).toBe('invalid_arguments');
    collectResult(evidence, invalid);
    const formatting = loginTool(() => { throw secretCrash(); }, () => { throw secretCrash(); });
    const crashed = await runTool(formatting, SECRET_ARGUMENTS, toolOptions(evidence));
    expect(crashed.result.error?.type).toBe('ToolInternalError');
    collectResult(evidence, crashed);
    expect(evidence.logEvents).toEqual(['tool.invalid_arguments', 'tool.invalid_arguments', 'tool.crash', 'tool.crash']);
    expect(evidence.sightings()).toEqual([]);
  });

  it('an unknown tool called with the secrets: the tool.not_found record redacts the arguments', async () => {
    const evidence = new Evidence(SECRETS);
    const run = await runToolCall([loginTool(() => 'never')], { id: 'call_1', name: 'log_in', arguments: SECRET_ARGUMENTS }, toolOptions(evidence));
    expect(run.outcome).toBe('not_found');
    collectResult(evidence, run);
    expect(evidence.logEvents).toEqual(['tool.not_found']);
    expect(evidence.sightings()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Agent runs

const EVENT_NAMES = ['model-request', 'model-response', 'tool-start', 'tool-end', 'tool-error', 'retry', 'error'] as const satisfies ReadonlyArray<keyof AgentEvents>;

/** Tools that fail with the secrets in their messages, causes and log data (their arguments are clean). */
function leakyTools(): AnyTool[] {
  const empty = z.object({});
  return [
    defineTool({ name: 'crash_with_secret', description: 'Crashes.', parameters: empty, execute: () => { throw secretCrash(); } }),
    defineTool({
      name: 'fail_with_secret_cause',
      description: 'Fails for the model, with a secret cause.',
      parameters: empty,
      execute: () => {
        throw new AuthenticationError('The vault rejected the credentials.', { cause: secretCrash() });
      },
    }),
    defineTool({
      name: 'log_with_secret',
      description: 'Logs secrets, then succeeds.',
      parameters: empty,
      execute: (_args, context) => {
        context.logger.error(`key ${API_KEY}, secret ${TOOL_SECRET}`, { apiKey: API_KEY, nested: { note: `Bearer ${BEARER_TOKEN}` } });
        return { rows: 3 };
      },
    }),
    defineTool({
      name: 'aggregate_crash',
      description: 'Crashes with an AggregateError.',
      parameters: empty,
      execute: () => {
        throw new AggregateError([new Error(`mirror refused ${TOOL_SECRET}`), secretCrash()], `all mirrors failed for ${API_KEY}`);
      },
    }),
    defineTool({ name: 'too_slow', description: 'Times out.', parameters: empty, timeoutMs: 5, execute: () => new Promise(() => {}) }),
  ];
}

const LEAKY_CALLS = ['crash_with_secret', 'fail_with_secret_cause', 'log_with_secret', 'aggregate_crash', 'too_slow'].map((name, index) => ({ id: `call_${index + 1}`, name, arguments: '{}' }));

/** Listens to every agent event; `off()` unbinds. */
function observe(agent: Agent, evidence: Evidence): () => void {
  const unbind = EVENT_NAMES.map((name) => agent.on(name, ((payload: unknown) => evidence.event(name, payload)) as AgentEvents[typeof name]));
  return () => unbind.forEach((off) => off());
}

async function runAgent(agent: Agent, evidence: Evidence, input = 'Check the vault.'): Promise<AgentRunItem[]> {
  const off = observe(agent, evidence);
  const items: AgentRunItem[] = [];
  try {
    for await (const item of await agent.run(input)) {
      items.push(item);
      evidence.item(item);
    }
  } finally {
    off();
  }
  return items;
}

const toolTurn = () => sse(sseText(toolCallEvents(LEAKY_CALLS)));

describe('agent runs', () => {
  const modelFailures = CHAT_FAULTS.filter((fault) => fault.call === undefined);
  for (const fault of modelFailures) {
    it(`tools failing with secrets, then the model failing with ${fault.name}: items, events and logs stay clean`, async () => {
      const path = chatPath(fault, API_KEY_VARIANT);
      // A network fault fails every call of the client, so that run ends at its first model call (no tools run).
      const network = path.startsWith('network-error');
      serveChat(path, true, () => toolTurn(), (received, attempt) => fault.respond(received, attempt - 1));
      const evidence = new Evidence(SECRETS);
      const agent = new AgentBuilder('vault-agent').chatClient(chatClient(path, API_KEY_VARIANT)).tools(leakyTools()).secrets([TOOL_SECRET]).toolLogger(logInto(evidence)).build();

      const items = await runAgent(agent, evidence);

      const last = items.at(-1);
      expect(last).toMatchObject({ type: 'error', terminal: true });
      fault.expected((last as { error: unknown }).error);
      if (!network) {
        expect(items.filter((item) => item.type === 'tool-result').map((item) => (item as { outcome: string }).outcome)).toEqual(['crash', 'failure', 'success', 'crash', 'timeout']);
        expect(evidence.logEvents).toEqual(expect.arrayContaining(['tool.crash', 'tool.failure', 'tool.log', 'tool.timeout']));
      }
      expect(evidence.counts.events).toBeGreaterThan(0);
      expect(evidence.sightings()).toEqual([]);
    });
  }

  it('a model that sends the secrets as tool arguments: only its own tool-call item carries them', async () => {
    serveChat(
      'agent-secret-arguments',
      true,
      () => sse(sseText(toolCallEvents([{ id: 'call_login', name: 'login', arguments: SECRET_ARGUMENTS }]))),
      () => sse(sseText(textEvents(['Login failed.']))),
    );
    const evidence = new Evidence(SECRETS);
    const login = loginTool((args) => {
      throw new Error(`login failed for ${JSON.stringify(args)}`);
    });
    const agent = new AgentBuilder('login-agent').chatClient(chatClient('agent-secret-arguments', API_KEY_VARIANT)).tools([login]).secrets([TOOL_SECRET]).toolLogger(logInto(evidence)).build();
    const off = observe(agent, evidence);
    const items: AgentRunItem[] = [];
    try {
      for await (const item of await agent.run('Log Ada in.')) {
        items.push(item);
        // The tool call, and the transcript's assistant message repeating it (the `message` item, the finish's
        // messages), are the model's own text.
        if (item.type === 'finish') evidence.item({ ...item, messages: item.messages.filter((message) => message.role !== 'assistant') });
        else if (item.type !== 'tool-call' && item.type !== 'message') evidence.item(item);
      }
    } finally {
      off();
    }
    expect(items.find((item) => item.type === 'tool-call')).toMatchObject({ call: { arguments: expect.stringContaining(TOOL_SECRET) } });
    expect(items.map((item) => item.type)).toEqual(['tool-call', 'usage', 'message', 'error', 'tool-result', 'text-delta', 'usage', 'message', 'finish']);
    // The tool-result's cause is the redacted stand-in of the crash, like the error item's.
    const result = items.find((item) => item.type === 'tool-result') as Extract<AgentRunItem, { type: 'tool-result' }>;
    evidence.error('tool-result cause', result.cause);
    expect(result.cause).toMatchObject({ message: expect.stringContaining('[REDACTED]') });
    expect(evidence.sightings()).toEqual([]);
  });

  it("onToolCrash 'throw': the terminal ToolError item is redacted", async () => {
    serveChat('agent-crash-throw', true, () => toolTurn());
    const evidence = new Evidence(SECRETS);
    const agent = new AgentBuilder('vault-agent')
      .chatClient(chatClient('agent-crash-throw', API_KEY_VARIANT))
      .tools(leakyTools())
      .secrets([TOOL_SECRET])
      .onToolCrash('throw')
      .toolLogger(logInto(evidence))
      .build();
    const items = await runAgent(agent, evidence);
    expect(items.at(-1)).toMatchObject({ type: 'error', terminal: true });
    expect(ToolError.isInstance((items.at(-1) as { error: unknown }).error)).toBe(true);
    expect(evidence.sightings()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Runner and graph

async function runUnder(runner: Runner, evidence: Evidence, options: Partial<Parameters<Runner['run']>[0]> = {}): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Check the vault.', ...options })) {
    events.push(event);
    evidence.runEvent(event);
  }
  expect(events.filter(isRunnerCompletion)).toHaveLength(1);
  return events;
}

describe('runner and graph events', () => {
  it('an LLM agent under the Runner: tools failing with secrets, then a 401 quoting the key', async () => {
    const fault = CHAT_FAULTS[0] as ChatFault;
    serveChat('runner-agent', true, () => toolTurn(), fault.respond);
    const evidence = new Evidence(SECRETS);
    const agent = new AgentBuilder('vault-agent').chatClient(chatClient('runner-agent', API_KEY_VARIANT)).tools(leakyTools()).secrets([TOOL_SECRET]).toolLogger(logInto(evidence)).build();
    const events = await runUnder(new Runner({ appName: 'vault', agent: toRunnableAgent(agent) }), evidence);
    expect(events.at(-2)?.response?.error).toMatchObject({ type: 'api_error' });
    expect(evidence.sightings()).toEqual([]);
  });

  it('a graph (LLM node → tools node with secrets → LLM node failing with a 401 quoting the key): events, records and completion', async () => {
    const fault = CHAT_FAULTS[0] as ChatFault;
    serveChat('graph-llm', true, () => toolTurn(), fault.respond);
    const evidence = new Evidence(SECRETS);
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(collector.addField(messagesStateSchema()))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addLLMNode('llm', chatClient('graph-llm', API_KEY_VARIANT), { tools: leakyTools() })
      .addToolsNode('tools', leakyTools(), { secrets: [TOOL_SECRET], logger: logInto(evidence) })
      .setEntryPoint('llm')
      .addConditionalEdges('llm', routeToolCalls('tools'))
      .addEdge('tools', 'llm')
      .compile();
    const events = await runUnder(new Runner({ appName: 'vault', agent: createGraphAgent('vault-graph', compiled) }), evidence);
    const completion = events.at(-1) as RunEvent;
    expect(completion.response?.error).toMatchObject({ type: 'api_error', code: 'invalid_api_key' });
    const records = executionErrorsFromStateDelta(completion.stateDelta) ?? [];
    expect(records).toEqual([expect.objectContaining({ severity: 'fatal', nodeId: 'llm', stepNumber: 2 })]);
    evidence.value('decoded completion state', decodeStateDelta(completion.stateDelta));
    expect(evidence.logEvents).toEqual(expect.arrayContaining(['tool.crash', 'tool.failure', 'tool.log', 'tool.timeout']));
    expect(evidence.sightings()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The A2A client

const A2A_HEADERS = { Authorization: `Bearer ${BEARER_TOKEN}`, 'X-API-Key': API_KEY };

interface A2AFault {
  name: string;
  /** Which client call fails. */
  call: 'card' | 'send' | 'stream';
  /** The JSON-RPC endpoint's answers, by attempt (the last repeats); `id` is the request's JSON-RPC id. */
  rpc?: (received: Received, id: unknown, attempt: number) => Response;
  /** The card endpoint's answer (default: a valid card). */
  card?: (received: Received) => Response;
  /** Let the fetch wrapper fail the call with an error quoting the headers. */
  network?: 'card' | 'rpc';
  expected: (error: unknown) => void;
}

const taskFrame = (id: unknown) => ({ jsonrpc: '2.0', id, result: { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'submitted' } } });
const rpcFrames = (...frames: unknown[]) => frames.map((frame) => `data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`).join('');

const A2A_FAULTS: readonly A2AFault[] = [
  {
    name: 'the card endpoint answering 401 with a body quoting the headers',
    call: 'card',
    card: ({ authorization, apiKeyHeader }) => new HttpResponse(`Unauthorized: ${authorization} / ${apiKeyHeader}`, { status: 401, headers: { 'x-echo-authorization': authorization } }),
    expected: (error) => expectTyped(error, A2ATransportError, { status: 401 }),
  },
  {
    name: 'the card request failing with a network error quoting the headers',
    call: 'card',
    network: 'card',
    expected: (error) => expectTyped(error, A2ATransportError, { reason: 'network' }),
  },
  {
    name: 'a card that is not JSON and quotes the headers',
    call: 'card',
    card: ({ authorization, apiKeyHeader }) => new HttpResponse(`<html>Sign in again (${authorization}, ${apiKeyHeader})</html>`, { headers: { 'content-type': 'application/json' } }),
    expected: (error) => expectTyped(error, SerializeError, { subject: 'agent card' }),
  },
  {
    name: 'message/send answered 401 with a body and a header quoting the headers',
    call: 'send',
    rpc: ({ authorization, apiKeyHeader }) =>
      new HttpResponse(`invalid credentials: ${authorization}; x-api-key=${apiKeyHeader}`, { status: 401, headers: { 'content-type': 'text/plain', 'x-echo-authorization': authorization, 'x-echo-api-key': apiKeyHeader } }),
    expected: (error) => expectTyped(error, A2ATransportError, { status: 401, retryable: false }),
  },
  {
    name: 'message/send answered 503 with an HTML page quoting the headers, retried, then 401',
    call: 'send',
    rpc: ({ authorization, apiKeyHeader }, _id, attempt) =>
      attempt === 1
        ? new HttpResponse(`<html><pre>upstream down; forwarded ${authorization} ${apiKeyHeader}</pre></html>`, { status: 503, headers: { 'content-type': 'text/html', 'retry-after': '0' } })
        : new HttpResponse(`still unauthorized: ${authorization}`, { status: 401 }),
    expected: (error) => expectTyped(error, A2ATransportError, { status: 401 }),
  },
  {
    name: 'message/send answered with a JSON-RPC error whose message quotes the headers',
    call: 'send',
    rpc: ({ authorization, apiKeyHeader }, id) => HttpResponse.json({ jsonrpc: '2.0', id, error: { code: -32001, message: `Unauthorized: ${authorization} (key ${apiKeyHeader})` } }),
    expected: (error) => expectTyped(error, JSONRPCError, { rpcCode: -32001 }),
  },
  {
    name: 'message/send answered with a JSON-RPC error whose data quotes the headers',
    call: 'send',
    rpc: ({ authorization, apiKeyHeader }, id) =>
      HttpResponse.json({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error', data: { received: { authorization, 'x-api-key': apiKeyHeader } } } }),
    expected: (error) => expectTyped(error, JSONRPCError, { rpcCode: -32603 }),
  },
  {
    name: 'message/send answered 200 with a body that is not JSON and quotes the headers',
    call: 'send',
    rpc: ({ authorization, apiKeyHeader }) => new HttpResponse(`upstream said: ${authorization} ${apiKeyHeader}`, { headers: { 'content-type': 'application/json' } }),
    expected: (error) => expectTyped(error, SerializeError, { subject: 'A2A response' }),
  },
  {
    name: 'message/send failing with a network error quoting the headers',
    call: 'send',
    network: 'rpc',
    expected: (error) => expectTyped(error, A2ATransportError, { reason: 'network' }),
  },
  {
    name: 'a failed task whose error message quotes the headers',
    call: 'send',
    rpc: ({ authorization, apiKeyHeader }, id) => {
      const metadata = { object_type: 'error', error_type: 'flow_error', error_code: 'UPSTREAM_AUTH', error_message: `upstream refused ${authorization} / ${apiKeyHeader}` };
      const status = { state: 'failed', message: { kind: 'message', role: 'agent', messageId: 'resp-1', parts: [{ kind: 'text', text: `upstream refused ${authorization}` }], metadata } };
      return HttpResponse.json({ jsonrpc: '2.0', id, result: { kind: 'task', id: 'task-1', contextId: 'ctx-1', status, metadata } });
    },
    expected: (error) => expect(error).toBeUndefined(), // a failed task is a result, not an error
  },
  {
    name: 'message/stream sending a JSON-RPC error quoting the headers inside the stream',
    call: 'stream',
    rpc: ({ authorization, apiKeyHeader }, id) => sse(rpcFrames(taskFrame(id), { jsonrpc: '2.0', id, error: { code: -32603, message: `token ${authorization} expired (${apiKeyHeader})` } })),
    expected: (error) => expectTyped(error, JSONRPCError, { inStream: true }),
  },
  {
    name: 'message/stream sending data that is not JSON and quotes the headers',
    call: 'stream',
    rpc: ({ authorization, apiKeyHeader }, id) => sse(rpcFrames(taskFrame(id), `unauthorized: ${authorization} ${apiKeyHeader}`)),
    expected: (error) => expectTyped(error, SerializeError, { subject: 'A2A stream event' }),
  },
  {
    name: 'message/stream dropped with an error quoting the headers',
    call: 'stream',
    rpc: ({ authorization, apiKeyHeader }, id) =>
      new HttpResponse(droppingBody(rpcFrames(taskFrame(id)), new TypeError(`terminated: other side closed (${authorization}, ${apiKeyHeader})`)), { headers: { 'content-type': 'text/event-stream' } }),
    expected: (error) => expectTyped(error, A2ATransportError, { reason: 'network' }),
  },
];

/** Serves the remote agent of `fault` under `<A2A_BASE>/<slug>`; returns what its endpoints received. */
function serveRemote(slug: string, fault: A2AFault, quoteBareToken: boolean): { received: Received[]; base: string } {
  const base = `${A2A_BASE}/${fault.network ? `network-error-${fault.network}/` : ''}${slug}`;
  const rpcURL = `${base}/rpc`;
  const received: Received[] = [];
  const card = { name: 'vault', description: 'A remote vault.', url: rpcURL, protocolVersion: '0.3.0', preferredTransport: 'JSONRPC', version: '1.0.0', capabilities: { streaming: fault.call === 'stream' }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [] };
  let attempt = 0;
  server.use(
    http.get(`${base}/.well-known/agent-card.json`, ({ request }) => {
      const what = receivedOf(request, quoteBareToken);
      received.push(what);
      return fault.card ? fault.card(what) : HttpResponse.json(card);
    }),
    http.post(rpcURL, async ({ request }) => {
      const what = receivedOf(request, quoteBareToken);
      received.push(what);
      const body = (await request.json()) as { id: unknown };
      attempt++;
      return (fault.rpc as NonNullable<A2AFault['rpc']>)(what, body.id, attempt);
    }),
  );
  return { received, base };
}

/**
 * The error of one client call for `fault`, or `undefined` when the call succeeded. What the call returns is the
 * remote's own payload, decoded: not collected (the runner events made from it are).
 */
async function a2aCall(options: A2AClientOptions, fault: A2AFault): Promise<unknown> {
  const client = createA2AClient(options);
  try {
    if (fault.call === 'card') await client.getAgentCard();
    else if (fault.call === 'send') await client.sendMessage('open the vault');
    else for await (const _event of client.streamMessage('open the vault'));
  } catch (error) {
    return error;
  }
  return undefined;
}

function a2aSlug(fault: A2AFault): string {
  return fault.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
}

describe('the A2A client', () => {
  for (const fault of A2A_FAULTS) {
    it(`keeps its headers out of the error and the runner events for ${fault.name}`, async () => {
      const slug = a2aSlug(fault);
      const { received, base } = serveRemote(slug, fault, false);
      const options: A2AClientOptions = { agentCardUrl: base, headers: A2A_HEADERS, fetch: leakyFetch, retry: fastRetry };
      const evidence = new Evidence(SECRETS);

      const error = await a2aCall(options, fault);
      fault.expected(error);
      if (error !== undefined) evidence.error('A2A client failure', error);
      if (!fault.network) expect(received[0]).toMatchObject({ token: BEARER_TOKEN, apiKeyHeader: API_KEY });

      // The same remote as an agent under the Runner, and as an agent node of a graph with a collector.
      const remote: RunnableAgent = createA2AAgent({ ...options, name: 'vault' });
      const runEvents = await runUnder(new Runner({ appName: 'vault', agent: remote }), evidence);
      expect(runEvents.some((event) => event.response?.error !== undefined)).toBe(true);
      const collector = new ExecutionErrorCollector();
      const parent = new StateGraph(collector.addField(messagesStateSchema()))
        .withNodeCallbacks(collector.nodeCallbacks())
        .addAgentNode('vault', createA2AAgent({ ...options, name: 'vault' }), { outputMapper: collector.subgraphOutputMapper() })
        .setEntryPoint('vault')
        .setFinishPoint('vault')
        .compile();
      await runUnder(new Runner({ appName: 'vault', agent: createGraphAgent('parent', parent) }), evidence);

      expect(evidence.sightings()).toEqual([]);
    });
  }

  it('keeps a bearer token out of a 401 body that quotes only the token', async () => {
    const fault: A2AFault = {
      name: 'a 401 quoting the bare token',
      call: 'send',
      rpc: ({ quoted }) => new HttpResponse(`invalid token ${quoted}`, { status: 401 }),
      expected: (error) => expectTyped(error, A2ATransportError, { status: 401 }),
    };
    const { received, base } = serveRemote('bare-token', fault, true);
    const evidence = new Evidence(SECRETS);
    const error = await a2aCall({ agentCardUrl: base, headers: A2A_HEADERS, fetch: leakyFetch, retry: fastRetry }, fault);
    fault.expected(error);
    expect(received[0]?.quoted).toBe(BEARER_TOKEN);
    evidence.error('A2A client failure', error);
    expect(evidence.sightings()).toEqual([]);
  });
});

describe('the evidence collector of this file', () => {
  it('finds a secret in a cause, in an AggregateError member, in toJSON, in an event and in a log record', () => {
    const evidence = new Evidence(SECRETS);
    evidence.error('deep', new Error('outer', { cause: new AggregateError([new Error(`member ${TOOL_SECRET}`)], 'aggregate') }));
    evidence.error('json', new JSONRPCError(-32000, 'clean', { data: { token: BEARER_TOKEN } }));
    evidence.event('tool-end', { result: { data: API_KEY } });
    evidence.record({ level: 'info', event: 'tool.log', message: 'clean', toolName: 't', callId: 'c', timestamp: '', data: { token: TOOL_SECRET } });
    const secrets = new Set(evidence.sightings().map((sighting) => sighting.secret));
    expect(secrets).toEqual(new Set(SECRETS));
    expect(evidence.sightings().some((sighting) => sighting.where.startsWith('deep cause[2]'))).toBe(true);
  });

});
