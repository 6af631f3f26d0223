// A seeded OpenAI chat-completions SSE stream: text deltas with non-ASCII text, then parallel tool calls streamed as
// argument deltas, a finish and [DONE]; cut into chunks of random 1–4096 bytes (so UTF-8 characters and CRLFs split).
import { random } from './lib.mjs';

const WORDS = ['the', 'order', 'ships', 'héllo', 'naïve', 'café', '世界', 'データ', 'погода', '🌍', '🚀', 'status', 'inventory', 'résumé', 'ok'];

/**
 * @param {{ bytes?: number, seed?: number }} [options] target size in bytes (approximate)
 * @returns {{ chunks: Uint8Array[], bytes: number, events: number, text: string, toolArguments: string[] }}
 */
export function chatStream({ bytes = 50 * 1024 * 1024, seed = 42 } = {}) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const head = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_764_000_000, model: 'gpt-bench' };
  const parts = [];
  let size = 0;
  let events = 0;
  let text = '';
  const push = (payload) => {
    const line = `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
    parts.push(line);
    size += line.length * 1.1; // rough UTF-8 estimate
    events++;
  };
  push({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  while (size < bytes * 0.6) {
    const piece = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(WORDS)).join(' ') + ' ';
    text += piece;
    push({ ...head, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  const toolArguments = ['', '', '', ''];
  for (let index = 0; index < 4; index++) {
    push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: `tool_${index}`, arguments: '' } }] }, finish_reason: null }] });
  }
  toolArguments.forEach((_, index) => (toolArguments[index] = '{"items":['));
  for (let index = 0; index < 4; index++) push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: '{"items":[' } }] }, finish_reason: null }] });
  while (size < bytes) {
    const index = Math.floor(next() * 4);
    const piece = `{"name":"${pick(WORDS)}","qty":${Math.floor(next() * 100)}},`;
    toolArguments[index] += piece;
    push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }] });
  }
  for (let index = 0; index < 4; index++) {
    toolArguments[index] += '{}]}';
    push({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: '{}]}' } }] }, finish_reason: null }] });
  }
  push({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  push('[DONE]');
  const all = new TextEncoder().encode(parts.join(''));
  const chunks = [];
  for (let offset = 0; offset < all.length; ) {
    const length = 1 + Math.floor(next() * 4096);
    chunks.push(all.subarray(offset, offset + length));
    offset += length;
  }
  return { chunks, bytes: all.length, events, text, toolArguments };
}

/** A fresh ReadableStream over the prebuilt chunks (pull-based, like a network body). */
export function streamOf(chunks) {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  });
}
