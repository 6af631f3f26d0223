// Every recorded provider stream in test/fixtures (Chat Completions and its compatible providers, Anthropic Messages,
// OpenAI Responses) decodes to the same chunks however the network cuts it: split in two at every byte boundary, one
// byte per read, or in one read. Deltas decoded from one read are coalesced into one chunk, so chunk lists are
// compared with consecutive deltas of one kind merged (the text and arguments themselves must be identical), and a
// stream that ends in a failure must end in the same failure, after the same output.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { decodeAll, merged, type Decoded } from './stream-decoder-drive.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const context = { secrets: ['sk-test-0123456789abcdef'], label: 'Provider API (provider.test)', model: 'm', requestId: 'req_1', attempt: 1 };

/** A fresh decoder for a fixture, by the provider its name starts with. */
function decoderFor(name: string): () => StreamDecoder {
  if (name.startsWith('anthropic-')) return () => new AnthropicStreamDecoder(context);
  if (name.startsWith('responses-')) return () => new ResponsesStreamDecoder(context);
  let ids = 0;
  return () => {
    ids = 0;
    return new OpenAIStreamDecoder({ secrets: context.secrets, createId: () => `call_generated_${ids++}` });
  };
}

const names = readdirSync(fixtures).filter((name) => name.endsWith('.sse'));

/** The chunks and the failure, comparable across cuts. */
function comparable(decoded: Decoded): { chunks: ChatChunk[]; error?: Decoded['error'] } {
  return decoded.error === undefined ? { chunks: merged(decoded.chunks) } : { chunks: merged(decoded.chunks), error: decoded.error };
}

describe('stream decoders and how the network cuts a recorded stream', () => {
  it('has a fixture of every provider', () => {
    for (const prefix of ['anthropic-', 'responses-', 'openai-', 'deepseek-', 'mistral-']) expect(names.some((name) => name.startsWith(prefix))).toBe(true);
  });

  for (const name of names) {
    it(`${name}: split at every byte boundary, one byte per read and one read give the same chunks`, () => {
      const bytes = new TextEncoder().encode(readFileSync(join(fixtures, name), 'utf8'));
      const create = decoderFor(name);
      const whole = comparable(decodeAll(create(), [bytes]));
      // Each fixture decodes to something: an answer ending in its finish, or a typed failure.
      if (whole.error === undefined) expect(whole.chunks[whole.chunks.length - 1]?.type).toBe('finish');
      else expect(whole.error.name).toMatch(/^(StreamError|ChatClientError)$/);
      for (let cut = 1; cut < bytes.length; cut++) {
        const split = comparable(decodeAll(create(), [bytes.subarray(0, cut), bytes.subarray(cut)]));
        if (JSON.stringify(split) !== JSON.stringify(whole)) expect({ cut, ...split }).toEqual({ cut, ...whole });
      }
      const bytewise = Array.from({ length: bytes.length }, (_, index) => bytes.subarray(index, index + 1));
      expect(comparable(decodeAll(create(), bytewise))).toEqual(whole);
    });
  }
});
