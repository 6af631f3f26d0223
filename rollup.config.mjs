// Build: per-module ESM (one file per source module, entry per capability folder), bundled .d.ts per entry, and a
// minified IIFE (global `Faultline`, nanoevents inlined) for a <script> tag.
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';
import { existsSync } from 'node:fs';

/** Public entries: `.` plus one subpath per capability folder (keep in sync with package.json `exports`). */
export const entries = Object.fromEntries(
  ['errors', 'tools', 'chat', 'agent', 'graph', 'runner', 'a2a', 'cloudflare', 'mcp', 'node', 'resilience', 'telemetry', 'testing']
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
      preserveModules: true,
      preserveModulesRoot: 'src',
      entryFileNames: '[name].js',
      sourcemap: true,
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
