// The providers' streams as they are sent today, for bench/providers.mjs: per provider a "current wire" corpus (every
// field the API sends on every event, read sizes drawn from 1 B to 64 KiB) and "replay" corpora (a recorded fixture of
// test/fixtures/ with each run of its delta events repeated in place, the recorded envelope kept byte for byte).
//
// Formats, as sent today:
// - Chat Completions: https://platform.openai.com/docs/api-reference/chat-streaming and test/fixtures/openai-text.sse
//   (recorded gpt-4.1-nano stream, Feb 2026): every chunk has `service_tier`, `system_fingerprint`, `logprobs: null`,
//   `usage: null` (stream_options.include_usage) and `obfuscation`, a random string whose length varies per chunk
//   (it pads the chunk's size); parallel calls stream one after the other (openai-parallel-tool-calls.sse), their
//   first delta with id/type/name; a final `"choices":[]` chunk holds the usage.
// - Anthropic Messages: https://docs.anthropic.com/en/docs/build-with-claude/streaming — message_start with the whole
//   usage (cache fields, `cache_creation`, `service_tier`), a thinking block (`thinking_delta`s, then a
//   `signature_delta`), `ping` events (`{"type": "ping"}`, with its space, as the API writes it), a text block,
//   tool_use blocks whose input arrives as `input_json_delta` (the first one ""), message_delta with the final usage.
// - Responses: https://platform.openai.com/docs/api-reference/responses-streaming — every event has `type` and
//   `sequence_number`; deltas have `item_id`, `output_index`, `content_index` (text), `logprobs` (text) and
//   `obfuscation`; a reasoning item with its summary, a message item, one function_call item per call; the `.done`
//   events and response.completed repeat the whole text.
import { readFileSync } from 'node:fs';
import { random } from './lib.mjs';

const FIXTURES = new URL('../test/fixtures/', import.meta.url);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Pieces of text that JSON.stringify writes with escapes (quotes, backslashes, new lines, tabs, control characters). */
const ESCAPED = ['\n\n', '"quoted"', ' C:\\path\\to', '\t', '\n- ', ' \u0007 ', '’'];

/** Text pieces with escapes mixed in (about one piece in eight), deterministic per seed. */
export function withEscapes(pieces, seed) {
  const next = random(seed);
  return pieces.map((piece) => (next() < 0.125 ? piece + ESCAPED[Math.floor(next() * ESCAPED.length)] : piece));
}

const obfuscator = (next) => () => {
  let text = '';
  for (let length = 1 + Math.floor(next() * 16); length > 0; length--) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return text;
};

/** Chat Completions as sent today (see the summary). */
export function chatCompletionsWire({ text, calls }, seed) {
  const obfuscation = obfuscator(random(seed));
  const head = { id: 'chatcmpl-CZ8wQbenchW1reC0rpus', object: 'chat.completion.chunk', created: 1_764_000_000, model: 'gpt-4.1-2025-04-14', service_tier: 'default', system_fingerprint: 'fp_c064fdde7c' };
  const events = [];
  const push = (delta, finish = null) => events.push(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null, obfuscation: obfuscation() })}\n\n`);
  push({ role: 'assistant', content: '', refusal: null });
  for (const piece of text) push({ content: piece });
  calls.forEach((parts, index) => {
    push({ tool_calls: [{ index, id: `call_Bench${index}WireCorpus0000`, type: 'function', function: { name: `tool_${index}`, arguments: '' } }] });
    for (const part of parts) push({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  push({}, 'tool_calls');
  const usage = { prompt_tokens: 472, completion_tokens: events.length, total_tokens: 472 + events.length, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } };
  events.push(`data: ${JSON.stringify({ ...head, choices: [], usage, obfuscation: obfuscation() })}\n\n`);
  events.push('data: [DONE]\n\n');
  return events;
}

/** Anthropic Messages as sent today (see the summary); `reasoning` pieces form the thinking block. */
export function anthropicWire({ text, calls, reasoning }) {
  const events = [];
  const push = (payload) => events.push(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
  const ping = () => events.push('event: ping\ndata: {"type": "ping"}\n\n');
  const usage = { input_tokens: 472, cache_creation_input_tokens: 0, cache_read_input_tokens: 2048, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 1, service_tier: 'standard' };
  push({ type: 'message_start', message: { id: 'msg_01XbenchWireCorpus00001', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage } });
  push({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  ping();
  for (const piece of reasoning) push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: piece } });
  push({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'ErUBCkYIBhgCIkB'.padEnd(344, 'q7Zx+/Wv') + '==' } });
  push({ type: 'content_block_stop', index: 0 });
  push({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
  text.forEach((piece, at) => {
    push({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: piece } });
    if (at % 1000 === 999) ping(); // the API pings while a long answer streams
  });
  push({ type: 'content_block_stop', index: 1 });
  calls.forEach((parts, call) => {
    const index = call + 2;
    push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_01BenchWire${call}`, name: `tool_${call}`, input: {} } });
    push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const part of parts) push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
    push({ type: 'content_block_stop', index });
  });
  push({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 472, cache_creation_input_tokens: 0, cache_read_input_tokens: 2048, output_tokens: events.length } });
  push({ type: 'message_stop' });
  return events;
}

/** OpenAI Responses as sent today (see the summary); `reasoning` pieces form the reasoning item's summary. */
export function responsesWire({ text, calls, reasoning }, seed) {
  const obfuscation = obfuscator(random(seed));
  const events = [];
  let sequence = 0;
  const push = (payload) => events.push(`event: ${payload.type}\ndata: ${JSON.stringify({ type: payload.type, sequence_number: sequence++, ...payload })}\n\n`);
  const response = (status, output, usage) => ({
    id: 'resp_0c8190a1b2c3d4e5f60718benchwire', object: 'response', created_at: 1_764_000_000, status, background: false, error: null, incomplete_details: null,
    instructions: null, max_output_tokens: null, max_tool_calls: null, model: 'gpt-5-2025-08-07', output, parallel_tool_calls: true, previous_response_id: null,
    prompt_cache_key: null, reasoning: { effort: 'medium', summary: 'auto' }, safety_identifier: null, service_tier: 'default', store: true, temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' }, tool_choice: 'auto', tools: calls.map((_, index) => ({ type: 'function', description: null, name: `tool_${index}`, parameters: { type: 'object', properties: {} }, strict: false })),
    top_logprobs: 0, top_p: 1, truncation: 'disabled', usage, user: null, metadata: {},
  });
  push({ type: 'response.created', response: response('in_progress', [], null) });
  push({ type: 'response.in_progress', response: response('in_progress', [], null) });
  const reasoningId = 'rs_0c8190a1b2c3d4e5f60718benchwire00';
  push({ type: 'response.output_item.added', output_index: 0, item: { id: reasoningId, type: 'reasoning', summary: [] } });
  const summaryPlace = { item_id: reasoningId, output_index: 0, summary_index: 0 };
  push({ type: 'response.reasoning_summary_part.added', ...summaryPlace, part: { type: 'summary_text', text: '' } });
  for (const piece of reasoning) push({ type: 'response.reasoning_summary_text.delta', ...summaryPlace, delta: piece, obfuscation: obfuscation() });
  const thought = reasoning.join('');
  push({ type: 'response.reasoning_summary_text.done', ...summaryPlace, text: thought });
  push({ type: 'response.reasoning_summary_part.done', ...summaryPlace, part: { type: 'summary_text', text: thought } });
  const reasoningItem = { id: reasoningId, type: 'reasoning', summary: [{ type: 'summary_text', text: thought }] };
  push({ type: 'response.output_item.done', output_index: 0, item: reasoningItem });
  const messageId = 'msg_0c8190b1c2d3e4f5061728benchwire0';
  const place = { item_id: messageId, output_index: 1, content_index: 0 };
  push({ type: 'response.output_item.added', output_index: 1, item: { id: messageId, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
  push({ type: 'response.content_part.added', ...place, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } });
  for (const piece of text) push({ type: 'response.output_text.delta', ...place, delta: piece, logprobs: [], obfuscation: obfuscation() });
  const whole = text.join('');
  push({ type: 'response.output_text.done', ...place, text: whole, logprobs: [] });
  push({ type: 'response.content_part.done', ...place, part: { type: 'output_text', annotations: [], logprobs: [], text: whole } });
  const message = { id: messageId, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: whole }], role: 'assistant' };
  push({ type: 'response.output_item.done', output_index: 1, item: message });
  const output = [reasoningItem, message];
  calls.forEach((parts, call) => {
    const output_index = call + 2;
    const item = { id: `fc_0c8190d1e2f3041526374benchwire${call}`, type: 'function_call', status: 'in_progress', arguments: '', call_id: `call_BenchWire${call}`, name: `tool_${call}` };
    push({ type: 'response.output_item.added', output_index, item });
    for (const part of parts) push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta: part, obfuscation: obfuscation() });
    const args = parts.join('');
    push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: args });
    const done = { ...item, status: 'completed', arguments: args };
    push({ type: 'response.output_item.done', output_index, item: done });
    output.push(done);
  });
  const outputTokens = events.length;
  push({ type: 'response.completed', response: response('completed', output, { input_tokens: 472, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: reasoning.length }, total_tokens: 472 + outputTokens }) });
  return events;
}

/** What each provider's delta events carry: [text, reasoning, tool arguments (with the call's key)] read from a parsed event. */
const READERS = {
  chatCompletions: (event, into) => {
    const delta = event.choices?.[0]?.delta ?? {};
    if (typeof delta.content === 'string') into.text += delta.content;
    for (const call of delta.tool_calls ?? []) if (typeof call.function?.arguments === 'string') into.args(call.index, call.function.name, call.function.arguments);
  },
  anthropic: (event, into) => {
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') into.args(event.index, event.content_block.name, '');
    if (event.type !== 'content_block_delta') return;
    if (event.delta.type === 'text_delta') into.text += event.delta.text;
    else if (event.delta.type === 'thinking_delta') into.reasoning += event.delta.thinking;
    else if (event.delta.type === 'input_json_delta') into.args(event.index, undefined, event.delta.partial_json);
  },
  responses: (event, into) => {
    if (event.type === 'response.output_item.added' && event.item.type === 'function_call') into.args(event.output_index, event.item.name, '');
    if (event.type === 'response.output_text.delta') into.text += event.delta;
    else if (event.type === 'response.reasoning_summary_text.delta') into.reasoning += event.delta;
    else if (event.type === 'response.function_call_arguments.delta') into.args(event.output_index, undefined, event.delta);
  },
};

/** The delta events of each format (one token's text, thinking or arguments): the ones a replay repeats. */
const IS_DELTA = {
  chatCompletions: (event) => {
    const choice = event.choices?.[0];
    const call = choice?.delta?.tool_calls?.[0];
    return choice?.finish_reason === null && choice.delta.role === undefined && (typeof choice.delta.content === 'string' ? choice.delta.content !== '' : call !== undefined && call.id === undefined);
  },
  anthropic: (event) => event.type === 'content_block_delta' && event.delta.type !== 'signature_delta',
  responses: (event) => /^response\.[a-z_]+\.delta$/.test(event.type),
};

const dataOf = (block) => block.slice(block.indexOf('data: ') + 6).trimEnd();

/**
 * A recorded fixture with each run of its delta events repeated `times` times in place (`sequence_number`s renumbered,
 * the whole text that later events repeat written for the repeated run): the recorded envelope, field order and
 * spacing, a long answer. Returns the events and what they carry.
 * @param {'chatCompletions'|'anthropic'|'responses'} format
 */
export function replayEvents(fixture, format, times) {
  const source = readFileSync(new URL(fixture, FIXTURES), 'utf8');
  const blocks = source.split('\n\n').filter((block) => block.trim() !== '' && !block.startsWith(':'));
  const events = [];
  let run = [];
  /** The whole texts the later events repeat (`.done` events, the final output), written for the repeated run. */
  const wholes = [];
  const flush = () => {
    for (let round = 0; round < times; round++) events.push(...run);
    const said = carried(run, format);
    for (const whole of [said.text, said.reasoning, ...said.toolArguments]) {
      if (whole.length >= 8) wholes.push([JSON.stringify(whole).slice(1, -1), JSON.stringify(whole.repeat(times)).slice(1, -1)]);
    }
    run = [];
  };
  for (const block of blocks) {
    const data = dataOf(block);
    if (data !== '[DONE]' && IS_DELTA[format](JSON.parse(data))) run.push(block);
    else {
      flush();
      events.push(wholes.reduce((text, [once, repeated]) => text.replaceAll(once, repeated), block));
    }
  }
  flush();
  let sequence = 0;
  const renumbered = events.map((block) => `${block.replace(/"sequence_number": ?\d+/, (found) => found.replace(/\d+$/, String(sequence++)))}\n\n`);
  return { events: renumbered, ...carried(renumbered, format) };
}

/** What a stream's events carry, read with JSON.parse: text, reasoning, each call's name and arguments, in call order. */
export function carried(events, format) {
  const into = { text: '', reasoning: '', calls: new Map() };
  into.args = (key, name, part) => {
    const call = into.calls.get(key) ?? { name, arguments: '' };
    call.arguments += part;
    if (name !== undefined) call.name = name;
    into.calls.set(key, call);
  };
  for (const block of events) {
    const data = dataOf(block);
    if (data !== '[DONE]') READERS[format](JSON.parse(data), into);
  }
  const calls = [...into.calls.values()];
  return { text: into.text, reasoning: into.reasoning, toolArguments: calls.map((call) => call.arguments), toolNames: calls.map((call) => call.name) };
}

/** Read sizes drawn log-uniformly from 1 B to 64 KiB (as many small reads as large ones, per order of magnitude). */
export function wireReadSize(next) {
  return Math.max(1, Math.min(65_536, Math.floor(Math.exp(next() * Math.log(65_537)))));
}
