// `npm run demo:chat`: the useChat demo on loopback. Bundles the React page (demo/chat/app.jsx) with esbuild at start,
// then serves it and `POST /api/chat` (faultline runs as the AI SDK UI message stream, from the built package).
// Offline on the scripted model; OPENAI_API_KEY (OPENAI_BASE_URL, OPENAI_MODEL optional) or ANTHROPIC_API_KEY
// (ANTHROPIC_MODEL optional) picks a real model for the scenarios where the model chooses.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as F from '../../dist/index.js';
import * as UI from '../../dist/ui/index.js';
import { serve } from '../node/serve.mjs';
import { bundlePage, pageHTML } from './bundle.mjs';
import { createChatHandler } from './scenarios.mjs';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));

/** A client for a real endpoint when a key is set in `env`, else undefined (the scripted model). */
export function realModelFrom(env) {
  if (env.OPENAI_API_KEY) {
    return F.createOpenAICompatibleClient({ baseURL: env.OPENAI_BASE_URL || 'https://api.openai.com/v1', apiKey: env.OPENAI_API_KEY, model: env.OPENAI_MODEL || 'gpt-4o-mini' });
  }
  if (env.ANTHROPIC_API_KEY) {
    return F.createAnthropicClient({ apiKey: env.ANTHROPIC_API_KEY, model: env.ANTHROPIC_MODEL || 'claude-sonnet-4-5', maxTokens: 1024 });
  }
  return undefined;
}

/**
 * Starts the demo server; `port: 0` picks a free port.
 * @param {{ port?: number, env?: Record<string, string | undefined> }} [options]
 */
export async function startChatDemo({ port = 4174, env = {} } = {}) {
  const [script, styles] = await Promise.all([bundlePage(here('app.jsx')), readFile(here('styles.css'), 'utf8')]);
  const realModel = realModelFrom(env);
  const chat = createChatHandler(F, UI, { realModel });
  const page = pageHTML({ title: 'faultline × useChat — typed failures on screen', styles: '/styles.css' });
  const server = await serve(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/api/chat') return chat(request);
    if (request.method !== 'GET') return new Response('method not allowed', { status: 405 });
    if (pathname === '/') return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
    if (pathname === '/page.js') return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    if (pathname === '/styles.css') return new Response(styles, { headers: { 'content-type': 'text/css; charset=utf-8' } });
    return new Response('not found', { status: 404 });
  }, { port });
  return { ...server, model: realModel?.name ?? 'scripted' };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startChatDemo({ port: Number(process.env.PORT ?? 4174), env: process.env });
  console.log(`faultline useChat demo (${server.model} model): open ${server.url}/ (Ctrl+C to stop)`);
}
