// A tiny adapter: serve any fetch handler `(Request, info) => Promise<Response>` with Node's `http` module. Like
// Deno.serve (and faultline's toNodeListener), it passes `{ remoteAddr, localAddr }` after the request: our handlers
// tell a caller on this machine from one on the internet by it (allowedHosts, docs/security.md).
// Usage: `const server = await serve(handler, { port: 0 }); … server.url … await server.close();`
import { createServer } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Starts an HTTP server on loopback for a fetch handler. Streams both ways; a client that disconnects cancels the
 * response body (so the handler sees its stream cancelled).
 * @param {(request: Request, info: { remoteAddr?: { hostname: string, port: number, transport: 'tcp' }, localAddr?: { hostname: string, port: number, transport: 'tcp' } }) => Promise<Response>} handler
 * @param {{ port?: number, host?: string }} [options]
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function serve(handler, { port = 0, host = '127.0.0.1' } = {}) {
  const server = createServer(async (incoming, outgoing) => {
    const controller = new AbortController();
    outgoing.on('close', () => controller.abort());
    try {
      const url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? `${host}`}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
      const request = new Request(url, {
        method: incoming.method,
        headers,
        body: hasBody ? Readable.toWeb(incoming) : undefined,
        duplex: hasBody ? 'half' : undefined,
        signal: controller.signal,
      });
      const { remoteAddress, remotePort, localAddress, localPort } = incoming.socket;
      const localAddr = localAddress ? { localAddr: { hostname: localAddress, port: localPort ?? 0, transport: 'tcp' } } : {};
      const response = await handler(request, remoteAddress ? { remoteAddr: { hostname: remoteAddress, port: remotePort ?? 0, transport: 'tcp' }, ...localAddr } : {});
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) {
        outgoing.end();
        return;
      }
      const reader = response.body.getReader();
      controller.signal.addEventListener('abort', () => reader.cancel().catch(() => {}), { once: true });
      for (;;) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch {
          // A body that fails mid-way is a dropped connection, as on a real server: close the socket after the bytes
          // already sent (a FIN, not a reset, so the client reads them before it sees the chunked body cut short).
          outgoing.socket?.end();
          return;
        }
        if (chunk.done) break;
        await new Promise((resolve) => outgoing.write(chunk.value, resolve)); // flushed before the next read, so a later failure comes after it
      }
      outgoing.end();
    } catch (error) {
      if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'text/plain' });
      outgoing.end(controller.signal.aborted ? undefined : 'internal error');
    }
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
