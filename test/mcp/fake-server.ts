/**
 * A scripted MCP server as a `fetch`: `initialize` and `notifications/*` are answered for you (session `s-1`, then
 * `s-2` after a forgotten one…), every other method by the script — a result, or a `Response` of the test's own (a
 * status, a stream that stalls, a body that lies). It records every request.
 */
export interface FakeRequest {
  method: string;
  httpMethod: string;
  id?: string | number;
  params?: Record<string, unknown>;
  headers: Headers;
}

export type Script = Record<string, (request: FakeRequest, call: number) => unknown>;

export interface FakeServer {
  fetch: typeof fetch;
  requests: FakeRequest[];
  /** Forget the current session: the next request carrying it gets 404. */
  forget(): void;
  sessions: number;
}

const enc = new TextEncoder();

export function rpcResult(id: unknown, result: unknown): Response {
  return Response.json({ jsonrpc: '2.0', id, result });
}

export function rpcError(id: unknown, code: number, message: string, data?: unknown, status = 200): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }, { status });
}

/** An SSE answer from frames (strings, sent as they are), optionally never ending. */
export function sse(frames: readonly string[], options: { end?: boolean; signal?: AbortSignal } = {}): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const frame of frames) controller.enqueue(enc.encode(frame));
      if (options.end !== false) controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** An SSE answer that sends only `: keep-alive` comments, every `everyMs`, until cancelled. */
export function keepAliveOnly(everyMs = 10): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => controller.enqueue(enc.encode(': keep-alive\n\n')), everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

export const frame = (message: unknown, id?: string) => `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;

export function fakeServer(script: Script, options: { protocolVersion?: string; sessions?: boolean } = {}): FakeServer {
  const requests: FakeRequest[] = [];
  const calls = new Map<string, number>();
  let session = 1;
  const forgotten = new Set<string>();
  const server: FakeServer = {
    requests,
    sessions: 0,
    forget: () => {
      forgotten.add(`s-${session}`);
      session++;
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const headers = request.headers;
      let message: { method?: string; id?: string | number; params?: Record<string, unknown> } = {};
      if (request.method === 'POST') message = JSON.parse(await request.text());
      const record: FakeRequest = { method: message.method ?? (message.id !== undefined ? 'response' : request.method), httpMethod: request.method, headers };
      if (message.id !== undefined) record.id = message.id;
      if (message.params !== undefined) record.params = message.params;
      requests.push(record);
      const given = headers.get('mcp-session-id');
      if (given !== null && forgotten.has(given)) return new Response('session not found', { status: 404 });
      if (record.method === 'initialize') {
        server.sessions++;
        const version = options.protocolVersion ?? (message.params?.protocolVersion as string);
        const response = rpcResult(message.id, { protocolVersion: version, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'fake', version: '1' } });
        if (options.sessions !== false) response.headers.set('mcp-session-id', `s-${session}`);
        return response;
      }
      if (record.method.startsWith('notifications/') || record.method === 'response') return new Response(null, { status: 202 });
      if (request.method === 'DELETE' && !script.DELETE) return new Response(null, { status: 200 });
      const handler = script[record.method];
      if (!handler) return rpcError(message.id, -32601, `Method not found: ${record.method}`);
      const count = (calls.get(record.method) ?? 0) + 1;
      calls.set(record.method, count);
      const answer = await handler(record, count);
      return answer instanceof Response ? answer : rpcResult(message.id, answer);
    },
  };
  return server;
}
