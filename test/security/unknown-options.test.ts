// An option a function does not know is refused, never silently ignored: a mistyped `needsApproval` would let a tool
// run unasked, a mistyped `sessionStore` would keep a conversation in memory only, a mistyped `maxTokens` would be
// dropped from the request. The refusal names the option and the one meant.
import { describe, expect, it } from 'vitest';
import { createA2AHandler, InMemoryA2ATaskStore } from '../../src/a2a/index.js';
import { AgentBuilder, collectAgentRun, InMemorySessionStore } from '../../src/agent/index.js';
import { InMemoryRunStateStore } from '../../src/interrupts/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError, WorkflowError } from '../../src/errors/index.js';
import { Command, END, InMemoryCheckpointer, START, StateGraph, createGraphAgent, messagesStateSchema } from '../../src/graph/index.js';
import { toNodeListener } from '../../src/node/index.js';
import { fromUIMessages, readChatRequest, toAGUIResponse } from '../../src/ui/index.js';
import { createMCPClient, createMCPHandler } from '../../src/mcp/index.js';
import { createCircuitBreaker, createRetryBudget } from '../../src/resilience/index.js';
import { Runner } from '../../src/runner/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';

const base = { baseURL: 'https://api.example.com/v1', apiKey: 'k', model: 'm', fetch: async () => new Response('{}') };
const agent = () => new AgentBuilder('a').chatClient(createScriptedChatClient([{ text: 'done' }])).build();
const tool = { name: 'lookup', description: 'Look up.', parameters: jsonSchema({ type: 'object' }), execute: async () => ({}) };

/** The problems of the ConfigError `make` throws (the test fails when it throws nothing, or something else). */
function refusedProblems(make: () => unknown): readonly string[] {
  try {
    make();
  } catch (error) {
    expect(ConfigError.isInstance(error), String(error)).toBe(true);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError, and nothing was thrown');
}

const CASES: Array<[string, () => unknown, string]> = [
  ['defineTool({ needApproval })', () => defineTool({ ...tool, needApproval: true } as never), 'unknown option "needApproval" (did you mean needsApproval?)'],
  ['new Runner({ sesionStore })', () => new Runner({ appName: 'app', agent: agent(), sesionStore: {} } as never), 'unknown option "sesionStore" (did you mean sessionStore?)'],
  ['agent.run(…, { sesion })', () => agent().run('hi', { sesion: 's1' } as never), 'unknown option "sesion" (did you mean session?)'],
  ['createOpenAICompatibleClient({ temprature })', () => createOpenAICompatibleClient({ ...base, temprature: 0.2 } as never), 'unknown option "temprature"'],
  ['createAnthropicClient({ maxToken })', () => createAnthropicClient({ ...base, maxTokens: 5, maxToken: 5 } as never), 'unknown option "maxToken" (did you mean maxTokens?)'],
  ['createOpenAIResponsesClient({ maxOutputToken })', () => createOpenAIResponsesClient({ ...base, maxOutputToken: 5 } as never), 'unknown option "maxOutputToken" (did you mean maxOutputTokens?)'],
  ['a chat request { maxToken }', () => createOpenAICompatibleClient(base).complete({ messages: [{ role: 'user', content: 'hi' }], maxToken: 5 } as never), 'unknown option "maxToken" (did you mean maxTokens?)'],
  ['createMCPClient({ timeout })', () => createMCPClient({ url: 'https://mcp.example.com/mcp', timeout: { requestMs: 1 } } as never), 'unknown option "timeout" (did you mean timeouts?)'],
  ['createMCPHandler({ keepAlive })', () => createMCPHandler({ tools: [defineTool(tool)], serverInfo: { name: 's', version: '1' }, keepAlive: 5 } as never), 'unknown option "keepAlive" (did you mean keepAliveMs?)'],
  ['runner.run({ sesionId })', () => new Runner({ appName: 'app', agent: agent() }).run({ userId: 'u', sessionId: 's', message: 'hi', sesionId: 's2' } as never), 'unknown option "sesionId" (did you mean sessionId?)'],
  ['runner.run({ input })', () => new Runner({ appName: 'app', agent: agent() }).run({ userId: 'u', sessionId: 's', input: 'hi' } as never), 'unknown option "input" (did you mean message?)'],
  ['createMCPClient({ timeouts: { requestMS } })', () => createMCPClient({ url: 'https://mcp.example.com/mcp', timeouts: { requestMS: 1 } } as never), 'timeouts: unknown option "requestMS" (did you mean requestMs?)'],
  ['createOpenAICompatibleClient({ timeouts: { total } })', () => createOpenAICompatibleClient({ ...base, timeouts: { total: 5 } } as never), 'timeouts: unknown option "total" (did you mean totalMs?)'],
  ['createGraphAgent(…, { checkpoint })', () => createGraphAgent('g', new StateGraph(messagesStateSchema()).addNode('a', () => ({})).addEdge(START, 'a').addEdge('a', END).compile(), { checkpoint: {} } as never), 'unknown option "checkpoint" (did you mean checkpointer?)'],
  ['fromUIMessages(…, { maxMessage })', () => fromUIMessages([], { maxMessage: 5 } as never), 'unknown option "maxMessage" (did you mean maxMessages?)'],
  ['readChatRequest(…, { bodyTimeout })', () => readChatRequest({ id: 'c', messages: [], trigger: 'submit-message' }, { bodyTimeout: 5 } as never), 'unknown option "bodyTimeout" (did you mean bodyTimeoutMs?)'],
  ['toAGUIResponse(…, { threadID })', () => toAGUIResponse(new ReadableStream<never>(), { threadID: 't' } as never), 'unknown option "threadID" (did you mean threadId?)'],
  ['toNodeListener(…, { onErorr })', () => toNodeListener(async () => new Response(), { onErorr: () => {} } as never), 'unknown option "onErorr" (did you mean onError?)'],
  ['createOpenAICompatibleClient({ retry: { baseDelayMs } }) (another SDK’s name: the default delays stayed)', () => createOpenAICompatibleClient({ ...base, retry: { baseDelayMs: 1 } } as never), 'retry: unknown option "baseDelayMs" (did you mean initialDelayMs?)'],
  ['defineTool({ retry: { retries } })', () => defineTool({ ...tool, retry: { retries: 3 } } as never), 'retry: unknown option "retries"'],
  ['createMCPClient({ retry: { attempts } })', () => createMCPClient({ url: 'https://mcp.example.com/mcp', retry: { attempts: 3 } } as never), 'retry: unknown option "attempts"'],
  ['new InMemorySessionStore({ maxSesions }) (the default bound stayed in force)', () => new InMemorySessionStore({ maxSesions: 1 } as never), 'unknown option "maxSesions" (did you mean maxSessions?)'],
  ['new InMemoryRunStateStore({ ttl })', () => new InMemoryRunStateStore({ ttl: 5 } as never), 'unknown option "ttl" (did you mean ttlMs?)'],
  ['new InMemoryRunStateStore(5)', () => new InMemoryRunStateStore(5 as never), 'options must be an object (got 5)'],
  ['new InMemoryCheckpointer({ maxRun })', () => new InMemoryCheckpointer({ maxRun: 5 } as never), 'unknown option "maxRun" (did you mean maxRuns?)'],
  ['new InMemoryA2ATaskStore({ maxTask })', () => new InMemoryA2ATaskStore({ maxTask: 5 } as never), 'unknown option "maxTask" (did you mean maxTasks?)'],
  ['createA2AHandler({ taskstore })', () => createA2AHandler({ agent: agent(), card: { name: 'x' }, taskstore: {} } as never), 'unknown option "taskstore" (did you mean taskStore?)'],
];

describe('an option a function does not know', () => {
  it.each(CASES)('%s is refused, naming the option meant', async (_name, call, problem) => {
    let caught: unknown;
    try {
      const result = call();
      if (result instanceof Promise) await result;
      else if (result instanceof ReadableStream) await result.getReader().read();
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught), String(caught)).toBe(true);
    expect((caught as ConfigError).problems).toContain(problem);
  });
});

describe('an A2A handler option of the wrong shape', () => {
  const agent = () => new AgentBuilder('a').chatClient(createScriptedChatClient([{ text: 'done' }])).build();
  it.each([
    ['taskStore: 5 (every task would be lost)', { taskStore: 5 }, 'taskStore must have get(taskId) and save(task) (an A2ATaskStore)'],
    ['taskStore: {} (the same)', { taskStore: {} }, 'taskStore must have get(taskId) and save(task) (an A2ATaskStore)'],
    ['userId: 5 (every call failed with -32603)', { userId: 5 }, 'userId must be a function (request) => string'],
    ['basePath: 5 (a TypeError per request)', { basePath: 5 }, 'basePath must be a string (got 5)'],
    ["structuredTaskErrors: 'no'", { structuredTaskErrors: 'no' }, 'structuredTaskErrors must be a boolean'],
  ])('%s is refused', (_name, options, problem) => {
    expect(refusedProblems(() => createA2AHandler({ agent: agent(), card: { name: 'x' }, ...options } as never))).toContain(problem);
  });
});

describe('graph node and compile options', () => {
  const compiled = (build: (graph: StateGraph<any, any, any>) => StateGraph<any, any, any>, compileOptions?: unknown) =>
    build(new StateGraph(messagesStateSchema()).addNode('a', () => ({})).addEdge(START, 'a').addEdge('a', END)).compile(compileOptions as never);
  it.each([
    ['addNode({ timeout }) (the node ran without a limit)', (g: StateGraph<any, any, any>) => g.addNode('b', () => ({}), { timeout: 5 } as never), undefined, 'node "b": unknown option "timeout" (did you mean timeoutMs?)'],
    ['addNode(…, null) (a bare TypeError before)', (g: StateGraph<any, any, any>) => g.addNode('b', () => ({}), null as never), undefined, 'node "b" options must be an object (got null)'],
    ['addLLMNode({ temprature })', (g: StateGraph<any, any, any>) => g.addLLMNode('b', createScriptedChatClient([]), { temprature: 0 } as never), undefined, 'node "b": unknown option "temprature" (did you mean temperature?)'],
    ['addToolsNode({ errorFormt })', (g: StateGraph<any, any, any>) => g.addToolsNode('b', [defineTool(tool)], { errorFormt: 'flat' } as never), undefined, 'node "b": unknown option "errorFormt" (did you mean errorFormat?)'],
    ['addAgentNode({ outputMaper })', (g: StateGraph<any, any, any>) => g.addAgentNode('b', { name: 'x', runEvents: async function* () {} } as never, { outputMaper: () => ({}) } as never), undefined, 'node "b": unknown option "outputMaper" (did you mean outputMapper?)'],
    ['addNode({ retry: { retries } }) (retryOn is known to a node’s retry)', (g: StateGraph<any, any, any>) => g.addNode('b', () => ({}), { retry: { retryOn: () => true, retries: 2 } } as never), undefined, 'node "b" retry: unknown option "retries"'],
    ['compile({ maxSteps })', (g: StateGraph<any, any, any>) => g, { maxSteps: 5 }, 'compile: unknown option "maxSteps" (did you mean stepLimit?)'],
    ["compile({ collectorCheck: 'no' })", (g: StateGraph<any, any, any>) => g, { collectorCheck: 'no' }, 'collectorCheck must be a boolean (got "no")'],
    ['compile(null)', (g: StateGraph<any, any, any>) => g, null, 'compile options must be an object (got null)'],
  ])('%s is a compile() problem, and the only one', (_name, build, compileOptions, problem) => {
    let caught: unknown;
    try {
      compiled(build, compileOptions);
    } catch (error) {
      caught = error;
    }
    expect(WorkflowError.isInstance(caught), String(caught)).toBe(true);
    expect((caught as WorkflowError).problems).toEqual([problem]);
  });
});

describe('a server adapter made wrong is refused when it is made, not with a 500 per request', () => {
  it.each([
    ['a handler that is not a function', [5], 'handler must be a fetch handler, (request) => Promise<Response> (got 5)'],
    ['onError: 5', [async () => new Response(), { onError: 5 }], 'onError must be a function (got 5)'],
    ["options: 'x'", [async () => new Response(), 'x'], 'options must be an object (got "x")'],
  ])('toNodeListener with %s', (_name, args, problem) => {
    expect(refusedProblems(() => (toNodeListener as (...args: unknown[]) => unknown)(...args))).toContain(problem);
  });
});

describe('arguments of the wrong type to a factory', () => {
  it.each([
    ["a chat client's name: a Symbol (a bare TypeError before)", () => createOpenAICompatibleClient({ ...base, name: Symbol('n') } as never), 'name must be a non-empty string (got a symbol)'],
    ['createGraphAgent(null, 5) (an agent that failed on its first run)', () => createGraphAgent(null as never, 5 as never), 'name must be a non-empty string (got null)'],
    ['createGraphAgent(…, 5)', () => createGraphAgent('g', 5 as never), 'graph must be a compiled graph (graph.compile()), got 5'],
    ['new Command({ goto: 5 }) (the run failed later with "this.goto is not iterable")', () => new Command({ goto: 5 } as never), 'goto must be a node id or a list of node ids (got 5)'],
    ["new Command({ got: 'b' }) (the node's static edges ran instead)", () => new Command({ got: 'b' } as never), 'unknown option "got" (did you mean goto?)'],
  ])('%s is a ConfigError', (_name, make, problem) => {
    expect(refusedProblems(() => make())).toContain(problem);
  });
});

describe('a value that is not a run, given to collectAgentRun', () => {
  it.each([
    ['a number (a bare TypeError before)', 5, 'stream must be the stream of agent.run() or agent.resume() (got 5)'],
    ['null', null, 'stream must be the stream of agent.run() or agent.resume() (got null)'],
    ['a run result instead of its stream', { text: 'done' }, 'stream must be the stream of agent.run() or agent.resume() (got an object)'],
  ])('%s is a ConfigError', async (_name, given, problem) => {
    const error = await collectAgentRun(given as never).catch((caught: unknown) => caught);
    expect(ConfigError.isInstance(error), String(error)).toBe(true);
    expect((error as ConfigError).problems).toContain(problem);
  });
});

describe('runner.run options of the wrong shape', () => {
  const run = (options: Record<string, unknown>) => new Runner({ appName: 'app', agent: agent() }).run({ userId: 'u', sessionId: 's', message: 'hi', ...options } as never);
  it.each([
    ["signal: 'x' (a bare TypeError before)", { signal: 'x' }, 'signal must be an AbortSignal (got "x")'],
    ['state: 5 (the graph started from nothing)', { state: 5 }, 'state must be an object (got 5)'],
    ['invocationId: 5', { invocationId: 5 }, 'invocationId must be a string (got 5)'],
    ['traceparent: 7', { traceparent: 7 }, 'traceparent must be a string (got 7)'],
    ['requestId: {}', { requestId: {} }, 'requestId must be a string (got an object)'],
    ['resume: an API key (named by its length only)', { resume: 'sk-live-0123456789abcdef' }, 'resume must be an object { runId, decisions } (got 24 characters)'],
  ])('%s is refused before the run starts', (_name, options, problem) => {
    expect(refusedProblems(() => run(options))).toContain(problem);
  });
});

describe('a clock option that gives no time', () => {
  it.each([
    ['NaN (the breaker never opened: every window comparison was false)', () => Number.NaN, 'now must return a finite number of ms (got NaN)'],
    ['a string', () => '5', 'now must return a finite number of ms (got "5")'],
    ['a throw', () => {
      throw new RangeError('no clock');
    }, 'now must return a finite number of ms (it threw: RangeError)'],
  ])('now returning %s is refused by the breaker and the retry budget', (_name, now, problem) => {
    for (const make of [() => createCircuitBreaker({ now } as never), () => createRetryBudget({ now } as never)]) {
      expect(refusedProblems(() => make())).toContain(problem);
    }
  });
});
