// A provider field of the wrong type never decodes as a quieter answer. Every recorded-shape stream in test/fixtures/
// (Chat Completions, Anthropic Messages, OpenAI Responses: the shapes their README cites) is replayed once per field
// of every event, that field's value replaced by one of another JSON type (a string by 42 or {}, an object by "x" or
// [], an array by {} or 42, a number by "7", a boolean by "yes"). Each replay must either fail with a typed
// `StreamError` / `ChatClientError`, or decode to the very answer of the untouched stream: the same text, reasoning,
// tool calls (id, name, arguments), finish reason and failure. A field whose wrong type drops text, a call or its
// arguments, a stop reason or an error — the answer quietly changed — fails here, in each of the three decoders, on
// the full JSON.parse path and with learned frame templates alike.
//
// Not compared: the response's id and model and its token usage (bookkeeping a malformed value of leaves unset, as
// documented), and the documented alternatives a decoder accepts on purpose — a Chat Completions tool call's
// `function.arguments` as a JSON object or array (written back as its JSON text), a part of `content` or of a
// thinking part as a plain string (its text) — and a value inside a tool call's `input` (its arguments, not a field).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../src/chat/anthropic/anthropic-message.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { decodeResponse } from '../../src/chat/openai-responses/responses-output.js';
import { decodeCompletion } from '../../src/chat/openai/openai-wire.js';
import type { Wire } from '../helpers/provider-wire.js';
import { decodeAll, decoderOf, merged, type Decoded } from './stream-decoder-drive.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** The wire a fixture is written in, by its name. */
function wireOf(name: string): Wire['id'] {
  if (name.startsWith('anthropic-')) return 'anthropic-messages';
  if (name.startsWith('responses-')) return 'openai-responses';
  return 'openai-chat';
}

/** One SSE event of a fixture: its `event:` line (if any) and its data, parsed when it is JSON. */
interface WireEvent {
  type?: string | undefined;
  data: string;
  json?: unknown;
}

function eventsOf(text: string): WireEvent[] {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
      const type = lines.find((line) => line.startsWith('event:'))?.slice('event:'.length).trim();
      const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice('data:'.length).trimStart()).join('\n');
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        json = undefined;
      }
      return { type, data, json };
    })
    .filter((event) => event.data !== '' || event.type !== undefined);
}

function write(events: readonly WireEvent[]): Uint8Array {
  return new TextEncoder().encode(events.map((event) => `${event.type ? `event: ${event.type}\n` : ''}data: ${event.json === undefined ? event.data : JSON.stringify(event.json)}\n\n`).join(''));
}

type Path = ReadonlyArray<string | number>;

/** Every path into `value` that holds something (null is the providers' "absent": not mutated). */
function pathsOf(value: unknown, path: Path = []): Path[] {
  if (value === null || value === undefined) return [];
  const own = path.length > 0 ? [path] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
  if (typeof value === 'object') return [...own, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return own;
}

function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

function replaced(value: unknown, path: Path, by: unknown): unknown {
  const copy = structuredClone(value);
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1] as string | number] = by;
  return copy;
}

/** Values of another JSON type than `value`'s. */
function wrongTypes(value: unknown): unknown[] {
  if (typeof value === 'string') return [42, {}];
  if (typeof value === 'number') return ['7'];
  if (typeof value === 'boolean') return ['yes'];
  if (Array.isArray(value)) return [{}, 42]; // not "x": a string is content's other shape
  return ['x', []];
}

/** A documented alternative shape a decoder accepts on purpose (see the header). */
function acceptedAlternative(wire: Wire['id'], path: Path, by: unknown): boolean {
  if (wire === 'anthropic-messages') return path.includes('input') && path.at(-1) !== 'input'; // the call's own arguments, not the field
  if (wire !== 'openai-chat') return false;
  if (path.at(-1) === 'arguments' && path.at(-2) === 'function') return typeof by === 'object';
  // A part of `content` (or of a part's `thinking`) may be a plain string: its text.
  return typeof by === 'string' && typeof path.at(-1) === 'number' && (path.at(-2) === 'content' || path.at(-2) === 'thinking');
}

/** What the caller is answered: text, reasoning, calls, the finish reason, and the failure's kind. */
function answerOf(decoded: Decoded) {
  const chunks = merged(decoded.chunks);
  const text = (type: ChatChunk['type']) => chunks.flatMap((chunk) => (chunk.type === type && 'delta' in chunk ? [chunk.delta] : [])).join('');
  return {
    text: text('text-delta'),
    reasoning: text('reasoning-delta'),
    calls: chunks.flatMap((chunk) => (chunk.type === 'tool-call-end' ? [{ id: chunk.id, name: chunk.name, arguments: chunk.arguments }] : [])),
    finish: chunks.flatMap((chunk) => (chunk.type === 'finish' ? [chunk.reason] : [])),
    failure: decoded.error ? [decoded.error.name, decoded.error.reason, decoded.error.code] : undefined,
  };
}

const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.sse'));

describe('a provider field of the wrong type is a typed failure or changes nothing', () => {
  it('reads every fixture of the three wires', () => {
    expect(new Set(fixtures.map(wireOf))).toEqual(new Set(['openai-chat', 'anthropic-messages', 'openai-responses']));
    expect(fixtures.length).toBeGreaterThanOrEqual(25);
  });

  describe.each([false, true])('frame templates %s', (templates) => {
    it.each(fixtures)('%s', (name) => {
      const wire = wireOf(name);
      const events = eventsOf(readFileSync(join(FIXTURES, name), 'utf8'));
      const reads = (list: readonly WireEvent[]) => {
        const bytes = write(list);
        return [bytes.subarray(0, bytes.length >> 1), bytes.subarray(bytes.length >> 1)];
      };
      const original = answerOf(decodeAll(decoderOf({ id: wire }, templates), reads(events)));
      const quieter: string[] = [];
      let replays = 0;
      events.forEach((event, position) => {
        for (const path of pathsOf(event.json)) {
          for (const by of wrongTypes(at(event.json, path))) {
            if (acceptedAlternative(wire, path, by)) continue;
            const list = events.map((each, index) => (index === position ? { ...each, json: replaced(each.json, path, by) } : each));
            const decoded = decodeAll(decoderOf({ id: wire }, templates), reads(list));
            replays++;
            const where = `event ${position} ${path.join('.')} = ${JSON.stringify(by)}`;
            if (decoded.error) {
              if (decoded.error.name !== 'StreamError' && decoded.error.name !== 'ChatClientError') quieter.push(`${where}: an untyped ${decoded.error.name}: ${decoded.error.message}`);
              continue;
            }
            const answer = answerOf(decoded);
            if (JSON.stringify(answer) !== JSON.stringify(original)) quieter.push(`${where}: decoded as ${JSON.stringify(answer).slice(0, 300)}`);
          }
        }
      });
      expect(replays).toBeGreaterThan(0);
      expect(quieter).toEqual([]);
    });
  });
});

// The same rule for a whole answer (`complete()`): each field of a recorded-shape body of each API, replaced by a value
// of another type, is an `invalid_response` `ChatClientError` or changes nothing the caller is answered.
const WHOLE: Array<[string, Wire['id'], unknown]> = [
  [
    'Chat Completions, text, reasoning and two calls (platform.openai.com/docs/api-reference/chat/object; DeepSeek reasoning_content)',
    'openai-chat',
    {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_727_346_178,
      model: 'gpt-4o-2024-08-06',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking both.',
            refusal: null,
            reasoning_content: 'Two cities.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 },
    },
  ],
  [
    'Chat Completions, content as parts (docs.mistral.ai/capabilities/reasoning)',
    'openai-chat',
    {
      id: 'cmpl-2',
      object: 'chat.completion',
      model: 'magistral-medium-2509',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Sum it.' }] }, { type: 'text', text: '2 + 2 = 4' }] } }],
    },
  ],
  [
    'Anthropic Messages, thinking, text and a tool_use (docs.anthropic.com/en/api/messages)',
    'anthropic-messages',
    {
      id: 'msg_01Whole',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'Look it up.', signature: 'EqQBCgIYAhIM' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  ],
  [
    'OpenAI Responses, reasoning, a message and a call (platform.openai.com/docs/api-reference/responses/object)',
    'openai-responses',
    {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-5-2025-08-07',
      incomplete_details: null,
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Two steps.' }] },
        { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
        { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    },
  ],
  [
    'OpenAI Responses, cut by max_output_tokens',
    'openai-responses',
    { id: 'resp_2', object: 'response', status: 'incomplete', model: 'gpt-5', incomplete_details: { reason: 'max_output_tokens' }, output: [{ id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Partly' }] }] },
  ],
];

function decodeWhole(wire: Wire['id'], body: unknown) {
  const label = 'Provider API (provider.test)';
  try {
    const response =
      wire === 'openai-chat' ? decodeCompletion(body, label, () => 'call_generated', []) : wire === 'anthropic-messages' ? decodeMessage(body, label, []) : decodeResponse(body, { label, model: 'm', secrets: [] });
    const { content, reasoning, toolCalls } = response.message;
    return { answer: JSON.stringify({ content, reasoning, toolCalls, finish: response.finishReason }) };
  } catch (error) {
    return { failure: error as Error & { reason?: unknown } };
  }
}

describe('a field of the wrong type in a whole answer is invalid_response or changes nothing', () => {
  it.each(WHOLE)('%s', (_name, wire, body) => {
    const original = decodeWhole(wire, body);
    expect(original.failure).toBeUndefined();
    const quieter: string[] = [];
    for (const path of pathsOf(body)) {
      for (const by of wrongTypes(at(body, path))) {
        if (acceptedAlternative(wire, path.slice(path.indexOf('message') + 1), by)) continue;
        const decoded = decodeWhole(wire, replaced(body, path, by));
        const where = `${path.join('.')} = ${JSON.stringify(by)}`;
        if (decoded.failure) {
          if (decoded.failure.name !== 'ChatClientError') quieter.push(`${where}: an untyped ${decoded.failure.name}: ${decoded.failure.message}`);
        } else if (decoded.answer !== original.answer) quieter.push(`${where}: decoded as ${decoded.answer.slice(0, 300)}`);
      }
    }
    expect(quieter).toEqual([]);
  });
});

describe('a call id given twice in a whole answer is invalid_response (the same call would run twice)', () => {
  const twice = (wire: Wire['id'], body: unknown) => {
    const outcome = decodeWhole(wire, body);
    expect(outcome.failure?.name).toBe('ChatClientError');
    expect(outcome.failure?.reason).toBe('invalid_response');
    expect(outcome.failure?.message).toMatch(/second (tool call with the id call_1|tool_use with the id toolu_1|function_call call_1)/);
  };
  it.each(WHOLE.filter(([, , body]) => JSON.stringify(body).includes('call_1') || JSON.stringify(body).includes('toolu_')))('%s', (_name, wire, body) => {
    const copy = structuredClone(body) as Record<string, any>;
    if (wire === 'openai-chat') {
      const calls = copy.choices[0].message.tool_calls;
      calls[1].id = calls[0].id;
    } else if (wire === 'anthropic-messages') {
      copy.content[2].id = 'toolu_1';
      copy.content.push({ ...copy.content[2] });
    } else copy.output.push({ ...copy.output[2], id: 'fc_2' });
    twice(wire, copy);
  });
});
