// The providers' streams as they are sent today (bench/provider-wire-corpus.mjs has the same shapes, with sources):
// every Chat Completions chunk with `service_tier`, `system_fingerprint`, `logprobs: null`, `usage: null` and an
// `obfuscation` string of varying length; Anthropic with full usage, a thinking block and its signature, `ping`
// events; Responses with `sequence_number`, `item_id`, `output_index`, `content_index`, `logprobs` and `obfuscation`.
// A decoder with its learned templates must decode every such stream — cut anywhere, mutated byte by byte — into the
// same chunks and the same failure as the same decoder on the full JSON.parse path alone; and on a clean stream its
// templates must read nearly every delta frame (a value that changes per frame, like `obfuscation`, is a hole).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Wire } from '../helpers/provider-wire.js';
import { cutAt, decodeAll, decoderOf } from './stream-decoder-drive.js';

interface Turn {
  text: string[];
  calls: string[][];
  /** The per-frame padding values, used in turn (OpenAI's `obfuscation`). */
  pads: string[];
}

type Writer = (turn: Turn) => string[];

const padder = (pads: readonly string[]) => {
  let next = 0;
  return (): string => (pads.length === 0 ? '' : (pads[next++ % pads.length] as string));
};

const chatCompletions: Writer = ({ text, calls, pads }) => {
  const pad = padder(pads);
  const head = { id: 'chatcmpl-Wire1', object: 'chat.completion.chunk', created: 1_764_000_000, model: 'gpt-4.1-2025-04-14', service_tier: 'default', system_fingerprint: 'fp_c064fdde7c' };
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null, obfuscation: pad() })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '', refusal: null }), ...text.map((piece) => chunk({ content: piece }))];
  calls.forEach((parts, index) => {
    events.push(chunk({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: `tool_${index}`, arguments: '' } }] }));
    for (const part of parts) events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  events.push(`data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 }, obfuscation: pad() })}\n\n`, 'data: [DONE]\n\n');
  return events;
};

const anthropic: Writer = ({ text, calls }) => {
  const events: string[] = [];
  const push = (payload: { type: string } & Record<string, unknown>) => events.push(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
  const ping = () => events.push('event: ping\ndata: {"type": "ping"}\n\n');
  const usage = { input_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 1, service_tier: 'standard' };
  push({ type: 'message_start', message: { id: 'msg_01Wire', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage } });
  push({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  for (const piece of text) push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: piece } });
  push({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'ErUBCkYIBhgCIkB==' } });
  push({ type: 'content_block_stop', index: 0 });
  push({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
  text.forEach((piece, at) => {
    push({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: piece } });
    if (at % 5 === 4) ping();
  });
  push({ type: 'content_block_stop', index: 1 });
  calls.forEach((parts, call) => {
    const index = call + 2;
    push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_0${call}`, name: `tool_${call}`, input: {} } });
    for (const part of ['', ...parts]) push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
    push({ type: 'content_block_stop', index });
  });
  push({ type: 'message_delta', delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { input_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 } });
  push({ type: 'message_stop' });
  return events;
};

const responses: Writer = ({ text, calls, pads }) => {
  const pad = padder(pads);
  const events: string[] = [];
  let sequence = 0;
  const push = ({ type, ...rest }: { type: string } & Record<string, unknown>) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...rest })}\n\n`);
  const response = (status: string, output: unknown[]) => ({ id: 'resp_wire', object: 'response', created_at: 1_764_000_000, status, model: 'gpt-5', output, usage: status === 'completed' ? { input_tokens: 9, output_tokens: 5, total_tokens: 14 } : null });
  push({ type: 'response.created', response: response('in_progress', []) });
  const reasoning = { item_id: 'rs_wire', output_index: 0, summary_index: 0 };
  push({ type: 'response.output_item.added', output_index: 0, item: { id: 'rs_wire', type: 'reasoning', summary: [] } });
  for (const piece of text) push({ type: 'response.reasoning_summary_text.delta', ...reasoning, delta: piece, obfuscation: pad() });
  const reasoningItem = { id: 'rs_wire', type: 'reasoning', summary: [{ type: 'summary_text', text: text.join('') }] };
  push({ type: 'response.output_item.done', output_index: 0, item: reasoningItem });
  const place = { item_id: 'msg_wire', output_index: 1, content_index: 0 };
  push({ type: 'response.output_item.added', output_index: 1, item: { id: 'msg_wire', type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
  for (const piece of text) push({ type: 'response.output_text.delta', ...place, delta: piece, logprobs: [], obfuscation: pad() });
  const message = { id: 'msg_wire', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: text.join('') }], role: 'assistant' };
  push({ type: 'response.output_item.done', output_index: 1, item: message });
  const output: unknown[] = [reasoningItem, message];
  calls.forEach((parts, call) => {
    const output_index = call + 2;
    const item = { id: `fc_wire${call}`, type: 'function_call', status: 'in_progress', arguments: '', call_id: `call_${call}`, name: `tool_${call}` };
    push({ type: 'response.output_item.added', output_index, item });
    for (const part of parts) push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta: part, obfuscation: pad() });
    const done = { ...item, status: 'completed', arguments: parts.join('') };
    push({ type: 'response.output_item.done', output_index, item: done });
    output.push(done);
  });
  push({ type: 'response.completed', response: response('completed', output) });
  return events;
};

const WIRES: Array<{ id: Wire['id']; write: Writer; deltas: (turn: Turn) => number }> = [
  { id: 'openai-chat', write: chatCompletions, deltas: ({ text, calls }) => text.length + calls.flat().length },
  { id: 'anthropic-messages', write: anthropic, deltas: ({ text, calls }) => 2 * text.length + calls.flat().length },
  { id: 'openai-responses', write: responses, deltas: ({ text, calls }) => 2 * text.length + calls.flat().length },
];

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '"}', '\\"}', '\u0000', '\u001f', '\n', '\ud83e', 'é', 'データ', '{"a": [1, "b"]}'),
);
/** Paddings as OpenAI sends them (random letters and digits of any length), and any other JSON string too. */
const pad = fc.oneof(fc.string({ unit: fc.constantFrom(...'aZ09xQ'.split('')), maxLength: 24 }), piece);
const turn = fc.record({
  text: fc.array(piece, { minLength: 1, maxLength: 12 }),
  calls: fc.array(fc.array(piece, { maxLength: 5 }).map((parts) => [`{"q":`, JSON.stringify(parts.join('')).slice(0, -1), ...parts.map((part) => JSON.stringify(part).slice(1, -1)), '"}']), { maxLength: 3 }),
  pads: fc.array(pad, { maxLength: 9 }),
});
const mutation = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 2 }), insert: fc.constantFrom('', '"', '\\', '\t', ' ', '0', '}', 'x', '\n', '\n\n', '\\q', '\\u12') });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 });

describe('current wire shapes: a decoder with templates decodes as the full JSON.parse path', () => {
  for (const [position, wire] of WIRES.entries()) {
    it(`${wire.id}: the same chunks and the same failure, for any stream, any edit, any cut`, () => {
      fc.assert(
        fc.property(turn, fc.array(mutation, { maxLength: 3 }), cuts, (answer, mutations, fractions) => {
          // Twice the answer's deltas, so that templates are learned and then used.
          let sse = wire.write({ ...answer, text: [...answer.text, ...answer.text] }).join('');
          for (const { at, remove, insert } of mutations) {
            const offset = Math.floor(at * sse.length);
            sse = sse.slice(0, offset) + insert + sse.slice(offset + remove);
          }
          const bytes = new TextEncoder().encode(sse);
          const offsets = [...new Set(fractions.map((fraction) => Math.floor(fraction * bytes.length)))].sort((a, b) => a - b);
          const reads = cutAt(bytes, offsets);
          expect(decodeAll(decoderOf(wire, true), reads)).toEqual(decodeAll(decoderOf(wire, false), reads));
        }),
        { seed: 20261206 + position, numRuns: 300 },
      );
    });

    it(`${wire.id}: the templates read nearly every delta frame, whatever padding each frame carries`, () => {
      const answer: Turn = {
        text: Array.from({ length: 300 }, (_, index) => `word ${index} "q" é\n`),
        calls: [Array.from({ length: 100 }, (_, index) => `{"n":${index}}`)],
        pads: Array.from({ length: 37 }, (_, index) => 'x7Q'.repeat(index % 7) + String(index)),
      };
      const decoder = decoderOf(wire, true);
      const result = decodeAll(decoder, [new TextEncoder().encode(wire.write(answer).join(''))]);
      expect(result.error).toBeUndefined();
      expect(result.chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('')).toBe(answer.text.join(''));
      const templates = (decoder as unknown as { templates?: { hits: number } }).templates;
      // Anthropic reads its delta frames with one fixed pattern (no learned templates): its equivalence is above.
      if (templates) expect(templates.hits).toBeGreaterThan(wire.deltas(answer) - 30);
    });
  }
});
