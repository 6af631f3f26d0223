// Pay for what you use: an app that passes no telemetry bundles no telemetry implementation and none of the public
// attribute tables. The code that builds spans sets its names from plain constants (src/telemetry/attribute-names.ts),
// so under esbuild — which keeps a whole frozen table once one key of it is read — and under rollup alike, a bundle
// holds the few names its span builders set, never GenAIAttribute, MCPAttribute and the rest; the OpenTelemetry
// span handle, the sanitizer and the A2A client tracing come only with `openTelemetry(otel)`.
import { describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript
import { esbuildApp } from '../../bench/app-bundlers.mjs';
// @ts-expect-error — plain JavaScript
import { bundleSize } from '../../scripts/size.mjs';
import { requireDist } from '../conformance/dist.js';

requireDist();

const APPS: Array<[string, string]> = [
  [
    'an agent with a zod tool',
    `import * as z from 'zod';
import { AgentBuilder, collectAgentRun, createOpenAICompatibleClient, defineTool } from 'faultline';
const tool = defineTool({ name: 'get_weather', description: 'Weather.', parameters: z.object({ city: z.string() }), execute: async ({ city }) => ({ city }) });
const agent = new AgentBuilder('weather').chatClient(createOpenAICompatibleClient({ baseURL: 'https://api.example.com/v1', apiKey: 'sk-x', model: 'gpt-x' })).tools([tool]).build();
console.log((await collectAgentRun(agent.run('Paris?'))).text);`,
  ],
  [
    'a two-node graph under the Runner',
    `import { StateGraph, messagesStateSchema } from 'faultline';
import { createGraphAgent } from 'faultline/graph';
import { Runner } from 'faultline/runner';
const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({})).addNode('b', () => ({})).addEdge('a', 'b').setEntryPoint('a').setFinishPoint('b').compile();
const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', graph) });
for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'hi' })) console.log(event);`,
  ],
  ['the MCP client', "import { createMCPClient } from 'faultline/mcp'; console.log(createMCPClient({ url: 'https://tools.example/mcp' }));"],
];

// Names only the public tables hold (no span builder sets them), and `exception.message`, which only the OpenTelemetry
// span handle sets: any of them in a bundle means a table or the implementation came along.
const TABLE_ONLY = ['gen_ai.agent.description', 'gen_ai.request.temperature', 'gen_ai.system_instructions', 'mcp.resource.uri', 'a2a.tenant', 'network.protocol.name'];
const IMPLEMENTATION_ONLY = ['exception.message'];
const TELEMETRY_MODULES = /^src\/telemetry\/(attributes|open-telemetry|otel-span-handle|sanitize|a2a-client-tracing|mcp-client-tracing)\.ts$/;

describe('an app without telemetry', { timeout: 90_000 }, () => { // each test bundles: slow on a loaded machine
  it.each(APPS)('%s keeps no attribute table and no telemetry implementation under rollup', async (_name, code) => {
    const { modules } = (await bundleSize(code)) as { modules: string[] };
    expect(modules.some((id) => id.startsWith('src/'))).toBe(true);
    expect(modules.filter((id) => TELEMETRY_MODULES.test(id))).toEqual([]);
  });

  it.each(APPS)('%s keeps no attribute table and no telemetry implementation under esbuild', async (_name, code) => {
    const { code: bundled } = (await esbuildApp(code)) as { code: string };
    expect(bundled).toContain('faultline.error.');
    expect([...TABLE_ONLY, ...IMPLEMENTATION_ONLY].filter((name) => bundled.includes(name))).toEqual([]);
  });

  it('an app that reads one table keeps it (the check above can see a table)', async () => {
    const { code } = (await esbuildApp("import { GenAIAttribute } from 'faultline/telemetry'; console.log(GenAIAttribute.ToolName);")) as { code: string };
    expect(code).toContain('gen_ai.agent.description');
  });
});
