// The Durable Object path in workerd (miniflare, SQLite-backed objects): a unary failed task through createA2AWorker
// (the Worker entry, the task's own object writing every transition, its session) against the same agent
// behind the in-memory createA2AHandler, in the same workerd and the same run. Latency: one request at a time
// (median, p95); throughput: requests per second with 16 in flight. The difference is what durability costs; the
// floor — a bare new object per request writing one value — is what creating an object per task costs by itself.
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundle } from '../demo/worker/bundle.mjs';
import { fixed, jsonLine, median, table } from './lib.mjs';

const SEQUENTIAL = Number(process.env.BENCH_DO_SEQUENTIAL ?? 300);
const CONCURRENT = Number(process.env.BENCH_DO_CONCURRENT ?? 1200);
const IN_FLIGHT = 16;

const mf = new Miniflare({
  modules: true,
  script: await bundle(join(import.meta.dirname, 'workers/durable-objects.mjs')),
  compatibilityDate: '2026-04-01',
  durableObjects: { A2A_TASKS: { className: 'A2ATasks', useSQLite: true }, FLOOR: { className: 'Floor', useSQLite: true } },
});
const worker = await mf.getWorker();
let n = 0;
/** contextIds the server minted for 16 conversations it began (filled before the timed runs). */
const begun = [];
/**
 * A new conversation per message; (`#ongoing`) a turn of one of 16 conversations whose contextId the client chose
 * (their session objects warm); (`#continued`) a turn of one of 16 the server began (their sessions in the objects
 * of their first tasks).
 */
const body = (kind) => {
  const contextId = kind === 'ongoing' ? `ctx-bench-${n % 16}` : kind === 'continued' ? begun[n % 16] : undefined;
  return JSON.stringify({ jsonrpc: '2.0', id: ++n, method: 'message/send', params: { message: { kind: 'message', messageId: `m${n}`, role: 'user', parts: [{ kind: 'text', text: 'order 42' }], ...(contextId ? { contextId } : {}) } } });
};

async function send(target) {
  const [path, fragment] = target.split('#');
  const response = await worker.fetch(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(fragment) });
  const answer = await response.json();
  if (answer.result?.status?.state !== 'failed') throw new Error(`expected a failed task, got ${JSON.stringify(answer).slice(0, 200)}`);
  return answer.result.contextId;
}

async function latency(path, count) {
  const samples = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await send(path);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: median(samples), p95: samples[Math.floor(samples.length * 0.95)] };
}

async function throughput(path, count) {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next++ < count) await send(path);
  }));
  return count / ((performance.now() - started) / 1000);
}

try {
  for (let index = 0; index < 16; index++) begun.push(await send('/'));
  if (!begun.every((id) => typeof id === 'string' && id.startsWith('ctx-'))) throw new Error(`expected server-minted contextIds, got ${begun.slice(0, 2)}`);
  const PATHS = { durable: '/', ongoing: '/#ongoing', continued: '/#continued', memory: '/memory', floor: '/floor' };
  for (const path of Object.values(PATHS)) await latency(path, 30); // warm-up
  const results = {};
  // Latency interleaved request by request (each round sends one request on every path, starting one path later
  // than the round before), so drift — workerd's GC, the objects piling up in its storage, the machine's load — hits
  // every path alike; throughput in interleaved halves.
  const samples = Object.fromEntries(Object.keys(PATHS).map((name) => [name, []]));
  const rate = Object.fromEntries(Object.keys(PATHS).map((name) => [name, []]));
  const names = Object.keys(PATHS);
  for (let round = 0; round < SEQUENTIAL; round++) {
    for (let step = 0; step < names.length; step++) {
      const name = names[(round + step) % names.length];
      const started = performance.now();
      await send(PATHS[name]);
      samples[name].push(performance.now() - started);
    }
  }
  for (let half = 0; half < 2; half++) for (const [name, path] of Object.entries(PATHS)) rate[name].push(await throughput(path, CONCURRENT / 2));
  for (const name of names) {
    const sorted = samples[name].sort((a, b) => a - b);
    results[name] = { median: median(sorted), p95: sorted[Math.floor(sorted.length * 0.95)], rps: (rate[name][0] + rate[name][1]) / 2 };
  }
  const added = results.durable.median - results.memory.median;
  table(
    `Unary failed task in workerd: Durable Objects vs the in-memory handler (${SEQUENTIAL} sequential, ${CONCURRENT} with ${IN_FLIGHT} in flight)`,
    ['path', 'median ms', 'p95 ms', 'requests/s'],
    [
      ['createA2AWorker + Durable Objects (a new conversation)', fixed(results.durable.median), fixed(results.durable.p95), fixed(results.durable.rps, 0)],
      ['createA2AWorker + Durable Objects (an ongoing one, contextId the client chose)', fixed(results.ongoing.median), fixed(results.ongoing.p95), fixed(results.ongoing.rps, 0)],
      ['createA2AWorker + Durable Objects (an ongoing one the server began)', fixed(results.continued.median), fixed(results.continued.p95), fixed(results.continued.rps, 0)],
      ['createA2AHandler (in memory)', fixed(results.memory.median), fixed(results.memory.p95), fixed(results.memory.rps, 0)],
      ['floor: a new bare object, one write', fixed(results.floor.median), fixed(results.floor.p95), fixed(results.floor.rps, 0)],
    ],
  );
  console.log(`the floor takes ${fixed(results.floor.median - results.memory.median)} ms of the added latency (${fixed((results.floor.median - results.memory.median) / added * 100, 0)}%); our layer above it: ${fixed(results.durable.median - results.floor.median)} ms`);
  console.log(`added latency ${fixed(added)} ms per request (${fixed(results.durable.median / results.memory.median)}×); throughput ${fixed(results.durable.rps / results.memory.rps)}× the in-memory handler's`);
  jsonLine('durable-objects', {
    durableMedianMs: fixed(results.durable.median, 3),
    memoryMedianMs: fixed(results.memory.median, 3),
    addedMs: fixed(added, 3),
    durableRps: fixed(results.durable.rps, 0),
    memoryRps: fixed(results.memory.rps, 0),
    rpsRatio: fixed(results.durable.rps / results.memory.rps, 3),
    ongoingMedianMs: fixed(results.ongoing.median, 3),
    ongoingRps: fixed(results.ongoing.rps, 0),
    continuedMedianMs: fixed(results.continued.median, 3),
    continuedRps: fixed(results.continued.rps, 0),
    floorMedianMs: fixed(results.floor.median, 3),
    floorRps: fixed(results.floor.rps, 0),
  });
} finally {
  await mf.dispose();
}
