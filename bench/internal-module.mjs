// Internal modules a bench measures that no public entry exports (dist/ ships entries and shared chunks, so there is
// no per-module file to import): bundled from src/ into a temp file, each module transpiled on its own by TypeScript
// (types dropped, nothing checked: `npm test` type-checks; the build's target and module settings).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rollup } from 'rollup';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { compilerOptions } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
const { options } = ts.convertCompilerOptionsFromJson(compilerOptions, ROOT);

const transpile = {
  name: 'transpile-ts',
  resolveId(source, importer) {
    if (importer === undefined || !source.startsWith('.')) return null;
    const path = resolve(dirname(importer), source.replace(/\.js$/, '.ts'));
    return existsSync(path) ? path : null;
  },
  load(id) {
    if (!id.endsWith('.ts')) return null;
    return ts.transpileModule(readFileSync(id, 'utf8'), { compilerOptions: { ...options, sourceMap: false, declaration: false, noEmit: false }, fileName: id }).outputText;
  },
};

/** Imports `path` (relative to the repository, e.g. `src/wire/sse-decoder.ts`) with everything it imports from src/. */
export async function importInternal(path) {
  const build = await rollup({ input: join(ROOT, path), external: (id) => /^(zod|nanoevents|msw)(\/|$)/.test(id), onwarn: () => {}, plugins: [transpile] });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'faultline-bench-')), 'module.mjs');
    await build.write({ file, format: 'es' });
    return import(pathToFileURL(file).href);
  } finally {
    await build.close();
  }
}
