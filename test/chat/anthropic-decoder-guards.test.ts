// Anthropic stream decoder guards: a tool_use id repeated in one answer is refused (as the Chat Completions and
// Responses decoders refuse a repeated call id), and every stop reason that means the output was cut (`max_tokens`,
// `model_context_window_exceeded`: both finish `length`) leaves an empty tool_use cut — never run with `{}`.
// Event shapes as documented: https://docs.anthropic.com/en/docs/build-with-claude/streaming (`message_start`,
// `content_block_start` with a `tool_use` block `{ id, name, input: {} }`, `input_json_delta`, `content_block_stop`,
// `message_delta` with `delta.stop_reason`, `message_stop`) and stop reasons:
// https://docs.anthropic.com/en/api/handling-stop-reasons
import { describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createAnthropicClient } from '../../src/chat/anthropic/index.js';
import { collectChatStream, type ChatRequest } from '../../src/chat/index.js';
import { StreamError } from '../../src/errors/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';
import { readAll } from '../helpers/chat-stream.js';

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const ev = (type: string, data: Record<string, unknown> = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const start = ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 3, output_tokens: 1 } } });
const toolUse = (index: number, id: string, name = 'refund') => ev('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } });
const json = (index: number, partial: string) => ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
const stop = (index: number) => ev('content_block_stop', { index });
const end = (reason: string) => ev('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 5 } }) + ev('message_stop');
const text = start + ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) + ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'done' } }) + stop(0) + end('end_turn');

/** A client whose fetch answers each call with the next SSE body (the last one repeats). */
function client(...bodies: string[]) {
  let calls = 0;
  const fetch = (async () => new Response(bodies[Math.min(calls++, bodies.length - 1)], { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch;
  return createAnthropicClient({ apiKey: 'sk-ant-test-0123456789abcdef', model: 'claude-sonnet-4-5', maxTokens: 512, retry: false, fetch });
}

function agent(model: ReturnType<typeof client>, executed: unknown[]) {
  const tool = (name: string) =>
    defineTool({ name, description: 'x', parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } } }), execute: (args) => (executed.push(args), { ok: 1 }) });
  return new AgentBuilder('a').chatClient(model).tools([tool('refund'), tool('purge')]).toolLogger(() => {}).build();
}

describe('Anthropic decoder: a repeated tool_use id', () => {
  const dup = start + toolUse(0, 'toolu_1') + json(0, '{"order":"A-1"}') + stop(0) + toolUse(1, 'toolu_1') + json(1, '{"order":"A-1"}') + stop(1) + end('tool_use');

  it('a second tool_use with an id seen already is a StreamError malformed_chunk, as on Chat Completions and Responses', async () => {
    const { chunks, error } = await readAll(client(dup).stream(ask));
    expect(error).toBeInstanceOf(StreamError);
    expect(error).toMatchObject({ reason: 'malformed_chunk' });
    expect((error as Error).message).toContain('a second tool call with the id toolu_1');
    expect(chunks.filter((chunk) => chunk.type === 'tool-call-start')).toHaveLength(1);
  });

  it('the agent does not run the tool twice (nor at all) on such an answer', async () => {
    const executed: unknown[] = [];
    await expect(collectAgentRun(await agent(client(dup, text), executed).run('refund A-1'))).rejects.toMatchObject({ reason: 'malformed_chunk' });
    expect(executed).toEqual([]);
  });

  it('distinct ids still make two calls', async () => {
    const two = start + toolUse(0, 'toolu_1') + json(0, '{"order":"A-1"}') + stop(0) + toolUse(1, 'toolu_2') + json(1, '{"order":"A-2"}') + stop(1) + end('tool_use');
    expect((await collectChatStream(client(two).stream(ask))).message.toolCalls?.map((call) => call.id)).toEqual(['toolu_1', 'toolu_2']);
  });
});

describe('Anthropic decoder: every stop reason that cuts the output cuts an empty tool_use', () => {
  for (const reason of ['max_tokens', 'model_context_window_exceeded']) {
    it(`${reason}: an empty tool_use (stopped, then the stop reason) ends with "" and finish length`, async () => {
      const response = await collectChatStream(client(start + toolUse(0, 'toolu_1', 'purge') + stop(0) + ev('ping') + end(reason)).stream(ask));
      expect(response.message.toolCalls).toEqual([{ id: 'toolu_1', name: 'purge', arguments: '' }]);
      expect(response.finishReason).toBe('length');
    });

    it(`${reason}: an empty tool_use still open at message_stop ends with "" too`, async () => {
      const response = await collectChatStream(client(start + toolUse(0, 'toolu_1', 'purge') + end(reason)).stream(ask));
      expect(response.message.toolCalls).toEqual([{ id: 'toolu_1', name: 'purge', arguments: '' }]);
      expect(response.finishReason).toBe('length');
    });

    it(`${reason}: the agent does not run the cut call`, async () => {
      const executed: unknown[] = [];
      const result = await collectAgentRun(await agent(client(start + toolUse(0, 'toolu_1', 'purge') + stop(0) + end(reason)), executed).run('go'));
      expect(executed).toEqual([]);
      expect(result.finishReason).toBe('length');
    });
  }

  it('a stop reason that does not cut (tool_use) still gives an empty tool_use {}', async () => {
    const response = await collectChatStream(client(start + toolUse(0, 'toolu_1', 'purge') + stop(0) + end('tool_use')).stream(ask));
    expect(response.message.toolCalls).toEqual([{ id: 'toolu_1', name: 'purge', arguments: '{}' }]);
  });
});
