/**
 * The Durable Object deployment in workerd (miniflare): one bundle run as three scripts — `owner` defines the
 * A2ATasks class, `front1` and `front2` are separate isolates bound to the same namespace — with no nodejs_compat.
 * `persist` keeps the objects' SQLite storage (and alarms) across a stop and a start.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundle } from '../conformance/bundle.js';
import { COMPATIBILITY_DATE, ROOT, requireDist } from '../conformance/dist.js';

export { until } from '../helpers/async.js';

let script: Promise<string> | undefined;

/** The fixture bundled once per test file. */
export function fixture(): Promise<string> {
  requireDist();
  if (script === undefined) script = bundle(join(ROOT, 'test/cloudflare/workers/a2a-objects.mjs')) as Promise<string>;
  return script;
}

export interface Deployment {
  mf: Miniflare;
  front1: Front;
  front2: Front;
  dispose(): Promise<void>;
}

export interface Front {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** One JSON-RPC call; the parsed body. */
  rpc(method: string, params: unknown, headers?: Record<string, string>): Promise<{ result?: any; error?: { code: number; message: string; data?: unknown } }>;
  /** One streaming JSON-RPC call; every SSE frame's JSON, once the stream ends. */
  stream(method: string, params: unknown): Promise<any[]>;
  /** A streaming call read frame by frame. */
  open(method: string, params: unknown): Promise<FrameReader>;
}

export interface FrameReader {
  next(): Promise<any | undefined>;
  cancel(): Promise<void>;
}

export async function deploy(options: { persist?: string; bindings?: Record<string, string> } = {}): Promise<Deployment> {
  const code = await fixture();
  const objects = (own: boolean) => ({ A2A_TASKS: own ? { className: 'A2ATasks', useSQLite: true } : { className: 'A2ATasks', scriptName: 'owner', useSQLite: true } });
  const common = { modules: true, script: code, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: [] as string[] };
  const mf = new Miniflare({
    ...(options.persist ? { durableObjectsPersist: options.persist } : {}),
    workers: [
      { ...common, name: 'owner', durableObjects: objects(true), bindings: { SCRIPT: 'owner', ...options.bindings } },
      { ...common, name: 'front1', durableObjects: objects(false), bindings: { SCRIPT: 'front1', ...options.bindings } },
      { ...common, name: 'front2', durableObjects: objects(false), bindings: { SCRIPT: 'front2', ...options.bindings } },
    ],
  });
  await mf.ready;
  const front = async (name: string): Promise<Front> => {
    const worker = (await mf.getWorker(name)) as unknown as { fetch(url: string, init?: RequestInit): Promise<Response> };
    const fetchPath = (path: string, init?: RequestInit) => worker.fetch(`http://127.0.0.1${path}`, init);
    const post = (method: string, params: unknown, headers: Record<string, string> = {}) =>
      fetchPath('/', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const open = async (method: string, params: unknown): Promise<FrameReader> => {
      const response = await post(method, params);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      return {
        async next() {
          for (;;) {
            const end = buffer.indexOf('\n\n');
            if (end !== -1) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = frame.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
              if (data !== '') return JSON.parse(data);
              continue;
            }
            const chunk = await reader.read();
            if (chunk.done) return undefined;
            buffer += decoder.decode(chunk.value, { stream: true });
          }
        },
        cancel: () => reader.cancel(),
      };
    };
    return {
      fetch: fetchPath,
      rpc: async (method, params, headers) => (await post(method, params, headers)).json() as never,
      open,
      async stream(method, params) {
        const reader = await open(method, params);
        const frames: any[] = [];
        for (let frame = await reader.next(); frame !== undefined; frame = await reader.next()) frames.push(frame);
        return frames;
      },
    };
  };
  return { mf, front1: await front('front1'), front2: await front('front2'), dispose: () => mf.dispose() };
}

/** A user message. */
export function message(text: string, contextId?: string) {
  return { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(contextId ? { contextId } : {}) } };
}

/** A loopback server the fixture's agent reports to (`PROBE`): counts each path it is sent. */
export async function startProbe(): Promise<{ url: string; hits: Map<string, number>; close: () => Promise<void> }> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    hits.set(request.url ?? '', (hits.get(request.url ?? '') ?? 0) + 1);
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
