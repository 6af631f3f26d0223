// Build: ESM with one file per public entry (a capability folder) plus shared chunks, bundled .d.ts per entry, and a
// minified IIFE (global `Faultline`, nanoevents inlined) for a <script> tag.
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';
import { existsSync } from 'node:fs';

/** Public entries: `.` plus one subpath per capability folder (keep in sync with package.json `exports`). */
export const entries = Object.fromEntries(
  ['errors', 'tools', 'chat', 'agent', 'graph', 'runner', 'a2a', 'cloudflare', 'mcp', 'node', 'resilience', 'telemetry', 'interrupts', 'testing', 'ui']
    .filter((name) => existsSync(`src/${name}/index.ts`))
    .map((name) => [`${name}/index`, `src/${name}/index.ts`])
    .concat([['index', 'src/index.ts']]),
);

const external = (id) => /^(zod|nanoevents|msw)(\/|$)/.test(id);

export default [
  {
    input: entries,
    external,
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].js',
      // Code shared by several entries goes into chunks: one file per set of entries that use it, so an entry loads a
      // few files instead of one per source module (each file Node reads, parses and links costs ~0.7 ms at import).
      // Bundlers still tree-shake inside a chunk: every module-scope statement is a declaration a bundler
      // can drop (test/package/side-effects.test.ts), and the size tests trace what is kept to its source module.
      chunkFileNames: 'chunks/[name]-[hash].js',
      minifyInternalExports: false,
      // 30 kB: smaller leaves an entry loading 9+ files with 16 entries sharing code; 40 kB merges code one entry must
      // not pull in into a chunk it loads (test/package/tree-shaking.test.ts and dist-files.test.ts hold both ends).
      experimentalMinChunkSize: 30_000,
      sourcemap: true,
      // Comments go (the types and their docs ship in the .d.ts files) except `/* @__PURE__ */` marks, which let
      // esbuild and Vite drop a frozen table nobody uses; the code itself is left as it is, readable.
      plugins: [terser({ compress: false, mangle: false, format: { comments: false, preserve_annotations: true, beautify: true, indent_level: 2 } })],
    },
    plugins: [typescript({ tsconfig: './tsconfig.build.json', outputToFilesystem: false })],
  },
  {
    input: entries,
    external,
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'types/[name]-[hash].d.ts' },
    plugins: [dts({ tsconfig: './tsconfig.json' })],
  },
  {
    input: 'src/iife.ts',
    output: { file: 'dist/faultline.iife.js', format: 'iife', name: 'Faultline', sourcemap: true, inlineDynamicImports: true, plugins: [terser()] },
    plugins: [nodeResolve({ browser: true }), typescript({ tsconfig: './tsconfig.build.json', outputToFilesystem: false })],
  },
];
