// The Streamable HTTP transport of our MCP handler, refusal by refusal with its exact HTTP status and JSON-RPC code:
// Accept (406), Content-Type (415), size (413), a trickling body (408), unparseable JSON (-32700), messages that are
// not JSON-RPC (-32600), params too deep (-32602), the protocol-version header, Origin, HTTP methods, client
// responses (202), and JSON-RPC batches (accepted on 2025-03-26, refused on 2025-06-18 and later).
import { describe, expect, it } from 'vitest';
import { dripBody, within } from '../helpers/async.js';
import { handlerWith, initialize, jsonOf, notification, post, ready, rpc, sseRead } from './handler-harness.js';

/** Status and JSON-RPC error of a refusal. */
async function refusalOf(response: Response): Promise<{ status: number; code: number; message: string; id: unknown }> {
  const body = await jsonOf(response);
  expect(body.jsonrpc).toBe('2.0');
  return { status: response.status, code: body.error.code, message: body.error.message, id: body.id };
}

describe('headers', () => {
  it.each([[undefined], ['application/json'], ['text/event-stream'], ['*/*'], ['text/html, application/xml'], ['application/jsonx, text/event-streams']])(
    'answers Accept %j with 406 and -32600',
    async (accept) => {
      const headers: Record<string, string> = accept === undefined ? {} : { accept };
      const request = new Request('https://tools.example/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(rpc('ping')) });
      if (accept === undefined) request.headers.delete('accept');
      const refusal = await refusalOf(await handlerWith()(request));
      expect(refusal).toMatchObject({ status: 406, code: -32600 });
      expect(refusal.message).toContain('application/json and text/event-stream');
    },
  );

  it('accepts Accept lists with parameters and in any order', async () => {
    for (const accept of ['text/event-stream, application/json', 'application/json;q=0.9, text/event-stream;q=1', 'TEXT/EVENT-STREAM,APPLICATION/JSON']) {
      const response = await post(handlerWith(), rpc('initialize', { protocolVersion: '2025-11-25' }), { headers: { accept } });
      expect(response.status).toBe(200);
    }
  });

  it.each([['text/plain'], ['application/jsonx'], ['text/plain; x=application/json'], ['multipart/form-data'], ['']])('answers Content-Type %j with 415 and -32600', async (type) => {
    const refusal = await refusalOf(await post(handlerWith(), rpc('ping'), { headers: { 'content-type': type } }));
    expect(refusal).toMatchObject({ status: 415, code: -32600 });
  });

  it('accepts application/json with a charset', async () => {
    const response = await post(handlerWith(), rpc('initialize', { protocolVersion: '2025-11-25' }), { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(response.status).toBe(200);
  });

  it.each([['2024-10-07'], ['latest'], ['2025-11-25x'], ['']])('answers the mcp-protocol-version %j with 400', async (version) => {
    const { handler, session } = await ready();
    const refusal = await refusalOf(await post(handler, rpc('ping'), { session, headers: { 'mcp-protocol-version': version } }));
    expect(refusal).toMatchObject({ status: 400, code: -32600 });
    expect(refusal.message).toContain('mcp-protocol-version');
  });

  it('accepts each revision it speaks in mcp-protocol-version, and no header at all', async () => {
    const { handler, session } = await ready();
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', undefined]) {
      const response = await post(handler, rpc('ping'), { session, headers: version ? { 'mcp-protocol-version': version } : {} });
      expect((await jsonOf(response)).result).toEqual({});
    }
  });

  it('answers an Origin outside allowedOrigins with 403; listed origins and no Origin pass', async () => {
    const handler = handlerWith({ allowedOrigins: ['https://app.example'] });
    const denied = await post(handler, rpc('initialize', { protocolVersion: '2025-11-25' }), { headers: { origin: 'https://evil.example' } });
    expect(await refusalOf(denied)).toMatchObject({ status: 403, code: -32600 });
    expect((await post(handler, rpc('initialize', { protocolVersion: '2025-11-25' }), { headers: { origin: 'https://app.example' } })).status).toBe(200);
    expect((await post(handler, rpc('initialize', { protocolVersion: '2025-11-25' }))).status).toBe(200);
    expect((await post(handler, undefined, { method: 'DELETE', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  const init = rpc('initialize', { protocolVersion: '2025-11-25' });
  const withOrigin = (origin: string) => ({ headers: { origin } });

  it.each([['https://evil.example'], ['http://tools.example'], ['https://tools.example:8443'], ['https://sub.tools.example'], ['null'], ['https://tools.example.evil.example']])(
    'refuses the cross-origin %j by default with 403 and -32600 (DNS rebinding)',
    async (origin) => {
      const handler = handlerWith();
      const refusal = await refusalOf(await post(handler, init, withOrigin(origin)));
      expect(refusal).toMatchObject({ status: 403, code: -32600 });
      expect(refusal.message).toContain('Origin');
    },
  );

  it('refuses a cross-origin request of an existing session by default too (POST and DELETE)', async () => {
    const { handler, session } = await ready();
    expect((await post(handler, rpc('ping'), { session, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await post(handler, undefined, { method: 'DELETE', session, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await post(handler, rpc('ping'), { session })).status).toBe(200);
  });

  it("accepts by default the request URL's own origin, and no Origin header at all", async () => {
    const handler = handlerWith();
    expect((await post(handler, init, withOrigin('https://tools.example'))).status).toBe(200);
    expect((await post(handler, init)).status).toBe(200);
    const ported = new Request('http://127.0.0.1:8080/mcp', { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', origin: 'http://127.0.0.1:8080' }, body: JSON.stringify(init) });
    expect((await handler(ported)).status).toBe(200);
  });

  it('accepts a listed origin, and still its own origin, with allowedOrigins', async () => {
    const handler = handlerWith({ allowedOrigins: ['https://app.example', 'http://localhost:5173'] });
    for (const origin of ['https://app.example', 'http://localhost:5173', 'https://tools.example']) expect((await post(handler, init, withOrigin(origin))).status).toBe(200);
    expect((await post(handler, init, withOrigin('http://localhost:5174'))).status).toBe(403);
    expect((await post(handler, init, withOrigin('https://app.example/'))).status).toBe(403);
  });

  it("allowedOrigins '*' accepts every origin", async () => {
    const handler = handlerWith({ allowedOrigins: '*' });
    for (const origin of ['https://evil.example', 'null', 'http://localhost:1']) expect((await post(handler, init, withOrigin(origin))).status).toBe(200);
    expect((await post(handler, init)).status).toBe(200);
  });
});

describe('HTTP methods', () => {
  it.each([['GET'], ['PUT'], ['PATCH'], ['OPTIONS'], ['HEAD']])('answers %s with 405 and Allow: POST, DELETE', async (method) => {
    const response = await post(handlerWith(), method === 'GET' || method === 'HEAD' ? undefined : rpc('ping'), { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, DELETE');
    if (method !== 'HEAD') expect((await jsonOf(response)).error.code).toBe(-32600);
  });

  it('answers GET with Allow: POST when stateless', async () => {
    const response = await post(handlerWith({ sessions: false }), undefined, { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('bodies', () => {
  it('answers a body over maxBodyBytes with 413, whether declared or streamed', async () => {
    const handler = handlerWith({ maxBodyBytes: 1024 });
    const big = JSON.stringify(rpc('initialize', { protocolVersion: '2025-11-25', padding: 'x'.repeat(5000) }));
    expect(await refusalOf(await post(handler, big))).toMatchObject({ status: 413, code: -32600 });
    const encoder = new TextEncoder();
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 10; index++) controller.enqueue(encoder.encode('x'.repeat(500)));
        controller.close();
      },
    });
    expect(await refusalOf(await post(handler, streamed))).toMatchObject({ status: 413, code: -32600 });
  });

  it('answers a body that trickles forever with 408 once bodyTimeoutMs passed', async () => {
    const handler = handlerWith({ bodyTimeoutMs: 100 });
    const response = await within(post(handler, dripBody('{"jsonrpc":"2.0",', () => ' ', 10)), 3_000, 'the trickling request');
    expect(await refusalOf(response)).toMatchObject({ status: 408, code: -32600 });
  });

  it.each([['{'], ['not json'], [''], ['{"jsonrpc":"2.0","id":1,"method":"ping"'], ['\u0000']])('answers the body %j with 400 and -32700', async (text) => {
    expect(await refusalOf(await post(handlerWith(), text))).toMatchObject({ status: 400, code: -32700, id: null });
  });

  it.each([
    ['a number', 42],
    ['a string', '"ping"'],
    ['an id that is not finite', '{"jsonrpc":"2.0","id":1e999,"method":"ping"}'],
    ['null', null],
    ['no jsonrpc', { id: 1, method: 'ping' }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }],
    ['neither method nor result', { jsonrpc: '2.0', id: 1 }],
  ])('answers %s with 400 and -32600', async (_what, message) => {
    expect(await refusalOf(await post(handlerWith(), message))).toMatchObject({ status: 400, code: -32600 });
  });

  it('keeps the id of an invalid request that has a readable one', async () => {
    expect(await refusalOf(await post(handlerWith(), { jsonrpc: '2.0', id: 'r-9', method: 5 }))).toMatchObject({ id: 'r-9', code: -32600 });
  });

  it.each([['an array', [1, 2]], ['a string', 'x'], ['a number', 3]])('answers params that are %s with 400 and -32602', async (_what, params) => {
    const { handler, session } = await ready();
    expect(await refusalOf(await post(handler, { jsonrpc: '2.0', id: 3, method: 'tools/list', params }, { session }))).toMatchObject({ status: 400, code: -32602, id: 3 });
  });

  it('answers params nested deeper than maxDepth with -32602 naming the path, without crashing', async () => {
    const { handler, session } = await ready();
    const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const text = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":${deep}}}`;
    const response = await post(handler, text, { session });
    const body = await jsonOf(response);
    expect(response.status).toBe(400);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^Invalid params: params\.arguments\.a.*nests deeper than 100 levels$/);
    expect(body.error.data.issues[0].code).toBe('too_deep');
  });

  it('honours a smaller maxDepth', async () => {
    const { handler, session } = await ready({ maxDepth: 3 });
    const response = await post(handler, rpc('tools/call', { name: 'echo', arguments: { text: { a: { b: 1 } } } }), { session });
    expect((await refusalOf(response)).code).toBe(-32602);
    expect((await post(handler, rpc('tools/call', { name: 'echo', arguments: { text: 'ok' } }), { session })).status).toBe(200);
  });

  it("answers a client's JSON-RPC responses with 202 (this server sends no requests to answer)", async () => {
    const { handler, session } = await ready();
    for (const message of [{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } }]) {
      const response = await post(handler, message, { session });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    }
  });
});

describe('batches', () => {
  it.each([['2025-11-25'], ['2025-06-18']])('refuses a batch in a %s session with 400 and -32600', async (version) => {
    const { handler, session } = await ready({}, version);
    const refusal = await refusalOf(await post(handler, [rpc('ping', undefined, 1), rpc('ping', undefined, 2)], { session }));
    expect(refusal).toMatchObject({ status: 400, code: -32600 });
    expect(refusal.message).toContain('batches are not supported');
  });

  it('refuses a batch when the header says 2025-06-18, whatever the session negotiated', async () => {
    const { handler, session } = await ready({}, '2025-03-26');
    const response = await post(handler, [rpc('ping')], { session, headers: { 'mcp-protocol-version': '2025-06-18' } });
    expect((await refusalOf(response)).status).toBe(400);
  });

  it('answers a batch in a 2025-03-26 session with an array of the answers of its requests', async () => {
    const { handler, session } = await ready({}, '2025-03-26');
    const batch = [rpc('ping', undefined, 'a'), notification('notifications/initialized'), rpc('tools/call', { name: 'echo', arguments: { text: 'b' } }, 'b'), rpc('nope', undefined, 'c')];
    const response = await post(handler, batch, { session, headers: { 'mcp-protocol-version': '2025-03-26' } });
    const body = (await response.json()) as Array<Record<string, { code?: number; structuredContent?: unknown }>>;
    expect(response.status).toBe(200);
    expect(body.map((answer) => answer.id)).toEqual(['a', 'b', 'c']);
    expect(body[1]?.result?.structuredContent).toEqual({ ok: true, data: { echo: 'b' } });
    expect(body[2]?.error?.code).toBe(-32601);
  });

  it('answers an invalid member of an accepted batch with its own error', async () => {
    const { handler, session } = await ready({}, '2025-03-26');
    const body = (await (await post(handler, [rpc('ping', undefined, 1), { jsonrpc: '2.0', id: 2, method: 9 }, 'junk'], { session })).json()) as Array<Record<string, unknown>>;
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'The method must be a string (got a number)' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'A JSON-RPC message must be an object (got a string)' } },
    ]);
  });

  it('answers a batch of notifications only with 202', async () => {
    const { handler, session } = await ready({}, '2025-03-26');
    expect((await post(handler, [notification('notifications/initialized'), notification('notifications/cancelled', { requestId: 9 })], { session })).status).toBe(202);
  });

  it('accepts a batch when stateless and no header names a revision (2025-03-26 is assumed)', async () => {
    const handler = handlerWith({ sessions: false });
    const body = (await (await post(handler, [rpc('ping', undefined, 1), rpc('ping', undefined, 2)])).json()) as unknown[];
    expect(body).toHaveLength(2);
  });

  it('streams one frame per answer in SSE mode', async () => {
    const { handler, session } = await ready({ responseMode: 'sse' }, '2025-03-26');
    const { frames } = await sseRead(await post(handler, [rpc('ping', undefined, 1), rpc('tools/list', undefined, 2)], { session }));
    expect(frames.map((frame) => frame.data.id).sort()).toEqual([1, 2]);
    expect(new Set(frames.map((frame) => frame.id)).size).toBe(2);
  });

  it.each([
    ['an empty batch', []],
    ['a batch with initialize', [rpc('initialize', { protocolVersion: '2025-03-26' })]],
    ['a batch of 101 messages', Array.from({ length: 101 }, (_, index) => rpc('ping', undefined, index))],
  ])('refuses %s with 400 and -32600', async (_what, batch) => {
    const { handler, session } = await ready({}, '2025-03-26');
    expect(await refusalOf(await post(handler, batch, { session }))).toMatchObject({ status: 400, code: -32600 });
  });

  it('refuses initialize in a batch even without a session', async () => {
    const handler = handlerWith();
    expect((await refusalOf(await post(handler, [rpc('initialize', { protocolVersion: '2025-03-26' })]))).status).toBe(400);
    expect((await initialize(handler)).session).toBeDefined();
  });
});
