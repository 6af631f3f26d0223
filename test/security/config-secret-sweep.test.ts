// A secret put where it does not belong — an API key in a number option, in a request field, as an option's name —
// is refused, and the refusal (a ConfigError's message, problems, toJSON) never quotes it: a refused value longer than
// 12 characters is named by its length (`refusedValue`), a name that looks like a token by its length (`optionName`).
// Every option of every factory that checks its options gets the secret in turn, as a value and as an unknown key.
import { describe, expect, it } from 'vitest';
import { createA2AClient, createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder, runAgent, toolApprovals } from '../../src/agent/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, createScriptedChatClient } from '../../src/chat/index.js';
import { createMCPClient, createMCPHandler } from '../../src/mcp/index.js';
import { createCircuitBreaker, createRetryBudget } from '../../src/resilience/index.js';
import { Runner } from '../../src/runner/index.js';
import { defineTool, jsonSchema, runTool } from '../../src/tools/index.js';
import { END, START, StateGraph, createGraphAgent, messagesStateSchema } from '../../src/graph/index.js';
import { toNodeListener } from '../../src/node/index.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import { fromUIMessages, readChatRequest, toAGUIResponse, toUIMessageStreamResponse } from '../../src/ui/index.js';

const SECRET = 'sk-live-0123456789abcdefXYZ';

/** Everything a caller may read of an error: message, problems, toJSON, stack. */
function shown(error: unknown): string {
  const value = error as { message?: unknown; problems?: unknown; toJSON?: () => unknown; stack?: unknown };
  return JSON.stringify([value?.message, value?.problems, value?.toJSON?.(), value?.stack]);
}

async function refusal(make: () => unknown): Promise<unknown> {
  try {
    const made = make();
    if (made instanceof Promise) await made;
  } catch (error) {
    return error;
  }
  return undefined;
}

const tool = defineTool({ name: 'lookup', description: 'Look up.', parameters: jsonSchema({ type: 'object' }), execute: async () => ({}) });
const model = () => createScriptedChatClient([{ text: 'done' }]);
const chat = { baseURL: 'https://api.example.com/v1', apiKey: SECRET, model: 'm', fetch: async () => new Response('{}') };
const anthropic = { ...chat, maxTokens: 10 };

/**
 * The secret as itself and inside every value whose printing would show it: an array, a nested array, a `String`
 * object, an object with its own `toString`/`valueOf`, a symbol's description, a function's source — a refusal names
 * a value of the wrong type by its type, never by printing it.
 */
function wrappedSecrets(): unknown[] {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a function whose source holds the secret
  const source = new Function(`return '${SECRET}';`);
  return [SECRET, [SECRET], [[SECRET]], new String(SECRET), { toString: () => SECRET }, { valueOf: () => SECRET }, Symbol(SECRET), source, { key: SECRET }];
}

/** A tracer API that records nothing: enough for `openTelemetry` to check its options. */
const otel = { trace: { getTracer: () => ({ startSpan: () => ({}) }) }, context: { active: () => ({}) } } as never;
/** A compiled one-node graph, after `build` adds to it. */
const graph = (build: (graph: StateGraph<any, any, any>) => StateGraph<any, any, any>, options?: unknown) =>
  build(new StateGraph(messagesStateSchema()).addNode('a', () => ({})).addEdge(START, 'a').addEdge('a', END)).compile(options as never);

/** [factory, valid options, its option names, where nested options are (name → their keys)]. */
const FACTORIES: Array<[string, (options: Record<string, unknown>) => unknown, Record<string, unknown>, string[]]> = [
  ['createOpenAICompatibleClient', (o) => createOpenAICompatibleClient(o as never), chat, ['baseURL', 'model', 'headers', 'fetch', 'retry', 'timeouts', 'name', 'extraBody', 'maxLineLength', 'includeUsage', 'reasoningReplay', 'circuitBreaker', 'retryBudget']],
  ['createAnthropicClient', (o) => createAnthropicClient(o as never), anthropic, ['baseURL', 'model', 'maxTokens', 'headers', 'fetch', 'retry', 'timeouts', 'browser', 'name', 'extraBody', 'maxLineLength']],
  ['createOpenAIResponsesClient', (o) => createOpenAIResponsesClient(o as never), chat, ['baseURL', 'model', 'store', 'maxOutputTokens', 'headers', 'retry', 'timeouts', 'maxLineLength']],
  ['a chat request', (o) => createOpenAICompatibleClient(chat).complete(o as never), { messages: [{ role: 'user', content: 'hi' }] }, ['messages', 'tools', 'toolChoice', 'temperature', 'maxTokens', 'parallelToolCalls', 'responseFormat', 'signal']],
  ['an Anthropic request', (o) => createAnthropicClient(anthropic).complete(o as never), { messages: [{ role: 'user', content: 'hi' }] }, ['maxTokens', 'toolChoice', 'responseFormat']],
  ['a Responses request', (o) => createOpenAIResponsesClient(chat).complete(o as never), { messages: [{ role: 'user', content: 'hi' }] }, ['maxTokens', 'toolChoice']],
  ['runAgent', (o) => runAgent(o as never), { model: model(), prompt: 'hi', secrets: [SECRET] }, ['model', 'instructions', 'tools', 'maxIterations', 'output', 'signal', 'session', 'sessionStore', 'toolLogger', 'name', 'telemetry', 'approvals']],
  ['createMCPClient', (o) => createMCPClient(o as never), { url: 'https://mcp.example.com/mcp', headers: { authorization: `Bearer ${SECRET}` } }, ['url', 'fetch', 'timeouts', 'retry', 'clientInfo', 'protocolVersion', 'secrets', 'maxResponseBytes', 'maxResumes', 'listen', 'telemetry']],
  ['createMCPHandler', (o) => createMCPHandler(o as never), { tools: [tool], serverInfo: { name: 's', version: '1' } }, ['instructions', 'sessions', 'maxSessions', 'sessionIdleMs', 'responseMode', 'keepAliveMs', 'pageSize', 'maxBodyBytes', 'bodyTimeoutMs', 'maxDepth', 'allowedHosts', 'allowedOrigins', 'secrets']],
  ['createA2AHandler', (o) => createA2AHandler(o as never), { agent: new AgentBuilder('a').chatClient(model()).build(), card: { name: 'x' } }, ['structuredTaskErrors', 'storeTimeoutMs', 'maxBodyBytes', 'bodyTimeoutMs', 'maxDepth', 'maxLiveTasks', 'maxQueuedEvents', 'keepAliveMs', 'secrets', 'allowedHosts', 'allowedOrigins']],
  ['createA2AClient', (o) => createA2AClient(o as never), { url: 'https://agent.example.com/a2a', headers: { authorization: `Bearer ${SECRET}` } }, ['protocolVersion', 'retry', 'timeoutMs', 'idleTimeoutMs', 'streamTimeoutMs', 'allowCrossOrigin', 'resubscribe']],
  ['createCircuitBreaker', (o) => createCircuitBreaker(o as never), {}, ['failureThreshold', 'failureRate', 'minimumCalls', 'windowMs', 'openMs', 'halfOpenProbes', 'successesToClose', 'probeTimeoutMs', 'maxDependencies']],
  ['createRetryBudget', (o) => createRetryBudget(o as never), {}, ['ratio', 'minRetries', 'windowMs']],
  ['defineTool', (o) => defineTool(o as never), { name: 'lookup', description: 'Look up.', parameters: jsonSchema({ type: 'object' }), execute: async () => ({}) }, ['name', 'description', 'timeoutMs', 'retry', 'dependency', 'needsApproval', 'approvalExpiresInMs']],
  ['new Runner', (o) => new Runner(o as never), { appName: 'app', agent: new AgentBuilder('a').chatClient(model()).build() }, ['appName', 'sessionStore']],
  ['toolApprovals', (o) => toolApprovals(o as never), {}, ['store']],
  ['runTool', (o) => runTool(tool, {}, o as never), {}, ['callId', 'signal', 'logger', 'onRetry', 'repair', 'onToolCrash', 'timeoutMs', 'retry', 'secrets', 'maxArgumentsLength', 'telemetry', 'parentSpan']],
  ['openTelemetry', (o) => openTelemetry(otel, o as never), {}, ['tracer', 'tracerName', 'recordContent', 'secrets', 'maxAttributeLength', 'maxStatusMessageLength', 'onError']],
  ['StateGraph addNode', (o) => graph((g) => g.addNode('b', () => ({}), o as never)), {}, ['timeoutMs', 'retry', 'fallback', 'ends', 'defer']],
  ['compile', (o) => graph((g) => g, o), {}, ['stepLimit', 'collectorCheck']],
  ['graph.run', (o) => graph((g) => g).run({}, o as never), {}, ['signal', 'onEvent', 'invocationId', 'path', 'branch', 'requestId', 'checkpointer', 'runId', 'leaseMs', 'telemetry', 'parentSpan', 'workflowName']],
  ['createGraphAgent', (o) => createGraphAgent('g', graph((g) => g), o as never), {}, ['input', 'checkpointer', 'telemetry']],
  ['toUIMessageStreamResponse', (o) => toUIMessageStreamResponse(new ReadableStream<never>(), o as never), {}, ['secrets', 'expose', 'messageId', 'onError', 'maxBufferedBytes', 'signal', 'completionState', 'status', 'headers']],
  ['fromUIMessages', (o) => fromUIMessages([], o as never), {}, ['toolErrorFormat', 'systemMessages', 'fileText', 'maxBodyBytes', 'maxMessages', 'maxParts', 'maxDepth', 'maxStringLength']],
  ['readChatRequest', (o) => readChatRequest({ id: 'c', messages: [], trigger: 'submit-message' }, o as never), {}, ['toolErrorFormat', 'systemMessages', 'maxBodyBytes', 'bodyTimeoutMs', 'maxMessages']],
  ['toAGUIResponse', (o) => toAGUIResponse(new ReadableStream<never>(), o as never), {}, ['threadId', 'runId', 'secrets', 'signal', 'executionErrorsKey']],
  ['toNodeListener', (o) => toNodeListener(async () => new Response(), o as never), {}, ['onError']],
  ['runner.run', (o) => new Runner({ appName: 'app', agent: new AgentBuilder('a').chatClient(model()).build() }).run(o as never), { userId: 'u', sessionId: 's', message: 'hi' }, ['userId', 'sessionId', 'resume', 'signal', 'state', 'requestId', 'invocationId', 'traceparent']],
];

describe('a secret in the wrong option', () => {
  it.each(FACTORIES)('%s: as each option, in its nested options, and as an unknown option name, it is refused without being quoted', async (_name, make, valid, keys) => {
    let refused = 0;
    const variants: Array<Record<string, unknown>> = [{ ...valid, [SECRET]: 1 }];
    for (const key of keys) {
      for (const wrapped of wrappedSecrets()) variants.push({ ...valid, [key]: wrapped });
      for (const nested of ['totalMs', 'idleMs', 'firstChunkMs', 'requestMs', 'maxAttempts', 'jitter', 'baseDelayMs']) variants.push({ ...valid, [key]: { [nested]: SECRET } });
    }
    for (const options of variants) {
      const error = await refusal(() => make(options));
      if (error === undefined) continue;
      refused++;
      expect(shown(error), JSON.stringify(Object.keys(options))).not.toContain(SECRET.slice(8));
    }
    expect(refused).toBeGreaterThan(keys.length / 2); // the sweep reached the checks, not only the happy path
  });

  it('a message role, a header name and the agent builder: the same', async () => {
    const role = await refusal(() => createOpenAICompatibleClient(chat).complete({ messages: [{ role: SECRET as never, content: 'hi' }] }));
    const header = await refusal(() => createOpenAICompatibleClient({ ...chat, headers: { [`x ${SECRET}`]: 'v' } }));
    const builder = await refusal(() => new AgentBuilder('a').chatClient(model()).secrets([SECRET]).maxIterations(SECRET as never).build());
    for (const error of [role, header, builder]) {
      expect(error).toBeInstanceOf(Error);
      expect(shown(error)).not.toContain(SECRET.slice(8));
    }
    expect((role as Error).message).toMatch(/got 27 characters/);
  });

  it('a secret given alone instead of in a list is refused (spread, it became one-character "secrets" and redacted nothing)', async () => {
    const builder = await refusal(() => new AgentBuilder('a').chatClient(model()).secrets(SECRET as never).build());
    const run = await refusal(() => runAgent({ model: model(), prompt: 'hi', secrets: SECRET as never }));
    for (const error of [builder, run]) {
      expect((error as Error).message).toMatch(/secrets must be an array of strings/);
      expect(shown(error)).not.toContain(SECRET.slice(8));
    }
  });
});
