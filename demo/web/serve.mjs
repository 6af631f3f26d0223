// `npm run demo:web`: serves the script-tag demo page (demo/index.html, which loads ../dist/faultline.iife.js) on
// loopback. Static files only, from demo/ and dist/.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../node/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.png': 'image/png' };

/** Starts the demo server; `port: 0` picks a free port. */
export async function startDemoServer({ port = 4173 } = {}) {
  return serve(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/' || pathname === '/demo') return Response.redirect(new URL('/demo/index.html', request.url), 302);
    if (!pathname.startsWith('/demo/') && !pathname.startsWith('/dist/')) return new Response('not found', { status: 404 });
    const path = normalize(join(root, decodeURIComponent(pathname)));
    if (!path.startsWith(root)) return new Response('forbidden', { status: 403 });
    try {
      return new Response(await readFile(path), { headers: { 'content-type': `${TYPES[extname(path)] ?? 'application/octet-stream'}; charset=utf-8`, 'cache-control': 'no-store' } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  }, { port });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startDemoServer({ port: Number(process.env.PORT ?? 4173) });
  console.log(`faultline demo: open ${server.url}/demo/index.html (Ctrl+C to stop)`);
}
