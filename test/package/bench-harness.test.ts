// The bench harness measures warm code: the GC that `compare()` (bench/lib.mjs) runs before every timed run must not
// throw away what V8 optimized in the runs before. A full GC does when none of the previous run's objects is alive:
// V8 keeps the hidden class (map) of such objects for only two full GCs, then clears it and deoptimizes the code that
// was optimized for it. A Node process with `--allow-natives-syntax` asks V8 whether a function is still optimized at
// the start of every run; no timing is involved.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const lib = pathToFileURL(fileURLToPath(new URL('../../bench/lib.mjs', import.meta.url))).href;
const ROUNDS = 8;

/**
 * The probe: `hot` is optimized on demand over objects whose shape is built by adding properties one by one — a
 * transition off the plain-object map, which V8 holds weakly, unlike an object literal's map, which its boilerplate
 * keeps — and only the objects of the current run exist. Nothing else is optimized behind its back (`make` never;
 * no background compiles, whose handles would keep the map alive through a GC at a moment that varies), so which GC
 * clears the map does not vary from run to run. `fullGC` makes every `gc()` call a full GC whatever its options (the
 * harness as it would be with a bare `gc()`).
 */
const probe = (fullGC: boolean): string => `
import { compare } from ${JSON.stringify(lib)};
${fullGC ? 'const full = globalThis.gc; globalThis.gc = () => full();' : ''}
function make(index) {
  const item = {};
  item.alpha = index;
  item.beta = index + 1;
  item.gamma = index + 2;
  return item;
}
%NeverOptimizeFunction(make);
function hot(item) {
  return item.alpha + item.beta * item.gamma;
}
const OPTIMIZED = 16; // V8's OptimizationStatus::kOptimized
const optimizedAtStart = [];
let sum = 0;
await compare(
  {
    run() {
      optimizedAtStart.push((%GetOptimizationStatus(hot) & OPTIMIZED) !== 0);
      const items = [];
      for (let index = 0; index < 1000; index++) items.push(make(index));
      for (const item of items) sum += hot(item);
      %PrepareFunctionForOptimization(hot);
      %OptimizeFunctionOnNextCall(hot);
      sum += hot(items[0]);
    },
  },
  { warmup: 2, rounds: ${ROUNDS} },
);
console.log(JSON.stringify({ timed: optimizedAtStart.slice(2), sum }));
`;

/** Whether `hot` was optimized at the start of each timed run. */
function optimizedAtEachTimedRun(fullGC: boolean): boolean[] {
  const output = execFileSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', '--no-concurrent-recompilation', '--input-type=module', '-e', probe(fullGC)], { encoding: 'utf8', timeout: 15_000 });
  const { timed } = JSON.parse(output) as { timed: boolean[] };
  expect(timed).toHaveLength(ROUNDS);
  return timed;
}

describe('bench harness: compare()', () => {
  it('leaves code optimized for the shapes of earlier runs optimized at the start of every timed run', () => {
    expect(optimizedAtEachTimedRun(false)).toEqual(Array(ROUNDS).fill(true));
  });

  it('the probe catches a full GC before each run (it deoptimizes that code within the rounds)', () => {
    expect(optimizedAtEachTimedRun(true)).toContain(false);
  });
});
