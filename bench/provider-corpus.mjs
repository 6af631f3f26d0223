// One seeded kind of answer, three wire formats: a Chat Completions stream from bench/corpus.mjs (used as it is), and
// the same content — its text pieces, then its 4 tool calls' argument fragments, then the finish and usage — as an
// Anthropic Messages stream and as an OpenAI Responses stream, each cut into chunks of random 1–4096 bytes.
//
// Each format's corpus is about the asked size: its content is read back out of a Chat Completions stream of the
// same seed built to the size that makes this format's envelope come out at the target (measured on a small build
// first). So every corpus starts with the same seeded text pieces (the text of the smaller ones is a prefix of the
// larger ones'), in the same proportions of text and tool arguments; only the envelope differs. Anthropic and
// Responses stream one tool call after the other (a content block / output item at a time, as both providers do);
// the Chat Completions corpus interleaves them. Event shapes follow test/fixtures/anthropic-*.sse and
// test/fixtures/responses-*.sse (JSON written compact).
import { chatStream } from './corpus.mjs';
import { random } from './lib.mjs';
import { anthropicWire, chatCompletionsWire, replayEvents, responsesWire, withEscapes, wireReadSize } from './provider-wire-corpus.mjs';

/**
 * @typedef {{ chunks: Uint8Array[], bytes: number, events: number, longestLine: number, text: string, toolArguments: string[], toolNames: string[] }} ProviderCorpus
 * @param {{ bytes?: number, seed?: number }} [options] the target size of each corpus, in bytes (met within a few %)
 * @returns {{ chatCompletions: ProviderCorpus, anthropic: ProviderCorpus, responses: ProviderCorpus }}
 */
export function providerCorpora({ bytes = 20 * 1024 * 1024, seed = 42 } = {}) {
  return {
    chatCompletions: sized(bytes, seed, (chat) => ({ chunks: chat.chunks, bytes: chat.bytes, events: chat.events, longestLine: longestLine(new TextDecoder().decode(concat(chat.chunks))) })),
    anthropic: sized(bytes, seed, (chat) => encode(anthropicEvents(scriptOf(chat)), seed + 1)),
    responses: sized(bytes, seed, (chat) => encode(responsesEvents(scriptOf(chat)), seed + 2)),
  };
}

/**
 * Every corpus per provider, for the bench to report the worst: `seeded` (above), `current wire` (the same seeded
 * content with escapes mixed in, written with every field the provider sends today: bench/provider-wire-corpus.mjs),
 * and two `replay` corpora (a recorded text fixture and a recorded tool-call fixture of test/fixtures/, each delta run
 * repeated). The current-wire and replay corpora are read in sizes drawn from 1 B to 64 KiB. Each corpus says what it
 * carries (text, reasoning, calls) and how it finishes, for the bench's check.
 * @returns {Record<'chatCompletions'|'anthropic'|'responses', Array<{ name: string, corpus: ProviderCorpus & { finish: string, reasoning?: string } }>>}
 */
export function providerCorpusSets({ bytes = 20 * 1024 * 1024, seed = 42 } = {}) {
  const seeded = providerCorpora({ bytes, seed });
  const wire = (format, write) => ({ name: 'current wire', corpus: sizedWire(bytes, seed, format, write) });
  const replay = (fixture, format, finish) => ({ name: `replay ${fixture}`, corpus: { ...replayed(bytes, seed, fixture, format), finish } });
  return {
    chatCompletions: [
      { name: 'seeded', corpus: { ...seeded.chatCompletions, finish: 'tool_calls' } },
      wire('chatCompletions', chatCompletionsWire),
      replay('openai-text.sse', 'chatCompletions', 'stop'),
      replay('openai-parallel-tool-calls.sse', 'chatCompletions', 'tool_calls'),
    ],
    anthropic: [
      { name: 'seeded', corpus: { ...seeded.anthropic, finish: 'tool_calls' } },
      wire('anthropic', anthropicWire),
      replay('anthropic-thinking.sse', 'anthropic', 'stop'),
      replay('anthropic-tool-use.sse', 'anthropic', 'tool_calls'),
    ],
    responses: [
      { name: 'seeded', corpus: { ...seeded.responses, finish: 'tool_calls' } },
      wire('responses', responsesWire),
      replay('responses-text.sse', 'responses', 'stop'),
      replay('responses-function-call.sse', 'responses', 'tool_calls'),
    ],
  };
}

/** A current-wire corpus of about `bytes`: the seeded content (escapes mixed into its text) in `write`'s format. */
function sizedWire(bytes, seed, format, write) {
  const build = (size) => {
    const script = scriptOf(chatStream({ bytes: size, seed }));
    const text = withEscapes(script.text, seed + 3);
    const reasoning = format === 'chatCompletions' ? [] : text.slice(0, Math.min(2000, text.length >> 4));
    const events = write({ text, calls: script.calls, reasoning }, seed + 4);
    return { ...encode(events, seed + 5, wireReadSize), text: text.join(''), reasoning: reasoning.join(''), toolArguments: script.calls.map((parts) => parts.join('')), toolNames: script.calls.map((_, index) => `tool_${index}`), finish: 'tool_calls' };
  };
  const probe = Math.max(1024 * 1024, bytes / 16);
  return build(bytes / (build(probe).bytes / probe));
}

/** A replay of `fixture` of about `bytes`: its delta runs repeated as often as that takes. */
function replayed(bytes, seed, fixture, format) {
  const size = (times) => replayEvents(fixture, format, times).events.reduce((sum, event) => sum + Buffer.byteLength(event), 0);
  const once = size(1);
  const times = Math.max(1, Math.round((bytes - once) / (size(2) - once)) + 1);
  const { events, ...carried } = replayEvents(fixture, format, times);
  return { ...encode(events, seed + 6, wireReadSize), ...carried };
}

/** Builds a format's corpus from a Chat Completions stream sized so that the result is about `bytes` long. */
function sized(bytes, seed, build) {
  const probe = Math.max(1024 * 1024, bytes / 16);
  const scale = build(chatStream({ bytes: probe, seed })).bytes / probe;
  const chat = chatStream({ bytes: bytes / scale, seed });
  return { ...build(chat), text: chat.text, toolArguments: chat.toolArguments, toolNames: chat.toolArguments.map((_, index) => `tool_${index}`) };
}

/** The Chat Completions corpus's content, in order: its text pieces, and each call's argument fragments. */
function scriptOf(corpus) {
  const whole = new TextDecoder().decode(concat(corpus.chunks));
  const text = [];
  const calls = corpus.toolArguments.map(() => []);
  for (const block of whole.split('\n\n')) {
    if (!block.startsWith('data: ') || block === 'data: [DONE]') continue;
    const delta = JSON.parse(block.slice(6)).choices[0]?.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') text.push(delta.content);
    for (const call of delta.tool_calls ?? []) if (call.function?.arguments) calls[call.index].push(call.function.arguments);
  }
  if (text.join('') !== corpus.text || calls.some((parts, index) => parts.join('') !== corpus.toolArguments[index])) {
    throw new Error('provider-corpus: the Chat Completions corpus did not read back as the content it was built from');
  }
  return { text, calls };
}

/** An Anthropic Messages stream: message_start, ping, one text block, one tool_use block per call, message_delta, message_stop. */
function anthropicEvents({ text, calls }) {
  const events = [];
  const push = (payload) => events.push(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
  push({ type: 'message_start', message: { id: 'msg_01BenchCorpus0001', type: 'message', role: 'assistant', model: 'claude-bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 472, output_tokens: 1 } } });
  push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  push({ type: 'ping' });
  for (const piece of text) push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
  push({ type: 'content_block_stop', index: 0 });
  calls.forEach((parts, call) => {
    const index = call + 1;
    push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_01Bench${call}`, name: `tool_${call}`, input: {} } });
    push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const part of parts) push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
    push({ type: 'content_block_stop', index });
  });
  push({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: events.length } });
  push({ type: 'message_stop' });
  return events;
}

/**
 * An OpenAI Responses stream: created, in_progress, a message item (content part, output_text deltas, .done events
 * with the whole text), one function_call item per call (argument deltas, `.done` and `output_item.done` with the
 * whole arguments), then response.completed with the whole output and usage — as the API sends it, so the last
 * events are as long as the answer (the client needs a `maxLineLength` above its 1 MiB default for them).
 */
function responsesEvents({ text, calls }) {
  const events = [];
  let sequence = 0;
  const push = (payload) => events.push(`event: ${payload.type}\ndata: ${JSON.stringify({ type: payload.type, sequence_number: sequence++, ...payload })}\n\n`);
  const response = (status, output, usage) => ({ id: 'resp_bench0c8190a1b2c3d4e5f60718', object: 'response', created_at: 1_764_000_000, status, model: 'gpt-bench', output, parallel_tool_calls: true, tool_choice: 'auto', usage, error: null, incomplete_details: null });
  push({ type: 'response.created', response: response('in_progress', [], null) });
  push({ type: 'response.in_progress', response: response('in_progress', [], null) });
  const messageId = 'msg_bench0c8190b1c2d3e4f5061728';
  const place = { item_id: messageId, output_index: 0, content_index: 0 };
  push({ type: 'response.output_item.added', output_index: 0, item: { id: messageId, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
  push({ type: 'response.content_part.added', ...place, part: { type: 'output_text', annotations: [], text: '' } });
  for (const piece of text) push({ type: 'response.output_text.delta', ...place, delta: piece, logprobs: [] });
  const whole = text.join('');
  push({ type: 'response.output_text.done', ...place, text: whole, logprobs: [] });
  push({ type: 'response.content_part.done', ...place, part: { type: 'output_text', annotations: [], text: whole } });
  const message = { id: messageId, type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], text: whole }], role: 'assistant' };
  push({ type: 'response.output_item.done', output_index: 0, item: message });
  const output = [message];
  calls.forEach((parts, call) => {
    const output_index = call + 1;
    const item = { id: `fc_bench0c8190d1e2f3041526374${call}`, type: 'function_call', status: 'in_progress', arguments: '', call_id: `call_${call}`, name: `tool_${call}` };
    push({ type: 'response.output_item.added', output_index, item });
    for (const part of parts) push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta: part });
    const args = parts.join('');
    push({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: args });
    const done = { ...item, status: 'completed', arguments: args };
    push({ type: 'response.output_item.done', output_index, item: done });
    output.push(done);
  });
  const outputTokens = events.length;
  push({ type: 'response.completed', response: response('completed', output, { input_tokens: 472, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 472 + outputTokens }) });
  return events;
}

/** The events as UTF-8, cut into chunks of `readSize` bytes (random 1–4096 unless given). */
function encode(events, seed, readSize = (next) => 1 + Math.floor(next() * 4096)) {
  const whole = events.join('');
  const all = new TextEncoder().encode(whole);
  const next = random(seed);
  const chunks = [];
  for (let offset = 0; offset < all.length; ) {
    const length = readSize(next);
    chunks.push(all.subarray(offset, offset + length));
    offset += length;
  }
  return { chunks, bytes: all.length, events: events.length, longestLine: longestLine(whole) };
}

function concat(chunks) {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

/** The longest line of a stream's text, in UTF-16 code units (what the SSE parser's `maxLineLength` counts). */
function longestLine(text) {
  let longest = 0;
  for (let start = 0, end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) longest = Math.max(longest, end - start);
  return longest;
}
