// One shared breaker, many dependencies (issue 16): an MCP server, an A2A agent, a tool and a chat model each trip
// their own circuit without touching the others; a tool's open circuit reaches the model as a structured
// ServiceUnavailableError with a suggestion, never a crash; an MCP client's open circuit inside a tool does too.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AClient } from '../../src/a2a/index.js';
import { A2ATransportError, CircuitOpenError, ConfigError, MCPError } from '../../src/errors/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { createCircuitBreaker } from '../../src/resilience/index.js';
import { defineTool, NetworkError, runTool, ServiceUnavailableError } from '../../src/tools/index.js';
import { createOpenAICompatibleClient } from '../../src/chat/index.js';
import { ExecutionErrorCollector, messagesStateSchema, StateGraph } from '../../src/graph/index.js';

const unavailable = () => new Response('upstream down', { status: 503, headers: { 'retry-after': '0' } });

function counting(answer: () => Response): { requests: number; fetch: typeof fetch } {
  const counter: { requests: number; fetch: typeof fetch } = { requests: 0, fetch: async () => (counter.requests++, answer()) };
  return counter;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('each dependency has its own circuit in one shared breaker', () => {
  it('an MCP server trips its circuit; the A2A agent, the tool and the model are untouched', async () => {
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 3, openMs: 60_000 });
    const mcpServer = counting(unavailable);
    const mcp = createMCPClient({ url: 'https://tools.test/mcp?token=secret-in-query', fetch: mcpServer.fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    for (let index = 0; index < 3; index++) expect(MCPError.isInstance(await rejection(mcp.connect()))).toBe(true);
    const refused = await rejection(mcp.connect());
    expect(CircuitOpenError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ dependency: 'https://tools.test/mcp', state: 'open' }); // no query, no token
    expect(mcpServer.requests).toBe(3);

    const agentServer = counting(unavailable);
    const a2a = createA2AClient({ url: 'https://agent.test/a2a', fetch: agentServer.fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    const a2aError = await rejection(a2a.getTask({ id: 'task-1' }));
    expect(A2ATransportError.isInstance(a2aError)).toBe(true); // went through: its own circuit is closed
    expect(agentServer.requests).toBe(1);

    const model = counting(unavailable);
    const chat = createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', model: 'm', fetch: model.fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    await expect(chat.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ name: 'ChatClientError' });
    expect(model.requests).toBe(1);

    expect(circuitBreaker.snapshot().map(({ dependency, state }) => [dependency, state])).toEqual([
      ['https://tools.test/mcp', 'open'],
      ['https://agent.test/a2a', 'closed'],
      ['https://llm.test/v1 m', 'closed'],
    ]);
  });

  it('an A2A agent trips its own circuit on retryable failures only', async () => {
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 2 });
    const server = counting(() => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Task not found' } }), { status: 200, headers: { 'content-type': 'application/json' } }));
    const a2a = createA2AClient({ url: 'https://agent.test/a2a', fetch: server.fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    for (let index = 0; index < 5; index++) await rejection(a2a.getTask({ id: 'missing' })); // answers, not outages
    expect(circuitBreaker.state('https://agent.test/a2a')).toBe('closed');
    const down = createA2AClient({ url: 'https://down.test/a2a', fetch: counting(unavailable).fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    await rejection(down.getTask({ id: 't' }));
    await rejection(down.getTask({ id: 't' }));
    expect(CircuitOpenError.isInstance(await rejection(down.getTask({ id: 't' })))).toBe(true);
    expect(circuitBreaker.state('https://agent.test/a2a')).toBe('closed');
  });

  it('a tool’s circuit opens on its retryable failures and the model gets a ServiceUnavailableError with a suggestion', async () => {
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 2, openMs: 30_000 });
    let executions = 0;
    const getWeather = defineTool({
      name: 'get_weather',
      description: 'Weather',
      parameters: z.object({ city: z.string() }),
      circuitBreaker,
      dependency: 'weather-api',
      execute: () => {
        executions++;
        throw new NetworkError('weather-api.test refused the connection');
      },
    });
    const sibling = defineTool({ name: 'get_time', description: 'Time', parameters: z.object({}), circuitBreaker, execute: () => ({ now: 'noon' }) });
    for (let index = 0; index < 2; index++) expect((await runTool(getWeather, '{"city":"Oslo"}')).result.error?.type).toBe('NetworkError');
    const run = await runTool(getWeather, '{"city":"Oslo"}');
    expect(executions).toBe(2); // the third call was not made
    expect(run.outcome).toBe('failure');
    expect(run.result.error).toEqual({
      type: 'ServiceUnavailableError',
      message: "The service behind 'get_weather' is unavailable right now: it failed repeatedly, so the call was not made.",
      context: { retryAfterMs: 30_000 },
      suggestion: 'The service is unavailable; try another approach (another tool, or answer without it). It may be back in about 30 s.',
    });
    expect(ServiceUnavailableError.isInstance(run.error)).toBe(true);
    expect((await runTool(sibling, '{}')).result).toMatchObject({ ok: true, data: { now: 'noon' } }); // its own circuit
    expect(circuitBreaker.state('weather-api')).toBe('open');
    expect(circuitBreaker.state('get_time')).toBe('closed');
  });

  it('a tool calling an MCP client whose circuit is open gives the model the same structured error, not a crash', async () => {
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 1, openMs: 5_000 });
    const mcp = createMCPClient({ url: 'https://tools.test/mcp', fetch: counting(unavailable).fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    await rejection(mcp.connect());
    const search = defineTool({ name: 'search', description: 'Search', parameters: z.object({}), execute: async () => mcp.connect() });
    const run = await runTool(search, '{}');
    expect(run.outcome).toBe('failure');
    expect(run.result.error).toMatchObject({ type: 'ServiceUnavailableError', context: { retryAfterMs: 5_000 } });
  });

  it('options that are not a breaker or a budget are ConfigErrors naming the option, in every client', () => {
    const fetch = counting(unavailable).fetch;
    expect(() => createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', model: 'm', fetch, circuitBreaker: {} as never })).toThrow(/circuitBreaker must come from createCircuitBreaker\(\)/);
    expect(() => createMCPClient({ url: 'https://tools.test/mcp', fetch, retryBudget: 3 as never })).toThrow(/retryBudget must come from createRetryBudget\(\)/);
    expect(() => createA2AClient({ url: 'https://agent.test/a2a', fetch, circuitBreaker: 'on' as never })).toThrow(ConfigError);
    expect(() => defineTool({ name: 't', description: 'd', parameters: z.object({}), execute: () => 1, circuitBreaker: {} as never, dependency: '' })).toThrow(
      /circuitBreaker must come from createCircuitBreaker\(\).*dependency must be a non-empty string/,
    );
  });

  it('a graph node meeting an open circuit is recovered where the collector says so, fatal otherwise', async () => {
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 1, openMs: 60_000 });
    const mcp = createMCPClient({ url: 'https://tools.test/mcp', fetch: counting(unavailable).fetch, retry: { maxAttempts: 1 }, circuitBreaker });
    await rejection(mcp.connect());
    const build = (collector: ExecutionErrorCollector) =>
      new StateGraph(messagesStateSchema())
        .use(collector)
        .addNode('lookup', async () => ({ last_response: JSON.stringify(await mcp.connect()) }))
        .addNode('answer', () => ({ last_response: 'answered without the tools' }))
        .addEdge('lookup', 'answer')
        .setEntryPoint('lookup')
        .setFinishPoint('answer')
        .compile();
    const recovered = await build(new ExecutionErrorCollector({ recoverable: CircuitOpenError.isInstance })).run({ user_input: 'go' });
    expect(recovered.status).toBe('completed');
    if (recovered.status === 'completed') {
      expect(recovered.state.last_response).toBe('answered without the tools');
      expect(recovered.state.execution_errors).toMatchObject([{ severity: 'recoverable', nodeId: 'lookup', error: { code: 'CIRCUIT_OPEN' } }]);
    }
    const fatal = await build(new ExecutionErrorCollector()).run({ user_input: 'go' });
    expect(fatal.status).toBe('failed');
    if (fatal.status === 'failed') expect(fatal.error.code).toBe('CIRCUIT_OPEN');
  });
});
