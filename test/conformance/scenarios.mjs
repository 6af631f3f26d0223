// The cross-runtime conformance suite, written once: every capability through the public API of the BUILT package.
// Each runtime harness (Node, Deno, workerd, Chromium ESM and IIFE) passes in the SDK namespace `F`, the `faultline/ui`
// namespace `UI` and the URL of a fault server serving the msw handlers of `faultline/testing` (`chatFaultHandlers`
// under `<baseURL>/chat`, `mcpFaultHandlers` under `<baseURL>/mcp`, `anthropicFaultHandlers` under
// `<baseURL>/anthropic`), so each runtime uses its own real fetch and streams. Plain JavaScript and Web APIs only.

import { fatalWriteGraph } from '../../demo/a2a/inventory.mjs';
import { check, equal, failureOf, items } from './asserts.mjs';

/** A minimal Standard Schema for `{ [key]: string }` objects (no schema library needed in every runtime). */
function stringFields(...keys) {
  return {
    parameters: {
      '~standard': {
        version: 1,
        vendor: 'conformance',
        validate(value) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return { issues: [{ message: 'expected an object', path: [] }] };
          const issues = keys.filter((key) => typeof value[key] !== 'string').map((key) => ({ message: 'expected string', path: [key] }));
          return issues.length > 0 ? { issues } : { value };
        },
      },
    },
    jsonSchema: { type: 'object', properties: Object.fromEntries(keys.map((key) => [key, { type: 'string' }])), required: keys },
  };
}


/** A Standard Schema accepting any object (for local tools whose arguments do not matter). */
const anyObject = {
  parameters: {
    '~standard': {
      version: 1,
      vendor: 'conformance',
      validate: (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { value } : { issues: [{ message: 'expected an object', path: [] }] }),
    },
  },
  jsonSchema: { type: 'object' },
};

/** A Standard Schema for `{ quantity }` that wants a positive integer (the local twin of the MCP `invalid-params` fault). */
const positiveQuantity = {
  parameters: {
    '~standard': {
      version: 1,
      vendor: 'conformance',
      validate: (value) => (Number.isInteger(value?.quantity) && value.quantity > 0 ? { value } : { issues: [{ message: 'must be a positive integer', path: ['quantity'] }] }),
    },
  },
  jsonSchema: { type: 'object', properties: { quantity: { type: 'number' } } },
};

/**
 * Local tools failing the way each MCP fault tool of `mcpFaultHandlers` fails (named `local_<fault>`), so the agent
 * scenario can compare what the model gets from both. `local_unknown-tool` is deliberately not defined.
 */
function localTwins(F) {
  const twin = (fault, execute, extra = {}) => F.defineTool({ name: `local_${fault}`, description: `The local twin of the MCP fault ${fault}.`, ...anyObject, execute, ...extra });
  return [
    twin('ok', (args) => ({ echo: args })),
    twin('is-error', () => {
      throw new F.DataNotFoundError("No order 'A-1' exists.", { context: { order: 'A-1' }, suggestion: 'Check the order id, or ask the user for it.' });
    }),
    twin('plain-error', () => F.ToolResult.error('The order is archived.')),
    twin('invalid-params', () => 'unreachable', positiveQuantity),
    twin('internal-error', () => {
      throw new Error('connect ECONNREFUSED db-primary.fault.internal:5432');
    }),
    twin('cut-stream', () => ({ resumed: true })),
    twin('cut-stream-no-resume', () => {
      throw new TypeError('the stream ended before the response');
    }),
    twin('keep-alive-only', () => new Promise(() => {}), { timeoutMs: 150 }),
    twin('session-expired', () => 'ok: a new session'),
  ];
}

/** A client pointed at one fault of the fault server, with fast retries. */
function faultClient(F, baseURL, fault, runId, extra = {}) {
  return F.createOpenAICompatibleClient({
    baseURL: `${baseURL}/chat/${fault}/${runId}`,
    apiKey: 'sk-conformance-0123456789abcdef',
    model: 'fault-model',
    retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}

/**
 * An Anthropic client pointed at one fault of the fault server (a fake key, fast retries). `browser: true` everywhere:
 * in a page the fault server answers like Anthropic, refusing a request with an Origin that did not opt in.
 */
function anthropicClient(F, baseURL, fault, runId) {
  return F.createAnthropicClient({
    baseURL: `${baseURL}/anthropic/${fault}/${runId}`,
    apiKey: 'sk-ant-conformance-0123456789abcdef',
    model: 'claude-sonnet-4-5',
    maxTokens: 256,
    browser: true,
    retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 },
  });
}

/** @type {Array<{ name: string, run: (context: { F: any, UI: any, baseURL: string, runId: string }) => Promise<void>, skip?: Record<string, string> }>} */
export const scenarios = [
  {
    name: 'agent loop: every tool failure kind reaches the model as a structured result',
    async run({ F }) {
      const lookup = F.defineTool({
        name: 'lookup',
        description: 'Look up an order.',
        ...stringFields('order'),
        timeoutMs: 50,
        execute: async ({ order }) => {
          if (order === 'missing') throw new F.DataNotFoundError(`No order ${order}.`);
          if (order === 'crash') throw new TypeError("Cannot read properties of undefined (reading 'rows')");
          if (order === 'hang') return new Promise(() => {});
          if (order === 'soft') return F.ToolResult.error('The order is archived.');
          return { order, status: 'shipped' };
        },
      });
      const calls = ['42', 'missing', 'crash', 'hang', 'soft'].map((order) => ({ name: 'lookup', arguments: { order } }));
      calls.push({ name: 'lookup', arguments: '{not json' }, { name: 'lookup', arguments: { order: 7 } }, { name: 'lokup', arguments: {} });
      const model = F.createScriptedChatClient([{ toolCalls: calls }, { text: 'Done.' }]);
      const agent = new F.AgentBuilder('conformance').chatClient(model).tools([lookup]).toolLogger(() => {}).build();
      const result = await F.collectAgentRun(agent.run('Check the orders.'));
      equal(result.text, 'Done.', 'final answer');
      // The transcript and `toolResults` keep call order (the stream's items come as each tool ends).
      const toolMessages = result.messages.filter((message) => message.role === 'tool');
      const types = toolMessages.map((message) => JSON.parse(message.content).error?.type ?? 'ok');
      equal(types, ['ok', 'DataNotFoundError', 'ToolInternalError', 'TimeoutError', 'ToolExecutionFailed', 'InputValidationError', 'InputValidationError', 'ToolNotFound'], 'tool result types in call order');
      check(!toolMessages[2].content.includes('rows'), 'a crash is sanitized for the model');
      equal(result.errors.map((error) => error.name), ['ToolError'], 'the crash is also a recoverable error item');
      const transcript = model.requests[1].messages;
      equal(transcript.filter((message) => message.role === 'tool').length, 8, 'one tool message per call');
    },
  },
  {
    name: 'agent loop: an MCP tool failing each way reaches the model exactly as a local tool failing the same way',
    async run({ F, baseURL, runId }) {
      const url = `${baseURL}/mcp/${runId}`;
      const client = F.createMCPClient({ url, retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 } });
      const slow = await client.tools({ include: (tool) => tool.name === 'keep-alive-only', timeoutMs: 150 });
      const remote = await client.tools({ include: (tool) => tool.name !== 'keep-alive-only', timeoutMs: 10_000 });
      const faults = ['ok', 'is-error', 'plain-error', 'invalid-params', 'unknown-tool', 'internal-error', 'cut-stream', 'cut-stream-no-resume', 'keep-alive-only'];
      const args = (fault) => (fault === 'ok' ? { text: 'hi' } : fault === 'invalid-params' ? { quantity: -1 } : {});
      const first = [...faults.map((fault) => ({ name: fault, arguments: args(fault) })), ...faults.map((fault) => ({ name: `local_${fault}`, arguments: args(fault) }))];
      // The session fault gets a round of its own: a re-established session is deterministic only with no other call in flight.
      const second = [{ name: 'session-expired', arguments: {} }, { name: 'local_session-expired', arguments: {} }];
      const model = F.createScriptedChatClient([{ toolCalls: first }, { toolCalls: second }, { text: 'Done.' }]);
      const agent = new F.AgentBuilder('mcp-conformance').chatClient(model).tools([...remote, ...slow, ...localTwins(F)]).toolLogger(() => {}).build();
      const result = await F.collectAgentRun(agent.run('Call every tool.'));
      equal(result.text, 'Done.', 'final answer');
      // In call order, as the transcript holds them.
      const contents = result.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content));
      const types = contents.map((content) => content.error?.type ?? 'ok');
      const expected = ['ok', 'DataNotFoundError', 'ToolExecutionFailed', 'InputValidationError', 'ToolNotFound', 'ToolInternalError', 'ok', 'ToolInternalError', 'TimeoutError'];
      equal(types.slice(0, faults.length), expected, 'what the model gets from each MCP fault');
      equal(types.slice(faults.length, 2 * faults.length), expected, 'the same as from a local tool failing the same way');
      equal(types.slice(2 * faults.length), ['ok', 'ok'], 'a call that met a forgotten session succeeds on the new one, as the local one does');
      const mcp = Object.fromEntries(faults.map((fault, index) => [fault, contents[index]]));
      const local = Object.fromEntries(faults.map((fault, index) => [fault, contents[faults.length + index]]));
      for (const fault of ['ok', 'is-error', 'plain-error', 'cut-stream']) equal(mcp[fault], local[fault], `${fault}: the very same tool result`);
      equal(mcp['invalid-params'].error.context.fields, ['quantity'], 'invalid-params names the field the server rejected');
      check(mcp['unknown-tool'].error.context.available.includes('cut-stream') && !mcp['unknown-tool'].error.context.available.includes('unknown-tool'), 'unknown-tool lists the tools still there');
      equal(mcp['keep-alive-only'].error.context, local['keep-alive-only'].error.context, 'the same timeout context ({timeoutMs: 150})');
      for (const fault of ['internal-error', 'cut-stream-no-resume']) {
        check(!JSON.stringify(mcp[fault]).match(/db-primary|fault\.internal|5432|ECONNREFUSED/), `${fault}: sanitized for the model`);
      }
      check(!JSON.stringify(local['internal-error']).includes('db-primary'), 'the local crash is sanitized too');
      equal(contents[2 * faults.length], { ok: true, data: 'ok: a new session' }, 'session-expired: the answer of the new session');
      equal(result.errors.map((error) => error.name), ['ToolError', 'ToolError', 'ToolError', 'ToolError'], 'the four crashes (two MCP, two local) are also recoverable error items');
      equal(model.requests[2].messages.filter((message) => message.role === 'tool').length, 2 * faults.length + 2, 'one tool message per call');
      const session = client.sessionId;
      check(typeof session === 'string', 'a session to end');
      await client.close();
      const closed = await failureOf(client.callTool('ok'));
      check(F.MCPError.isInstance(closed) && closed.reason === 'closed', `a closed client refuses calls (got ${closed?.name} ${closed?.reason})`);
      const after = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await after.text(); // read, not cancelled: msw keeps a copy of a mocked body, and a cancel would wait for it
      equal(after.status, 404, 'close() ended the session on the server (DELETE)');
    },
  },
  {
    name: 'chat: a provider error mid-stream after text is a StreamError, the text already delivered',
    async run({ F, baseURL, runId }) {
      const chunks = [];
      const error = await failureOf(
        (async () => {
          for await (const chunk of faultClient(F, baseURL, 'mid-stream-error', runId).stream({ messages: [{ role: 'user', content: 'hi' }] })) chunks.push(chunk);
        })(),
      );
      equal(chunks, [{ type: 'text-delta', delta: 'Hello' }], 'text before the error');
      check(F.StreamError.isInstance(error), `a StreamError (got ${error?.name})`);
      equal([error.reason, error.code, error.afterOutput], ['provider_error', 'overloaded', true], 'reason, code, afterOutput');
    },
  },
  {
    name: 'chat: a 429 with Retry-After is retried before any output, then the answer streams',
    async run({ F, baseURL, runId }) {
      const retries = [];
      const response = await F.collectChatStream(faultClient(F, baseURL, 'rate-limit', runId).stream({ messages: [{ role: 'user', content: 'hi' }], onRetry: (notice) => retries.push(notice) }));
      equal(response.message.content, 'Hello from the fault server.', 'the answer');
      equal(retries.map((notice) => [notice.attempt, notice.delayMs, notice.fromRetryAfter, notice.error.status]), [[1, 50, true, 429]], 'one retry after the server hint');
    },
  },
  {
    name: 'chat: a 401 is a ChatClientError, not retried, without the API key',
    async run({ F, baseURL, runId }) {
      const error = await failureOf(F.collectChatStream(faultClient(F, baseURL, 'unauthorized', runId).stream({ messages: [{ role: 'user', content: 'hi' }] })));
      check(F.ChatClientError.isInstance(error), `a ChatClientError (got ${error?.name})`);
      equal([error.status, error.retryable, error.attempts, error.code], [401, false, 1, 'invalid_api_key'], 'status, retryable, attempts, code');
      check(!JSON.stringify(error).includes('sk-'), 'no key in the error');
    },
  },
  {
    name: 'chat: a connection dropped after output is reported, never replayed',
    async run({ F, baseURL, runId }) {
      const chunks = [];
      const error = await failureOf(
        (async () => {
          for await (const chunk of faultClient(F, baseURL, 'cut-mid-stream', runId).stream({ messages: [{ role: 'user', content: 'hi' }] })) chunks.push(chunk);
        })(),
      );
      equal(chunks.map((chunk) => chunk.delta).join(''), 'partial answer ', 'output before the drop (deltas of one network read are coalesced)');
      check(F.StreamError.isInstance(error) && error.afterOutput === true, `a StreamError after output (got ${error?.name} ${error?.reason})`);
    },
  },
  {
    name: 'chat: an abort ends the stream promptly with the exact reason',
    async run({ F, baseURL, runId }) {
      const controller = new AbortController();
      const reason = new DOMException('the user left', 'AbortError');
      const stream = faultClient(F, baseURL, 'slow-first-byte', runId).stream({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal });
      const started = Date.now();
      setTimeout(() => controller.abort(reason), 20);
      const error = await failureOf(F.collectChatStream(stream));
      check(error === reason, `the abort reason itself (got ${error?.name}: ${error?.message})`);
      check(Date.now() - started < 1_500, 'promptly');
    },
  },
  {
    name: 'agent loop on Anthropic: a tool_use round trip, the tool result back as tool_result and quoted in the answer',
    async run({ F, baseURL, runId }) {
      const seen = [];
      const lookup = F.defineTool({
        name: 'lookup',
        description: 'Look up an order.',
        ...stringFields('order'),
        execute: async (args) => {
          seen.push(args);
          return { order: args.order, status: 'shipped' };
        },
      });
      const agent = new F.AgentBuilder('claude-conformance').chatClient(anthropicClient(F, baseURL, 'tool-round', runId)).tools([lookup]).build();
      const result = await F.collectAgentRun(agent.run('Where is order A-1?'));
      equal(seen, [{ order: 'A-1' }], 'the tool ran once with the tool_use input');
      const content = '{"ok":true,"data":{"order":"A-1","status":"shipped"}}';
      equal(result.toolResults.map((item) => [item.toolName, item.content]), [['lookup', content]], 'one tool result');
      equal(result.text, `The lookup tool answered: ${content}`, 'the second call carried the tool_result (the fault quotes it)');
      equal([result.finishReason, result.iterations, result.errors.length], ['stop', 2, 0], 'two model calls, no error');
    },
  },
  {
    name: 'Anthropic: overloaded_error mid-stream after text is a StreamError, the text kept; before any output it is retried',
    async run({ F, baseURL, runId }) {
      const chunks = [];
      const retriesAfterOutput = [];
      const error = await failureOf(
        (async () => {
          const stream = anthropicClient(F, baseURL, 'overloaded-mid-stream', runId).stream({ messages: [{ role: 'user', content: 'hi' }], onRetry: (notice) => retriesAfterOutput.push(notice) });
          for await (const chunk of stream) chunks.push(chunk);
        })(),
      );
      equal(chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join(''), 'The first part of the answer', 'the text before the error');
      check(F.StreamError.isInstance(error), `a StreamError (got ${error?.name}: ${error?.message})`);
      equal([error.reason, error.code, error.afterOutput], ['provider_error', 'overloaded_error', true], 'reason, code, afterOutput');
      equal(retriesAfterOutput.length, 0, 'never replayed after output');
      const retries = [];
      const response = await F.collectChatStream(anthropicClient(F, baseURL, 'overloaded-before-output', runId).stream({ messages: [{ role: 'user', content: 'hi' }], onRetry: (notice) => retries.push(notice) }));
      equal(response.message.content, 'Hello from the Anthropic fault server.', 'the answer after the retry');
      equal(retries.map((notice) => [notice.attempt, notice.error.name, notice.error.code, notice.error.retryable]), [[1, 'ChatClientError', 'overloaded_error', true]], 'one retry of the error before output');
      check(/^req_/.test(response.requestId ?? ''), `the answer's request-id (got ${response.requestId})`);
    },
  },
  {
    name: 'graph: a recoverable and a fatal node end in exactly one runner.completion carrying both records',
    async run({ F }) {
      const collector = new F.ExecutionErrorCollector();
      const graph = new F.StateGraph(F.messagesStateSchema().addField('stock'))
        .use(collector)
        .addNode('lookup', () => {
          throw F.markRecoverable(Object.assign(new Error('inventory lookup timed out'), { code: 'SOFT_TIMEOUT' }));
        })
        .addNode('reserve', () => ({ stock: 3 }))
        .addNode('write', () => {
          throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
        })
        .addEdge('lookup', 'reserve')
        .addEdge('reserve', 'write')
        .setEntryPoint('lookup')
        .setFinishPoint('write')
        .compile();
      const events = await items(new F.Runner({ appName: 'conformance', agent: F.createGraphAgent('orders', graph) }).run({ userId: 'u', sessionId: 's', message: 'go' }));
      const completions = events.filter(F.isRunnerCompletion);
      equal(completions.length, 1, 'one completion');
      check(events.at(-1) === completions[0], 'the completion is last');
      equal(events.filter(F.isTerminalError).length, 1, 'the failure is reported once');
      equal(completions[0].response.error.code, 'WRITE_FATAL', 'the completion carries the fatal code');
      const records = F.executionErrorsFromStateDelta(completions[0].stateDelta);
      equal(records.map((record) => [record.severity, record.nodeId, record.error.code]), [['recoverable', 'lookup', 'SOFT_TIMEOUT'], ['fatal', 'write', 'WRITE_FATAL']], 'both records');
      equal(JSON.parse(completions[0].stateDelta.stock), 3, 'business state reduced so far');
    },
  },
  {
    name: 'A2A: a failed task through our client against our handler (unary and streaming)',
    async run({ F }) {
      const handler = F.createA2AHandler({ agent: F.createGraphAgent('inventory', fatalWriteGraph(F)), card: { name: 'inventory' } });
      const client = F.createA2AClient({ agentCardUrl: 'http://127.0.0.1', fetch: (input, init) => handler(new Request(input, init)) });
      const task = await client.sendMessage('write order 42');
      equal([task.kind, task.status.state, task.metadata.error_code, task.status.message.metadata.error_code], ['task', 'failed', 'WRITE_FATAL', 'WRITE_FATAL'], 'a failed task with mirrored metadata');
      const events = await items(client.streamMessage('write order 43'));
      equal(events.map((event) => [event.kind, event.status.state, event.final ?? null]), [['task', 'submitted', null], ['status-update', 'failed', true]], 'submitted, then one final failed update');
      const agentEvents = await items(F.createA2AAgent({ client }).runEvents({ invocationId: 'i', appName: 'a', userId: 'u', sessionId: 's', message: { role: 'user', content: 'write' }, history: [], signal: new AbortController().signal }));
      equal(agentEvents.length, 1, 'one event, nothing after the terminal error');
      check(F.isTerminalError(agentEvents[0]), 'a terminal error event');
      equal(agentEvents[0].response.error.code, 'WRITE_FATAL', 'its code');
    },
  },
  {
    name: 'A2A: a remote failure reaches a parent collector as a record with its path',
    async run({ F }) {
      const handler = F.createA2AHandler({ agent: F.createGraphAgent('inventory', fatalWriteGraph(F)), card: { name: 'inventory' } });
      const remote = F.createA2AAgent({ agentCardUrl: 'http://127.0.0.1', fetch: (input, init) => handler(new Request(input, init)) });
      const collector = new F.ExecutionErrorCollector();
      const parent = new F.StateGraph(F.messagesStateSchema())
        .use(collector)
        .addAgentNode('remote_inventory', remote, { outputMapper: collector.subgraphOutputMapper() })
        .setEntryPoint('remote_inventory')
        .setFinishPoint('remote_inventory')
        .compile();
      const events = await items(new F.Runner({ appName: 'shop', agent: F.createGraphAgent('shop', parent) }).run({ userId: 'u', sessionId: 's', message: 'write order 44' }));
      const completion = events.at(-1);
      check(F.isRunnerCompletion(completion) && completion.response.error === undefined, 'the parent completes');
      const records = F.executionErrorsFromStateDelta(completion.stateDelta);
      equal(records.map((record) => [record.nodeId, record.path, record.error.code]), [['write', ['remote_inventory'], 'WRITE_FATAL']], 'the remote record');
    },
  },
  {
    name: 'resilience: a shared breaker opens on 500s, the fallback chain moves past the open circuit at once',
    async run({ F, baseURL, runId }) {
      const circuitBreaker = F.createCircuitBreaker({ failureThreshold: 2, openMs: 60_000 });
      const retryBudget = F.createRetryBudget({ ratio: 0.1, minRetries: 5 });
      const primary = faultClient(F, baseURL, 'server-error', runId, { circuitBreaker, retryBudget });
      const chain = F.createFallbackChatClient([primary, faultClient(F, baseURL, 'ok', runId, { circuitBreaker, retryBudget })]);
      const fallbacks = [];
      const first = await F.collectChatStream(chain.stream({ messages: [{ role: 'user', content: 'hi' }], onFallback: (notice) => fallbacks.push(notice.error.name) }));
      equal(first.message.content, 'Hello from the fault server.', 'the fallback answered');
      equal(circuitBreaker.state(`${baseURL}/chat/server-error/${runId} fault-model`), 'open', 'the primary circuit is open');
      const second = await F.collectChatStream(chain.stream({ messages: [{ role: 'user', content: 'again' }], onFallback: (notice) => fallbacks.push(notice.error.name) }));
      equal(second.message.content, 'Hello from the fault server.', 'the fallback answered again');
      equal(fallbacks, ['CircuitOpenError', 'CircuitOpenError'], 'each time past the open circuit');
      const refused = await failureOf(F.collectChatStream(primary.stream({ messages: [{ role: 'user', content: 'hi' }] })));
      equal([refused?.name, refused?.kind, refused?.retryable, refused?.retryAfterMs > 0], ['CircuitOpenError', 'circuit_open', true, true], 'the open circuit refuses at once');
    },
  },
  {
    name: 'telemetry: spans through a plain tracer, children by traceparent, a planted secret in none',
    async run({ F }) {
      const secret = 'sk-live-conformance-PLANTED-42';
      const ended = [];
      let next = 1;
      const hex = (value, width) => value.toString(16).padStart(width, '0');
      const tracer = {
        startSpan(name, options, context) {
          const parent = context?.parent;
          const spanContext = { traceId: parent?.traceId ?? hex(next * 7919, 32), spanId: hex(next++, 16), traceFlags: 1 };
          const span = { name, attributes: { ...(options?.attributes ?? {}) }, status: { code: 0 }, events: [], parent: parent?.spanId };
          return {
            spanContext: () => spanContext,
            isRecording: () => true,
            setAttribute: (key, value) => void (span.attributes[key] = value),
            setAttributes: (attributes) => void Object.assign(span.attributes, attributes),
            addEvent: (eventName, attributes) => void span.events.push({ name: eventName, attributes }),
            setStatus: (status) => void (span.status = status),
            end: () => void ended.push(span),
          };
        },
      };
      const api = {
        trace: { getTracer: () => tracer, setSpan: (ctx, span) => ({ ...ctx, parent: span.spanContext() }), setSpanContext: (ctx, parent) => ({ ...ctx, parent }), getSpan: () => undefined },
        context: { active: () => ({}), with: (_ctx, fn) => fn() },
      };
      const telemetry = F.openTelemetry(api, { secrets: [secret] });
      const root = telemetry.startSpan('invoke_agent root', { attributes: { prompt: `key ${secret}` } });
      const child = telemetry.startSpan('execute_tool lookup', { parent: F.parseTraceparent(root.traceparent()) });
      child.fail(new Error(`upstream refused ${secret}`));
      child.end();
      root.end();
      equal(ended.map((span) => span.name), ['execute_tool lookup', 'invoke_agent root'], 'both spans ended');
      equal(ended[0].parent, root.traceparent().split('-')[2], 'the child of the root, by traceparent');
      equal([ended[0].status.code, ended[0].attributes['error.type']], [2, 'Error'], 'the failure');
      check(!JSON.stringify(ended).includes(secret), 'no secret in any span');
      equal([F.parseTraceparent('00-ABC-def-01'), F.parseTraceparent(undefined)], [undefined, undefined], 'odd traceparents ignored');
    },
  },
  {
    name: 'ui: a failing-tool agent run as the AI SDK UI message stream: data frames, the typed failure part, finish then [DONE]',
    async run({ F, UI }) {
      check(typeof UI?.toUIMessageStreamResponse === 'function', 'faultline/ui is loaded (toUIMessageStreamResponse)');
      const lookup = F.defineTool({
        name: 'lookup',
        description: 'Look up an order.',
        ...stringFields('order'),
        execute: ({ order }) => {
          if (order === 'missing') throw new F.DataNotFoundError(`No order ${order}.`, { context: { order }, suggestion: 'Check the order id, or ask the user for it.' });
          if (order === 'crash') throw new TypeError('connect ECONNREFUSED db-primary.fault.internal:5432');
          return { order, status: 'shipped' };
        },
      });
      const calls = ['42', 'missing', 'crash'].map((order) => ({ id: `call_${order}`, name: 'lookup', arguments: { order } }));
      const model = F.createScriptedChatClient([{ text: 'Looking.', toolCalls: calls }, { text: 'Done.' }]);
      const agent = new F.AgentBuilder('ui-conformance').chatClient(model).tools([lookup]).toolLogger(false).build();
      const response = UI.toUIMessageStreamResponse(agent.run('Check the orders.'));
      equal(
        ['content-type', 'x-vercel-ai-ui-message-stream', 'cache-control', 'x-accel-buffering'].map((name) => response.headers.get(name)),
        ['text/event-stream', 'v1', 'no-cache', 'no'],
        'the protocol headers',
      );
      // Read as a browser reads it: this runtime's own body stream and TextDecoder, frame by frame.
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, { stream: true });
      const blocks = text.split('\n\n');
      equal(blocks.pop(), '', 'the body ends with a blank line');
      check(blocks.every((block) => block.startsWith('data: ') && !block.includes('\n')), 'every frame is one data line');
      equal(blocks.at(-1), 'data: [DONE]', 'the last frame is [DONE]');
      const chunks = blocks.slice(0, -1).map((block) => JSON.parse(block.slice('data: '.length)));
      equal([chunks[0].type, chunks.at(-1).type, chunks.at(-1).finishReason], ['start', 'finish', 'stop'], 'start first, finish (stop) last');
      equal(chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join(''), 'Looking.Done.', 'the text');
      const output = (id) => chunks.find((chunk) => chunk.toolCallId === id && (chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error'));
      const failure = (id) => chunks.find((chunk) => chunk.type === 'data-faultline-error' && chunk.id === id);
      equal([output('call_42').type, output('call_42').output], ['tool-output-available', { ok: true, data: { order: '42', status: 'shipped' } }], 'the tool that worked');
      const missing = failure('call_missing').data;
      equal(
        [output('call_missing').type, missing.type, missing.retryable, missing.scope, missing.toolName, missing.suggestion],
        ['tool-output-error', 'DataNotFoundError', false, 'tool', 'lookup', 'Check the order id, or ask the user for it.'],
        'the typed failure part of the tool that failed',
      );
      equal(output('call_missing').errorText, missing.message, 'errorText is the model-facing message');
      equal([output('call_crash').type, failure('call_crash').data.type], ['tool-output-error', 'ToolInternalError'], 'the crash');
      check(!text.match(/db-primary|ECONNREFUSED|5432/), 'the crash is sanitized on the wire');
      check(!text.includes('"stack"'), 'no stack on the wire');
    },
  },
  {
    name: 'approvals: a tool that needs approval stops the run; approved it runs once, denied or expired the model is told so, a wrong resume is typed',
    async run({ F }) {
      const ran = [];
      // Answered in time whatever the load (a minute), and one that expires: only its expiry is waited for.
      const refundTool = (approvalExpiresInMs) =>
        F.defineTool({
          name: 'refund',
          description: 'Refund an order.',
          ...stringFields('order'),
          needsApproval: true,
          approvalExpiresInMs,
          execute: ({ order }) => (ran.push(order), { order, refunded: true }),
        });
      const toolAnswer = (model) => JSON.parse(model.requests.at(-1).messages.filter((message) => message.role === 'tool').at(-1).content);
      const stopped = async (order, expiresInMs = 60_000) => {
        const model = F.createScriptedChatClient([{ toolCalls: [{ id: `call_${order}`, name: 'refund', arguments: { order } }] }, { text: 'Done.' }]);
        const agent = new F.AgentBuilder('approvals').chatClient(model).tools([refundTool(expiresInMs)]).approvals(F.toolApprovals()).build();
        const first = await F.collectAgentRun(agent.run(`Refund ${order}`));
        equal([first.status, first.interrupts.length, first.interrupts[0].toolName, first.interrupts[0].args], ['interrupted', 1, 'refund', { order }], `the run stopped to ask about ${order}`);
        return { agent, model, first, id: first.interrupts[0].id };
      };
      const approved = await stopped('A');
      const wrong = await F.collectAgentRun(approved.agent.resume(approved.first.runId, [{ id: 'approval-nope', approved: true }])).then(
        () => undefined,
        (error) => error,
      );
      equal([wrong?.name, wrong?.code], ['InterruptNotFoundError', 'INTERRUPT_NOT_FOUND'], 'a wrong resume is typed');
      const done = await F.collectAgentRun(approved.agent.resume(approved.first.runId, [{ id: approved.id, approved: true }]));
      equal([done.status, ran, toolAnswer(approved.model).ok], ['finished', ['A'], true], 'approved: ran once');
      const again = await F.collectAgentRun(approved.agent.resume(approved.first.runId, [{ id: approved.id, approved: true }]));
      equal([again.replay, ran], [true, ['A']], 'the same resume again is a replay');
      const denied = await stopped('B');
      await F.collectAgentRun(denied.agent.resume(denied.first.runId, [{ id: denied.id, approved: false, reason: 'Too large.' }]));
      equal([toolAnswer(denied.model).error.type, toolAnswer(denied.model).error.context.reason, ran], ['ToolApprovalDenied', 'Too large.', ['A']], 'denied: not run, the reason shown');
      const expired = await stopped('C', 40);
      await new Promise((resolve) => setTimeout(resolve, 80));
      await F.collectAgentRun(expired.agent.resume(expired.first.runId, []));
      equal([toolAnswer(expired.model).error.type, ran], ['ToolApprovalExpired', ['A']], 'expired: not run, the model told');
    },
  },
  {
    name: 'errors: framework errors keep their brand, kind, cause and wire form',
    async run({ F }) {
      const cause = new Error('socket hang up');
      const error = new F.ChatClientError('Chat API returned 503', { status: 503, cause });
      check(F.ChatClientError.isInstance(error) && F.AgentError.isInstance(error) && !F.ConfigError.isInstance(error), 'brands');
      equal([error.kind, error.retryable, error.cause === cause], ['chat_client', true, true], 'kind, retryable, cause');
      equal(F.toResponseError(error), { type: 'api_error', message: 'Chat API returned 503' }, 'ResponseError');
      equal(F.toResponseError(F.markRecoverable(Object.assign(new Error('x'), { code: 7 }))), { type: 'flow_error', message: 'x', code: '7' }, 'code through the recoverable wrapper');
      equal(JSON.parse(F.serializeToolResult(F.ToolResult.errorWithData('Validation failed', { invalid_fields: ['path'] }))), { ok: false, data: { invalid_fields: ['path'] }, error: { type: 'ToolExecutionFailed', message: 'Validation failed' } }, 'tool result JSON');
    },
  },
];

/**
 * Runs every scenario in order and reports `{name, status: 'passed'|'failed'|'skipped', ms, error?, reason?}` each.
 * @param {any} F the SDK namespace (ESM module or the IIFE global)
 * @param {string} baseURL the fault server (chat faults under `<baseURL>/chat`, MCP faults under `<baseURL>/mcp`,
 *   Anthropic faults under `<baseURL>/anthropic`)
 * @param {string} runtime the harness name, for skips
 * @param {any} UI the `faultline/ui` namespace (ESM module or the IIFE global)
 */
export async function runScenarios(F, baseURL, runtime, UI) {
  const results = [];
  for (const [index, scenario] of scenarios.entries()) {
    const reason = scenario.skip?.[runtime];
    if (reason) {
      results.push({ name: scenario.name, status: 'skipped', ms: 0, reason });
      continue;
    }
    const started = Date.now();
    try {
      await scenario.run({ F, UI, baseURL, runId: `${runtime}-${index}-${Math.random().toString(16).slice(2, 10)}` });
      results.push({ name: scenario.name, status: 'passed', ms: Date.now() - started });
    } catch (error) {
      results.push({ name: scenario.name, status: 'failed', ms: Date.now() - started, error: `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}` });
    }
  }
  return results;
}
