// Anthropic Messages content block indexes (property): valid event flows — text and tool_use blocks, numbered by their
// place in the message — mutated by a repeated content_block_start, a skipped index, a delta or stop for an index that
// never started, and two blocks interleaved, then cut anywhere and read on the compact fast path and the full JSON.parse
// path. Each stream decodes to exactly what a reference model of the protocol says (its text, every call with its
// arguments, in the order they ended), or fails with a typed `malformed_chunk` exactly when the model says it is no
// valid stream: never a call lost, doubled or merged silently. Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { cutsArbitrary, mutate, mutationArbitrary, offsetsOf, spaced, type EndedCall, type FlowEvent, type Mutation } from './index-mutations.js';
import { cutAt, decodeAll } from './stream-decoder-drive.js';

const context = { secrets: [], label: 'Anthropic API (anthropic.test)', model: 'claude-x', attempt: 1 };
const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '"}}', '{"a":', '1}'));
const block = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), pieces: fc.array(piece, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('tool' as const), name: fc.constantFrom('lookup', 'get_weather'), pieces: fc.array(piece, { maxLength: 3 }) }),
);

/** A valid flow: message_start, each block's start, deltas and stop at its own index, message_delta, message_stop. */
function flow(blocks: ReadonlyArray<{ kind: 'text' | 'tool'; name?: string; pieces: readonly string[] }>): FlowEvent[] {
  const events: FlowEvent[] = [{ type: 'message_start' }];
  blocks.forEach((each, group) => {
    events.push({ type: 'start', group, index: group, start: true, kind: each.kind, id: `toolu_${group}`, name: each.name });
    for (const value of each.pieces) events.push({ type: 'delta', group, index: group, kind: each.kind, value });
    events.push({ type: 'stop', group, index: group });
  });
  events.push({ type: 'message_delta', reason: blocks.some((each) => each.kind === 'tool') ? 'tool_use' : 'end_turn' }, { type: 'message_stop' });
  return events;
}

const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The SSE text Anthropic sends for `events`. */
function written(events: readonly FlowEvent[]): string {
  return events
    .map((event) => {
      switch (event.type) {
        case 'message_start':
          return sse('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } } });
        case 'start':
          return sse('content_block_start', { index: event.index, content_block: event.kind === 'text' ? { type: 'text', text: '' } : { type: 'tool_use', id: event.id, name: event.name, input: {} } });
        case 'delta':
          return sse('content_block_delta', { index: event.index, delta: event.kind === 'text' ? { type: 'text_delta', text: event.value } : { type: 'input_json_delta', partial_json: event.value } });
        case 'stop':
          return sse('content_block_stop', { index: event.index });
        case 'message_delta':
          return sse('message_delta', { delta: { stop_reason: event.reason, stop_sequence: null }, usage: { output_tokens: 5 } });
        default:
          return sse('message_stop', {});
      }
    })
    .join('');
}

type Outcome = { valid: true; text: string; calls: EndedCall[] } | { valid: false };

/**
 * The protocol: blocks start in the order of their index (0, 1, 2…); a delta or stop names a block that started and did
 * not stop; a text block takes text deltas, a tool_use block input_json deltas; a tool_use ends at its stop with the
 * deltas joined (`{}` when none came), and any block still open at message_stop ends there, in the order they started.
 */
function model(events: readonly FlowEvent[]): Outcome {
  let started = 0;
  let text = '';
  const open = new Map<number, { kind: unknown; id: unknown; name: unknown; arguments: string }>();
  const calls: EndedCall[] = [];
  const end = (block: { kind: unknown; id: unknown; name: unknown; arguments: string }) => {
    if (block.kind === 'tool') calls.push({ id: String(block.id), name: String(block.name), arguments: block.arguments === '' ? '{}' : block.arguments });
  };
  for (const event of events) {
    const index = event.index as number;
    if (event.type === 'start') {
      if (index !== started) return { valid: false };
      started++;
      open.set(index, { kind: event.kind, id: event.id, name: event.name, arguments: '' });
    } else if (event.type === 'delta') {
      const block = open.get(index);
      if (block === undefined || block.kind !== event.kind) return { valid: false };
      if (event.kind === 'text') text += event.value as string;
      else block.arguments += event.value as string;
    } else if (event.type === 'stop') {
      const block = open.get(index);
      if (block === undefined) return { valid: false };
      open.delete(index);
      end(block);
    } else if (event.type === 'message_stop') {
      for (const block of open.values()) end(block);
      return { valid: true, text, calls };
    }
  }
  return { valid: true, text, calls };
}

function reading(chunks: readonly ChatChunk[]): { text: string; calls: EndedCall[]; starts: number } {
  let text = '';
  let starts = 0;
  const calls: EndedCall[] = [];
  for (const chunk of chunks) {
    if (chunk.type === 'text-delta') text += chunk.delta;
    else if (chunk.type === 'tool-call-start') starts++;
    else if (chunk.type === 'tool-call-end') calls.push({ id: chunk.id, name: chunk.name, arguments: chunk.arguments });
  }
  return { text, calls, starts };
}

describe('Anthropic content block indexes, mutated (property)', () => {
  it('each stream decodes to what the reference model says, or fails with malformed_chunk exactly when the model refuses it', () => {
    const seen = new Map<string, Set<boolean>>();
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), fc.array(mutationArbitrary, { maxLength: 2 }), cutsArbitrary, (blocks, mutations, cuts) => {
        const before = flow(blocks);
        let events = before;
        for (const mutation of mutations) events = mutate(events, mutation);
        const expected = model(events);
        const changed = JSON.stringify(events) !== JSON.stringify(before);
        if (mutations.length === 1 && changed) seen.set((mutations[0] as Mutation).op, (seen.get((mutations[0] as Mutation).op) ?? new Set()).add(expected.valid));
        const text = written(events);
        for (const body of [text, spaced(text)]) {
          const bytes = new TextEncoder().encode(body);
          const decoded = decodeAll(new AnthropicStreamDecoder(context), cutAt(bytes, offsetsOf(cuts, bytes.length)));
          if (!expected.valid) {
            expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
            continue;
          }
          expect(decoded.error).toBeUndefined();
          const read = reading(decoded.chunks);
          expect(read.text).toBe(expected.text);
          expect(read.calls).toEqual(expected.calls);
          expect(read.starts).toBe(expected.calls.length);
          expect(decoded.chunks.at(-1)?.type).toBe('finish');
        }
      }),
      { seed: 20260126, numRuns: 400 },
    );
    // Each mutation alone met the outcomes the protocol gives it (the test is not vacuous): a start sent again, a skipped
    // index and a never-started one are always refused; interleaved blocks are valid while their starts keep the order.
    expect(Object.fromEntries([...seen].map(([op, outcomes]) => [op, [...outcomes].sort()]))).toEqual({
      'repeat-start': [false],
      'skip-index': [false],
      'foreign-index': [false],
      interleave: [false, true],
    });
  });

  it('a content_block_start that reuses the index of a running tool_use is refused, not a call started and never ended', () => {
    const events = flow([
      { kind: 'tool', name: 'lookup', pieces: ['{"a":1}'] },
      { kind: 'tool', name: 'lookup', pieces: ['{"a":2}'] },
    ]);
    const reused = events.map((event) => (event.group === 1 ? { ...event, index: 0 } : event));
    const decoded = decodeAll(new AnthropicStreamDecoder(context), [new TextEncoder().encode(written(reused))]);
    expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', message: expect.stringContaining('content_block_start for block 0 where block 1 was next') });
    expect(decoded.chunks.filter((chunk) => chunk.type === 'tool-call-start')).toHaveLength(1);
  });
});
