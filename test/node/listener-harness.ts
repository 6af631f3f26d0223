// A loopback server for toNodeListener and a raw client that plays what `http.request` cannot: pipelining, a
// half-close, leaving mid-request. Servers and sockets are closed after each test.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach } from 'vitest';
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from '../../src/node/index.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

/** Serves `handler`; `requests` collects Node's request objects; `tweak` sets the server's own options. */
export async function serve(handler: FetchHandler, options?: NodeListenerOptions, tweak?: (server: Server) => void) {
  const requests: IncomingMessage[] = [];
  const listener = toNodeListener(handler, options);
  const server = createServer((request, response) => (requests.push(request), listener(request, response)));
  tweak?.(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests };
}

/** A raw client: `text()` is everything the server sent (latin1), `closed` resolves once the connection closed. */
export function rawClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  let isClosed = false;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => ((isClosed = true), resolve())));
  return { socket, text: () => text, isClosed: () => isClosed, closed };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
