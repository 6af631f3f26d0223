// Our MCP client against the independent implementation: @modelcontextprotocol/sdk's McpServer on its Streamable
// HTTP transport, over real loopback HTTP. Every tool failure reaches the model as the structured result a local
// tool would give, and every failure of the call as its typed error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMCPClient, MCP_PROTOCOL_VERSIONS, MCPError, type MCPClient } from '../../src/mcp/index.js';
import { runTool } from '../../src/tools/run-tool.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import { JSONRPCError } from '../../src/errors/jsonrpc-error.js';
import { SDK_SERVER_SECRET, startSDKServer, type SDKServer } from '../helpers/mcp-sdk-server.js';

const quiet = { logger: () => {} };

for (const json of [false, true]) {
  describe(`our client against @modelcontextprotocol/sdk's server (${json ? 'JSON' : 'SSE'} answers)`, () => {
    let server: SDKServer;
    let client: MCPClient;
    let tools: Map<string, AnyTool>;

    beforeAll(async () => {
      server = await startSDKServer({ json });
      client = createMCPClient({ url: server.url, secrets: [SDK_SERVER_SECRET], retry: false });
      tools = new Map((await client.tools()).map((tool) => [tool.name, tool]));
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    const tool = (name: string) => {
      const found = tools.get(name);
      if (!found) throw new Error(`no tool ${name}`);
      return found;
    };

    it('negotiates the newest revision, with a session, and lists every tool with its schema', () => {
      expect(client.server?.protocolVersion).toBe('2025-11-25');
      expect(client.server?.serverInfo.name).toBe('sdk-inventory');
      expect(client.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect([...tools.keys()].sort()).toEqual(['add', 'cut', 'echo', 'ephemeral', 'fails', 'leaky', 'missing', 'retire', 'slow', 'stock', 'throws']);
      expect(tool('add').jsonSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    });

    it('runs a tool: text content is the data, structuredContent when the server gives it', async () => {
      expect((await runTool(tool('echo'), { text: 'hi' }, quiet)).result.toJSON()).toEqual({ ok: true, data: 'hi' });
      expect((await runTool(tool('stock'), { sku: 'A1' }, quiet)).result.toJSON()).toEqual({ ok: true, data: { sku: 'A1', count: 3 } });
    });

    it('an isError result is a structured error result the model sees', async () => {
      const run = await runTool(tool('fails'), { order: '42' }, quiet);
      expect(run.outcome).toBe('error_result');
      expect(run.result.toJSON()).toEqual({ ok: false, error: { type: 'ToolExecutionFailed', message: 'Order 42 does not exist' } });
    });

    it('invalid arguments are refused before the call, naming the field', async () => {
      const before = server.methods.filter((method) => method === 'tools/call').length;
      const run = await runTool(tool('add'), { a: 1, b: 'two' }, quiet);
      expect(run.outcome).toBe('invalid_arguments');
      expect(run.result.error?.type).toBe('InputValidationError');
      expect(run.result.error?.message).toContain('b');
      expect(server.methods.filter((method) => method === 'tools/call').length).toBe(before);
    });

    it('the server validating arguments itself (our check off) gives an InputValidationError too', async () => {
      const [add] = await client.tools({ validate: false, include: (description) => description.name === 'add' });
      const run = await runTool(add as AnyTool, { a: 1, b: 'two' }, quiet);
      expect(run.result.error?.type).toBe('InputValidationError');
      expect(run.result.error?.message).toMatch(/Input validation error/);
    });

    it('a tool that throws: the model sees its message with the secret removed, never a stack', async () => {
      const run = await runTool(tool('throws'), {}, quiet);
      expect(run.result.ok).toBe(false);
      expect(run.content).not.toContain(SDK_SERVER_SECRET);
      expect(run.content).toContain('[REDACTED]');
      expect(run.content).not.toMatch(/\n\s+at /);
    });

    it('a tool removed since the listing is a ToolNotFound listing the tools the server has', async () => {
      await runTool(tool('retire'), {}, quiet);
      const run = await runTool(tool('ephemeral'), {}, quiet);
      expect(run.result.error?.type).toBe('ToolNotFound');
      expect(run.result.error?.message).toContain("no tool 'ephemeral'");
      expect(run.result.error?.context?.available).toEqual(expect.arrayContaining(['echo', 'add']));
      expect(run.result.error?.context?.available).not.toContain('ephemeral');
    });

    it('a call that outlives the tool timeout ends as TimeoutError, and the server is told to cancel it', async () => {
      const [slow] = await client.tools({ timeoutMs: 100, include: (description) => description.name === 'slow' });
      const started = performance.now();
      const run = await runTool(slow as AnyTool, { ms: 5_000 }, quiet);
      expect(run.outcome).toBe('timeout');
      expect(run.result.error?.type).toBe('TimeoutError');
      expect(performance.now() - started).toBeLessThan(2_000);
      await expect.poll(() => server.methods.includes('notifications/cancelled')).toBe(true);
      await expect.poll(() => server.cancelled.length).toBeGreaterThan(0);
    });

    it('an aborted call rejects with the abort reason and cancels on the server', async () => {
      const controller = new AbortController();
      const reason = new Error('user left');
      const pending = client.callTool('slow', { ms: 5_000 }, { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 50);
      await expect(pending).rejects.toBe(reason);
      const cancels = server.methods.filter((method) => method === 'notifications/cancelled').length;
      expect(cancels).toBeGreaterThan(0);
    });

    it('a session the server forgot is re-established once, and the call succeeds', async () => {
      const before = client.sessionId;
      server.expire();
      const result = await client.callTool('echo', { text: 'again' });
      expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
      expect(client.sessionId).not.toBe(before);
    });

    if (!json) {
      it('a stream the server cuts before its response resumes with Last-Event-ID and delivers it', async () => {
        const result = await client.callTool('cut', {});
        expect(result.content).toEqual([{ type: 'text', text: 'answered after the cut' }]);
      });
    }
  });
}

describe('our client negotiating older revisions with the SDK server', () => {
  for (const version of MCP_PROTOCOL_VERSIONS) {
    it(`asks for ${version} and gets it`, async () => {
      const server = await startSDKServer();
      const client = createMCPClient({ url: server.url, protocolVersion: version });
      try {
        const answer = await client.connect();
        expect(server.asked).toEqual([version]);
        expect(answer.protocolVersion).toBe(version);
        expect((await client.callTool('echo', { text: version })).content).toEqual([{ type: 'text', text: version }]);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});

describe('notifications/tools/list_changed on the server\'s own stream (listen: true)', () => {
  it('is honoured: listeners are told, and the next tools() lists what the server has now', async () => {
    const server = await startSDKServer();
    const client = createMCPClient({ url: server.url, listen: true });
    try {
      let changes = 0;
      client.onToolsChanged(() => changes++);
      const before = (await client.tools()).map((tool) => tool.name);
      expect(before).toContain('ephemeral');
      await client.callTool('retire', {});
      await expect.poll(() => changes, { timeout: 3_000 }).toBeGreaterThan(0);
      expect((await client.tools()).map((tool) => tool.name)).not.toContain('ephemeral');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('close()', () => {
  it('ends the session on the server and every pending call with MCPError closed', async () => {
    const server = await startSDKServer();
    const client = createMCPClient({ url: server.url });
    await client.connect();
    const sessionId = client.sessionId as string;
    const pending = client.callTool('slow', { ms: 5_000 }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    const failure = await pending;
    expect(MCPError.isInstance(failure) && failure.reason).toBe('closed');
    const after = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(after.status).toBe(404);
    await expect(client.ping()).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'closed');
    await server.close();
  });

  it('a JSON-RPC error of the server is a JSONRPCError for the caller', async () => {
    const server = await startSDKServer();
    const client = createMCPClient({ url: server.url });
    try {
      await expect(client.request('resources/list')).rejects.toSatisfy((error) => JSONRPCError.isInstance(error) && error.rpcCode === -32601);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
