// A request that carries credentials goes only to the URL it was given. fetch follows a redirect with the request's
// headers — it drops `Authorization` on a cross-origin hop, but an `x-api-key` (Anthropic's own), an `api-key` or any
// custom header goes along — so a server (or whoever controls it) could send the caller's key anywhere with one 307.
// Every client that sends credentials is held here against every redirect status, over real loopback HTTP: the
// target the redirect points to receives nothing, and the caller gets a typed failure that says what happened.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AClient, fetchAgentCard } from '../../src/a2a/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { A2ATransportError, ChatClientError, MCPError } from '../../src/errors/index.js';
import { createMCPClient } from '../../src/mcp/index.js';

const KEY = 'redirect-key-5c1d9e7a3b';
const NOT_FOLLOWED = /\b(30[1-8]|a) redirect, not followed/;

let origin: Server;
let target: Server;
let originURL = '';
let targetURL = '';
let status = 307;
const reached: IncomingMessage['headers'][] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  target = createServer((request, response) => {
    reached.push(request.headers);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  origin = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { location: `${targetURL}/steal${request.url ?? ''}` }).end();
  });
  [originURL, targetURL] = await Promise.all([listen(origin), listen(target)]);
});

afterAll(async () => {
  await Promise.all([origin, target].map((server) => new Promise((resolve) => server.close(resolve))));
});

const chat = (client: ChatClient) => [
  async () => client.complete({ messages: [{ role: 'user', content: 'hi' }] }),
  async () => {
    for await (const _ of client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
  },
];

/** Each client that sends credentials, each way it calls out, with the failure class it must end in. */
const CALLERS: ReadonlyArray<[string, () => Array<() => Promise<unknown>>, new (...args: never[]) => Error]> = [
  ['the Chat Completions client (apiKey, x-api-key)', () => chat(createOpenAICompatibleClient({ baseURL: `${originURL}/v1`, apiKey: KEY, model: 'm', headers: { 'x-api-key': KEY }, retry: false })), ChatClientError],
  ['the Anthropic client (its x-api-key)', () => chat(createAnthropicClient({ baseURL: originURL, apiKey: KEY, model: 'm', maxTokens: 64, retry: false })), ChatClientError],
  ['the Responses client (api-key)', () => chat(createOpenAIResponsesClient({ baseURL: `${originURL}/v1`, apiKey: KEY, model: 'm', headers: { 'api-key': KEY }, retry: false })), ChatClientError],
  [
    'the A2A client (x-api-key): send, stream, task',
    () => {
      const client = createA2AClient({ url: `${originURL}/a2a`, headers: { 'x-api-key': KEY }, retry: false });
      return [
        () => client.sendMessage('go'),
        async () => {
          for await (const _ of client.streamMessage('go'));
        },
        () => client.getTask({ id: 'task-1' }),
      ];
    },
    A2ATransportError,
  ],
  [
    'agent card discovery (x-api-key): fetchAgentCard and the client',
    () => [() => fetchAgentCard(originURL, { fetch, headers: { 'x-api-key': KEY } }), () => createA2AClient({ agentCardUrl: originURL, headers: { 'x-api-key': KEY }, retry: false }).sendMessage('go')],
    A2ATransportError,
  ],
  ['the MCP client (x-api-key)', () => [() => createMCPClient({ url: `${originURL}/mcp`, headers: { 'x-api-key': KEY }, retry: false }).listTools()], MCPError],
];

describe.each([301, 302, 303, 307, 308])('a %i answer', (code) => {
  it.each(CALLERS)('%s: not followed, a typed failure saying so; the target receives nothing', async (_name, calls, Failure) => {
    status = code;
    reached.length = 0;
    for (const call of calls()) {
      const failure = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Failure);
      expect((failure as Error).message).toContain(String(code));
      expect((failure as Error).message).toMatch(NOT_FOLLOWED);
      expect(JSON.stringify(failure)).not.toContain(KEY);
    }
    expect(reached).toEqual([]);
  });
});

describe('every request of ours to a configured URL', () => {
  it('is sent with redirect: NO_REDIRECTS (a new caller of fetch is held to it here)', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const files = (await readdir('src', { recursive: true })).filter((file) => file.endsWith('.ts'));
    const unguarded: string[] = [];
    for (const file of files) {
      const code = (await readFile(`src/${file}`, 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      // Calls, not declarations (`fetch(request: Request)`); a Durable Object stub's fetch stays inside the platform.
      const calls = [...code.matchAll(/\bfetch\((?![a-z]+\??: )/g)].filter((match) => !/(stub|\.get\(id\))\.$/.test(code.slice(Math.max(0, (match.index ?? 0) - 12), match.index)));
      const guarded = code.match(/redirect: NO_REDIRECTS/g)?.length ?? 0;
      if (calls.length > guarded) unguarded.push(`${file}: ${calls.length} calls of fetch, ${guarded} with redirect: NO_REDIRECTS`);
    }
    expect(unguarded).toEqual([]);
  });
});
