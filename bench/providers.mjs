// Full stream decode of each chat client against the practical limit of its own wire format, in one process, on every
// corpus of bench/provider-corpus.mjs per provider (about BENCH_PROVIDER_MB MB each): the seeded one (the same text
// pieces and 4 tool calls' argument fragments as Chat Completions, Anthropic Messages and OpenAI Responses SSE, random
// 1–4096 byte chunks), the provider's current wire (every field it sends today) and replays of recorded fixtures (read
// sizes from 1 B to 64 KiB). The worst corpus per provider is what the last table reports. Limit: TextDecoder +
// split on blank lines + JSON.parse of each event's data line (the goal is against it); a second limit does the same work on bytes read from a `Response` body, as a client gets them. Client: the public
// client's `stream()` to typed chunks, its `fetch` answering with the corpus; the decoded text and every call's final
// arguments are checked against what the corpus put in. All cases interleave in every round.
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient } from '../dist/index.js';
import { streamOf } from './corpus.mjs';
import { compare, fixed, jsonLine, table } from './lib.mjs';
import { providerCorpusSets } from './provider-corpus.mjs';

const MB = 1024 * 1024;
/** The SSE parser's default line bound: the Responses corpus's last events (the whole answer, as the API repeats it) are longer. */
const DEFAULT_MAX_LINE_LENGTH = 1_048_576;
const SEED = 42;
const built = performance.now();
const corpora = providerCorpusSets({ bytes: Number(process.env.BENCH_PROVIDER_MB ?? 20) * MB, seed: SEED });
const buildSeconds = (performance.now() - built) / 1000;

const clients = [
  {
    name: 'OpenAI Chat Completions',
    corpora: corpora.chatCompletions,
    path: '/v1/chat/completions',
    create: (options) => createOpenAICompatibleClient({ baseURL: 'http://bench.invalid/v1', model: 'gpt-bench', ...options }),
  },
  {
    name: 'Anthropic Messages',
    corpora: corpora.anthropic,
    path: '/v1/messages',
    create: (options) => createAnthropicClient({ baseURL: 'http://bench.invalid', model: 'claude-bench', maxTokens: 4096, ...options }),
  },
  {
    name: 'OpenAI Responses',
    corpora: corpora.responses,
    path: '/v1/responses',
    create: (options) => createOpenAIResponsesClient({ baseURL: 'http://bench.invalid/v1', model: 'gpt-bench', ...options }),
  },
];
/**
 * One case per client and corpus (the seeded Chat Completions corpus sends no usage chunk: bench/corpus.mjs);
 * BENCH_ONLY keeps the cases whose name contains it.
 */
const providers = clients
  .flatMap((client) => client.corpora.map(({ name, corpus }) => ({ ...client, client: client.name, name: `${client.name} (${name})`, corpus, usage: !(client.corpora[0].corpus === corpus && client.path === '/v1/chat/completions') })))
  .filter((provider) => provider.name.includes(process.env.BENCH_ONLY ?? ''));

/** The limit: decode, cut at blank lines, JSON.parse the data line of each event, over the corpus's chunks in memory. */
function limit(corpus) {
  const session = splitter(corpus);
  for (const chunk of corpus.chunks) session.feed(chunk);
  session.end();
}

/**
 * The same limit with the bytes read the way every client must get them: from a `Response` body, one `read()` per
 * chunk. Reading a Web stream is a cost no decoder can avoid, and the limit above does not pay it; this row says
 * how much of the gap to the limit it is.
 */
async function limitFromBody(corpus) {
  const reader = new Response(streamOf(corpus.chunks)).body.getReader();
  const session = splitter(corpus);
  for (let next = await reader.read(); !next.done; next = await reader.read()) session.feed(next.value);
  session.end();
}

/**
 * The limit's work, one network chunk at a time (`end` checks the count of events). Only new text is scanned:
 * bench/sse.mjs's `buffer += text; buffer.split('\n\n')` re-reads an unfinished event on every chunk, which on the
 * Responses corpus's MB-long last events is quadratic (~10× slower there): the limit would then measure the
 * splitter, not the format.
 */
function splitter(corpus) {
  const decoder = new TextDecoder();
  let parts = []; // the text of the event being received
  let endsInLF = false; // that text ends with '\n' (a blank line may be split across chunks)
  let events = 0;
  const dispatch = (block) => {
    const data = block.startsWith('data: ') ? block.slice(6) : block.slice(block.indexOf('\ndata: ') + 7);
    if (data !== '[DONE]') JSON.parse(data);
    events++;
  };
  const feed = (chunk) => {
    const text = decoder.decode(chunk, { stream: true });
    if (text === '') return;
    let start = 0;
    if (endsInLF && text.charCodeAt(0) === 10) {
      const block = parts.join('');
      dispatch(block.slice(0, -1));
      parts = [];
      start = 1;
    }
    for (let end = text.indexOf('\n\n', start); end !== -1; end = text.indexOf('\n\n', start)) {
      parts.push(text.slice(start, end));
      dispatch(parts.length === 1 ? parts[0] : parts.join(''));
      parts = [];
      start = end + 2;
    }
    if (start < text.length) parts.push(text.slice(start));
    endsInLF = start < text.length && text.charCodeAt(text.length - 1) === 10;
  };
  const end = () => {
    if (events !== corpus.events) throw new Error(`the limit parsed ${events} events, the corpus has ${corpus.events}`);
  };
  return { feed, end };
}

/** The public client's full decode; `everything` also records and checks every chunk (the untimed check run). */
async function decode(provider, everything = false) {
  const { corpus } = provider;
  const fetch = async (url) => {
    if (everything && new URL(String(url)).pathname !== provider.path) throw new Error(`${provider.name}: the client called ${url}, not ${provider.path}`);
    return new Response(streamOf(corpus.chunks), { headers: { 'content-type': 'text/event-stream' } });
  };
  const client = provider.create({ fetch, retry: false, maxLineLength: Math.max(DEFAULT_MAX_LINE_LENGTH, corpus.longestLine) });
  let text = '';
  let reasoning = '';
  const ends = [];
  const starts = [];
  const deltas = corpus.toolArguments.map(() => '');
  let finish;
  let usage;
  const reader = client.stream({ messages: [{ role: 'user', content: 'go' }] }).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const chunk = next.value;
    if (chunk.type === 'text-delta') text += chunk.delta;
    else if (everything && chunk.type === 'reasoning-delta') reasoning += chunk.delta;
    else if (chunk.type === 'tool-call-end') ends[chunk.index] = chunk;
    else if (chunk.type === 'finish') finish = chunk;
    else if (everything && chunk.type === 'tool-call-start') starts[chunk.index] = chunk;
    else if (everything && chunk.type === 'tool-call-delta') deltas[chunk.index] += chunk.argumentsDelta;
    else if (everything && chunk.type === 'usage') usage = chunk.usage;
  }
  const wrong = [];
  if (text !== corpus.text) wrong.push(`text: ${text.length} characters decoded, ${corpus.text.length} sent`);
  if (ends.length !== corpus.toolArguments.length) wrong.push(`${ends.length} tool calls ended, ${corpus.toolArguments.length} sent`);
  corpus.toolArguments.forEach((args, index) => {
    if (ends[index]?.arguments !== args) wrong.push(`tool call ${index}: final arguments differ (${ends[index]?.arguments.length} characters, ${args.length} sent)`);
    if (everything && ends[index]?.name !== corpus.toolNames[index]) wrong.push(`tool call ${index}: name ${ends[index]?.name}`);
    if (everything && starts[index]?.name !== corpus.toolNames[index]) wrong.push(`tool call ${index}: no tool-call-start for ${corpus.toolNames[index]}`);
    if (everything && deltas[index] !== args) wrong.push(`tool call ${index}: its deltas add up to ${deltas[index].length} characters, ${args.length} sent`);
  });
  if (everything && corpus.reasoning !== undefined && reasoning !== corpus.reasoning) wrong.push(`reasoning: ${reasoning.length} characters decoded, ${corpus.reasoning.length} sent`);
  if (finish?.reason !== corpus.finish) wrong.push(`finish: ${finish?.reason}, not ${corpus.finish}`);
  if (everything && provider.usage && !(usage?.completionTokens > 0)) wrong.push('no usage chunk');
  if (wrong.length > 0) throw new Error(`${provider.name}: the client's decode differs from the corpus — ${wrong.join('; ')}`);
}

for (const provider of providers) await decode(provider, true);

const cases = {};
for (const provider of providers) {
  cases[`${provider.name}: limit`] = () => limit(provider.corpus);
  cases[`${provider.name}: limit, bytes from a body`] = () => limitFromBody(provider.corpus);
  cases[`${provider.name}: client`] = () => decode(provider);
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const started = performance.now();
const results = await compare(cases, { warmup: 1, rounds });
const seconds = (performance.now() - started) / 1000;

const rows = providers.map((provider) => {
  const { corpus } = provider;
  const megabytes = corpus.bytes / MB;
  const limitMs = results[`${provider.name}: limit`].median;
  const clientMs = results[`${provider.name}: client`].median;
  const bodyLimitMs = results[`${provider.name}: limit, bytes from a body`].median;
  return { provider, megabytes, limitMs, bodyLimitMs, clientMs, limitRate: megabytes / (limitMs / 1000), clientRate: megabytes / (clientMs / 1000) };
});
table(
  `Full stream decode per provider and corpus against its limit (seed ${SEED}, median of ${rounds} rounds; corpora built in ${buildSeconds.toFixed(1)} s, measured in ${seconds.toFixed(1)} s)`,
  ['provider (corpus)', 'corpus MB', 'events', 'limit MB/s', 'client MB/s', 'client ÷ limit', 'client ÷ limit read from a body'],
  rows.map((row) => [
    row.provider.name,
    row.megabytes.toFixed(1),
    row.provider.corpus.events.toLocaleString('en-US'),
    row.limitRate.toFixed(0),
    row.clientRate.toFixed(0),
    (row.limitMs / row.clientMs).toFixed(2),
    (row.bodyLimitMs / row.clientMs).toFixed(2),
  ]),
);
jsonLine(
  'providers',
  Object.fromEntries(
    rows.map((row) => [
      row.provider.name,
      {
        mb: fixed(row.megabytes, 1),
        events: row.provider.corpus.events,
        chunks: row.provider.corpus.chunks.length,
        limitMs: fixed(row.limitMs, 1),
        bodyLimitMs: fixed(row.bodyLimitMs, 1),
        clientMs: fixed(row.clientMs, 1),
        limitMBPerSecond: fixed(row.limitRate, 1),
        clientMBPerSecond: fixed(row.clientRate, 1),
        ofLimit: fixed(row.limitMs / row.clientMs),
        ofBodyLimit: fixed(row.bodyLimitMs / row.clientMs),
      },
    ]),
  ),
);
const worst = clients.flatMap((client) => {
  const own = rows.filter((row) => row.provider.client === client.name);
  if (own.length === 0) return [];
  const ratio = (row) => row.bodyLimitMs / row.clientMs;
  const bottom = own.reduce((low, row) => (ratio(row) < ratio(low) ? row : low));
  return [{ client: client.name, corpus: bottom.provider.name, ofBodyLimit: ratio(bottom), ofLimit: bottom.limitMs / bottom.clientMs }];
});
table(
  'Worst corpus per provider (client ÷ the limit read from a body; the goal is ≥ 0.9)',
  ['provider', 'worst corpus', 'client ÷ limit', 'client ÷ limit read from a body'],
  worst.map((row) => [row.client, row.corpus, row.ofLimit.toFixed(2), row.ofBodyLimit.toFixed(2)]),
);
jsonLine('providers-worst', Object.fromEntries(worst.map((row) => [row.client, { corpus: row.corpus, ofLimit: fixed(row.ofLimit), ofBodyLimit: fixed(row.ofBodyLimit) }])));
