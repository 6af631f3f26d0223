// The loopback fault server for runtimes where msw cannot intercept in-process (Deno, workerd, Chromium): the same
// msw handlers of `faultline/testing`, answered with msw's `getResponse` behind our Node adapter (a failing response
// body becomes a dropped connection), plus the static files a browser page needs (the built package, its
// dependencies, the conformance suite, the demos) — one origin, so no CORS.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getResponse } from 'msw';
import { serve } from '../../demo/node/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STATIC = ['/dist/', '/node_modules/', '/test/conformance/', '/demo/'];
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.css': 'text/css', '.json': 'application/json', '.map': 'application/json' };

async function staticFile(pathname) {
  if (!STATIC.some((prefix) => pathname.startsWith(prefix))) return undefined;
  const path = normalize(join(root, decodeURIComponent(pathname)));
  if (!path.startsWith(root)) return new Response('forbidden', { status: 403 });
  try {
    return new Response(await readFile(path), { headers: { 'content-type': `${TYPES[extname(path)] ?? 'application/octet-stream'}; charset=utf-8` } });
  } catch {
    return undefined;
  }
}

/**
 * Starts the fault server on 127.0.0.1 (port 0 = any free port).
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startFaultServer({ port = 0 } = {}) {
  const { chatFaultHandlers, a2aFaultHandlers, mcpFaultHandlers, anthropicFaultHandlers } = await import(join(root, 'dist/testing/index.js'));
  let handlers = [];
  const server = await serve(async (request) => {
    const file = request.method === 'GET' ? await staticFile(new URL(request.url).pathname) : undefined;
    if (file) return file;
    return (await getResponse(handlers, request)) ?? new Response(`no handler for ${request.method} ${request.url}`, { status: 404 });
  }, { port });
  handlers = [
    ...chatFaultHandlers({ baseURL: `${server.url}/chat` }),
    ...a2aFaultHandlers({ baseURL: `${server.url}/a2a` }),
    ...mcpFaultHandlers({ baseURL: `${server.url}/mcp` }),
    ...anthropicFaultHandlers({ baseURL: `${server.url}/anthropic` }),
  ];
  return server;
}
