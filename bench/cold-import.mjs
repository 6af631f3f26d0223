// Cold import in Node: a fresh process imports the root entry (the built dist/), against importing zod/mini alone.
// Each sample is one process; the time is measured inside it around the dynamic import.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { jsonLine, median, table } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? 15);
const timeImport = (specifier) =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`], { cwd: ROOT, encoding: 'utf8' }).trim());

const cases = { 'faultline (root entry, dist/)': 'faultline', 'faultline/errors': 'faultline/errors', 'zod/mini alone': 'zod/mini', 'nothing (an empty module)': 'data:text/javascript,' };
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < SAMPLES; round++) for (const [name, specifier] of Object.entries(cases)) samples[name].push(timeImport(specifier));
table(`Cold import in Node ${process.version} (median of ${SAMPLES} fresh processes)`, ['import', 'ms'], Object.entries(samples).map(([name, values]) => [name, median(values).toFixed(1)]));
jsonLine('cold-import', Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, Number(median(values).toFixed(2))])));
