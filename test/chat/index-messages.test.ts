// What the decoders say of an index they cannot use: the error describes what was received — a missing index is
// "without index", anything else "an invalid index -1" with the value quoted (bounded, credentials removed) — for every
// event of every provider that names one, and a delta or stop for a block that is not open says whether it ended or
// never started. Never "without an output_index" for an output_index that came.
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { decodeAll } from './stream-decoder-drive.js';

const SECRET = 'sk-proj-PLANTED-SECRET-0123456789abcdef';
const context = { secrets: [SECRET], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };
const sse = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

/** Index values that are no index, with how the message must quote them. */
const INVALID: ReadonlyArray<[unknown, string]> = [
  [-1, '-1'],
  [1.5, '1.5'],
  ['0', '"0"'],
  [2 ** 53, '9007199254740992'],
  [null, 'null'],
  [{ at: 0 }, 'an object {"at":0}'],
  [[[1]], 'an array of 1 item [[…]]'],
];

function failure(decoder: StreamDecoder, body: string): { message: string; reason: unknown } {
  const { error } = decodeAll(decoder, [new TextEncoder().encode(body)]);
  expect(error, body).toBeDefined();
  return { message: (error as { message: string }).message, reason: error?.reason };
}

/** `value` as the field `key` of `data`, or no such field for `undefined`. */
const withIndex = (data: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> => {
  const copy: Record<string, unknown> = { ...data };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
};

describe('Anthropic: content block events with an index that is missing or no index', () => {
  const start = sse({ type: 'message_start', message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } } });
  const open = sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  const events: Record<string, { before: string; data: Record<string, unknown> }> = {
    content_block_start: { before: start, data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    content_block_delta: { before: start + open, data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } } },
    content_block_stop: { before: start + open, data: { type: 'content_block_stop', index: 0 } },
  };
  for (const [type, { before, data }] of Object.entries(events)) {
    it(`${type}: a missing index is "without index", any other value "an invalid index" quoting it (bounded, without credentials)`, () => {
      expect(failure(new AnthropicStreamDecoder(context), before + sse(withIndex(data, 'index', undefined)))).toMatchObject({ reason: 'malformed_chunk', message: expect.stringContaining(`sent a ${type} without index:`) });
      for (const [value, quoted] of INVALID) {
        const { message } = failure(new AnthropicStreamDecoder(context), before + sse(withIndex(data, 'index', value)));
        expect(message).toContain(`a ${type} with an invalid index ${quoted}:`);
        expect(message).not.toContain('without');
      }
      const { message } = failure(new AnthropicStreamDecoder(context), before + sse(withIndex(data, 'index', `${SECRET} ${'x'.repeat(5000)}`)));
      expect(message).toContain('with an invalid index "[REDACTED]');
      expect(message).not.toContain(SECRET);
      expect(message.length).toBeLessThan(600);
    });
  }

  it('a delta or stop for a block that ended says it ended; for one that never started, that it never started', () => {
    const stop = sse({ type: 'content_block_stop', index: 0 });
    const delta = (index: number) => sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: 'x' } });
    expect(failure(new AnthropicStreamDecoder(context), start + open + stop + delta(0)).message).toContain('a content_block_delta for block 0, which had ended');
    expect(failure(new AnthropicStreamDecoder(context), start + open + stop + stop).message).toContain('a content_block_stop for block 0, which had ended');
    expect(failure(new AnthropicStreamDecoder(context), start + open + delta(3)).message).toContain('a content_block_delta for block 3, which never started');
  });

});

describe('OpenAI Responses: output item events with an output_index that is missing or no index', () => {
  const call = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '' };
  const added = sse({ type: 'response.output_item.added', output_index: 0, item: call });
  const events: Record<string, { before: string; data: Record<string, unknown>; required: boolean }> = {
    'response.output_item.added': { before: '', data: { type: 'response.output_item.added', output_index: 0, item: call }, required: true },
    'response.output_item.done': { before: '', data: { type: 'response.output_item.done', output_index: 0, item: call }, required: true },
    'response.function_call_arguments.delta': { before: added, data: { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '{}' }, required: true },
    'response.function_call_arguments.done': { before: added, data: { type: 'response.function_call_arguments.done', output_index: 0, item_id: 'fc_1', arguments: '{}' }, required: true },
    // Text needs no item: a text delta without an output_index is text; one with a value that is no index is refused.
    'response.output_text.delta': { before: '', data: { type: 'response.output_text.delta', output_index: 0, delta: 'Hi' }, required: false },
    'response.reasoning_summary_text.delta': { before: '', data: { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'Hm' }, required: false },
  };
  for (const [type, { before, data, required }] of Object.entries(events)) {
    it(`${type}: ${required ? 'a missing output_index is "without output_index", ' : ''}any other value "an invalid output_index" quoting it`, () => {
      if (required) {
        expect(failure(new ResponsesStreamDecoder(context), before + sse(withIndex(data, 'output_index', undefined)))).toMatchObject({ reason: 'malformed_chunk', message: expect.stringContaining(`sent a ${type} without output_index:`) });
      }
      for (const [value, quoted] of INVALID) {
        const { message } = failure(new ResponsesStreamDecoder(context), before + sse(withIndex(data, 'output_index', value)));
        expect(message).toContain(`a ${type} with an invalid output_index ${quoted}:`);
        expect(message).not.toContain('without');
      }
    });
  }

  it('arguments for an index that holds a message, or nothing, say so', () => {
    const message = sse({ type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } });
    const args = (index: number) => sse({ type: 'response.function_call_arguments.delta', output_index: index, item_id: 'fc_1', delta: '{}' });
    expect(failure(new ResponsesStreamDecoder(context), message + args(0)).message).toContain('for output_index 0, which holds a message');
    expect(failure(new ResponsesStreamDecoder(context), message + args(4)).message).toContain('for output_index 4, which holds nothing');
    expect(failure(new ResponsesStreamDecoder(context), added + args(0).replace('fc_1', 'fc_9')).message).toContain('for output_index 0, which holds another item');
  });
});

describe('Chat Completions: tool call and choice indexes that are no index', () => {
  const frame = (choice: Record<string, unknown>) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
  const decoder = () => new OpenAIStreamDecoder({ secrets: [SECRET], createId: () => 'call_generated' });

  it('tool_calls[].index: any value other than an index (or none: the place in the list) is "an invalid index" quoting it', () => {
    for (const [value, quoted] of INVALID.filter(([value]) => value !== null)) {
      const body = frame({ index: 0, delta: { tool_calls: [{ index: value, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] } });
      expect(failure(decoder(), body)).toMatchObject({ reason: 'malformed_chunk', message: expect.stringContaining(`a tool call with an invalid index ${quoted}:`) });
    }
  });

  it('choices[].index: another choice than 0 is named with its index, and said to be one this client does not read', () => {
    for (const [value, quoted] of [[1, '1'], ...INVALID.filter(([value]) => value !== null)] as Array<[unknown, string]>) {
      const { message, reason } = failure(decoder(), frame({ index: value, delta: { content: 'Hi' } }));
      expect(reason).toBe('malformed_chunk');
      expect(message).toContain(`a choice with index ${quoted}, where this client reads choice 0 only`);
    }
  });
});
