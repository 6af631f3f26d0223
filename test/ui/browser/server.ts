/**
 * The loopback server of the `useChat` browser test: the test page (bundled with esbuild at start) and the chat
 * demo's `POST /api/chat` handler on the SOURCES, with every response body's text kept (`frames`) so the test can
 * check the wire as well as what the hook made of it. The copy is a pass-through transform, so a client that goes
 * away still cancels the run behind the body.
 */
import { join } from 'node:path';
// @ts-expect-error — plain JavaScript shared with the demo
import { bundlePage, pageHTML } from '../../../demo/chat/bundle.mjs';
// @ts-expect-error — plain JavaScript shared with the demo
import { createChatHandler } from '../../../demo/chat/scenarios.mjs';
// @ts-expect-error — plain JavaScript
import { serve } from '../../../demo/node/serve.mjs';

/** One response of `POST /api/chat`: the body posted, the status and headers, the body's text once it ended. */
export interface Exchange {
  scenario: string;
  request: { id?: string; messages?: unknown[]; trigger?: string; scenario?: string };
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Resolves when the body ended, was cancelled or failed. */
  done: Promise<void>;
}

/** An entry of the scenarios' journal (see demo/chat/scenarios.mjs). */
export interface JournalEntry {
  chatId: string;
  scenario: string;
  /** 1, 2 (a next turn), or `resume`: the browser answered approvals and the run that asked went on. */
  turn: number | 'resume';
  model?: { requests: ReadonlyArray<{ messages: unknown[] }> };
  /** The `approval` scenario: each run of its refund tool in this chat. */
  ran?: Array<{ order_id: string; amount: number }>;
  /** The resume `readChatRequest` read from the answers. */
  resume?: { runId: string; decisions: Array<{ id: string; approved?: boolean; reason?: string }> };
  observed?: Array<{ scenario: string; event: string }>;
  /** The transcript `readChatRequest` made of the posted history. */
  messages?: Array<{ role: string }>;
  rejected?: { name?: string; message?: string };
}

export interface ChatServer {
  url: string;
  exchanges: Exchange[];
  journal: JournalEntry[];
  close: () => Promise<void>;
}

/** Starts the server with the SDK namespaces given (the sources in the test). */
export async function startChatServer(F: unknown, UI: unknown): Promise<ChatServer> {
  const script = (await bundlePage(join(import.meta.dirname, 'page.jsx'))) as string;
  const journal: JournalEntry[] = [];
  const exchanges: Exchange[] = [];
  const handle = createChatHandler(F, UI, { journal }) as (request: Request) => Promise<Response>;
  const decoder = new TextDecoder();
  const server = (await serve(async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === '/') return new Response(pageHTML({ title: 'useChat × faultline' }), { headers: { 'content-type': 'text/html; charset=utf-8' } });
    if (request.method === 'GET' && pathname === '/page.js') return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    if (request.method !== 'POST' || pathname !== '/api/chat') return new Response('not found', { status: 404 });
    const posted = (await request.clone().json().catch(() => ({}))) as Exchange['request'];
    const response = await handle(request);
    let finished!: () => void;
    const exchange: Exchange = {
      scenario: String(posted.scenario),
      request: posted,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text: '',
      done: new Promise<void>((resolve) => (finished = resolve)),
    };
    exchanges.push(exchange);
    if (!response.body) {
      finished();
      return response;
    }
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        exchange.text += decoder.decode(chunk, { stream: true });
        controller.enqueue(chunk);
      },
      flush: () => finished(),
    });
    const body = response.body.pipeThrough(copy);
    const reader = body.getReader();
    // Our own pull loop (not the TransformStream's readable handed on) so a cancel from the client is seen here too.
    const relay = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            finished();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          finished();
          controller.error(error);
        }
      },
      async cancel(reason) {
        finished();
        await reader.cancel(reason);
      },
    });
    return new Response(relay, { status: response.status, headers: response.headers });
  })) as { url: string; close: () => Promise<void> };
  return { url: server.url, exchanges, journal, close: server.close };
}
