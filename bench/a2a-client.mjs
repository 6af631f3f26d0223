// The A2A client against the reference one (@a2a-js/sdk 1.3.0, a devDependency), in one run (issue 17's A2A rows):
// - the browser bundle of each client as an app would ship it (`createA2AClient` + `streamMessage` against
//   `ClientFactory.createFromUrl` + `sendMessageStream`), bundled with rollup + node-resolve (browser) + terser, gzip 9;
// - that bundle's cold start: a fresh Node process importing the single file, median of samples;
// - `import('faultline/a2a')` against `import('@a2a-js/sdk/client')` from node_modules, fresh processes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { minify } from 'terser';
import { jsonLine, median, table } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? 15);
const VIRTUAL = '\0a2a-entry';
const OUT = join(tmpdir(), 'faultline-bench-a2a');
mkdirSync(OUT, { recursive: true });

const APPS = {
  faultline: `import { createA2AClient } from 'faultline/a2a';
export async function follow(url, text) { const events = []; for await (const event of createA2AClient({ agentCardUrl: url }).streamMessage(text)) events.push(event); return events; }`,
  '@a2a-js/sdk': `import { ClientFactory } from '@a2a-js/sdk/client';
export async function follow(url, text) { const client = await new ClientFactory().createFromUrl(url); const events = [];
  for await (const event of client.sendMessageStream({ message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text }] } })) events.push(event); return events; }`,
};

async function bundle(name, code) {
  const build = await rollup({
    input: VIRTUAL,
    treeshake: { preset: 'recommended' },
    onwarn: () => {},
    plugins: [
      {
        name: 'a2a-entry',
        resolveId: (id) => (id === VIRTUAL ? id : id.startsWith('faultline') ? join(ROOT, 'dist', id.slice('faultline/'.length), 'index.js') : null),
        load: (id) => (id === VIRTUAL ? code : null),
      },
      nodeResolve({ browser: true, preferBuiltins: false }),
    ],
  });
  try {
    const { output } = await build.generate({ format: 'es', inlineDynamicImports: true, plugins: [terser({ format: { comments: false } })] });
    const file = join(OUT, `${name.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(file, output[0].code);
    return { file, minified: Buffer.byteLength(output[0].code), gzip: gzipSync(output[0].code, { level: 9 }).byteLength, modules: output[0].modules };
  } finally {
    await build.close();
  }
}

const timeImport = (specifier) =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`], { cwd: ROOT, encoding: 'utf8' }).trim());
function coldImports(cases) {
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < SAMPLES; round++) for (const [name, specifier] of Object.entries(cases)) samples[name].push(timeImport(specifier));
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

const bundles = {};
for (const [name, code] of Object.entries(APPS)) bundles[name] = await bundle(name, code);
const starts = coldImports(Object.fromEntries(Object.entries(bundles).map(([name, built]) => [name, `file://${built.file}`])));
const imports = coldImports({ 'faultline/a2a': 'faultline/a2a', '@a2a-js/sdk/client': '@a2a-js/sdk/client' });
const KiB = 1024;
table(`The A2A client against @a2a-js/sdk's (browser bundle of a streaming client, rollup + terser, gzip 9; cold starts: median of ${SAMPLES} fresh processes)`, ['measure', 'faultline', '@a2a-js/sdk', 'ours ÷ theirs'], [
  ['bundle, min+gzip (KiB)', (bundles.faultline.gzip / KiB).toFixed(1), (bundles['@a2a-js/sdk'].gzip / KiB).toFixed(1), (bundles.faultline.gzip / bundles['@a2a-js/sdk'].gzip).toFixed(2)],
  ['bundle, minified (KiB)', (bundles.faultline.minified / KiB).toFixed(1), (bundles['@a2a-js/sdk'].minified / KiB).toFixed(1), (bundles.faultline.minified / bundles['@a2a-js/sdk'].minified).toFixed(2)],
  ['the bundle’s cold start (ms)', starts.faultline.toFixed(1), starts['@a2a-js/sdk'].toFixed(1), (starts.faultline / starts['@a2a-js/sdk']).toFixed(2)],
  ['import() from node_modules (ms)', imports['faultline/a2a'].toFixed(1), imports['@a2a-js/sdk/client'].toFixed(1), (imports['faultline/a2a'] / imports['@a2a-js/sdk/client']).toFixed(2)],
]);
// The profile behind a missed size goal: each module's share of the bundle, minified and gzipped on its own (the sum
// is above the bundle's figure, which gzip shares across modules), biggest first.
if (bundles.faultline.gzip / KiB > 12) {
  const shares = [];
  for (const [id, module] of Object.entries(bundles.faultline.modules)) {
    if (!module.code) continue;
    const code = (await minify(module.code, { module: true, compress: false })).code ?? '';
    shares.push([id.replace(ROOT, '').replace(/^.*node_modules\//, ''), Buffer.byteLength(code), gzipSync(code, { level: 9 }).byteLength]);
  }
  shares.sort((a, b) => b[2] - a[2]);
  table('What the faultline bundle holds (each module minified + gzipped alone)', ['module', 'min (KiB)', 'gzip (KiB)'], shares.slice(0, 15).map(([id, min, gzip]) => [id, (min / KiB).toFixed(2), (gzip / KiB).toFixed(2)]));
}
jsonLine('a2a-client', {
  bundleKiB: Number((bundles.faultline.gzip / KiB).toFixed(2)),
  peerBundleKiB: Number((bundles['@a2a-js/sdk'].gzip / KiB).toFixed(2)),
  coldStartRatio: Number((starts.faultline / starts['@a2a-js/sdk']).toFixed(2)),
  importRatio: Number((imports['faultline/a2a'] / imports['@a2a-js/sdk/client']).toFixed(2)),
  targets: { bundleKiB: 12, coldStartRatio: 1, importRatio: 1 },
});
