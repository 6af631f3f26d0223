// Cold import in Node: a fresh process imports each public entry of the built dist/ (every subpath of package.json's
// `exports`), against importing nothing, zod/mini alone and @a2a-js/sdk's client. Each sample is one process; the time
// is measured inside it around the dynamic import; samples rotate over the cases so drift hits all alike.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jsonLine, median, table } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? 11);
const timeImport = (specifier) =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`], { cwd: ROOT, encoding: 'utf8' }).trim());

const { exports } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const entries = Object.entries(exports).filter(([, target]) => typeof target === 'object').map(([path]) => path).map((path) => (path === '.' ? 'faultline' : `faultline/${path.slice(2)}`));
const references = { 'nothing (an empty module)': 'data:text/javascript,', 'zod/mini alone': 'zod/mini', '@a2a-js/sdk/client': '@a2a-js/sdk/client' };
const cases = { ...Object.fromEntries(entries.map((entry) => [entry, entry])), ...references };
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < SAMPLES; round++) for (const [name, specifier] of Object.entries(cases)) samples[name].push(timeImport(specifier));
const medians = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
table(`Cold import in Node ${process.version}: import() in a fresh process (median of ${SAMPLES})`, ['import', 'ms'], Object.entries(medians).map(([name, ms]) => [name, ms.toFixed(1)]));
jsonLine('cold-import', Object.fromEntries(Object.entries(medians).map(([name, ms]) => [name, Number(ms.toFixed(2))])));
