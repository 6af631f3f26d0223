// Size of what users ship: each public entry bundled the way an app bundler would (dependencies resolved from
// node_modules, tree-shaken, minified with terser), then gzipped; and a few whole user apps (`"app"` entries, named in
// bench/app-sources.mjs) as esbuild bundles them for the browser, the way the bundle goals are measured. Budgets and
// their recorded figures live in size-budgets.json; `npm run size` prints the table, `npm run size -- --write`
// records the current figures.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { esbuildApp } from '../bench/app-bundlers.mjs';
import { APP_SOURCES } from '../bench/app-sources.mjs';

export const ROOT = join(import.meta.dirname, '..');
export const BUDGETS_FILE = join(ROOT, 'size-budgets.json');

const VIRTUAL = '\0size-entry';

/**
 * Bundles `code` (an ES module importing `faultline…` specifiers) with everything it pulls in, minified. `modules`
 * names what was kept by its SOURCE module (`src/…/x.ts`, or a `node_modules/…` path): dist/ files are read with
 * their source maps, so a shared chunk of dist/ counts only for the source modules whose code survived.
 * @param {string} code
 * @returns {Promise<{ minified: number, gzip: number, modules: string[] }>} sizes in bytes and the modules kept
 */
export async function bundleSize(code) {
  const dist = join(ROOT, 'dist');
  const build = await rollup({
    input: VIRTUAL,
    treeshake: { preset: 'recommended' },
    onwarn: () => {},
    plugins: [
      {
        name: 'size-entry',
        resolveId: (id) => (id === VIRTUAL ? id : id.startsWith('faultline') ? join(dist, id === 'faultline' ? '' : id.slice('faultline/'.length), 'index.js') : null),
        load: (id) => {
          if (id === VIRTUAL) return code;
          if (!id.startsWith(dist) || !existsSync(`${id}.map`)) return null;
          return { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') };
        },
      },
      nodeResolve({ browser: true }),
    ],
  });
  try {
    const { output } = await build.generate({ format: 'es', sourcemap: true, inlineDynamicImports: true, plugins: [terser({ format: { comments: false } })] });
    const chunk = output[0];
    // A source is listed only when a mapped segment of the output traces back to it.
    const modules = (chunk.map?.sources ?? []).map((source) => relative(ROOT, resolve(ROOT, source))).filter((id) => !id.includes('size-entry'));
    return { minified: Buffer.byteLength(chunk.code), gzip: gzipSync(chunk.code, { level: 9 }).byteLength, modules };
  } finally {
    await build.close();
  }
}

/** The size of a built file as shipped (the IIFE), gzipped. */
export function fileSize(path) {
  const code = readFileSync(join(ROOT, path));
  return { minified: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength, modules: [] };
}

/** A user app of bench/app-sources.mjs as esbuild bundles it (browser, minified), gzipped; no module list. */
async function appSize(name) {
  const source = APP_SOURCES[name];
  if (source === undefined) throw new Error(`size-budgets.json names an app bench/app-sources.mjs does not have: ${name}`);
  const { minified, gzip } = await esbuildApp(source);
  return { minified, gzip, modules: [] };
}

/** @returns {Array<{ name: string, import?: string, file?: string, app?: string, budget: number, recorded: number }>} */
export function readBudgets() {
  return JSON.parse(readFileSync(BUDGETS_FILE, 'utf8')).entries;
}

/** Measures every budgeted entry (gzip bytes). */
export async function measureAll() {
  const results = [];
  for (const entry of readBudgets()) {
    const size = entry.file ? fileSize(entry.file) : entry.app ? await appSize(entry.app) : await bundleSize(entry.import);
    results.push({ ...entry, ...size });
  }
  return results;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await measureAll();
  console.log(`${'entry'.padEnd(44)} ${'min'.padStart(9)} ${'gzip'.padStart(9)} ${'budget'.padStart(9)}`);
  for (const result of results) {
    console.log(`${result.name.padEnd(44)} ${kb(result.minified).padStart(9)} ${kb(result.gzip).padStart(9)} ${kb(result.budget).padStart(9)}${result.gzip > result.budget ? '  OVER BUDGET' : ''}`);
  }
  if (process.argv.includes('--write')) {
    const file = JSON.parse(readFileSync(BUDGETS_FILE, 'utf8'));
    for (const entry of file.entries) entry.recorded = results.find((result) => result.name === entry.name).gzip;
    writeFileSync(BUDGETS_FILE, `${JSON.stringify(file, null, 2)}\n`);
    // The size table is the one under docs/PERFORMANCE.md's "## Sizes" heading; nothing else in the file is touched.
    const tablePath = join(ROOT, 'docs', 'PERFORMANCE.md');
    const text = readFileSync(tablePath, 'utf8');
    const start = text.indexOf('\n## Sizes');
    if (start === -1) throw new Error('docs/PERFORMANCE.md has no "## Sizes" section to write the size table into');
    const next = text.indexOf('\n## ', start + 1);
    const end = next === -1 ? text.length : next;
    let section = text.slice(start, end);
    for (const entry of file.entries) {
      const escaped = entry.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      section = section.replace(new RegExp(`^\\| ${escaped} \\|.*$`, 'm'), `| ${entry.name} | ${kb(entry.recorded)} | ${kb(entry.budget)} |`);
    }
    writeFileSync(tablePath, text.slice(0, start) + section + text.slice(end));
    console.log("recorded the figures in size-budgets.json and docs/PERFORMANCE.md's size table");
  }
  if (results.some((result) => result.gzip > result.budget)) process.exitCode = 1;
}
