// What the decoders keep from an answer to send back on the next request has a bound (src/chat/core/replay-bounds.ts):
// tool-call ids, tool names and output item ids (MAX_ID_LENGTH characters), and the reasoning a provider asks to get
// back — an Anthropic thinking block's text and signature, redacted thinking data, a Responses reasoning item with its
// encrypted_content (MAX_REPLAY_LENGTH). For each bound, in the stream and in a whole answer: a value at the bound is
// kept, one past it is a typed error (StreamError malformed_chunk / ChatClientError invalid_response) — in a stream as
// soon as the excess arrives, so a 40 MB signature is refused after about 4 MiB of it, not held to its end.
import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../src/chat/anthropic/anthropic-message.js';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import { MAX_ID_LENGTH, MAX_REPLAY_LENGTH } from '../../src/chat/core/replay-bounds.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { decodeResponse } from '../../src/chat/openai-responses/responses-output.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { decodeCompletion } from '../../src/chat/openai/openai-wire.js';
import { decodeAll } from './stream-decoder-drive.js';

/** Lines as long as a whole payload: the SSE line bound is an option a caller may raise; these bounds hold regardless. */
const context = { secrets: [], label: 'Provider API (provider.test)', model: 'm', attempt: 1, maxLineLength: 64 * 1024 * 1024 };
const encode = (text: string) => new TextEncoder().encode(text);
const sse = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const id = (length: number) => `id_${'x'.repeat(length - 3)}`;
const finishOf = (chunks: readonly ChatChunk[]) => chunks.find((chunk): chunk is Extract<ChatChunk, { type: 'finish' }> => chunk.type === 'finish');
const tooLong = { name: 'StreamError', reason: 'malformed_chunk' };
const wholeTooLong = { name: 'ChatClientError', reason: 'invalid_response', retryable: false };

describe('Anthropic: ids, names and thinking kept for the next request', () => {
  const start = sse({ type: 'message_start', message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } } });
  const end = sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 2 } }) + sse({ type: 'message_stop' });
  const toolUse = (toolId: string, name: string) =>
    start + sse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: toolId, name, input: {} } }) + sse({ type: 'content_block_stop', index: 0 }) + end;
  const thinking = (parts: readonly string[], signature: readonly string[]) =>
    start +
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }) +
    parts.map((part) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: part } })).join('') +
    signature.map((part) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: part } })).join('') +
    sse({ type: 'content_block_stop', index: 0 }) +
    end;
  const stream = (body: string) => decodeAll(new AnthropicStreamDecoder(context), [encode(body)]);
  const message = (content: unknown[]) => ({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content, stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } });

  it(`a tool_use id or name of ${MAX_ID_LENGTH} characters is kept; one more is refused, streamed or whole`, () => {
    expect(stream(toolUse(id(MAX_ID_LENGTH), id(MAX_ID_LENGTH))).error).toBeUndefined();
    expect(stream(toolUse(id(MAX_ID_LENGTH + 1), 'lookup')).error).toMatchObject({ ...tooLong, message: expect.stringContaining(`a tool_use id of ${MAX_ID_LENGTH + 1} characters, over the limit of ${MAX_ID_LENGTH}`) });
    expect(stream(toolUse('toolu_1', id(MAX_ID_LENGTH + 1))).error).toMatchObject({ ...tooLong, message: expect.stringContaining('a tool name of') });
    expect(decodeMessage(message([{ type: 'tool_use', id: id(MAX_ID_LENGTH), name: 'lookup', input: {} }]), 'Anthropic API', []).message.toolCalls).toHaveLength(1);
    expect(() => decodeMessage(message([{ type: 'tool_use', id: id(MAX_ID_LENGTH + 1), name: 'lookup', input: {} }]), 'Anthropic API', [])).toThrow(expect.objectContaining(wholeTooLong));
    expect(() => decodeMessage(message([{ type: 'tool_use', id: 'toolu_1', name: id(MAX_ID_LENGTH + 1), input: {} }]), 'Anthropic API', [])).toThrow(expect.objectContaining(wholeTooLong));
  });

  it(`a thinking block of ${MAX_REPLAY_LENGTH} characters (text and signature) is kept for replay; one more is refused, streamed or whole`, () => {
    const half = MAX_REPLAY_LENGTH / 2;
    const kept = stream(thinking(['a'.repeat(half)], ['s'.repeat(half)]));
    expect(kept.error).toBeUndefined();
    expect(finishOf(kept.chunks)?.replay?.[0]?.item).toMatchObject({ type: 'thinking', signature: expect.any(String) });
    expect(stream(thinking(['a'.repeat(half)], ['s'.repeat(half + 1)])).error).toMatchObject({ ...tooLong, message: expect.stringContaining(`a thinking block of ${MAX_REPLAY_LENGTH + 1} characters`) });
    // Through the compact thinking_delta fast path too.
    expect(stream(thinking(['a'.repeat(half), 'a'.repeat(half + 1)], [])).error).toMatchObject(tooLong);
    const block = (text: number, signature: number) => ({ type: 'thinking', thinking: 'a'.repeat(text), signature: 's'.repeat(signature) });
    expect(decodeMessage(message([block(half, half)]), 'Anthropic API', []).message.replay).toHaveLength(1);
    expect(() => decodeMessage(message([block(half, half + 1)]), 'Anthropic API', [])).toThrow(expect.objectContaining(wholeTooLong));
  });

  it(`redacted thinking data of ${MAX_REPLAY_LENGTH} characters is kept; one more is refused, streamed or whole`, () => {
    const redacted = (length: number) => start + sse({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'd'.repeat(length) } }) + sse({ type: 'content_block_stop', index: 0 }) + end;
    expect(stream(redacted(MAX_REPLAY_LENGTH)).error).toBeUndefined();
    expect(stream(redacted(MAX_REPLAY_LENGTH + 1)).error).toMatchObject(tooLong);
    expect(() => decodeMessage(message([{ type: 'redacted_thinking', data: 'd'.repeat(MAX_REPLAY_LENGTH + 1) }]), 'Anthropic API', [])).toThrow(expect.objectContaining(wholeTooLong));
  });

  it('a 40 MB signature is refused at the first part past the bound, not held to the end of its block', () => {
    const part = 's'.repeat(512 * 1024);
    const decoder = new AnthropicStreamDecoder({ ...context, maxLineLength: undefined });
    decoder.push(encode(thinking([], []).split('event: content_block_stop')[0] as string));
    let parts = 0;
    let failure: unknown;
    const frame = encode(sse({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: part } }));
    for (; parts < 80 && failure === undefined; parts++) {
      try {
        decoder.throwIfPending();
        decoder.push(frame);
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toMatchObject(tooLong);
    // 8 parts make the bound; the ninth (or the pending failure raised before the tenth) ends the stream.
    expect(parts).toBeLessThanOrEqual(Math.ceil(MAX_REPLAY_LENGTH / part.length) + 2);
  });
});

describe('Chat Completions: tool-call ids and names kept for the next request', () => {
  const frame = (call: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, type: 'function', ...call }] } }] })}\n\n`;
  const finish = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n`;
  const stream = (callId: string, name: string) => decodeAll(new OpenAIStreamDecoder({ createId: () => 'call_generated', maxLineLength: context.maxLineLength }), [encode(frame({ id: callId, function: { name, arguments: '{}' } }) + finish)]);
  const completion = (callId: string, name: string) => ({ id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name, arguments: '{}' } }] }, finish_reason: 'tool_calls' }] });

  it(`a tool call id or name of ${MAX_ID_LENGTH} characters is kept; one more is refused, streamed or whole`, () => {
    expect(stream(id(MAX_ID_LENGTH), id(MAX_ID_LENGTH)).error).toBeUndefined();
    expect(stream(id(MAX_ID_LENGTH + 1), 'f').error).toMatchObject({ ...tooLong, message: expect.stringContaining(`a tool call id of ${MAX_ID_LENGTH + 1} characters`) });
    expect(stream('call_1', id(MAX_ID_LENGTH + 1)).error).toMatchObject({ ...tooLong, message: expect.stringContaining('a tool name of') });
    expect(decodeCompletion(completion(id(MAX_ID_LENGTH), 'f'), 'Chat API', () => 'x').message.toolCalls).toHaveLength(1);
    expect(() => decodeCompletion(completion(id(MAX_ID_LENGTH + 1), 'f'), 'Chat API', () => 'x')).toThrow(expect.objectContaining(wholeTooLong));
    expect(() => decodeCompletion(completion('call_1', id(MAX_ID_LENGTH + 1)), 'Chat API', () => 'x')).toThrow(expect.objectContaining(wholeTooLong));
  });

  it('a 1 MB tool call id is refused, not copied into the next request', () => {
    expect(stream(id(1024 * 1024), 'f').error).toMatchObject(tooLong);
  });
});

describe('OpenAI Responses: item ids, call ids, names and reasoning items kept for the next request', () => {
  const failureContext = { label: 'Responses API', model: 'm', secrets: [] };
  const reasoning = (length: number) => {
    const item = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: '' };
    return { ...item, encrypted_content: 'e'.repeat(length - JSON.stringify(item).length) };
  };
  const call = (fields: Record<string, unknown> = {}) => ({ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}', status: 'completed', ...fields });
  const completed = (output: unknown[]) => sse({ type: 'response.completed', response: { id: 'r', status: 'completed', output } });
  const stream = (items: unknown[]) =>
    decodeAll(new ResponsesStreamDecoder(context), [encode(items.map((item, index) => sse({ type: 'response.output_item.done', output_index: index, item })).join('') + completed(items))]);

  it(`a call_id, item id or name of ${MAX_ID_LENGTH} characters is kept; one more is refused, streamed or whole`, () => {
    for (const key of ['call_id', 'id', 'name']) {
      expect(stream([call({ [key]: id(MAX_ID_LENGTH) })]).error, key).toBeUndefined();
      expect(stream([call({ [key]: id(MAX_ID_LENGTH + 1) })]).error, key).toMatchObject({ ...tooLong, message: expect.stringContaining(`an output item's ${key} of ${MAX_ID_LENGTH + 1} characters`) });
      expect(decodeResponse({ status: 'completed', output: [call({ [key]: id(MAX_ID_LENGTH) })] }, failureContext).message.toolCalls, key).toHaveLength(1);
      expect(() => decodeResponse({ status: 'completed', output: [call({ [key]: id(MAX_ID_LENGTH + 1) })] }, failureContext), key).toThrow(expect.objectContaining(wholeTooLong));
    }
  });

  it(`a reasoning item of ${MAX_REPLAY_LENGTH} characters as JSON (its encrypted_content) is kept for replay; one more is refused, streamed or whole`, () => {
    const kept = stream([reasoning(MAX_REPLAY_LENGTH), call()]);
    expect(kept.error).toBeUndefined();
    expect(finishOf(kept.chunks)?.replay?.[0]?.item).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
    expect(stream([reasoning(MAX_REPLAY_LENGTH + 1), call()]).error).toMatchObject({ ...tooLong, message: expect.stringContaining(`a reasoning item of ${MAX_REPLAY_LENGTH + 1} characters`) });
    expect(decodeResponse({ status: 'completed', output: [reasoning(MAX_REPLAY_LENGTH), call()] }, failureContext).message.replay).toHaveLength(2);
    expect(() => decodeResponse({ status: 'completed', output: [reasoning(MAX_REPLAY_LENGTH + 1), call()] }, failureContext)).toThrow(expect.objectContaining(wholeTooLong));
  });
});
