// The SSE response mode of our MCP handler: every request answered with a `text/event-stream` holding one
// `event: message` frame with a unique `id`, `: keep-alive` comments while a call runs, then the stream closes;
// refusals stay JSON with their HTTP status.
import { describe, expect, it } from 'vitest';
import { crashTool, handlerWith, jsonOf, lookupTool, post, ready, rpc, sseRead, waitingTool } from './handler-harness.js';

describe("responseMode 'sse'", () => {
  it('answers initialize as one message frame with the session header', async () => {
    const handler = handlerWith({ responseMode: 'sse' });
    const response = await post(handler, rpc('initialize', { protocolVersion: '2025-06-18' }, 0));
    expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]+$/);
    const { frames } = await sseRead(response);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.data.result.protocolVersion).toBe('2025-06-18');
  });

  it('answers a call as `event: message` + `id:` + `data:`, then closes the stream', async () => {
    const { handler, session } = await ready({ responseMode: 'sse' });
    const response = await post(handler, rpc('tools/call', { name: 'echo', arguments: { text: 'streamed' } }, 4), { session });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('no-cache');
    const { frames, text } = await sseRead(response);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.event).toBe('message');
    expect(frames[0]?.id).toMatch(/^[\x21-\x7e]+$/);
    expect(frames[0]?.data).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: '{"ok":true,"data":{"echo":"streamed"}}' }], structuredContent: { ok: true, data: { echo: 'streamed' } }, isError: false } });
    expect(text.startsWith('event: message\nid: ')).toBe(true);
  });

  it('gives every frame a different id', async () => {
    const { handler, session } = await ready({ responseMode: 'sse' });
    const ids = new Set<string | undefined>();
    for (let index = 0; index < 5; index++) ids.add((await sseRead(await post(handler, rpc('ping', undefined, index), { session }))).frames[0]?.id);
    expect(ids.size).toBe(5);
  });

  it('sends keep-alive comments while a call runs', async () => {
    const { tool, release, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool], responseMode: 'sse', keepAliveMs: 10 });
    const response = await post(handler, rpc('tools/call', { name: 'wait' }), { session });
    await started;
    setTimeout(() => release('done'), 100);
    const { frames, comments, text } = await sseRead(response);
    expect(comments).toBeGreaterThanOrEqual(1);
    expect(text).toContain(': keep-alive\n\n');
    expect(frames.map((frame) => frame.data.result.structuredContent)).toEqual([{ ok: true, data: { released: 'done' } }]);
  });

  it('sends no keep-alive when keepAliveMs is false', async () => {
    const { tool, release, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool], responseMode: 'sse', keepAliveMs: false });
    const response = await post(handler, rpc('tools/call', { name: 'wait' }), { session });
    await started;
    setTimeout(() => release('done'), 40);
    expect((await sseRead(response)).comments).toBe(0);
  });

  it('still answers refusals as JSON with their status', async () => {
    const handler = handlerWith({ responseMode: 'sse' });
    const response = await post(handler, rpc('ping'));
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).error.code).toBe(-32000);
  });

  it('answers errors of a request as a frame too', async () => {
    const { handler, session } = await ready({ responseMode: 'sse', tools: [crashTool, lookupTool] });
    const { frames } = await sseRead(await post(handler, rpc('tools/call', { name: 'missing' }, 2), { session }));
    expect(frames[0]?.data.error).toMatchObject({ code: -32602, message: 'Unknown tool: missing' });
  });
});
