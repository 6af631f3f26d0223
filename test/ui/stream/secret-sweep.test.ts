// A planted-secret sweep over every frame type of the UI message stream: configured secrets (the agent's own, and the
// stream's `secrets`) in every form, credential shapes nobody configured, and credentials inside URLs — planted in
// tool arguments, tool outputs, tool errors and their causes, retry notices, model errors, streamed text and
// reasoning split across deltas, replay items, graph records and the runner's completion — never reach a frame, in
// the model view or the developer view.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder } from '../../../src/agent/index.js';
import { createScriptedChatClient, type ChatChunk, type ChatClient, type ChatStream } from '../../../src/chat/index.js';
import { ChatClientError } from '../../../src/errors/index.js';
import { createGraphAgent, ExecutionErrorCollector, messagesStateSchema, StateGraph } from '../../../src/graph/index.js';
import { secretForms } from '../../../src/internal/redact.js';
import { Runner } from '../../../src/runner/index.js';
import { defineTool, RateLimitError, toolErrorFromResponse, ToolFailure } from '../../../src/tools/index.js';
import { toUIMessageStream, type UIMessageStreamOptions } from '../../../src/ui/index.js';
import { checkedBody } from './ui-stream.js';

const AGENT_SECRET = 'agent-secret-PLANTED-4k2j';
const STREAM_SECRET = 'stream-secret-PLANTED-8h3g';
const SHAPED = 'sk-live-SHAPEDplanted0123456789';
const URL_TOKEN = 'urltokenPLANTED0123abcd';
const URL_PASSWORD = 'dbpassPLANTED77';
const ALL = [AGENT_SECRET, STREAM_SECRET];
/** Everything that must not be in any frame. */
const NEEDLES = [...ALL.flatMap((secret) => secretForms(secret)), SHAPED, URL_TOKEN, URL_PASSWORD];
const leak = `${AGENT_SECRET} ${STREAM_SECRET} ${SHAPED} https://api.test/v1/items?api_key=${URL_TOKEN}&x=1 postgres://app:${URL_PASSWORD}@db.test/orders`;

/** Neither the frames nor the message a client builds from them (deltas joined: a secret split across frames). */
function expectNoSecret(body: { text: string; message: unknown }): void {
  for (const text of [body.text, JSON.stringify(body.message)]) {
    const found = NEEDLES.filter((needle) => text.includes(needle));
    expect(found, text.slice(0, 2_000)).toEqual([]);
  }
}

/** A client answering its calls in turn: the first asks for every tool with the secrets in the arguments. */
function model(): ChatClient {
  const replay = [{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking: `thought about ${AGENT_SECRET}`, signature: 'EqQBsig' } }];
  const args = JSON.stringify({ note: leak });
  const turns: ChatChunk[][] = [
    [
      ...[...`Reasoning about ${leak} step by step.`].map((delta) => ({ type: 'reasoning-delta' as const, delta })),
      ...[...`Calling tools with ${leak} now.`].map((delta) => ({ type: 'text-delta' as const, delta })),
      ...['echo', 'fail', 'crash', 'flaky', 'http'].map((name, index) => ({ type: 'tool-call-end' as const, index, id: `call_${name}`, name, arguments: args })),
      { type: 'finish', reason: 'tool_calls', replay },
    ],
  ];
  let call = 0;
  return {
    name: 'sweep',
    stream: (request) => {
      const chunks = turns[call++];
      if (!chunks) {
        request.onRetry?.({ attempt: 1, delayMs: 1, fromRetryAfter: false, error: { name: 'ChatClientError', message: `retrying after ${leak}` } });
        return new ReadableStream<ChatChunk>({ start: (controller) => controller.error(new ChatClientError(`Provider said ${leak}`, { status: 500 })) }) as ChatStream;
      }
      return new ReadableStream<ChatChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }) as ChatStream;
    },
    complete: () => Promise.reject(new Error('unused')),
  };
}

const note = z.object({ note: z.string() });
let flakyAttempts = 0;
const tools = [
  defineTool({ name: 'echo', description: 'Echoes.', parameters: note, execute: ({ note: text }) => ({ echoed: text, [STREAM_SECRET]: 'as a key' }) }),
  defineTool({ name: 'fail', description: 'Fails.', parameters: note, execute: ({ note: text }) => { throw new ToolFailure('Refused', `refused ${text}`, { context: { note: text }, suggestion: `try without ${AGENT_SECRET}`, cause: new Error(text) }); } }),
  defineTool({ name: 'crash', description: 'Crashes.', parameters: note, execute: ({ note: text }) => { throw new Error(`crashed on ${text}`); } }),
  defineTool({
    name: 'flaky',
    description: 'Rate limited once.',
    parameters: note,
    retry: { maxAttempts: 2, initialDelayMs: 1 },
    execute: ({ note: text }) => {
      if (++flakyAttempts === 1) throw new RateLimitError(`slow down ${text}`, { retryAfterMs: 1 });
      return 'ok';
    },
  }),
  defineTool({
    name: 'http',
    description: 'Calls an API.',
    parameters: note,
    execute: async ({ note: text }) => {
      const response = new Response(JSON.stringify({ error: { message: `upstream echoed ${text}` } }), { status: 401 });
      Object.defineProperty(response, 'url', { value: `https://api.test/v1/items?api_key=${URL_TOKEN}` });
      throw await toolErrorFromResponse(response, { service: 'Items', showURL: 'full' });
    },
  }),
];

describe('no frame holds a secret', () => {
  for (const expose of ['model', 'developer'] as const) {
    it(`an agent run, ${expose} view: every frame type`, async () => {
      flakyAttempts = 0;
      const agent = new AgentBuilder('sweep').chatClient(model()).tools(tools).secrets([AGENT_SECRET]).toolLogger(false).build();
      const options: UIMessageStreamOptions = { expose, secrets: [STREAM_SECRET] };
      const body = await checkedBody(toUIMessageStream(agent.run('Go.'), options));
      const types = new Set(body.chunks.map((chunk) => chunk.type));
      for (const type of ['reasoning-delta', 'reasoning-end', 'text-delta', 'tool-input-available', 'tool-output-available', 'tool-output-error', 'data-faultline-error', 'data-faultline-retry', 'error', 'finish']) {
        expect(types, type).toContain(type);
      }
      expect(body.text).toContain('[REDACTED]');
      expectNoSecret(body);
    });
  }

  it('a graph run under a Runner: records and the completion (state included)', async () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(messagesStateSchema().addField('note'))
      .use(collector)
      .addNode('write', () => {
        throw Object.assign(new Error(`write failed: ${leak}`), { code: 'WRITE_FATAL' });
      })
      .setEntryPoint('write')
      .setFinishPoint('write')
      .compile();
    const runner = new Runner({ appName: 'sweep', agent: createGraphAgent('sweep', graph) });
    const run = runner.run({ userId: 'u', sessionId: 's', message: 'Go.', state: { note: leak } });
    const body = await checkedBody(toUIMessageStream(run, { secrets: ALL, expose: 'developer', completionState: true }));
    expect(body.chunks.some((chunk) => chunk.type === 'data-faultline-record')).toBe(true);
    expect(body.chunks.some((chunk) => chunk.type === 'data-faultline-completion')).toBe(true);
    expectNoSecret(body);
  });

  it('a Runner run of an LLM agent: streamed text, tool calls and outputs', async () => {
    const echo = tools[0]!;
    const agent = new AgentBuilder('sweep')
      .chatClient(createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { note: leak } }] }, { text: `Done: ${leak}`, chunkSize: 3 }]))
      .tools([echo])
      .build();
    const body = await checkedBody(toUIMessageStream(new Runner({ appName: 'sweep', agent }).run({ userId: 'u', sessionId: 's', message: 'Go.' }), { secrets: ALL }));
    expect(body.text).toContain('[REDACTED]');
    expectNoSecret(body);
  });
});
