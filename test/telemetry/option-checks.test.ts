// A `telemetry` option that is not a Telemetry is one ConfigError problem in every part that takes it, with the same
// words — never a crash at the first span.
import { describe, expect, it } from 'vitest';
import { createA2AClient, createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { createGraphAgent, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { Runner } from '../../src/runner/index.js';

const PROBLEM = 'telemetry must come from openTelemetry(otel) (or be NO_TELEMETRY)';
const bad = { startSpan: 'no' } as never;

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (ConfigError.isInstance(error)) return error.problems;
    throw error;
  }
  return [];
}

describe('a telemetry option that is not one', () => {
  const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({})).setEntryPoint('a').setFinishPoint('a').compile();
  const agent = new AgentBuilder('a').chatClient(createScriptedChatClient([{ text: 'hi' }])).build();
  const cases: Array<[string, () => unknown]> = [
    ['AgentBuilder.telemetry', () => new AgentBuilder('a').chatClient(createScriptedChatClient([])).telemetry(bad).build()],
    ['createGraphAgent', () => createGraphAgent('g', graph, { telemetry: bad })],
    ['Runner', () => new Runner({ appName: 'app', agent, telemetry: bad })],
    ['createA2AClient', () => createA2AClient({ url: 'https://agent.test/', telemetry: bad })],
    ['createA2AHandler', () => createA2AHandler({ agent, card: { name: 'a' }, telemetry: bad })],
    ['createMCPClient', () => createMCPClient({ url: 'https://tools.test/mcp', fetch: async () => new Response(), telemetry: bad })],
  ];
  for (const [name, run] of cases) it(name, () => expect(problemsOf(run)).toContain(PROBLEM));

  it('compiled.run rejects with it', async () => {
    await expect(graph.run({}, { telemetry: bad })).rejects.toMatchObject({ problems: [PROBLEM] });
  });
});
