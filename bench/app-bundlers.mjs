// An app's browser bundle as the two other bundlers users ship with build it: esbuild (`--bundle --minify
// --platform=browser --format=esm`) and Vite's production build (`vite build`, an app entry, default minifier). The
// package is read from dist/ (`faultline…` specifiers), everything else from node_modules, as an installed app would.
// Both honour `"sideEffects": false` per file, but inside a shared chunk of dist/ they drop code statement by
// statement, so they measure what rollup + terser (scripts/size.mjs) cannot: statements only rollup proves unused.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = '\0app-entry';

/** `faultline` or `faultline/<entry>` → the built file of that entry. */
const distFile = (id) => join(ROOT, 'dist', id === 'faultline' ? '' : id.slice('faultline/'.length), 'index.js');
const isOurs = (id) => id === 'faultline' || id.startsWith('faultline/');

function sizes(code) {
  return { minified: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).byteLength };
}

/**
 * `code` (an ES module) bundled by esbuild for the browser, minified. @returns {Promise<{ code: string, minified: number, gzip: number }>}
 * @example `await esbuildApp("import { createA2AClient } from 'faultline/a2a'; console.log(createA2AClient);")`
 */
export async function esbuildApp(code) {
  const result = await esbuild({
    stdin: { contents: code, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    plugins: [{ name: 'faultline-dist', setup: (build) => build.onResolve({ filter: /^faultline(\/|$)/ }, (args) => ({ path: distFile(args.path) })) }],
  });
  const text = result.outputFiles[0].text;
  return { code: text, ...sizes(text) };
}

/**
 * `code` built by Vite for production (an app entry, not library mode: the build an app ships; the entry's exports
 * are kept, as if the app used them). @returns {Promise<{ code: string, minified: number, gzip: number }>}
 * @example `await viteApp("import { ClientFactory } from '@a2a-js/sdk/client'; console.log(ClientFactory);")`
 */
export async function viteApp(code) {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'faultline-vite-'));
  try {
    await build({
      root: ROOT,
      configFile: false,
      logLevel: 'silent',
      plugins: [{ name: 'app-entry', enforce: 'pre', resolveId: (id) => (id === ENTRY ? id : isOurs(id) ? distFile(id) : null), load: (id) => (id === ENTRY ? code : null) }],
      build: { outDir, write: true, emptyOutDir: true, minify: true, modulePreload: false, copyPublicDir: false, rollupOptions: { input: ENTRY, preserveEntrySignatures: 'exports-only' } },
    });
    const folder = join(outDir, 'assets');
    const text = readdirSync(folder)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(folder, name), 'utf8'))
      .join('\n');
    return { code: text, ...sizes(text) };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Where an app's bytes come from: the same esbuild build from `src/` (each module still its own file, which dist's
 * shared chunks are not), minified bytes per source folder, largest first — the profile behind a size goal's miss.
 * Folders of node_modules are named by package. @returns {Promise<Array<[string, number]>>}
 * @example `(await appProfile("import { Runner } from 'faultline/runner'; console.log(Runner);")).slice(0, 5)`
 */
export async function appProfile(code) {
  const result = await esbuild({
    stdin: { contents: code, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [{ name: 'faultline-src', setup: (build) => build.onResolve({ filter: /^faultline(\/|$)/ }, (args) => ({ path: join(ROOT, 'src', args.path === 'faultline' ? '' : args.path.slice('faultline/'.length), 'index.ts') })) }],
  });
  const folders = new Map();
  for (const [file, { bytesInOutput }] of Object.entries(Object.values(result.metafile.outputs)[0].inputs)) {
    const folder = file.includes('node_modules/') ? file.split('node_modules/').at(-1).split('/')[0] : file.replace(/^src\//, '').split('/').slice(0, -1).join('/') || '(root)';
    folders.set(folder, (folders.get(folder) ?? 0) + bytesInOutput);
  }
  return [...folders].sort((a, b) => b[1] - a[1]);
}
