// A credential a caller puts in a request header travels under whatever name its gateway wants — `X-Auth-Token`,
// GitLab's `PRIVATE-TOKEN`, Azure's `Ocp-Apim-Subscription-Key` — not only `Authorization`. Every client of ours is
// given one under each such name, and a server that echoes every header it received (in an error body, in a tool
// result) never gets it into an error (message, toJSON, cause chain) or into what a model reads. The same for the
// user info of a base URL, however short (`https://:hunter2@…`), which runtimes quote whole when they refuse it; and
// for the response headers a client quotes or records (an MCP answer's content type, its session id in spans).
import { describe, expect, it } from 'vitest';
import { createA2AClient } from '../../src/a2a/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient } from '../../src/chat/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { runTool } from '../../src/tools/index.js';
import { fakeServer, rpcResult } from '../mcp/fake-server.js';
import { exported, record } from '../telemetry/otel-sdk.js';

/** Credential-shaped (patterns may catch it) and plain words (only its being a header value can). */
const VALUES = ['f3a91c07d2b84e65a0c1', 'plainwordsgatewaypass'];
const NAMES = ['X-Auth-Token', 'PRIVATE-TOKEN', 'Ocp-Apim-Subscription-Key', 'X-Access-Key', 'X-Gateway'];

/** Everything a caller may read of an error, its causes included. */
function shown(error: unknown): string {
  const parts: unknown[] = [];
  for (let current = error as Record<string, unknown> | undefined, depth = 0; current && depth < 8; current = current.cause as Record<string, unknown> | undefined, depth++) {
    parts.push(current.message, current.stack, typeof current.toJSON === 'function' ? (current.toJSON as () => unknown)() : undefined);
  }
  return JSON.stringify(parts);
}

/** A server that answers 400 quoting every header it was sent. */
const echoing: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const quoted = [...headers].map(([name, value]) => `${name}=${value}`).join('; ');
  return new Response(JSON.stringify({ error: { message: `refused: ${quoted}`, type: 'invalid_request_error' } }), { status: 400, headers: { 'content-type': 'application/json' } });
};

const CLIENTS: Array<[string, (headers: Record<string, string>) => Promise<unknown>]> = [
  ['createOpenAICompatibleClient', (headers) => createOpenAICompatibleClient({ baseURL: 'https://gw.example/v1', model: 'm', headers, fetch: echoing, retry: false }).complete({ messages: [{ role: 'user', content: 'hi' }] })],
  ['createAnthropicClient', (headers) => createAnthropicClient({ baseURL: 'https://gw.example/v1', model: 'm', maxTokens: 10, headers, fetch: echoing, retry: false }).complete({ messages: [{ role: 'user', content: 'hi' }] })],
  ['createOpenAIResponsesClient', (headers) => createOpenAIResponsesClient({ baseURL: 'https://gw.example/v1', model: 'm', headers, fetch: echoing, retry: false } as never).complete({ messages: [{ role: 'user', content: 'hi' }] })],
  ['createA2AClient', (headers) => createA2AClient({ url: 'https://agent.example/a2a', headers, fetch: echoing, retry: false } as never).sendMessage({ message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } as never)],
  ['createMCPClient', (headers) => createMCPClient({ url: 'https://mcp.example/mcp', headers, fetch: echoing, retry: false }).listTools()],
];

describe.each(CLIENTS)('%s, given a credential header under any name', (_name, call) => {
  for (const name of NAMES) {
    it(`never quotes ${name}'s value in its error`, async () => {
      for (const value of VALUES) {
        const error = await call({ [name]: value }).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(Error);
        expect(shown(error)).not.toContain(value);
      }
    });
  }
});

describe('createMCPClient, a server echoing a credential header in a tool result', () => {
  for (const name of NAMES) {
    it(`never hands ${name}'s value to the model`, async () => {
      const server = fakeServer({
        'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
        'tools/call': (request) => rpcResult(request.id, { content: [{ type: 'text', text: `you sent ${request.headers.get(name)}` }] }),
      });
      for (const value of VALUES) {
        const client = createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: false, headers: { [name]: value } });
        const [tool] = await client.tools();
        const run = await runTool(tool!, {});
        await client.close();
        expect(JSON.stringify(run.result.toJSON())).toContain('you sent');
        expect(JSON.stringify(run.result.toJSON())).not.toContain(value);
      }
    });
  }
});

describe('a base URL whose user info a runtime quotes when it refuses it', () => {
  for (const [what, url, hidden] of [
    ['a short password and no user name', 'http://:hunter2@127.0.0.1:9/v1', 'hunter2'],
    ['a token as the user name', 'http://gw-tok-42@127.0.0.1:9/v1', 'gw-tok-42'],
  ] as const) {
    it(`never quotes ${what} (the chat client's error and cause)`, async () => {
      const error = await createOpenAICompatibleClient({ baseURL: url, model: 'm', retry: false })
        .complete({ messages: [{ role: 'user', content: 'hi' }] })
        .then(() => undefined, (failure: unknown) => failure);
      expect(error).toBeInstanceOf(Error);
      expect(shown(error)).not.toContain(hidden);
    });
  }
});

describe('createMCPClient, a server echoing secrets in the response headers it quotes or records', () => {
  const CONFIGURED = 'plainsecretwordzz';
  /** An MCP server whose `tools/list` answer has `contentType`, and whose session id is `sessionId`, each given the caller's token. */
  const headersServer =
    (options: { contentType?: (token: string) => string; sessionId?: (token: string) => string }): typeof fetch =>
    async (input, init) => {
      const request = new Request(input, init);
      const token = request.headers.get('x-auth-token') ?? '';
      const body = (await request.json()) as { id?: number; method: string };
      if (body.id === undefined) return new Response(null, { status: 202 });
      const result = body.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } : { tools: [] };
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (body.method === 'initialize' && options.sessionId) headers['mcp-session-id'] = options.sessionId(token);
      if (body.method === 'tools/list' && options.contentType) headers['content-type'] = options.contentType(token);
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }), { headers });
    };

  it('a content type quoting the header and a configured secret reaches neither the error nor the span', async () => {
    for (const value of VALUES) {
      const recorder = record();
      const contentType = (token: string) => `text/Plain-${CONFIGURED.toUpperCase()}; echo=${token}; s=${CONFIGURED}`;
      const client = createMCPClient({ url: 'https://tools.test/mcp', telemetry: recorder.telemetry, retry: false, secrets: [CONFIGURED.toUpperCase(), CONFIGURED], headers: { 'X-Auth-Token': value }, fetch: headersServer({ contentType }) });
      const error = await client.listTools().then(() => undefined, (failure: unknown) => failure);
      await client.close();
      expect(error).toBeInstanceOf(Error);
      const seen = `${shown(error)}\n${exported(recorder.span('tools/list'))}`;
      expect(seen).toContain('content type');
      for (const secret of [value, CONFIGURED, CONFIGURED.toUpperCase()]) expect(seen).not.toContain(secret);
    }
  });

  it('a session id echoing the header is not a span attribute in clear (the server still gets it back as sent)', async () => {
    for (const value of VALUES) {
      const recorder = record();
      const client = createMCPClient({ url: 'https://tools.test/mcp', telemetry: recorder.telemetry, retry: false, headers: { 'X-Auth-Token': value }, fetch: headersServer({ sessionId: (token) => token }) });
      expect(await client.listTools()).toEqual([]);
      await client.close();
      expect(recorder.spans().map(exported).join('\n')).not.toContain(value);
    }
  });
});
