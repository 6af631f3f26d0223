// Chat Completions tool-call indexes (property): valid streams — text, then parallel calls whose first fragment carries
// the id and name and the rest only arguments, from servers that send the id once, on every fragment, or never —
// mutated by a first fragment sent again, a skipped index, a fragment for an index that never started, and two calls
// interleaved, then cut anywhere and read with and without the learned templates. Each stream decodes to exactly what a
// reference model of the protocol says (every call with its arguments, in the order they ended), or fails with a typed
// `malformed_chunk` exactly when the model refuses it: never a call lost, doubled or merged silently. What the protocol
// allows — the id only on a call's first fragment, gaps in the indexes — still decodes. Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../../src/chat/index.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { cutsArbitrary, mutate, mutationArbitrary, offsetsOf, spaced, type EndedCall, type FlowEvent, type Mutation } from './index-mutations.js';
import { cutAt, decodeAll } from './stream-decoder-drive.js';

const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '{"q":', '1}'));
const turn = fc.record({
  text: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 2 }),
  calls: fc.array(fc.record({ name: fc.constantFrom('lookup', 'get_weather', 'search'), pieces: fc.array(piece, { maxLength: 4 }) }), { minLength: 1, maxLength: 3 }),
  ids: fc.constantFrom('first' as const, 'every' as const, 'none' as const),
});

/** A valid stream: the role chunk, text, each call's fragments at its index, the finish, usage, `[DONE]`. */
function flow({ text, calls, ids }: { text: readonly string[]; calls: ReadonlyArray<{ name: string; pieces: readonly string[] }>; ids: 'first' | 'every' | 'none' }): FlowEvent[] {
  const events: FlowEvent[] = [{ type: 'role' }];
  for (const value of text) events.push({ type: 'text', value });
  calls.forEach((call, group) => {
    const [first = '', ...rest] = call.pieces;
    events.push({ type: 'fragment', group, index: group, start: true, id: ids === 'none' ? undefined : `call_${group}`, name: call.name, value: first });
    for (const value of rest) events.push({ type: 'fragment', group, index: group, id: ids === 'every' ? `call_${group}` : undefined, value });
  });
  events.push({ type: 'finish' }, { type: 'done' });
  return events;
}

const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

function written(events: readonly FlowEvent[]): string {
  return events
    .map((event) => {
      switch (event.type) {
        case 'role':
          return frame({ role: 'assistant', content: null });
        case 'text':
          return frame({ content: event.value });
        case 'fragment': {
          const fn: Record<string, unknown> = event.name === undefined ? { arguments: event.value } : { name: event.name, arguments: event.value };
          return frame({ tool_calls: [{ index: event.index, ...(event.id === undefined ? {} : { id: event.id, type: 'function' }), function: fn }] });
        }
        case 'finish':
          return frame({}, 'tool_calls');
        default:
          return 'data: [DONE]\n\n';
      }
    })
    .join('');
}

type Outcome = { valid: true; text: string; calls: EndedCall[] } | { valid: false };

/**
 * The protocol: a fragment continues the call open at its index — unless it brings another id (or, from a server that
 * sends none, another name), which ends that call and starts a new one there; a fragment with no call at its index
 * starts one only with an id or a name, and an id seen already, or any fragment after the finish, is no valid
 * stream. The finish ends the open calls in index order; a call without an id gets the next made-up one.
 */
function model(events: readonly FlowEvent[]): Outcome {
  let text = '';
  let made = 0;
  let finished = false;
  const open = new Map<number, EndedCall>();
  const ids = new Set<string>();
  const calls: EndedCall[] = [];
  const indexOf = new Map<EndedCall, number>();
  const end = (call: EndedCall) => {
    open.delete(indexOf.get(call) as number);
    calls.push(call);
  };
  const endAll = () => [...open.entries()].sort(([a], [b]) => a - b).forEach(([, call]) => end(call));
  for (const event of events) {
    if (event.type === 'text') text += event.value as string;
    else if (event.type === 'fragment') {
      if (finished) return { valid: false };
      const index = event.index as number;
      const id = event.id as string | undefined;
      const name = event.name as string | undefined;
      let call = open.get(index);
      if (call && (id !== undefined ? id !== call.id : name !== undefined && call.name !== '' && name !== call.name)) {
        end(call);
        call = undefined;
      }
      if (!call) {
        if (id === undefined && name === undefined) return { valid: false };
        if (id !== undefined && ids.has(id)) return { valid: false };
        if (id !== undefined) ids.add(id);
        call = { id: id ?? `call_generated_${made++}`, name: name ?? '', arguments: '' };
        open.set(index, call);
        indexOf.set(call, index);
      } else if (call.name === '' && name !== undefined) call.name = name;
      call.arguments += event.value as string;
    } else if (event.type === 'finish') {
      finished = true;
      endAll();
    } else if (event.type === 'done') {
      endAll();
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

const decoder = () => {
  let made = 0;
  return new OpenAIStreamDecoder({ createId: () => `call_generated_${made++}` });
};

describe('Chat Completions tool-call indexes, mutated (property)', () => {
  it('each stream decodes to what the reference model says, or fails with malformed_chunk exactly when the model refuses it', () => {
    const seen = new Map<string, Set<boolean>>();
    // A fragment copied to a new index keeps only its arguments: it continues a call that never started.
    const foreign = (event: FlowEvent): FlowEvent => ({ ...event, id: undefined, name: undefined, start: false });
    fc.assert(
      fc.property(turn, fc.array(mutationArbitrary, { maxLength: 2 }), cutsArbitrary, (generated, mutations, cuts) => {
        const before = flow(generated);
        let events = before;
        for (const mutation of mutations) events = mutate(events, mutation, foreign);
        const expected = model(events);
        const changed = JSON.stringify(events) !== JSON.stringify(before);
        if (mutations.length === 1 && changed) seen.set((mutations[0] as Mutation).op, (seen.get((mutations[0] as Mutation).op) ?? new Set()).add(expected.valid));
        const text = written(events);
        for (const body of [text, spaced(text)]) {
          const bytes = new TextEncoder().encode(body);
          const decoded = decodeAll(decoder(), cutAt(bytes, offsetsOf(cuts, bytes.length)));
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
      { seed: 20260127, numRuns: 400 },
    );
    // Each mutation alone met the outcomes the protocol gives it (the test is not vacuous): a first fragment sent again
    // continues its call while the call is open and is refused after the finish; skipped indexes and interleaved calls
    // decode; a fragment for an index that never started is refused.
    expect(Object.fromEntries([...seen].map(([op, outcomes]) => [op, [...outcomes].sort()]))).toEqual({
      'repeat-start': [false, true],
      'skip-index': [true],
      'foreign-index': [false],
      interleave: [true],
    });
  });

  it('a call id seen already starts no second call: the same call sent again after another is refused', () => {
    const events = flow({ text: [], calls: [{ name: 'lookup', pieces: ['{}'] }, { name: 'lookup', pieces: ['{}'] }], ids: 'first' });
    const again = events.map((event) => (event.group === 1 && event.start ? { ...event, id: 'call_0' } : event));
    const decoded = decodeAll(decoder(), [new TextEncoder().encode(written(again))]);
    expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', message: expect.stringContaining('a second tool call with the id call_0') });
  });
});
