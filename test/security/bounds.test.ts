/**
 * Bounds and prototype pollution where test/security/prototype-pollution.test.ts (the root entry's functions, runTool
 * with a schema), test/graph/state-graph.test.ts (a reduce and an invoke with `__proto__`) and test/a2a/decode.test.ts
 * (decoders dropping `__proto__`) stop: the same payloads end to end — through an agent run and the OpenAI stream
 * decoder, graph runs under the Runner (updates, Commands, routers, fallback state, the completion's state delta), A2A
 * metadata and `state_delta` envelopes through the client, the converter and a parent graph's collector, and the A2A
 * handler. Each must be kept as own data or rejected with a named, typed error, and `Object.prototype` must stay clean.
 *
 * Oversized input must be refused at its exact bound with a typed error, promptly and without buffering without
 * limit: an SSE line or event of the chat client (`StreamError` `line_too_long`), a JSON-RPC body of the A2A handler
 * (HTTP 413, `-32600`), counted in bytes, tool arguments (`InputValidationError`, `DEFAULT_MAX_ARGUMENTS_LENGTH`),
 * and answers read by the clients (error bodies, unary A2A answers, non-streamed completions, A2A stream lines).
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AAgent, createA2AClient, createA2AHandler, fetchAgentCard, stateDeltaFromMetadata, type AgentCard } from '../../src/a2a/index.js';
import { AgentBuilder, type AgentRunItem } from '../../src/agent/index.js';
import { collectChatStream, createOpenAICompatibleClient, createScriptedChatClient, type ChatChunk, type ChatClient } from '../../src/chat/index.js';
import { ChatClientError, SerializeError, StreamError, toResponseError, WorkflowError } from '../../src/errors/index.js';
import {
  Command,
  createGraphAgent,
  decodeStateDelta,
  emitCustomStateDelta,
  END,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  reducers,
  StateGraph,
  StateSchema,
  type Reducer,
  type State,
} from '../../src/graph/index.js';
import { DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_EVENT_LENGTH } from '../../src/wire/sse-decoder.js';
import { isRunnerCompletion, Runner, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { chunk, sseText, textEvents } from '../../src/testing/openai-stream.js';
import { DEFAULT_MAX_ARGUMENTS_LENGTH } from '../../src/tools/tool-arguments.js';
import { defineTool, runTool, serializeToolResult, type StandardSchemaV1 } from '../../src/tools/index.js';
import { within } from '../helpers/async.js';

// ---------------------------------------------------------------------------------------------------------------
// Payloads and checks

type Data = Record<string, unknown>;

/** Every prototype-reaching key, as `JSON.parse` makes them: own data properties. */
const POLLUTING_KEYS_JSON = '"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": {"polluted": "yes"}';
const polluting = (rest = ''): Data => JSON.parse(`{${POLLUTING_KEYS_JSON}${rest === '' ? '' : `, ${rest}`}}`) as Data;

afterEach(() => {
  try {
    expectPristine();
  } finally {
    for (const prototype of [Object.prototype, Array.prototype, Function.prototype]) delete (prototype as Data).polluted;
  }
});

function expectPristine(): void {
  expect(({} as Data).polluted, 'Object.prototype.polluted').toBeUndefined();
  expect(([] as unknown as Data).polluted, 'Array.prototype.polluted').toBeUndefined();
  expect((Object as unknown as Data).polluted, 'Function.prototype.polluted').toBeUndefined();
}

/** `value` is an ordinary object whose `key` is an own data property equal to `expected`. */
function expectOwnData(value: unknown, key: string, expected: unknown): void {
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  expect(descriptor && 'value' in descriptor, `own data property ${key}`).toBe(true);
  expect(descriptor?.value).toEqual(expected);
  expect((value as Data).polluted).toBeUndefined();
}

/** `value` keeps all three polluting keys as own data. */
function expectPollutingKeysAsData(value: unknown): void {
  expectOwnData(value, '__proto__', { polluted: 'yes' });
  expectOwnData(value, 'constructor', { prototype: { polluted: 'yes' } });
  expectOwnData(value, 'prototype', { polluted: 'yes' });
}

/** A Standard Schema that accepts any object unchanged (so every key reaches the tool). */
const anyObject: StandardSchemaV1<Data> = {
  '~standard': {
    version: 1,
    vendor: 'faultline-test',
    validate: (value) => (typeof value === 'object' && value !== null ? { value: value as Data } : { issues: [{ message: 'expected an object' }] }),
    jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
  },
};

const encoder = new TextEncoder();

/** A body that repeats `piece` forever (or `times` times), one piece per read, never buffering ahead. */
function repeatingBody(piece: string, times = Infinity): { body: ReadableStream<Uint8Array>; reads: () => number } {
  const bytes = encoder.encode(piece);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= times) controller.close();
        else {
          sent++;
          controller.enqueue(bytes);
        }
      },
    },
    { highWaterMark: 0 },
  );
  return { body, reads: () => sent };
}

const sseHeaders = { 'content-type': 'text/event-stream' };

/** An OpenAI-compatible client whose every call is answered by `respond` (no network). */
function stubClient(respond: () => Response, options: { maxLineLength?: number } = {}): ChatClient {
  return createOpenAICompatibleClient({ baseURL: 'https://llm.bounds.test/v1', model: 'bounds-model', fetch: async () => respond(), retry: false, ...options });
}

async function streamFailure(client: ChatClient): Promise<{ error: unknown; chunks: ChatChunk[] }> {
  const chunks: ChatChunk[] = [];
  try {
    for await (const piece of client.stream({ messages: [{ role: 'user', content: 'hi' }] })) chunks.push(piece);
  } catch (error) {
    return { error, chunks };
  }
  return { error: undefined, chunks };
}

function expectLineTooLong(error: unknown, message: RegExp): void {
  expect(StreamError.isInstance(error), `a StreamError, got ${String(error)}`).toBe(true);
  expect(error).toMatchObject({ name: 'StreamError', kind: 'stream', reason: 'line_too_long' });
  expect((error as Error).message).toMatch(message);
  expect(toResponseError(error)?.type).toBe('stream_error');
}

// ---------------------------------------------------------------------------------------------------------------

describe('prototype-pollution payloads end to end', () => {
  describe('tool calls and the model stream', () => {
    it('hands a loose tool every polluting key of the model arguments as own data, and the tool result keeps them as data', async () => {
      const received: Data[] = [];
      const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: anyObject, execute: (args: Data) => (received.push(args), args) });
      const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'echo', arguments: `{${POLLUTING_KEYS_JSON}, "city": "Paris"}` }] }, { text: 'Done.' }]);
      const agent = new AgentBuilder('echo-agent').chatClient(model).tools([echo]).toolLogger(() => {}).build();
      const items: AgentRunItem[] = [];
      for await (const item of await agent.run('Echo.')) items.push(item);
      expect(items.at(-1)).toMatchObject({ type: 'finish', text: 'Done.' });
      expectPollutingKeysAsData(received[0]);
      const result = items.find((item) => item.type === 'tool-result') as Extract<AgentRunItem, { type: 'tool-result' }>;
      expect(result.outcome).toBe('success');
      expectPollutingKeysAsData(result.result.data);
      expectPollutingKeysAsData((JSON.parse(result.content) as { data: Data }).data);
    });

    it('gives a strict zod tool only its declared field: the polluting keys are stripped, not inherited', async () => {
      const received: Data[] = [];
      const weather = defineTool({ name: 'weather', description: 'Weather.', parameters: z.object({ city: z.string() }), execute: (args) => (received.push(args), 'sunny') });
      const run = await runTool(weather, `{${POLLUTING_KEYS_JSON}, "city": "Paris"}`, { logger: () => {} });
      expect(run.outcome).toBe('success');
      expect(received).toEqual([{ city: 'Paris' }]);
      expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
      expect(Object.keys(received[0] as Data)).toEqual(['city']);
    });

    it('accepts polluting arguments from the repair hook as own data, never through a prototype', async () => {
      const received: Data[] = [];
      // zod drops a `__proto__` key itself; `constructor` and `prototype` pass a loose object as own data.
      const looseCity = z.looseObject({ city: z.string() });
      const tool = defineTool({ name: 'weather', description: 'Weather.', parameters: looseCity, execute: (args) => (received.push(args as Data), 'ok') });
      const run = await runTool(tool, '{"town": "Paris"}', { logger: () => {}, repair: () => `{${POLLUTING_KEYS_JSON}, "city": "Paris"}` });
      expect(run.outcome).toBe('success');
      expect(run.argumentsRepaired).toBe(true);
      expectOwnData(received[0], 'constructor', { prototype: { polluted: 'yes' } });
      expectOwnData(received[0], 'prototype', { polluted: 'yes' });
      expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    });

    it('reads an OpenAI stream chunk from own fields only: text, tool calls and usage smuggled under __proto__ are ignored', async () => {
      const smuggled = (inner: string) => `{"__proto__": ${inner}, `;
      const lines = [
        `${smuggled('{"choices": [{"index": 0, "delta": {"content": "injected"}}]}')}"choices": [{"index": 0, "delta": {"role": "assistant", "content": "real"}, "finish_reason": null}]}`,
        `{"choices": [{"index": 0, "delta": ${smuggled('{"tool_calls": [{"index": 0, "id": "evil", "function": {"name": "rm", "arguments": "{}"}}]}')}"content": " answer"}, "finish_reason": null}]}`,
        `{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "function": ${smuggled('{"name": "evil"}')}"arguments": "{}"}}]}, "finish_reason": null}]}`,
        `{"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}], "usage": ${smuggled('{"prompt_tokens": 999}')}"completion_tokens": 2}}`,
        '[DONE]',
      ];
      const client = stubClient(() => new Response(lines.map((line) => `data: ${line}\n\n`).join(''), { headers: sseHeaders }));
      const response = await collectChatStream(client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
      expect(response.message.content).toBe('real answer');
      expect(response.message.toolCalls).toEqual([{ id: 'call_1', name: '', arguments: '{}' }]);
      expect(response.usage).toEqual({ promptTokens: 0, completionTokens: 2, totalTokens: 2 });
    });
  });

  describe('graph runs under the Runner', () => {
    async function runGraph(graph: ReturnType<StateGraph['compile']>, state?: State): Promise<RunEvent[]> {
      const runner = new Runner({ appName: 'bounds', agent: createGraphAgent('bounds-graph', graph) });
      const events: RunEvent[] = [];
      for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go', ...(state ? { state } : {}) })) events.push(event);
      expect(events.filter(isRunnerCompletion)).toHaveLength(1);
      return events;
    }

    it('keeps polluting keys of a node update, a Command update and the input state as own data, up to the completion', async () => {
      const collector = new ExecutionErrorCollector();
      const schema = collector.addField(new StateSchema().addField('settings', { reducer: reducers.merge as Reducer }));
      const graph = new StateGraph(schema)
        .withNodeCallbacks(collector.nodeCallbacks())
        .addNode('plain', () => polluting('"status": "ok"'))
        .addNode('command', () => new Command({ update: { settings: polluting('"theme": "dark"') }, goto: 'done' }), { ends: ['done'] })
        .addNode('done', (state) => ({ seen: Object.keys(state).sort() }))
        .setEntryPoint('plain')
        .addEdge('plain', 'command')
        .setFinishPoint('done')
        .compile();

      const events = await runGraph(graph, polluting('"order": 42'));

      const completion = events.at(-1) as RunEvent;
      expect(completion.response?.error).toBeUndefined();
      expect(Object.keys(completion.stateDelta ?? {})).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'prototype', 'settings', 'status', 'order']));
      const state = decodeStateDelta(completion.stateDelta);
      expectPollutingKeysAsData(state);
      expectPollutingKeysAsData(state.settings);
      expect(state.settings).toMatchObject({ theme: 'dark' });
      expect(state.seen).toEqual(['__proto__', 'constructor', 'execution_errors', 'order', 'prototype', 'settings', 'status']);
    });

    it('rejects a node update whose prototype was replaced (an object literal with __proto__) with a fatal WorkflowError', async () => {
      const collector = new ExecutionErrorCollector();
      const graph = new StateGraph(collector.addField(new StateSchema()))
        .withNodeCallbacks(collector.nodeCallbacks())
        .addNode('hostile', () => ({ __proto__: { polluted: 'yes', status: 'inherited' } }))
        .setEntryPoint('hostile')
        .setFinishPoint('hostile')
        .compile();

      const outcome = await graph.run();
      expect(outcome.status).toBe('failed');
      const error = (outcome as Extract<typeof outcome, { status: 'failed' }>).error;
      expect(WorkflowError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'workflow', nodeId: 'hostile' });
      expect(error.message).toMatch(/^node hostile failed at step 0: the node returned an? object; a node returns a state update object, a Command, or nothing$/);

      const completion = (await runGraph(graph)).at(-1) as RunEvent;
      expect(completion.response?.error).toMatchObject({ type: 'flow_error' });
      expect(executionErrorsFromStateDelta(completion.stateDelta)).toEqual([expect.objectContaining({ severity: 'fatal', nodeId: 'hostile' })]);
      expect(decodeStateDelta(completion.stateDelta).status).toBeUndefined();
    });

    it('carries a polluting fallback delta emitted before a fatal failure as own data in the completion', async () => {
      const collector = new ExecutionErrorCollector();
      const graph = new StateGraph(collector.addField(messagesStateSchema()))
        .withNodeCallbacks(collector.nodeCallbacks())
        .addNode('write', (_state, context) => {
          emitCustomStateDelta(context, polluting('"order_status": "pending_retry"'), { eventType: 'order_fallback' });
          throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
        })
        .setEntryPoint('write')
        .setFinishPoint('write')
        .compile();

      const events = await runGraph(graph);
      const custom = events.find((event) => event.response?.object === 'graph.node.custom' && event.stateDelta?.order_status !== undefined);
      expectOwnData(custom?.stateDelta, '__proto__', '{"polluted":"yes"}');
      const completion = events.at(-1) as RunEvent;
      expect(completion.response?.error).toMatchObject({ code: 'WRITE_FATAL' });
      const state = decodeStateDelta(completion.stateDelta);
      expectPollutingKeysAsData(state);
      expect(state.order_status).toBe('pending_retry');
    });

    it('refuses a router that picks __proto__ without a path map with a WorkflowError naming it', async () => {
      const graph = new StateGraph(new StateSchema())
        .addNode('start', () => ({}))
        .setEntryPoint('start')
        .addConditionalEdges('start', () => '__proto__')
        .compile();
      const outcome = await graph.run();
      expect(outcome.status).toBe('failed');
      const error = (outcome as Extract<typeof outcome, { status: 'failed' }>).error;
      expect(WorkflowError.isInstance(error)).toBe(true);
      expect(error.message).toBe('node start routed to unknown node "__proto__" at step 0');
    });

    it('refuses a router that picks constructor from a path map with the WorkflowError naming the missing key', async () => {
      const graph = new StateGraph(new StateSchema())
        .addNode('start', () => ({}))
        .addNode('next', () => ({}))
        .setEntryPoint('start')
        .addConditionalEdges('start', () => 'constructor', { go: 'next', stop: END })
        .setFinishPoint('next')
        .compile();
      const outcome = await graph.run();
      expect(outcome.status).toBe('failed');
      const error = (outcome as Extract<typeof outcome, { status: 'failed' }>).error;
      expect(WorkflowError.isInstance(error)).toBe(true);
      expect(error.message).toBe('the router after node start chose "constructor" at step 0, which its path map does not contain');
    });
  });

  describe('A2A metadata and state_delta envelopes', () => {
    const base64 = (text: string) => btoa(String.fromCharCode(...encoder.encode(text)));
    const record = { severity: 'fatal', nodeId: 'write', nodeName: 'write', nodeType: 'function', stepNumber: 0, timestamp: '2026-01-01T00:00:00Z', error: { type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' } };

    /** A failed task whose metadata and state_delta envelope carry polluting keys next to real ones. */
    function hostileFailedTask(): Data {
      const envelope = `{"__proto__": {"encoding": "bytes", "payload": "${base64('{"polluted":"yes"}')}"}, "constructor": {"encoding": "bytes", "payload": "${base64('{"prototype":{"polluted":"yes"}}')}"}, "execution_errors": {"encoding": "bytes", "payload": "${base64(JSON.stringify([record]))}"}}`;
      const metadata = `{"__proto__": {"error_type": "injected", "polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "object_type": "error", "error_type": "flow_error", "error_code": "WRITE_FATAL", "error_message": "database write failed", "state_delta": ${envelope}}`;
      return JSON.parse(`{"kind": "task", "id": "task-1", "contextId": "ctx-1", "status": {"state": "failed", "message": {"kind": "message", "role": "agent", "messageId": "resp-1", "parts": [{"kind": "text", "text": "database write failed"}], "metadata": ${metadata}}}, "metadata": ${metadata}}`) as Data;
    }

    const card: AgentCard = { name: 'remote', url: 'https://remote.bounds.test/rpc', protocolVersion: '0.3.0', capabilities: { streaming: false } } as AgentCard;
    const remoteFetch: typeof fetch = async (_input, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: number };
      // JSON.stringify writes own `__proto__` keys, so the wire carries them as a hostile server would send them.
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: hostileFailedTask() }), { headers: { 'content-type': 'application/json' } });
    };

    it('stateDeltaFromMetadata keeps __proto__ and constructor entries as own data and ignores a state_delta smuggled under __proto__', () => {
      const delta = stateDeltaFromMetadata(hostileFailedTask().metadata as Data);
      expectOwnData(delta, '__proto__', '{"polluted":"yes"}');
      expectOwnData(delta, 'constructor', '{"prototype":{"polluted":"yes"}}');
      expect(executionErrorsFromStateDelta(delta)).toEqual([record]);
      expect(stateDeltaFromMetadata(JSON.parse(`{"__proto__": {"state_delta": {"x": {"encoding": "nil"}}}}`) as Data)).toBeUndefined();
    });

    it('through the client, the Runner and a parent collector: the remote failure keeps the real error fields, its records, and the polluting keys as data', async () => {
      const remote = (): RunnableAgent => createA2AAgent({ card, fetch: remoteFetch, retry: false, name: 'remote' });
      const runnerEvents: RunEvent[] = [];
      for await (const event of new Runner({ appName: 'bounds', agent: remote() }).run({ userId: 'u', sessionId: 's', message: 'write' })) runnerEvents.push(event);
      const failure = runnerEvents.find((event) => event.response?.object === 'error');
      expect(failure?.response?.error).toEqual({ type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' });
      expectOwnData(failure?.stateDelta, '__proto__', '{"polluted":"yes"}');
      expect(executionErrorsFromStateDelta(failure?.stateDelta)).toEqual([record]);

      const collector = new ExecutionErrorCollector();
      const parent = new StateGraph(collector.addField(messagesStateSchema()))
        .withNodeCallbacks(collector.nodeCallbacks())
        .addAgentNode('inventory', remote(), { outputMapper: collector.subgraphOutputMapper() })
        .setEntryPoint('inventory')
        .setFinishPoint('inventory')
        .compile();
      const outcome = await parent.run({ user_input: 'write' });
      // The child's failure comes home as its record (with the agent node in its path), not as a parent failure.
      expect(outcome.status).toBe('completed');
      const state = (outcome as Extract<typeof outcome, { status: 'completed' }>).state;
      expect(state.execution_errors).toEqual([{ ...record, path: ['inventory'] }]);
    });

    it('the handler answers a request whose __proto__ keys smuggle the JSON-RPC method, params or a non-blocking flag from own fields only', async () => {
      const agent: RunnableAgent = {
        name: 'echo',
        async *runEvents(invocation) {
          yield { id: 'e1', invocationId: invocation.invocationId, author: 'echo', timestamp: new Date().toISOString(), response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'done' } }] } };
        },
      };
      const handler = createA2AHandler({ agent, card: { name: 'echo' } });
      const post = async (body: string) => (await handler(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))).json() as Promise<Data>;
      const message = '{"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "hi"}], "metadata": {"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}}';

      const smuggledMethod = await post('{"__proto__": {"jsonrpc": "2.0", "method": "message/send"}, "id": 1}');
      expect(smuggledMethod.error).toMatchObject({ code: -32600 });
      const smuggledParams = await post(`{"jsonrpc": "2.0", "id": 2, "method": "message/send", "params": {"__proto__": {"message": ${message}}}}`);
      expect(smuggledParams.error).toMatchObject({ code: -32602 });
      expect((smuggledParams.error as { data: { issues: Array<{ path: string }> } }).data.issues.map((issue) => issue.path)).toEqual(['params.message']);
      const smuggledFlag = await post(`{"jsonrpc": "2.0", "id": 3, "method": "message/send", "params": {"message": ${message}, "__proto__": {"configuration": {"blocking": false}}}}`);
      // Blocking (the flag under __proto__ is not read): the answer is the finished task, not the submitted snapshot.
      expect(smuggledFlag.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('oversized input', () => {
  describe("the chat client's SSE bounds", () => {
    const MAX = 4_096;
    const EMPTY_LINE = `data: ${JSON.stringify(chunk({ content: '' }))}`;
    /** A `data:` line of exactly `length` characters carrying a text delta of `a`s. */
    function dataLineOf(length: number): string {
      const line = `data: ${JSON.stringify(chunk({ content: 'a'.repeat(length - EMPTY_LINE.length) }))}`;
      expect(line).toHaveLength(length);
      return line;
    }
    const around = (line: string) => `${sseText([chunk({ role: 'assistant', content: '' })])}${line}\n\n${sseText([chunk({}, 'stop'), '[DONE]'])}`;

    it(`accepts a line of exactly maxLineLength characters (${MAX})`, async () => {
      const line = dataLineOf(MAX);
      const client = stubClient(() => new Response(around(line), { headers: sseHeaders }), { maxLineLength: MAX });
      const response = await collectChatStream(client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
      expect(response.message.content).toBe('a'.repeat(MAX - EMPTY_LINE.length));
    });

    it('refuses a line one character longer with StreamError line_too_long, before any output', async () => {
      const client = stubClient(() => new Response(around(dataLineOf(MAX + 1)), { headers: sseHeaders }), { maxLineLength: MAX });
      const { error, chunks } = await streamFailure(client);
      expectLineTooLong(error, new RegExp(`exceeded ${MAX} characters without a line break`));
      expect(error).toMatchObject({ afterOutput: false });
      expect(chunks).toEqual([]);
    });

    it('refuses an endless line arriving in small pieces after about maxLineLength characters, without waiting for its end', async () => {
      const { body, reads } = repeatingBody('x'.repeat(100));
      const client = stubClient(() => new Response(body, { headers: sseHeaders }), { maxLineLength: MAX });
      const { error } = await within(streamFailure(client), 5_000, 'the endless line');
      expectLineTooLong(error, new RegExp(`exceeded ${MAX} characters`));
      expect(reads()).toBeLessThanOrEqual(Math.ceil(MAX / 100) + 2);
    });

    it(`refuses a line over the default bound (${DEFAULT_MAX_LINE_LENGTH} characters) with StreamError line_too_long`, async () => {
      const client = stubClient(() => new Response(around(`data: ${'x'.repeat(DEFAULT_MAX_LINE_LENGTH)}`), { headers: sseHeaders }));
      expectLineTooLong((await streamFailure(client)).error, new RegExp(`exceeded ${DEFAULT_MAX_LINE_LENGTH} characters`));
    });

    it(`refuses an event whose data lines add up to more than ${DEFAULT_MAX_EVENT_LENGTH} characters with StreamError line_too_long`, async () => {
      const piece = `data: ${'d'.repeat(1_000_000)}\n`;
      const { body } = repeatingBody(piece, 9);
      const client = stubClient(() => new Response(body, { headers: sseHeaders }));
      expectLineTooLong((await within(streamFailure(client), 10_000, 'the oversized event')).error, new RegExp(`event exceeded ${DEFAULT_MAX_EVENT_LENGTH} characters of data`));
    });
  });

  describe('the A2A handler body bound', () => {
    const agent: RunnableAgent = { name: 'idle', async *runEvents() {} };
    const LIMIT = 512;
    const handler = createA2AHandler({ agent, card: { name: 'idle' }, maxBodyBytes: LIMIT });
    /** A tasks/get request of exactly `bytes` UTF-8 bytes, padded with 2-byte characters (and one 1-byte one). */
    function bodyOf(bytes: number): string {
      const empty = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: '' } });
      const room = bytes - encoder.encode(empty).length;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: `${'é'.repeat(Math.floor(room / 2))}${room % 2 === 1 ? 'x' : ''}` } });
      expect(encoder.encode(body).length).toBe(bytes);
      return body;
    }
    const post = (body: string) => handler(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));

    it(`reads a body of exactly maxBodyBytes (${LIMIT}) bytes`, async () => {
      const response = await post(bodyOf(LIMIT));
      expect(response.status).toBe(200);
      expect(((await response.json()) as Data).error).toMatchObject({ code: -32001 });
    });

    it('answers one byte more with HTTP 413 and JSON-RPC -32600, counting bytes, not characters', async () => {
      const body = bodyOf(LIMIT + 1);
      expect(body.length).toBeLessThan(LIMIT);
      const response = await post(body);
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `The request body exceeds ${LIMIT} bytes` } });
    });
  });

  describe('tool arguments', () => {
    const received: string[] = [];
    const note = defineTool({ name: 'note', description: 'Keeps a note.', parameters: z.object({ text: z.string() }), execute: ({ text }) => (received.push(text), text.length) });
    /** Argument JSON text of exactly `length` characters. */
    const argumentsOf = (length: number) => `{"text":"${'n'.repeat(length - '{"text":""}'.length)}"}`;

    it(`parses argument text of exactly DEFAULT_MAX_ARGUMENTS_LENGTH (${DEFAULT_MAX_ARGUMENTS_LENGTH}) characters`, async () => {
      const run = await runTool(note, argumentsOf(DEFAULT_MAX_ARGUMENTS_LENGTH), { logger: () => {} });
      expect(run.outcome).toBe('success');
      expect(run.result.data).toBe(DEFAULT_MAX_ARGUMENTS_LENGTH - '{"text":""}'.length);
    });

    it('refuses one character more with an InputValidationError naming the size and the limit, without running the tool', async () => {
      received.length = 0;
      const run = await runTool(note, argumentsOf(DEFAULT_MAX_ARGUMENTS_LENGTH + 1), { logger: () => {} });
      expect(run.outcome).toBe('invalid_arguments');
      expect(run.attempts).toBe(0);
      expect(run.result.error?.type).toBe('InputValidationError');
      expect(run.result.error?.message).toBe(`Tool 'note' was called with arguments that are too large (${DEFAULT_MAX_ARGUMENTS_LENGTH + 1} characters; the limit is ${DEFAULT_MAX_ARGUMENTS_LENGTH}).`);
      expect((run.result.error?.context?.received as string).length).toBeLessThanOrEqual(200);
      expect(serializeToolResult(run.result).length).toBeLessThan(2_000);
      expect(received).toEqual([]);
    });

    it('honours a smaller maxArgumentsLength at its exact bound', async () => {
      expect((await runTool(note, argumentsOf(64), { logger: () => {}, maxArgumentsLength: 64 })).outcome).toBe('success');
      const over = await runTool(note, argumentsOf(65), { logger: () => {}, maxArgumentsLength: 64 });
      expect(over.outcome).toBe('invalid_arguments');
      expect(over.result.error?.message).toContain('(65 characters; the limit is 64)');
    });

    it('answers a model that sends oversized arguments in an agent run with an InputValidationError result, and the run goes on', async () => {
      received.length = 0;
      const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_big', name: 'note', arguments: argumentsOf(DEFAULT_MAX_ARGUMENTS_LENGTH + 1) }] }, { text: 'Too long, sorry.' }]);
      const agent = new AgentBuilder('notes').chatClient(model).tools([note]).toolLogger(() => {}).build();
      const items: AgentRunItem[] = [];
      for await (const item of await agent.run('Take a note.')) items.push(item);
      expect(items.find((item) => item.type === 'tool-result')).toMatchObject({ outcome: 'invalid_arguments', result: { ok: false, error: { type: 'InputValidationError' } } });
      expect(items.at(-1)).toMatchObject({ type: 'finish', text: 'Too long, sorry.' });
      expect(received).toEqual([]);
    });
  });

  describe('answers the clients read', () => {
    const card = { name: 'remote', url: 'https://remote.bounds.test/rpc', protocolVersion: '0.3.0', capabilities: { streaming: true } } as AgentCard;
    const SIXTEEN_MIB = 16 * 1024 * 1024;
    /** A valid JSON-RPC answer whose text part makes it larger than the client's 16 MiB bound. */
    const oversizedAnswer = () =>
      repeatingBody(`{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"${'y'.repeat(SIXTEEN_MIB + 1024)}"}]}}`, 1).body;

    it('cuts an endless chat error body at its bound: a ChatClientError with the status, promptly', async () => {
      const { body, reads } = repeatingBody(`{"error": {"message": "${'e'.repeat(4096)}`);
      const client = stubClient(() => new Response(body, { status: 401 }));
      const { error } = await within(streamFailure(client), 5_000, 'the endless error body');
      expect(ChatClientError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'chat_client', reason: 'http', status: 401, retryable: false });
      expect((error as Error).message.length).toBeLessThan(2_000);
      expect(reads()).toBeLessThanOrEqual(Math.ceil((64 * 1024) / 4096) + 2);
    });

    it('cuts an endless non-streamed completion at its bound: a ChatClientError invalid_response, promptly', async () => {
      const { body } = repeatingBody(`{"choices": [{"message": {"content": "${'c'.repeat(1 << 20)}`);
      const client = stubClient(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
      const error = await within(client.complete({ messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (failure: unknown) => failure), 10_000, 'the endless completion');
      expect(ChatClientError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'invalid_response', retryable: false });
    });

    it('cuts an endless unary A2A answer at its bound: a SerializeError for the A2A response, promptly', async () => {
      const { body } = repeatingBody('z'.repeat(1 << 20));
      const client = createA2AClient({ card, fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }), retry: false });
      const error = await within(client.sendMessage('hi').then(() => undefined, (failure: unknown) => failure), 10_000, 'the endless A2A answer');
      expect(SerializeError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: 'serialize', subject: 'A2A response' });
    });

    it('refuses a valid unary A2A answer larger than 16 MiB with a SerializeError', async () => {
      const client = createA2AClient({ card, fetch: async () => new Response(oversizedAnswer(), { headers: { 'content-type': 'application/json' } }), retry: false });
      const error = await client.sendMessage('hi').then(() => undefined, (failure: unknown) => failure);
      expect(SerializeError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ subject: 'A2A response' });
    });

    it('says that a valid unary A2A answer over 16 MiB is too large, not that it is not JSON', async () => {
      const client = createA2AClient({ card, fetch: async () => new Response(oversizedAnswer(), { headers: { 'content-type': 'application/json' } }), retry: false });
      const error = await client.sendMessage('hi').then(() => undefined, (failure: unknown) => failure);
      expect(SerializeError.isInstance(error)).toBe(true);
      expect((error as Error).message).not.toContain('is not JSON');
      expect((error as Error).message).toMatch(/16777216|16 MiB|too large|exceed/i);
    });

    it('says that a non-streamed chat completion over 32 MiB is over the limit: a ChatClientError invalid_response', async () => {
      const { body, reads } = repeatingBody(`{"choices":[{"index":0,"message":{"role":"assistant","content":"${'c'.repeat(1 << 20)}`);
      const client = stubClient(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
      const error = await within(client.complete({ messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (failure: unknown) => failure), 10_000, 'the endless completion');
      expect(ChatClientError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'invalid_response', retryable: false });
      expect((error as Error).message).toBe('Chat API (llm.bounds.test) answered with a body over the 32 MiB (33554432 bytes) limit');
      expect(reads()).toBeLessThanOrEqual(34);
    });

    it('says that an agent card over 1 MiB is over the limit: a SerializeError for the agent card', async () => {
      const { body } = repeatingBody(`{"name":"${'n'.repeat(64 * 1024)}`);
      const error = await within(
        fetchAgentCard('https://remote.bounds.test', { fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }) }).then(() => undefined, (failure: unknown) => failure),
        10_000,
        'the endless agent card',
      );
      expect(SerializeError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ subject: 'agent card' });
      expect((error as Error).message).toBe('The agent card at https://remote.bounds.test/.well-known/agent-card.json is over the 1 MiB (1048576 bytes) limit');
    });

    it('passes an A2A stream event as large as a unary answer may be (16 MiB): no inner SSE bound refuses it', async () => {
      const head = '{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"';
      const tail = '"}]}}';
      const data = head + 'z'.repeat(SIXTEEN_MIB - head.length - tail.length) + tail;
      const client = createA2AClient({ card, fetch: async () => new Response(`data: ${data}\n\n`, { headers: sseHeaders }), retry: false });
      const texts: number[] = [];
      for await (const event of client.streamMessage('hi')) texts.push(((event as { parts: Array<{ text: string }> }).parts[0]?.text ?? '').length);
      expect(texts).toEqual([SIXTEEN_MIB - head.length - tail.length]);
    });

    it('refuses an A2A stream line over the answer bound (16 MiB and its field name) with StreamError line_too_long', async () => {
      const { body } = repeatingBody(`data: ${'s'.repeat(64 * 1024)}`);
      const client = createA2AClient({ card, fetch: async () => new Response(body, { headers: sseHeaders }), retry: false });
      const error = await within(
        (async () => {
          for await (const _event of client.streamMessage('hi'));
        })().then(() => undefined, (failure: unknown) => failure),
        10_000,
        'the endless A2A stream line',
      );
      expectLineTooLong(error, new RegExp(`exceeded ${SIXTEEN_MIB + 16} characters`));
    });
  });
});
