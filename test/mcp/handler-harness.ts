/**
 * Shared pieces of the MCP handler tests: requests built by hand (no network), SSE answers parsed frame by frame,
 * and a small set of tools whose every outcome is known (success, expected failure, crash, a planted secret, a call
 * that waits until its signal aborts).
 */
import { expect } from 'vitest';
import * as z from 'zod';
import { createMCPHandler, type MCPHandlerOptions } from '../../src/mcp/handler.js';
import { DataNotFoundError, defineTool, ToolFailure, type ToolLogRecord } from '../../src/tools/index.js';
import { deferred } from '../helpers/async.js';

// JSON-RPC bodies are read as loose JSON; every assertion names the exact values it expects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JSONObject = Record<string, any>;
export type Handler = (request: Request) => Promise<Response>;

export const ENDPOINT = 'https://tools.example/mcp';
export const ACCEPT_BOTH = 'application/json, text/event-stream';
export const SECRET = 'sk-live-PLANTED123456';
export const STACK_LINE = /\n\s+at\s|\.ts:\d+|\.js:\d+|"stack"/;

export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes the text back.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ echo: text }),
});

export const lookupTool = defineTool({
  name: 'lookup_order',
  description: 'Finds an order.',
  parameters: z.object({ id: z.number().int() }),
  execute: ({ id }) => {
    throw new DataNotFoundError(`No order ${id}.`, { context: { id }, suggestion: 'Check the order number.' });
  },
});

export const crashTool = defineTool({
  name: 'crash',
  description: 'Always crashes.',
  parameters: z.object({}),
  execute: () => {
    throw new Error(`key ${SECRET}`);
  },
});

export const leakyFailureTool = defineTool({
  name: 'leaky_failure',
  description: 'Fails with a message that quotes the secret.',
  parameters: z.object({}),
  execute: () => {
    throw new ToolFailure('UpstreamRejected', `upstream refused key ${SECRET}`, { context: { key: SECRET, note: `used ${SECRET}` }, suggestion: `rotate ${SECRET}` });
  },
});

/** A tool that waits until its signal aborts (or `release()`), recording the signal it got. */
export function waitingTool(name = 'wait') {
  const started = deferred<AbortSignal>();
  const release = deferred<string>();
  const tool = defineTool({
    name,
    description: 'Waits.',
    parameters: z.object({}),
    timeoutMs: 10_000,
    execute: async (_args, { signal }) => {
      started.resolve(signal);
      return new Promise<{ released: string }>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        void release.promise.then((value) => resolve({ released: value }));
      });
    },
  });
  return { tool, started: started.promise, release: release.resolve };
}

/** Developer log records, kept instead of printed. */
export function recordingLogger(): { records: ToolLogRecord[]; logger: (record: ToolLogRecord) => void } {
  const records: ToolLogRecord[] = [];
  return { records, logger: (record) => records.push(record) };
}

/**
 * A handler behind a reverse proxy that serves it as `tools.example` (the name the requests carry): listed in
 * `allowedHosts`, as such a deployment must.
 */
export function handlerWith(options: Partial<MCPHandlerOptions> = {}): Handler {
  return createMCPHandler({ tools: [echoTool, lookupTool, crashTool], serverInfo: { name: 'faultline-test', version: '1.2.3' }, logger: () => {}, allowedHosts: ['tools.example'], ...options });
}

export const rpc = (method: string, params?: unknown, id: string | number = 1): JSONObject => ({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
export const notification = (method: string, params?: unknown): JSONObject => ({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) });

export interface PostOptions {
  session?: string | undefined;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  method?: string;
}

/** A request to the endpoint, with the headers a well-behaved client sends (override any of them). */
export function request(body: unknown, options: PostOptions = {}): Request {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...(options.session ? { 'mcp-session-id': options.session } : {}), ...options.headers };
  const hasBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
  return new Request(ENDPOINT, {
    method,
    headers,
    ...(hasBody ? { body: typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body) } : {}),
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  } as RequestInit);
}

export const post = (handler: Handler, body: unknown, options: PostOptions = {}): Promise<Response> => handler(request(body, options));

/** `initialize` with `version`; returns the session id (undefined when stateless) and the result. */
export async function initialize(handler: Handler, version = '2025-11-25'): Promise<{ session: string | undefined; result: JSONObject; response: Response }> {
  const response = await post(handler, rpc('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '0' } }, 0));
  expect(response.status).toBe(200);
  const body = response.headers.get('content-type') === 'text/event-stream' ? (await sseMessages(response))[0]?.data : await response.clone().json();
  return { session: response.headers.get('mcp-session-id') ?? undefined, result: (body as JSONObject).result as JSONObject, response };
}

/** A JSON answer: asserts the content type and returns the body. */
export async function jsonOf(response: Response): Promise<JSONObject> {
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as JSONObject;
}

/** Posts a request in a session and returns the JSON-RPC response (status 200 asserted). */
export async function call(handler: Handler, session: string | undefined, method: string, params?: unknown, id: string | number = 1): Promise<JSONObject> {
  const response = await post(handler, rpc(method, params, id), { session });
  expect(response.status).toBe(200);
  return jsonOf(response);
}

/** A handler with a session already initialized. */
export async function ready(options: Partial<MCPHandlerOptions> = {}, version = '2025-11-25'): Promise<{ handler: Handler; session: string }> {
  const handler = handlerWith(options);
  const { session } = await initialize(handler, version);
  if (session === undefined) throw new Error('no session id');
  return { handler, session };
}

export interface SSEFrame {
  event: string | undefined;
  id: string | undefined;
  data: JSONObject;
}

/** The frames of an SSE answer (after the stream closed), and how many keep-alive comments came. */
export async function sseRead(response: Response): Promise<{ frames: SSEFrame[]; comments: number; text: string }> {
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const text = await response.text();
  const frames: SSEFrame[] = [];
  let comments = 0;
  for (const block of text.split('\n\n').filter((part) => part !== '')) {
    const lines = block.split('\n');
    if (lines.every((line) => line.startsWith(':'))) {
      comments++;
      continue;
    }
    const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
    frames.push({ event: field('event'), id: field('id'), data: JSON.parse(field('data') ?? 'null') as JSONObject });
  }
  return { frames, comments, text };
}

export const sseMessages = async (response: Response): Promise<SSEFrame[]> => (await sseRead(response)).frames;
