// SSE → parsed events, and the full chat-client decode, on a seeded ~50 MB OpenAI stream in random 1–4096 byte chunks.
// Baseline (the practical limit): TextDecoder + split on blank lines + JSON.parse. Peers: eventsource-parser, plain
// callback path and its Web-Streams path. (Our `SSEDecoderStream` wrapper is not measured: no client of the package
// uses it — they all feed `SSEParser` from their own read loop — so the build leaves it out of `dist/`.)
import { createParser } from 'eventsource-parser';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { createOpenAICompatibleClient } from '../dist/index.js';
import { chatStream, streamOf } from './corpus.mjs';
import { importInternal } from './internal-module.mjs';
import { compare, fixed, jsonLine, table } from './lib.mjs';

// The parsers are internal (every client feeds one from its own read loop): compiled from src/ as the build does.
// SSEParser reads line by line (the A2A and MCP clients); SSEDataParser, the chat decoders', reads whole events at once.
const { SSEParser, SSEDataParser } = await importInternal('src/wire/sse-decoder.ts');

const MB = 1024 * 1024;
const corpus = chatStream({ bytes: Number(process.env.BENCH_SSE_MB ?? 50) * MB });
let parsed = 0;
const parse = (data) => {
  if (data !== '[DONE]') parsed += JSON.parse(data).choices.length;
};

async function drain(stream, onValue) {
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) onValue(next.value);
}

const cases = {
  'naive split + JSON.parse (the limit)': () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for (const chunk of corpus.chunks) {
      buffer += decoder.decode(chunk, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop();
      for (const block of blocks) if (block.startsWith('data: ')) parse(block.slice(6));
    }
  },
  'faultline SSEParser + JSON.parse': () => {
    const decoder = new TextDecoder();
    const parser = new SSEParser({ onEvent: (event) => parse(event.data) });
    for (const chunk of corpus.chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.end();
  },
  'faultline SSEDataParser + JSON.parse (the chat decoders’)': () => {
    const decoder = new TextDecoder();
    const parser = new SSEDataParser((_type, data) => parse(data));
    for (const chunk of corpus.chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.end();
  },
  'eventsource-parser + JSON.parse': () => {
    const decoder = new TextDecoder();
    const parser = createParser({ onEvent: (event) => parse(event.data) });
    for (const chunk of corpus.chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  },
  'eventsource-parser EventSourceParserStream': () =>
    drain(streamOf(corpus.chunks).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()), (event) => parse(event.data)),
  'faultline chat client: full decode to typed chunks': async () => {
    const client = createOpenAICompatibleClient({ baseURL: 'http://bench.invalid/v1', model: 'gpt-bench', retry: false, fetch: async () => new Response(streamOf(corpus.chunks), { headers: { 'content-type': 'text/event-stream' } }) });
    let text = '';
    await drain(client.stream({ messages: [{ role: 'user', content: 'go' }] }), (chunk) => {
      if (chunk.type === 'text-delta') text += chunk.delta;
    });
    if (text.length !== corpus.text.length) throw new Error('the chat client lost text');
  },
};

const results = await compare(cases, { warmup: 1, rounds: Number(process.env.BENCH_ROUNDS ?? 5) });
const limit = results['naive split + JSON.parse (the limit)'].median;
const rate = (ms) => corpus.bytes / MB / (ms / 1000);
table(
  `SSE → parsed events: ${(corpus.bytes / MB).toFixed(1)} MB, ${corpus.events} events, ${corpus.chunks.length} chunks (median of rounds)`,
  ['path', 'ms', 'MB/s', '× limit'],
  Object.entries(results).map(([name, result]) => [name, result.median.toFixed(1), rate(result.median).toFixed(0), (limit / result.median).toFixed(2)]),
);
jsonLine('sse', Object.fromEntries(Object.entries(results).map(([name, result]) => [name, { ms: fixed(result.median, 1), mbPerSecond: fixed(rate(result.median), 1), ofLimit: fixed(limit / result.median) }])));
