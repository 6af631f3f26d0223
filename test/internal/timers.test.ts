// Runtimes fire a timer of 2^31 ms or more at once. Every timer in src/ is armed through `startTimer`, which clamps
// the delay, so a large limit a caller configures (a keep-alive interval, a store's time limit) waits instead of
// firing in a loop: the source scan holds every timer to it, the cases below check the options callers set.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { InMemoryA2ATaskStore } from '../../src/a2a/index.js';
import { AgentBuilder } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { MAX_TIMER_MS, startTimer } from '../../src/internal/delay.js';
import { createMCPClient, createMCPHandler } from '../../src/mcp/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const HUGE = 3_000_000_000; // past 2^31 − 1 ms

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : []));
}

const message = (id: string) => ({ kind: 'message', messageId: id, role: 'user', parts: [{ kind: 'text', text: 'hi' }] });
const rpc = (method: string, id: string) =>
  new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { message: message(id) } }) });

describe('timers', () => {
  it('every timer in src/ is armed through startTimer (none calls setTimeout itself)', () => {
    const bare = sourceFiles(SRC)
      .filter((file) => !file.endsWith(join('internal', 'delay.ts')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, where: `${relative(SRC, file)}:${index + 1}` }))
          .filter(({ line }) => /\bsetTimeout\s*\(|\bsetInterval\s*\(/.test(line.replace(/\/\/.*$/, '')) && !/^\s*\*/.test(line)),
      )
      .map(({ where }) => where);
    expect(bare).toEqual([]);
  });

  it('startTimer waits the longest delay a runtime can for a delay past it, and at once for none', async () => {
    const fired: string[] = [];
    const huge = startTimer(() => fired.push('huge'), HUGE);
    const infinite = startTimer(() => fired.push('infinite'), Infinity);
    startTimer(() => fired.push('nan'), Number.NaN);
    await new Promise((resolve) => setTimeout(resolve, 30));
    clearTimeout(huge);
    clearTimeout(infinite);
    expect(fired).toEqual(['nan']);
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
  });

  it('an A2A stream with keepAliveMs past 2^31 sends no keep-alive comment while the run works', async () => {
    const agent = new AgentBuilder('a').chatClient(createScriptedChatClient([{ text: 'done', delayMs: 150 }])).build();
    const handler = createA2AHandler({ agent, card: { name: 'x' }, keepAliveMs: HUGE });
    const text = await (await handler(rpc('message/stream', 'm1'))).text();
    expect(text).toContain('done');
    expect(text.match(/: keep-alive/g) ?? []).toEqual([]);
  });

  it('an A2A handler with storeTimeoutMs past 2^31 waits for its store', async () => {
    const inner = new InMemoryA2ATaskStore();
    let saves = 0;
    const taskStore = {
      get: (id: string) => inner.get(id),
      save: async (task: Parameters<InMemoryA2ATaskStore['save']>[0]) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        saves++;
        return inner.save(task);
      },
    };
    const agent = new AgentBuilder('a').chatClient(createScriptedChatClient([{ text: 'done' }])).build();
    const handler = createA2AHandler({ agent, card: { name: 'x' }, taskStore, storeTimeoutMs: HUGE, keepAliveMs: false });
    const answer = (await (await handler(rpc('message/send', 'm2'))).json()) as { result: { status: { state: string } } };
    expect(answer.result.status.state).toBe('completed');
    expect(saves).toBeGreaterThan(0);
    const saved = await inner.get((answer.result as unknown as { id: string }).id);
    expect(saved?.status.state).toBe('completed');
  });

  it('an MCP server with keepAliveMs past 2^31 sends no keep-alive comment during a tool call', async () => {
    const slow = defineTool({ name: 'slow', description: 'Slow.', parameters: jsonSchema({ type: 'object' }), execute: async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return 'ok';
    } });
    const handler = createMCPHandler({ tools: [slow], serverInfo: { name: 's', version: '1' }, responseMode: 'sse', keepAliveMs: HUGE });
    let streamed = '';
    const client = createMCPClient({
      url: 'http://127.0.0.1/mcp',
      fetch: async (input, init) => {
        const response = await handler(new Request(input, init));
        if (!(response.headers.get('content-type') ?? '').includes('event-stream')) return response;
        const text = await response.text();
        streamed += text;
        return new Response(text, { status: response.status, headers: response.headers });
      },
    });
    const result = await client.callTool('slow', {});
    await client.close();
    expect(JSON.stringify(result)).toContain('ok');
    expect(streamed).not.toBe('');
    expect(streamed.match(/^:/gm) ?? []).toEqual([]);
  });
});
