// `npm run demo:web`: serves the script-tag demo page (demo/index.html, which loads ../dist/faultline.iife.js) on
// loopback. Static files only: demo/ and dist/, and the Markdown docs the page links to (README.md, docs/), as text.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../node/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.png': 'image/png', '.md': 'text/plain' };
const servable = (pathname) => pathname.startsWith('/demo/') || pathname.startsWith('/dist/') || pathname === '/README.md' || (pathname.startsWith('/docs/') && pathname.endsWith('.md'));

/** Starts the demo server; `port: 0` picks a free port. */
export async function startDemoServer({ port = 4173 } = {}) {
  return serve(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/' || pathname === '/demo') return Response.redirect(new URL('/demo/index.html', request.url), 302);
    const path = normalize(join(root, decodeURIComponent(pathname)));
    if (!path.startsWith(root)) return new Response('forbidden', { status: 403 });
    // Judged on the decoded, normalised path, so an encoded '..' cannot reach past what is served.
    if (!servable(`/${relative(root, path).split(sep).join('/')}`)) return new Response('not found', { status: 404 });
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
