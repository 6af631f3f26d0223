// The A2A client against the reference one (@a2a-js/sdk 1.3.0, a devDependency), in one run:
// - the browser bundle of each client as an app would ship it (`createA2AClient` + `streamMessage` against
//   `ClientFactory.createFromUrl` + `sendMessageStream`), bundled with rollup + node-resolve (browser) + terser, gzip 9;
// - that bundle's cold start: a fresh Node process importing the single file, median of samples;
// - `import('faultline/a2a')` against `import('@a2a-js/sdk/client')` from node_modules, fresh processes;
// - the same two apps bundled by esbuild (--minify, browser) and by Vite's production build (bench/app-bundlers.mjs):
//   those drop dist/'s shared chunks statement by statement, so a module-scope statement they cannot prove unused
//   keeps code alive there that rollup drops (the goal: ours ≤ 0.6× theirs under both).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { esbuildApp, viteApp } from './app-bundlers.mjs';
import { A2A_CLIENT_APPS } from './app-sources.mjs';
import { jsonLine, median, table } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? 15);
const VIRTUAL = '\0a2a-entry';
const OUT = join(tmpdir(), 'faultline-bench-a2a');
mkdirSync(OUT, { recursive: true });

const APPS = A2A_CLIENT_APPS;

async function bundle(name, code) {
  const build = await rollup({
    input: VIRTUAL,
    treeshake: { preset: 'recommended' },
    onwarn: () => {},
    plugins: [
      {
        name: 'a2a-entry',
        resolveId: (id) => (id === VIRTUAL ? id : id.startsWith('faultline') ? join(ROOT, 'dist', id.slice('faultline/'.length), 'index.js') : null),
        // dist/ files come with their source maps, so the bundle's map leads back to our source modules.
        load: (id) => (id === VIRTUAL ? code : id.startsWith(join(ROOT, 'dist')) && existsSync(`${id}.map`) ? { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') } : null),
      },
      nodeResolve({ browser: true, preferBuiltins: false }),
    ],
  });
  try {
    const { output } = await build.generate({ format: 'es', sourcemap: true, inlineDynamicImports: true, plugins: [terser({ format: { comments: false } })] });
    const file = join(OUT, `${name.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(file, output[0].code);
    return { file, code: output[0].code, map: output[0].map, minified: Buffer.byteLength(output[0].code), gzip: gzipSync(output[0].code, { level: 9 }).byteLength };
  } finally {
    await build.close();
  }
}

/** Each source module's share of a minified bundle: the output characters its mapped segments cover. */
function sharesBySource({ code, map }) {
  const shares = new Map();
  const lines = code.split('\n');
  let source = 0;
  map.mappings.split(';').forEach((line, index) => {
    const segments = [];
    let column = 0;
    for (const segment of line.split(',').filter(Boolean)) {
      const fields = decodeVLQ(segment);
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      segments.push([column, fields.length > 1 ? source : -1]);
    }
    segments.forEach(([start, owner], at) => {
      if (owner < 0) return;
      const end = at + 1 < segments.length ? segments[at + 1][0] : lines[index].length;
      const id = map.sources[owner];
      shares.set(id, (shares.get(id) ?? 0) + end - start);
    });
  });
  return shares;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A source-map segment's fields (base64 VLQ). */
function decodeVLQ(text) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
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
const others = {};
for (const [name, code] of Object.entries(APPS)) others[name] = { esbuild: await esbuildApp(code), vite: await viteApp(code) };
const starts = coldImports(Object.fromEntries(Object.entries(bundles).map(([name, built]) => [name, `file://${built.file}`])));
const imports = coldImports({ 'faultline/a2a': 'faultline/a2a', '@a2a-js/sdk/client': '@a2a-js/sdk/client' });
const KiB = 1024;
table(`The A2A client against @a2a-js/sdk's (browser bundle of a streaming client, rollup + terser, gzip 9; cold starts: median of ${SAMPLES} fresh processes)`, ['measure', 'faultline', '@a2a-js/sdk', 'ours ÷ theirs'], [
  ['bundle, min+gzip (KiB)', (bundles.faultline.gzip / KiB).toFixed(1), (bundles['@a2a-js/sdk'].gzip / KiB).toFixed(1), (bundles.faultline.gzip / bundles['@a2a-js/sdk'].gzip).toFixed(2)],
  ['bundle, minified (KiB)', (bundles.faultline.minified / KiB).toFixed(1), (bundles['@a2a-js/sdk'].minified / KiB).toFixed(1), (bundles.faultline.minified / bundles['@a2a-js/sdk'].minified).toFixed(2)],
  ['the bundle’s cold start (ms)', starts.faultline.toFixed(1), starts['@a2a-js/sdk'].toFixed(1), (starts.faultline / starts['@a2a-js/sdk']).toFixed(2)],
  ['import() from node_modules (ms)', imports['faultline/a2a'].toFixed(1), imports['@a2a-js/sdk/client'].toFixed(1), (imports['faultline/a2a'] / imports['@a2a-js/sdk/client']).toFixed(2)],
]);
const ratioOf = (bundler) => others.faultline[bundler].gzip / others['@a2a-js/sdk'][bundler].gzip;
table('The same two apps under the bundlers apps use (min+gzip 9, KiB)', ['bundler', 'faultline', '@a2a-js/sdk', 'ours ÷ theirs'], [
  ['rollup + terser', (bundles.faultline.gzip / KiB).toFixed(2), (bundles['@a2a-js/sdk'].gzip / KiB).toFixed(2), (bundles.faultline.gzip / bundles['@a2a-js/sdk'].gzip).toFixed(2)],
  ...['esbuild', 'vite'].map((bundler) => [bundler === 'vite' ? 'vite build' : 'esbuild --minify', (others.faultline[bundler].gzip / KiB).toFixed(2), (others['@a2a-js/sdk'][bundler].gzip / KiB).toFixed(2), ratioOf(bundler).toFixed(2)]),
]);
// The profile behind a missed size goal: each module's share of the bundle, minified and gzipped on its own (the sum
// is above the bundle's figure, which gzip shares across modules), biggest first.
if (bundles.faultline.gzip / KiB > 12) {
  const shares = [...sharesBySource(bundles.faultline)].map(([id, bytes]) => [id.replace(/^.*node_modules\//, ''), bytes]).sort((a, b) => b[1] - a[1]);
  table('What the faultline bundle holds (minified characters each source module contributes, traced through the source maps)', ['module', 'min (KiB)', 'share'], shares.slice(0, 15).map(([id, bytes]) => [id, (bytes / KiB).toFixed(2), `${((bytes / bundles.faultline.minified) * 100).toFixed(1)}%`]));
}
jsonLine('a2a-client', {
  bundleKiB: Number((bundles.faultline.gzip / KiB).toFixed(2)),
  peerBundleKiB: Number((bundles['@a2a-js/sdk'].gzip / KiB).toFixed(2)),
  coldStartRatio: Number((starts.faultline / starts['@a2a-js/sdk']).toFixed(2)),
  importRatio: Number((imports['faultline/a2a'] / imports['@a2a-js/sdk/client']).toFixed(2)),
  esbuildKiB: Number((others.faultline.esbuild.gzip / KiB).toFixed(2)),
  esbuildRatio: Number(ratioOf('esbuild').toFixed(3)),
  viteKiB: Number((others.faultline.vite.gzip / KiB).toFixed(2)),
  viteRatio: Number(ratioOf('vite').toFixed(3)),
  targets: { bundleKiB: 12, coldStartRatio: 1, importRatio: 1, esbuildRatio: 0.6, viteRatio: 0.6 },
});
