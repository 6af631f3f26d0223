// The Durable Object path in workerd (miniflare, SQLite-backed objects): a unary failed task through createA2AWorker
// (the Worker entry, the task's own object writing every transition, its session object) against the same agent
// behind the in-memory createA2AHandler, in the same workerd and the same run. Latency: one request at a time
// (median, p95); throughput: requests per second with 16 in flight. The difference is what durability costs.
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
  durableObjects: { A2A_TASKS: { className: 'A2ATasks', useSQLite: true } },
});
const worker = await mf.getWorker();
let n = 0;
const body = () => JSON.stringify({ jsonrpc: '2.0', id: ++n, method: 'message/send', params: { message: { kind: 'message', messageId: `m${n}`, role: 'user', parts: [{ kind: 'text', text: 'order 42' }] } } });

async function send(path) {
  const response = await worker.fetch(`http://bench.local${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body() });
  const answer = await response.json();
  if (answer.result?.status?.state !== 'failed') throw new Error(`expected a failed task, got ${JSON.stringify(answer).slice(0, 200)}`);
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
  for (const path of ['/', '/memory']) await latency(path, 30); // warm-up
  const results = {};
  // Interleaved halves, so drift hits both alike.
  const runs = { durable: [], memory: [] };
  for (let half = 0; half < 2; half++) {
    runs.durable.push(await latency('/', SEQUENTIAL / 2));
    runs.memory.push(await latency('/memory', SEQUENTIAL / 2));
  }
  const rate = { durable: [], memory: [] };
  for (let half = 0; half < 2; half++) {
    rate.durable.push(await throughput('/', CONCURRENT / 2));
    rate.memory.push(await throughput('/memory', CONCURRENT / 2));
  }
  for (const name of ['durable', 'memory']) {
    results[name] = {
      median: (runs[name][0].median + runs[name][1].median) / 2,
      p95: (runs[name][0].p95 + runs[name][1].p95) / 2,
      rps: (rate[name][0] + rate[name][1]) / 2,
    };
  }
  const added = results.durable.median - results.memory.median;
  table(
    `Unary failed task in workerd: Durable Objects vs the in-memory handler (${SEQUENTIAL} sequential, ${CONCURRENT} with ${IN_FLIGHT} in flight)`,
    ['path', 'median ms', 'p95 ms', 'requests/s'],
    [
      ['createA2AWorker + Durable Objects', fixed(results.durable.median), fixed(results.durable.p95), fixed(results.durable.rps, 0)],
      ['createA2AHandler (in memory)', fixed(results.memory.median), fixed(results.memory.p95), fixed(results.memory.rps, 0)],
    ],
  );
  console.log(`added latency ${fixed(added)} ms per request (${fixed(results.durable.median / results.memory.median)}×); throughput ${fixed(results.durable.rps / results.memory.rps)}× the in-memory handler's`);
  jsonLine('durable-objects', {
    durableMedianMs: fixed(results.durable.median, 3),
    memoryMedianMs: fixed(results.memory.median, 3),
    addedMs: fixed(added, 3),
    durableRps: fixed(results.durable.rps, 0),
    memoryRps: fixed(results.memory.rps, 0),
    rpsRatio: fixed(results.durable.rps / results.memory.rps, 3),
  });
} finally {
  await mf.dispose();
}
