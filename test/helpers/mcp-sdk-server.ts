/**
 * An `@modelcontextprotocol/sdk` 1.x server (`McpServer` on its web-standard Streamable HTTP transport, one transport
 * per session, an in-memory event store so streams resume) on 127.0.0.1 with a free port, for interop tests of our
 * client. Its tools succeed, return `isError` (with text, or a structured error in `structuredContent`), throw,
 * validate arguments, wait (observing cancellation), and cut their own stream before answering. `expire()` forgets every session (the next request with one gets HTTP 404).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import * as z from 'zod';
// @ts-expect-error — a plain JS module of the demo (the Node adapter of our fetch handler)
import { serve } from '../../demo/node/serve.mjs';

/** What the `throws` tool throws: a message holding a secret. */
export const SDK_SERVER_SECRET = 'sk-live-MCPSDKPLANTED0001';

export interface SDKServerOptions {
  /** Answer with JSON instead of SSE. @default false */
  json?: boolean;
}

export interface SDKServer {
  url: string;
  /** Requests the server received, by method (`tools/call`, `notifications/cancelled`…). */
  methods: string[];
  /** Request ids whose cancellation reached a tool. */
  cancelled: string[];
  /** Protocol versions clients asked for in `initialize`. */
  asked: string[];
  expire(): void;
  close(): Promise<void>;
}

function buildServer(record: SDKServer): McpServer {
  const server = new McpServer({ name: 'sdk-inventory', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('stock', { description: 'Stock of a SKU.', inputSchema: { sku: z.string() } }, async ({ sku }) => ({
    content: [{ type: 'text', text: JSON.stringify({ sku, count: 3 }) }],
    structuredContent: { sku, count: 3 },
  }));
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  server.registerTool('fails', { description: 'Always reports a failure.', inputSchema: { order: z.string() } }, async ({ order }) => ({
    content: [{ type: 'text', text: `Order ${order} does not exist` }],
    isError: true,
  }));
  server.registerTool('missing', { description: 'Reports a structured DataNotFoundError.', inputSchema: { order: z.string() } }, async ({ order }) => ({
    content: [{ type: 'text', text: `No order ${order}.` }],
    structuredContent: { type: 'DataNotFoundError', message: `No order ${order}.`, suggestion: 'Check the order id, or list recent orders.', context: { order } },
    isError: true,
  }));
  server.registerTool('leaky', { description: 'Reports a structured error quoting a secret.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'refused' }],
    structuredContent: {
      type: 'PermissionError',
      message: `The key ${SDK_SERVER_SECRET} may not read this.`,
      suggestion: `Ask for a key other than ${SDK_SERVER_SECRET}.`,
      context: { key: SDK_SERVER_SECRET, apiKey: 'ak-anything', rows: Array.from({ length: 100_000 }, (_, index) => index) },
    },
    isError: true,
  }));
  server.registerTool('throws', { description: 'Throws.', inputSchema: {} }, async () => {
    throw new Error(`database refused key ${SDK_SERVER_SECRET}`);
  });
  server.registerTool('slow', { description: 'Waits ms milliseconds.', inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener('abort', () => {
        record.cancelled.push(String(extra.requestId));
        clearTimeout(timer);
        resolve();
      });
    });
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  server.registerTool('cut', { description: 'Cuts its stream, then answers.', inputSchema: {} }, async (_args, extra) => {
    extra.closeSSEStream?.();
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { content: [{ type: 'text', text: 'answered after the cut' }] };
  });
  const ephemeral = server.registerTool('ephemeral', { description: 'Removed by retire.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'still here' }] }));
  server.registerTool('retire', { description: 'Removes the ephemeral tool.', inputSchema: {} }, async () => {
    ephemeral.remove();
    return { content: [{ type: 'text', text: 'retired' }] };
  });
  return server;
}

export async function startSDKServer(options: SDKServerOptions = {}): Promise<SDKServer> {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const record = { methods: [] as string[], cancelled: [] as string[], asked: [] as string[] } as SDKServer;
  const eventStore = new InMemoryEventStore();
  const handler = async (request: Request): Promise<Response> => {
    if (request.method === 'POST') {
      const text = await request.clone().text();
      try {
        const message = JSON.parse(text) as { method?: string; params?: { protocolVersion?: string } };
        if (message.method) record.methods.push(message.method);
        if (message.method === 'initialize' && message.params?.protocolVersion) record.asked.push(message.params.protocolVersion);
      } catch {
        // not JSON: the transport answers it
      }
    }
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = transports.get(sessionId);
      if (!transport) return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
      return transport.handleRequest(request);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: options.json === true,
      eventStore: options.json === true ? undefined : eventStore,
      retryInterval: 10,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    await buildServer(record).connect(transport);
    return transport.handleRequest(request);
  };
  const server = await serve(handler);
  return Object.assign(record, {
    url: `${server.url}/mcp`,
    expire: () => {
      for (const transport of transports.values()) void transport.close();
      transports.clear();
    },
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      await server.close();
    },
  });
}
