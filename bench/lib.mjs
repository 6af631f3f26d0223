// The benchmark harness: warm-up, then rounds of subject and baseline interleaved in one process, medians and ratios,
// a table and one JSON line per benchmark. Deterministic inputs from a seeded generator.

/** A seeded PRNG (mulberry32): the same inputs on every run. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Runs each case `warmup` times, then `rounds` rounds in which every case runs once, in rotating order (so drift and
 * GC hit them alike), each timed run after a young-generation GC when Node runs with `--expose-gc`. Each run returns
 * nothing or a number of units done; the result is ms per run (median).
 * @param {Record<string, () => Promise<unknown> | unknown>} cases
 * @returns {Promise<Record<string, { median: number, min: number, max: number, samples: number[] }>>}
 */
export async function compare(cases, { warmup = 2, rounds = 7 } = {}) {
  const names = Object.keys(cases);
  for (let index = 0; index < warmup; index++) for (const name of names) await cases[name]();
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, index) => names[(index + round) % names.length]);
    for (const name of order) {
      // A young-generation GC: the previous run's short-lived garbage is not left for this run to collect. Not a full
      // GC: with none of the previous run's objects alive, a full GC keeps the hidden classes (maps) built for them
      // for only two full GCs (V8's --retain-maps-for-n-gc), then clears them and deoptimizes the code optimized for
      // them ("weak objects" in --trace-deopt), so runs would measure code re-warming, not the warm code a busy
      // process runs. (Node 20's gc() reads only `type: 'minor'` and `execution: 'async'`; `type: 'major'` is minor.)
      globalThis.gc?.({ type: 'minor' });
      const started = performance.now();
      await cases[name]();
      samples[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(names.map((name) => [name, { median: median(samples[name]), min: Math.min(...samples[name]), max: Math.max(...samples[name]), samples: samples[name] }]));
}

/** Prints rows `[label, ...cells]` as an aligned table. */
export function table(title, header, rows) {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  console.log(`\n${title}`);
  for (const [index, row] of all.entries()) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

/** The machine-readable line: `BENCH {json}`. */
export function jsonLine(name, values) {
  console.log(`BENCH ${JSON.stringify({ bench: name, ...values })}`);
}

export const fixed = (value, digits = 2) => Number(value.toFixed(digits));
