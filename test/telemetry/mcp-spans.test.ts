// An MCP client's requests as spans (issue 16): one client span per request (initialize, tools/list, tools/call
// <tool>), its traceparent sent with the request; a request that fails fails its span with error.type mcp.
import { describe, expect, it } from 'vitest';
import { createMCPClient } from '../../src/mcp/index.js';
import { createMCPHandler } from '../../src/mcp/handler.js';
import { echoTool } from '../mcp/handler-harness.js';
import { otel, record } from './otel-sdk.js';
import { NO_TELEMETRY, type SpanHandle, type Telemetry } from '../../src/telemetry/index.js';

describe('MCP requests as spans', () => {
  it('initialize, tools/list and tools/call echo: client spans with the MCP attributes, each request carrying its traceparent', async () => {
    const recorder = record();
    const handler = createMCPHandler({ tools: [echoTool], serverInfo: { name: 'tools', version: '1.0.0' }, allowedHosts: ['tools.test'] });
    const headers: Array<string | null> = [];
    const client = createMCPClient({
      url: 'https://tools.test/mcp',
      telemetry: recorder.telemetry,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === 'POST') headers.push(request.headers.get('traceparent'));
        return handler(request);
      },
    });
    await client.listTools();
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.isError).toBeFalsy();
    const call = recorder.span('tools/call echo');
    expect(call.kind).toBe(otel.SpanKind.CLIENT);
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'server.address': 'tools.test' });
    expect(recorder.span('initialize').attributes['mcp.method.name']).toBe('initialize');
    expect(recorder.span('tools/list').status.code).toBe(otel.SpanStatusCode.UNSET);
    const requestSpans = recorder.spans().filter((span) => span.kind === otel.SpanKind.CLIENT);
    for (const span of requestSpans) expect(headers).toContain(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    await client.close();
  });

  it('a request that fails fails its span with error.type mcp', async () => {
    const recorder = record();
    const client = createMCPClient({ url: 'https://down.test/mcp', telemetry: recorder.telemetry, retry: { maxAttempts: 1 }, fetch: async () => new Response('down', { status: 503 }) });
    await expect(client.connect()).rejects.toMatchObject({ name: 'MCPError' });
    const span = recorder.span('initialize');
    expect(span.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('mcp');
  });

  it("the tracing is the telemetry object's (openTelemetry sets it); the client refuses a telemetry without it rather than trace nothing", async () => {
    expect(typeof record().telemetry.mcpClient).toBe('function');
    const headers: Array<string | null> = [];
    const handler = createMCPHandler({ tools: [echoTool], serverInfo: { name: 'tools', version: '1.0.0' }, allowedHosts: ['tools.test'] });
    const client = createMCPClient({ url: 'https://tools.test/mcp', telemetry: NO_TELEMETRY, fetch: async (input, init) => (headers.push(new Request(input, init).headers.get('traceparent')), handler(new Request(input, init))) });
    await client.callTool('echo', { text: 'hi' });
    await client.close();
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.every((header) => header === null)).toBe(true);
    const span: SpanHandle = { setAttributes() {}, addEvent() {}, end() {}, fail() {}, traceparent: () => undefined, run: (fn) => fn() };
    const own: Telemetry = { recordContent: false, startSpan: () => span };
    expect(() => createMCPClient({ url: 'https://tools.test/mcp', telemetry: own })).toThrow(/no MCP client tracing \(mcpClient\)/);
  });
});
