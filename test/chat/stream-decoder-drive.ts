// Test helper: feeds a stream decoder network reads the way StreamReader does, and compares decoded chunks
// independently of how deltas were coalesced.
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import type { Wire } from '../helpers/provider-wire.js';

/** What a decoder made of a body: its chunks, and the failure that ended it (as comparable data), if any. */
export interface Decoded {
  chunks: ChatChunk[];
  error?: { name: string; reason?: unknown; code?: unknown; status?: unknown; retryable?: unknown; message: string } | undefined;
}

function described(error: unknown): NonNullable<Decoded['error']> {
  if (!(error instanceof Error)) throw error;
  const fields = error as Error & { reason?: unknown; code?: unknown; status?: unknown; retryable?: unknown };
  return { name: error.name, reason: fields.reason, code: fields.code, status: fields.status, retryable: fields.retryable, message: error.message };
}

/** Feeds `reads` in order (a held-back failure raised before the next read, reading stopped at the answer's end). */
export function decodeAll(decoder: StreamDecoder, reads: readonly Uint8Array[]): Decoded {
  const chunks: ChatChunk[] = [];
  try {
    for (const bytes of reads) {
      decoder.throwIfPending();
      chunks.push(...decoder.push(bytes));
      if (decoder.done) return { chunks };
    }
    decoder.throwIfPending();
    chunks.push(...decoder.end());
    return { chunks };
  } catch (error) {
    return { chunks, error: described(error) };
  }
}

/** `chunks` with consecutive text, reasoning and same-call argument deltas merged (copies: the input is not changed). */
export function merged(chunks: readonly ChatChunk[]): ChatChunk[] {
  const out: ChatChunk[] = [];
  for (const chunk of chunks) {
    const last = out[out.length - 1];
    if ((chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') && last?.type === chunk.type) last.delta += chunk.delta;
    else if (chunk.type === 'tool-call-delta' && last?.type === 'tool-call-delta' && last.id === chunk.id) last.argumentsDelta += chunk.argumentsDelta;
    else out.push({ ...chunk });
  }
  return out;
}

/** Cuts `bytes` into reads at the given (sorted, distinct) offsets. */
export function cutAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const reads: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    if (offset <= start || offset >= bytes.length) continue;
    reads.push(bytes.subarray(start, offset));
    start = offset;
  }
  reads.push(bytes.subarray(start));
  return reads;
}

const context = { secrets: [], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };

/** A fresh decoder for `wire`; without `templates`, its learned templates (if it has any) never read a frame. */
export function decoderOf(wire: Pick<Wire, 'id'>, templates: boolean): StreamDecoder {
  const decoder: StreamDecoder =
    wire.id === 'anthropic-messages'
      ? new AnthropicStreamDecoder(context)
      : wire.id === 'openai-responses'
        ? new ResponsesStreamDecoder(context)
        : new OpenAIStreamDecoder({ createId: (() => {
            let ids = 0;
            return () => `call_generated_${ids++}`;
          })() });
  if (!templates) {
    const off = (decoder as unknown as { templates?: { match: () => boolean; learn: () => void } }).templates;
    if (off) {
      off.match = () => false;
      off.learn = () => {};
    }
  }
  return decoder;
}
