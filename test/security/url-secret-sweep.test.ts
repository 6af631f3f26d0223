/**
 * A credential planted in the URL a client is given — a path segment (hosted MCP servers put the token there), a
 * query value, the user info, the fragment — in every form (as is, URL-encoded, base64), traced to EVERY output: the
 * errors thrown (message, fields, `toJSON()`, cause chain), `client.url`, the `CircuitOpenError` and its
 * `dependency`, the breaker's `state` events and `snapshot()`, OpenTelemetry span names, attributes and events, tool
 * log records, agent items and events, runner events, and the text the model reads after a failed tool call. Every
 * client that takes a URL is driven through the same failures: a 401 whose `www-authenticate` challenge and body quote
 * the raw URL, a network error whose message quotes it (as Deno's fetch does), 503s echoing it until the circuit opens,
 * then a call the open circuit refuses.
 *
 * Twice: with the credential configured (`secrets`, or the chat client's `apiKey`) but not credential-shaped, and
 * unconfigured but credential-shaped (a long mixed token) — plus, unconfigured and not shaped, the positions that
 * are masked by position alone (the user info, a `?api_key=` value).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AAgent, createA2AClient } from '../../src/a2a/index.js';
import { AgentBuilder, type AgentRunItem } from '../../src/agent/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, createScriptedChatClient, type ChatClient } from '../../src/chat/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { createMCPHandler } from '../../src/mcp/handler.js';
import { createCircuitBreaker } from '../../src/resilience/index.js';
import { Runner, type RunEvent } from '../../src/runner/index.js';
import { defineTool, toolErrorFromResponse, type AnyTool } from '../../src/tools/index.js';
import { Evidence } from '../helpers/evidence.js';
import { echoTool } from '../mcp/handler-harness.js';
import { exported, record } from '../telemetry/otel-sdk.js';

/** Configured, and not credential-shaped: only the configuration can catch it. */
const SECRET = 'plant-urlsecret-zeta';
/** Unconfigured, and credential-shaped: a generated token. */
const TOKEN = 'Zq7Xk2Lm9Pw4Rt8Vn3Bc';
/** Unconfigured and not shaped: caught by its position alone (user info, `?api_key=`). */
const WORDS = 'plainwordsecretvalue';

/** The value and the text to look for: the value itself, and the start of its base64 form. */
const needles = (value: string) => [value, btoa(value).slice(0, 24)];

const FORMS: ReadonlyArray<[string, (value: string) => string]> = [
  ['as is', (value) => value],
  ['URL-encoded', (value) => encodeURIComponent(`${value}/x y`)],
  ['base64', (value) => btoa(value)],
];

/** Where the credential sits in a URL of `origin`. */
const POSITIONS: ReadonlyArray<[string, (origin: string, value: string) => string]> = [
  ['a path segment', (origin, value) => `${origin}/gw/${value}/api`],
  ['a query value', (origin, value) => `${origin}/gw/api?session=${value}`],
  ['the user info', (origin, value) => `${origin.replace('://', `://user:${value}@`)}/gw/api`],
  ['the fragment', (origin, value) => `${origin}/gw/api#${value}`],
];

interface Plant {
  /** The URL with the credential in it, for a server at `origin`. */
  url(origin: string): string;
  /** What the client is told is secret. */
  secrets: string[];
}

/** What a run of one client produced, and the proof that each output was reached. */
interface Sweep {
  evidence: Evidence;
  /** The circuit opened (a `state` event to `open`). */
  opened: boolean;
  /** A call was refused by the open circuit (a `CircuitOpenError` seen). */
  refused: boolean;
}

type Step = 'unauthorized' | 'network' | 'unavailable' | 'not_found';

/** A fetch that fails by `steps` (the last one repeats), every answer and error quoting the raw URL it was given. */
function failingFetch(steps: readonly Step[], serve?: (request: Request) => Promise<Response>): typeof fetch & { serving: boolean } {
  let call = 0;
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (fake.serving && serve) return serve(new Request('https://clean.sweep.test/mcp', init)); // a URL with user info cannot make a Request
    const step = steps[Math.min(call++, steps.length - 1)];
    if (step === 'network') throw new TypeError(`error sending request for url (${url})`);
    const status = { unauthorized: 401, unavailable: 503, not_found: 404 }[step as Exclude<Step, 'network'>];
    const headers: Record<string, string> = { 'x-upstream': url };
    if (status === 401) headers['www-authenticate'] = `Bearer realm="api", resource_metadata="${url}/.well-known/oauth-protected-resource"`;
    const response = new Response(`upstream could not serve ${url}`, { status, headers });
    Object.defineProperty(response, 'url', { value: url });
    return response;
  };
  fake.serving = false;
  return fake as typeof fetch & { serving: boolean };
}

/** A breaker opened by two retryable failures, its events and snapshot, and a span recorder, all into `evidence`. */
function instruments(evidence: Evidence) {
  const breaker = createCircuitBreaker({ failureThreshold: 2 });
  const sweep: Sweep = { evidence, opened: false, refused: false };
  breaker.on('state', (change) => {
    if (change.to === 'open') sweep.opened = true;
    evidence.event('breaker state', change);
  });
  const recorder = record();
  const finish = (): Sweep => {
    evidence.value('breaker snapshot', breaker.snapshot());
    for (const span of recorder.spans()) evidence.text(`span ${span.name}`, exported(span));
    return sweep;
  };
  const failure = (where: string, error: unknown) => {
    if ((error as { name?: unknown }).name === 'CircuitOpenError') sweep.refused = true;
    evidence.error(where, error);
  };
  return { breaker, telemetry: recorder.telemetry, finish, failure, sweep };
}

/** An agent's run: its items (an open circuit seen in an error item counts), events and tool log records collected. */
async function runAgent(build: (builder: AgentBuilder) => AgentBuilder, evidence: Evidence, failure: (where: string, error: unknown) => void): Promise<void> {
  const agent = build(new AgentBuilder('sweep').toolLogger((record) => evidence.record(record))).build();
  for (const name of ['model-request', 'model-response', 'retry', 'error'] as const) agent.on(name, (payload: unknown) => evidence.event(name, payload));
  for await (const item of await agent.run('go')) {
    evidence.item(item as AgentRunItem);
    if (item.type === 'error') failure('agent error item', item.error);
  }
}

/** Five tool calls, then an answer: what the model read after each failure is collected. */
async function agentCallingTool(tool: AnyTool, args: Record<string, unknown>, evidence: Evidence, telemetry: ReturnType<typeof record>['telemetry'], failure: (where: string, error: unknown) => void): Promise<void> {
  const call = { toolCalls: [{ name: tool.name, arguments: args }] };
  const model = createScriptedChatClient([call, call, call, call, call, { text: 'done' }]);
  await runAgent((builder) => builder.chatClient(model).tools([tool]).telemetry(telemetry), evidence, failure);
  evidence.value('what the model read', model.requests.map((request) => request.messages));
}

const CLIENTS: ReadonlyArray<[string, (plant: Plant, evidence: Evidence) => Promise<Sweep>]> = [
  [
    'the MCP client',
    async (plant, evidence) => {
      const { breaker, telemetry, finish, failure } = instruments(evidence);
      const handler = createMCPHandler({ tools: [echoTool], serverInfo: { name: 'tools', version: '1.0.0' }, allowedHosts: '*' });
      const fetch = failingFetch(['unauthorized', 'network', 'unavailable'], async (request) => handler(request));
      const client = createMCPClient({ url: plant.url('https://mcp.sweep.test'), secrets: plant.secrets, fetch, retry: false, circuitBreaker: breaker, telemetry });
      evidence.text('client.url', client.url);
      fetch.serving = true;
      const tools = await client.tools();
      fetch.serving = false;
      await agentCallingTool(tools[0] as AnyTool, { text: 'hi' }, evidence, telemetry, failure);
      await client.callTool('echo', { text: 'hi' }).catch((error: unknown) => failure('callTool', error));
      await client.close();
      return finish();
    },
  ],
  [
    'the A2A client and agent',
    async (plant, evidence) => {
      const { breaker, telemetry, finish, failure } = instruments(evidence);
      const fetch = failingFetch(['unauthorized', 'network', 'unavailable']);
      const options = { secrets: plant.secrets, fetch, retry: false as const, circuitBreaker: breaker, telemetry };
      await createA2AClient({ ...options, agentCardUrl: plant.url('https://agent.sweep.test') })
        .sendMessage('go')
        .catch((error: unknown) => failure('card discovery', error));
      const client = createA2AClient({ ...options, url: plant.url('https://agent.sweep.test') });
      await client.sendMessage('go').catch((error: unknown) => failure('sendMessage', error));
      const runner = new Runner({ appName: 'sweep', agent: createA2AAgent({ ...options, url: plant.url('https://agent.sweep.test'), streaming: false }) });
      for (let run = 0; run < 2; run++) {
        for await (const event of runner.run({ userId: 'u', sessionId: `s${run}`, message: 'go' })) {
          evidence.runEvent(event as RunEvent);
          if (JSON.stringify(event).includes('CIRCUIT_OPEN')) failure('runner event', { name: 'CircuitOpenError' });
        }
      }
      await client.sendMessage('go').catch((error: unknown) => failure('sendMessage', error));
      return finish();
    },
  ],
  ...(
    [
      ['OpenAI-compatible', (options: { baseURL: string; apiKey: string }) => createOpenAICompatibleClient({ ...options, model: 'm' })],
      ['Anthropic', (options: { baseURL: string; apiKey: string }) => createAnthropicClient({ ...options, model: 'm', maxTokens: 64 })],
      ['OpenAI Responses', (options: { baseURL: string; apiKey: string }) => createOpenAIResponsesClient({ ...options, model: 'm' })],
    ] as Array<[string, (options: { baseURL: string; apiKey: string; [key: string]: unknown }) => ChatClient]>
  ).map(([name, create]): [string, (plant: Plant, evidence: Evidence) => Promise<Sweep>] => [
    `the ${name} chat client (baseURL)`,
    async (plant, evidence) => {
      const { breaker, telemetry, finish, failure } = instruments(evidence);
      const fetch = failingFetch(['unauthorized', 'network', 'unavailable']);
      // The chat clients' configured secret is their key: a gateway that takes the key in its URL.
      const model = create({ baseURL: plant.url('https://llm.sweep.test'), apiKey: plant.secrets[0] ?? 'unrelated-api-key', fetch, retry: false, circuitBreaker: breaker });
      for (let run = 0; run < 4; run++) await runAgent((builder) => builder.chatClient(model).telemetry(telemetry), evidence, failure);
      const runner = new Runner({ appName: 'sweep', agent: new AgentBuilder('sweep').chatClient(model).build() });
      for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) evidence.runEvent(event as RunEvent);
      return finish();
    },
  ]),
  [
    'an HTTP tool failing through toolErrorFromResponse',
    async (plant, evidence) => {
      const { breaker, telemetry, finish, failure } = instruments(evidence);
      const fetch = failingFetch(['unauthorized', 'not_found', 'unavailable']);
      const tool = defineTool({
        name: 'fetch_items',
        description: 'Reads the items.',
        parameters: z.object({}),
        circuitBreaker: breaker,
        retry: false,
        execute: async () => {
          const response = await fetch(plant.url('https://api.sweep.test'));
          const thrown = await toolErrorFromResponse(response, { service: 'Items API', secrets: plant.secrets, showURL: 'full' });
          failure('toolErrorFromResponse', thrown);
          throw thrown;
        },
      });
      await agentCallingTool(tool as AnyTool, {}, evidence, telemetry, failure);
      return finish();
    },
  ],
];

function expectClean(sweep: Sweep, client: string): void {
  expect(sweep.evidence.sightings()).toEqual([]);
  // Every output was reached: errors, the breaker's events, and its refusal (a tool's circuit is named by the tool,
  // so a refused tool call is only a tool result).
  expect(sweep.evidence.counts.errors).toBeGreaterThan(0);
  expect(sweep.opened).toBe(true);
  if (!client.startsWith('an HTTP tool')) expect(sweep.refused).toBe(true);
  if (!client.startsWith('the A2A')) expect(sweep.evidence.counts.records + sweep.evidence.counts.items).toBeGreaterThan(0);
}

describe.each(CLIENTS)('a credential in the URL given to %s', (client, drive) => {
  describe.each(POSITIONS)('in %s', (_position, place) => {
    it.each(FORMS)('configured in secrets, sent %s, reaches no output', async (_form, form) => {
      const evidence = new Evidence(needles(SECRET));
      expectClean(await drive({ url: (origin) => place(origin, form(SECRET)), secrets: [SECRET] }, evidence), client);
    });

    it.each(FORMS)('unconfigured but token-shaped, sent %s, reaches no output', async (_form, form) => {
      const evidence = new Evidence(needles(TOKEN));
      expectClean(await drive({ url: (origin) => place(origin, form(TOKEN)), secrets: [] }, evidence), client);
    });
  });

  it.each([
    ['the password of the user info', (origin: string) => `${origin.replace('://', `://user:${WORDS}@`)}/gw/api`],
    ['an api_key query value', (origin: string) => `${origin}/gw/api?api_key=${WORDS}`],
  ])('unconfigured and not token-shaped, in %s, reaches no output', async (_position, url) => {
    const evidence = new Evidence(needles(WORDS));
    expectClean(await drive({ url, secrets: [] }, evidence), client);
  });
});

describe('an option error quoting a URL that is not one', () => {
  const bad = (value: string) => `llm.sweep.test/gw/${value}/v1?api_key=${WORDS}`;

  it.each([
    ['the chat client (baseURL; its apiKey configured)', (value: string) => createOpenAICompatibleClient({ baseURL: bad(value), apiKey: SECRET, model: 'm' })],
    ['the A2A client (url; secrets configured)', (value: string) => createA2AClient({ url: bad(value), secrets: [SECRET] })],
    ['the A2A client (agentCardUrl; secrets configured)', (value: string) => createA2AClient({ agentCardUrl: bad(value), secrets: [SECRET] })],
  ])('from %s masks the credentials in it, configured or shaped', (_client, create) => {
    for (const value of [SECRET, TOKEN]) {
      const evidence = new Evidence([...needles(value), WORDS]);
      try {
        create(value);
        expect.unreachable('the URL is not absolute');
      } catch (error) {
        evidence.error('ConfigError', error);
        expect(String(error)).toContain('/gw/[REDACTED]/v1?api_key=[REDACTED]');
      }
      expect(evidence.sightings()).toEqual([]);
    }
  });

  it('the A2A client refuses secrets that are not strings', () => {
    expect(() => createA2AClient({ url: 'https://agent.sweep.test/', secrets: [42 as unknown as string] })).toThrow(/secrets\[0\] must be a string of 4 characters or more, or '' \(got 42\)/);
  });
});
