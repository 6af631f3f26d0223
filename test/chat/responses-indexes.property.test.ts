// OpenAI Responses output indexes (property): valid streams — message and function_call items, each announced by
// output_item.added at its output_index, its deltas naming that index and its item_id, its output_item.done, then
// response.completed with the whole output — mutated by an output_item.added sent again, a skipped index, a delta or done
// for an index that never started, and two items interleaved, then cut anywhere and read with and without the learned
// templates. Each stream decodes to exactly what a reference model of the protocol says (its text, every call with its
// arguments, in the order they ended), or fails with a typed `malformed_chunk` exactly when the model refuses it: never
// a call lost, doubled or merged silently. Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { cutsArbitrary, mutate, mutationArbitrary, offsetsOf, spaced, type EndedCall, type FlowEvent, type Mutation } from './index-mutations.js';
import { cutAt, decodeAll } from './stream-decoder-drive.js';

const context = { secrets: [], label: 'Responses API (openai.test)', model: 'gpt-x', attempt: 1 };
const piece = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.constantFrom('"', '\\', '{"q":', '1}'));
const item = fc.oneof(
  fc.record({ kind: fc.constant('message' as const), pieces: fc.array(piece, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('call' as const), name: fc.constantFrom('lookup', 'search'), pieces: fc.array(piece, { maxLength: 3 }) }),
);
type Item = { kind: 'message' | 'call'; name?: string; pieces: readonly string[] };

const messageItem = (group: number, text?: string) => ({ id: `msg_${group}`, type: 'message', role: 'assistant', status: text === undefined ? 'in_progress' : 'completed', content: text === undefined ? [] : [{ type: 'output_text', text, annotations: [] }] });
const callItem = (group: number, name: string, args: string, done: boolean) => ({ id: `fc_${group}`, type: 'function_call', status: done ? 'completed' : 'in_progress', call_id: `call_${group}`, name, arguments: args });

/** A valid stream: response.created, each item's added, deltas (a call's `.done`) and done at its index, response.completed. */
function flow(items: readonly Item[]): FlowEvent[] {
  const events: FlowEvent[] = [{ type: 'response.created' }];
  items.forEach((each, group) => {
    const whole = each.pieces.join('');
    const itemId = each.kind === 'message' ? `msg_${group}` : `fc_${group}`;
    events.push({ type: 'response.output_item.added', group, index: group, start: true, item: each.kind === 'message' ? messageItem(group) : callItem(group, each.name as string, '', false) });
    const delta = each.kind === 'message' ? 'response.output_text.delta' : 'response.function_call_arguments.delta';
    for (const value of each.pieces) events.push({ type: delta, group, index: group, item_id: itemId, delta: value });
    if (each.kind === 'call') events.push({ type: 'response.function_call_arguments.done', group, index: group, item_id: itemId, arguments: whole });
    events.push({ type: 'response.output_item.done', group, index: group, item: each.kind === 'message' ? messageItem(group, whole) : callItem(group, each.name as string, whole, true) });
  });
  const output = items.map((each, group) => (each.kind === 'message' ? messageItem(group, each.pieces.join('')) : callItem(group, each.name as string, each.pieces.join(''), true)));
  events.push({ type: 'response.completed', output });
  return events;
}

function written(events: readonly FlowEvent[]): string {
  let sequence = 0;
  return events
    .map((event) => {
      const { group: _group, index, start: _start, type, output, ...rest } = event;
      const data: Record<string, unknown> = { type, sequence_number: sequence++ };
      if (type === 'response.created') data.response = { id: 'resp_1', object: 'response', status: 'in_progress', model: 'gpt-x', output: [] };
      else if (type === 'response.completed') data.response = { id: 'resp_1', object: 'response', status: 'completed', model: 'gpt-x', output, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
      else Object.assign(data, { output_index: index }, rest);
      return `event: ${type as string}\ndata: ${JSON.stringify(data)}\n\n`;
    })
    .join('');
}

type Outcome = { valid: true; text: string; calls: EndedCall[] } | { valid: false };
type Open = { kind: string; id: string; callId?: string; name?: string; arguments: string; ended: boolean; done: boolean; streamed: boolean };

/**
 * The protocol: an `output_index` holds one item — an event there carrying another item (another type, id or call id)
 * is no valid stream, and neither is an item or call id seen at another index; output_item.added of the item there is
 * a repeat; an output_item.done there opens the item when it was never added. Text deltas are the text, whatever their
 * index; a message's done gives its text only when no delta of it came. Arguments events need the call open at their
 * index (and its item_id), not ended: `.done` and the item's done end it with their arguments (`{}` for none). At
 * response.completed every call still open ends with what arrived.
 */
function model(events: readonly FlowEvent[]): Outcome {
  let text = '';
  const items = new Map<number, Open>();
  const itemIds = new Set<string>();
  const callIds = new Set<string>();
  const calls: EndedCall[] = [];
  const end = (open: Open, args: string) => {
    if (open.ended) return;
    open.ended = true;
    open.arguments = args;
    calls.push({ id: open.callId as string, name: open.name as string, arguments: args });
  };
  const same = (open: Open, given: Record<string, unknown>) => given.id === open.id && (given.type === 'function_call' ? open.kind === 'call' && given.call_id === open.callId : open.kind === 'message');
  const add = (index: number, given: Record<string, unknown>): boolean => {
    const known = items.get(index);
    if (known) return same(known, given);
    if (itemIds.has(given.id as string)) return false;
    itemIds.add(given.id as string);
    const open: Open = { kind: given.type === 'function_call' ? 'call' : 'message', id: given.id as string, arguments: '', ended: false, done: false, streamed: false };
    if (open.kind === 'call') {
      if (callIds.has(given.call_id as string)) return false;
      callIds.add(given.call_id as string);
      Object.assign(open, { callId: given.call_id, name: given.name, arguments: given.arguments });
    }
    items.set(index, open);
    return true;
  };
  for (const event of events) {
    const index = event.index as number;
    const open = items.get(index);
    switch (event.type) {
      case 'response.output_item.added':
        if (!add(index, event.item as Record<string, unknown>)) return { valid: false };
        break;
      case 'response.output_text.delta':
        text += event.delta as string;
        if (open) open.streamed = true;
        break;
      case 'response.function_call_arguments.delta':
      case 'response.function_call_arguments.done':
        if (open?.kind !== 'call' || event.item_id !== open.id || open.ended) return { valid: false };
        if (event.type === 'response.function_call_arguments.done') end(open, event.arguments as string);
        else open.arguments += event.delta as string;
        break;
      case 'response.output_item.done': {
        const given = event.item as Record<string, unknown>;
        if (!add(index, given)) return { valid: false };
        const done = items.get(index) as Open;
        if (done.done) break;
        done.done = true;
        if (done.kind === 'call') end(done, (given.arguments as string) === '' ? '{}' : (given.arguments as string));
        else if (!done.streamed) text += ((given.content as Array<{ text: string }>)[0]?.text ?? '') as string;
        break;
      }
      case 'response.completed':
        for (const each of items.values()) if (each.kind === 'call') end(each, each.arguments === '' ? '{}' : each.arguments);
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

describe('OpenAI Responses output indexes, mutated (property)', () => {
  it('each stream decodes to what the reference model says, or fails with malformed_chunk exactly when the model refuses it', () => {
    const seen = new Map<string, Set<boolean>>();
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 4 }), fc.array(mutationArbitrary, { maxLength: 2 }), cutsArbitrary, (items, mutations, cuts) => {
        const before = flow(items);
        let events = before;
        for (const mutation of mutations) events = mutate(events, mutation);
        const expected = model(events);
        const changed = JSON.stringify(events) !== JSON.stringify(before);
        if (mutations.length === 1 && changed) seen.set((mutations[0] as Mutation).op, (seen.get((mutations[0] as Mutation).op) ?? new Set()).add(expected.valid));
        const text = written(events);
        for (const body of [text, spaced(text)]) {
          const bytes = new TextEncoder().encode(body);
          const decoded = decodeAll(new ResponsesStreamDecoder(context), cutAt(bytes, offsetsOf(cuts, bytes.length)));
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
      { seed: 20260128, numRuns: 400 },
    );
    // Each mutation alone met the outcomes the protocol gives it (the test is not vacuous): an added sent again and
    // interleaved or renumbered items decode; a copy at a never-started index is refused unless it is a text delta.
    expect(Object.fromEntries([...seen].map(([op, outcomes]) => [op, [...outcomes].sort()]))).toEqual({
      'repeat-start': [true],
      'skip-index': [true],
      'foreign-index': [false, true],
      interleave: [true],
    });
  });

  it('another function_call at the index of a running one is refused, not the first call left open or its arguments given to the second', () => {
    const events = flow([
      { kind: 'call', name: 'lookup', pieces: ['{"a":1}'] },
      { kind: 'call', name: 'lookup', pieces: ['{"a":2}'] },
    ]);
    const reused = events.map((event) => (event.group === 1 ? { ...event, index: 0 } : event));
    const decoded = decodeAll(new ResponsesStreamDecoder(context), [new TextEncoder().encode(written(reused))]);
    expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', message: expect.stringContaining('another item at output_index 0') });
  });
});
