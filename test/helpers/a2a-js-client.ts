/**
 * The @a2a-js/sdk 1.3.0 client (ClientFactory + JsonRpcTransportFactory + DefaultAgentCardResolver) for interop
 * tests of our handler, plus our handler put behind Node's http on loopback (demo/node/serve.mjs).
 */
import { Role, type Message, type Part } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
// @ts-expect-error — a plain JS module of the demo (the Node adapter of our fetch handler)
import { serve as serveJs } from '../../demo/node/serve.mjs';

export interface ServedHandler {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Our fetch handler on 127.0.0.1 with a free port. */
export const serveHandler = serveJs as (handler: (request: Request) => Promise<Response>, options?: { port?: number; host?: string }) => Promise<ServedHandler>;

/** One HTTP exchange as the SDK's client made it. */
export interface A2AJsExchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A client of the SDK from `baseUrl`'s card; every request it makes is recorded in `exchanges`. */
export async function createA2AJsClient(baseUrl: string, { legacy }: { legacy: boolean }): Promise<{ client: Client; exchanges: A2AJsExchange[] }> {
  const exchanges: A2AJsExchange[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    exchanges.push({ method: init?.method ?? 'GET', url: String(input), headers, body });
    return fetch(input, init);
  };
  const legacyCompat = { enabled: legacy };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
      preferredTransports: ['JSONRPC'],
    }),
  );
  return { client: await factory.createFromUrl(baseUrl), exchanges };
}

/** A user text message in the SDK's (ts-proto) shape. */
export function a2aJsUserMessage(text: string): Message {
  const part: Part = { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined };
  return { messageId: crypto.randomUUID(), role: Role.ROLE_USER, contextId: '', taskId: '', parts: [part], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

/** The joined text parts of SDK parts. */
export function a2aJsText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}
