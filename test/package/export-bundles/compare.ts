// Every public value export, imported alone: esbuild keeps no more than rollup (both minified by esbuild, so only the
// code kept differs). A module-scope statement esbuild cannot drop costs a whole class or table (kilobytes). The
// ~250 exports are split into shards (one test file each) so the rollup builds, the slow half, run in parallel.
import { join } from 'node:path';
import { build, transform } from 'esbuild';
import { rollup, type RollupCache } from 'rollup';
import { DIST, ROOT, requireDist } from '../../conformance/dist.js';

export const SHARDS = 3;

const distFile = (id: string) => join(DIST, id === 'faultline' ? '' : id.slice('faultline/'.length), 'index.js');
const ENTRIES = ['', 'errors', 'tools', 'chat', 'agent', 'graph', 'runner', 'a2a', 'cloudflare', 'mcp', 'node', 'resilience', 'telemetry', 'interrupts', 'ui'];

/** Each public value export with the entry users import it from (the root entry where it has one). */
export async function publicExports(): Promise<Map<string, string>> {
  requireDist();
  const exports = new Map<string, string>();
  for (const entry of [...ENTRIES].reverse()) {
    const specifier = entry ? `faultline/${entry}` : 'faultline';
    for (const name of Object.keys(await import(distFile(specifier)))) if (!exports.has(name)) exports.set(name, specifier);
  }
  return exports;
}

/** Shard `index` of `SHARDS` of the exports (a stable split by position in the sorted list). */
export function shardOf<T>(all: Map<string, T>, index: number): Array<[string, T]> {
  return [...all].sort(([a], [b]) => (a < b ? -1 : 1)).filter((_, position) => position % SHARDS === index);
}

let rollupCache: RollupCache | undefined;

/** `code` tree-shaken by rollup from dist/, then minified by esbuild: what rollup keeps, in esbuild's minified form. */
async function rollupMinified(code: string): Promise<number> {
  const bundle = await rollup({
    input: '\0app',
    cache: rollupCache,
    treeshake: { preset: 'recommended' },
    external: (id) => /^(zod|nanoevents|msw)(\/|$)/.test(id),
    onwarn: () => {},
    plugins: [{ name: 'app', resolveId: (id) => (id === '\0app' ? id : id.startsWith('faultline') ? distFile(id) : null), load: (id) => (id === '\0app' ? code : null) }],
  });
  rollupCache = bundle.cache;
  try {
    const { output } = await bundle.generate({ format: 'es' });
    return (await transform(output[0].code, { minify: true, format: 'esm' })).code.length;
  } finally {
    await bundle.close();
  }
}

/**
 * Each export alone bundled by esbuild as apps bundle (`--bundle --minify`, browser, ESM; one build with an entry per
 * export, which esbuild bundles separately), in minified bytes.
 */
async function esbuildMinified(pairs: Array<[string, string]>): Promise<Map<string, number>> {
  const result = await build({
    // Output files named by position: esbuild compares output paths case-insensitively, so `StateSchema` and
    // `stateSchema` named by export would collide whenever one shard holds both.
    entryPoints: pairs.map(([name], index) => ({ in: `export:${name}`, out: String(index) })),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    outdir: join(ROOT, '.export-bundles'),
    logLevel: 'silent',
    plugins: [{
      name: 'exports',
      setup(esbuild) {
        const from = new Map(pairs);
        esbuild.onResolve({ filter: /^export:/ }, (args) => ({ path: args.path.slice('export:'.length), namespace: 'export' }));
        esbuild.onLoad({ filter: /.*/, namespace: 'export' }, (args) => ({ contents: `export { ${args.path} } from '${from.get(args.path)}';`, resolveDir: ROOT, loader: 'js' }));
        esbuild.onResolve({ filter: /^faultline(\/|$)/ }, (args) => ({ path: distFile(args.path) }));
      },
    }],
  });
  const sizes = new Map<string, number>();
  for (const file of result.outputFiles) {
    const index = Number(file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.js$/, ''));
    sizes.set(pairs[index]![0], Buffer.byteLength(file.text));
  }
  return sizes;
}

/** The exports of `pairs` that esbuild keeps more of than rollup (beyond 160 B or 1%), with both sizes. */
export async function overRollup(pairs: Array<[string, string]>): Promise<Record<string, string>> {
  const byEsbuild = await esbuildMinified(pairs);
  const over: Record<string, string> = {};
  for (const [name, specifier] of pairs) {
    const esbuildBytes = byEsbuild.get(name);
    if (esbuildBytes === undefined) throw new Error(`esbuild built no bundle for ${name}`);
    const rollupBytes = await rollupMinified(`export { ${name} } from '${specifier}';`);
    if (esbuildBytes > rollupBytes + Math.max(160, rollupBytes * 0.01)) over[name] = `esbuild ${esbuildBytes} B, rollup ${rollupBytes} B`;
  }
  return over;
}
