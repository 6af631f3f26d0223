// package.json says `"sideEffects": false`, and dist/ ships shared chunks (rollup.config.mjs): an app that uses one
// export of a chunk gets the whole file, and its bundler can drop the rest only if every statement at module scope is
// one it can prove does nothing. So each file of dist/, imported for its effects alone with every module treated as
// having effects (no `sideEffects` flag to lean on), must leave nothing behind. A `new Set([Table.a])`, a spread of a
// frozen object, a computed key or a template that reads a constant would be kept (rollup cannot prove a property read
// of `Object.freeze(…)`'s result free of a getter): such tables are written as literals or built on first use.
// esbuild (and Vite, which apps build with) proves less than rollup: it keeps a class with a computed field key
// (`[symbol] = true`, so brands are set in the constructor: src/internal/brand.ts), a call it does not know to be pure
// (`Object.freeze({…})` unless marked `/* @__PURE__ */`, which tsconfig.build.json keeps; `'0'.repeat(32)`;
// `Symbol.for(name)` unless `name` is a literal), module-scope arithmetic (`64 * 1024`) and `Number.NaN`. So every
// file is checked under both.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { describe, expect, it } from 'vitest';
import { requireDist } from '../conformance/dist.js';

requireDist();

const DIST = join(import.meta.dirname, '../../dist');
const ENTRY = '\0effects-only';

function builtFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return builtFiles(path);
    return path.endsWith('.js') && !path.endsWith('.iife.js') ? [path] : [];
  });
}

/** What a bundler keeps of `file` when nothing of it is used, its own statements included (comments dropped). */
async function keptOf(file: string): Promise<string> {
  const build = await rollup({
    input: ENTRY,
    treeshake: { preset: 'recommended', moduleSideEffects: true },
    external: (id) => /^(zod|nanoevents|msw)(\/|$)/.test(id),
    onwarn: () => {},
    plugins: [{ name: 'effects-only', resolveId: (id) => (id === ENTRY ? id : null), load: (id) => (id === ENTRY ? `import ${JSON.stringify(file)};` : null) }],
  });
  try {
    const { output } = await build.generate({ format: 'es' });
    return (output[0] as { code: string }).code
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^import\s[^;]*;$/gm, '')
      .trim();
  } finally {
    await build.close();
  }
}

/**
 * What esbuild keeps of `file` imported for its effects alone, minified as an app would. The file is loaded from a
 * namespace of its own, so the package's `sideEffects: false` does not let esbuild skip it whole: every statement must
 * be droppable on its own, as inside a shared chunk an app uses one export of. Its imports stay external.
 */
async function esbuildKeptOf(file: string): Promise<string> {
  const result = await build({
    stdin: { contents: 'import "effects:file";', loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'effects-only',
        setup(bundler) {
          bundler.onResolve({ filter: /^effects:file$/ }, () => ({ path: file, namespace: 'effects' }));
          bundler.onResolve({ filter: /.*/ }, (args) => (args.namespace === 'effects' ? { path: args.path, external: true } : undefined));
          bundler.onLoad({ filter: /.*/, namespace: 'effects' }, () => ({ contents: readFileSync(file, 'utf8'), loader: 'js' }));
        },
      },
    ],
  });
  return (result.outputFiles[0] as { text: string }).text.replace(/import\s*(?:[^'";]*?from\s*)?["'][^"']*["'];?/g, '').trim();
}

describe('dist/ has nothing at module scope a bundler must keep', () => {
  // faultline/testing loads its optional peer msw with a top-level await (so a missing msw is a ConfigError naming it):
  // it is for test suites, never an app bundle. Its file holds nothing else, so nothing an app imports is exempt.
  const files = builtFiles(DIST).filter((file) => relative(DIST, file) !== join('testing', 'index.js'));

  it('finds the built entries and chunks (the check is not vacuous)', () => {
    expect(files.some((file) => file.endsWith(join('a2a', 'index.js')))).toBe(true);
    expect(files.filter((file) => file.includes(`${join('dist', 'chunks')}`)).length).toBeGreaterThan(5);
  });

  it('every file of dist/, imported for its effects alone, keeps no code', async () => {
    const kept: Record<string, string> = {};
    for (const file of files) {
      const code = await keptOf(file);
      if (code !== '') kept[relative(DIST, file)] = code.slice(0, 400);
    }
    expect(kept).toEqual({});
  }, 120_000);

  it('every file of dist/, imported for its effects alone, keeps no code under esbuild --minify', async () => {
    const kept: Record<string, string> = {};
    for (const file of files) {
      const code = await esbuildKeptOf(file);
      if (code !== '') kept[relative(DIST, file)] = code.slice(0, 400);
    }
    expect(kept).toEqual({});
  }, 120_000);

  it.each([
    ['a brand field (computed key)', "const symbol = Symbol.for('x.Brand');\nexport class Branded { [symbol] = true; }\n", 'class'],
    ['an unmarked frozen table', "export const Kind = Object.freeze({ a: 'a' });\n", 'Object.freeze'],
    ['a method call', "const ZERO = '0'.repeat(32);\nexport const isZero = (id) => id === ZERO;\n", 'repeat'],
    ['Symbol.for of a variable', "const marker = 'x.Brand';\nconst symbol = Symbol.for(marker);\nexport const branded = (value) => value[symbol] === true;\n", 'Symbol.for'],
    ['module-scope arithmetic', 'export function read() {}\nexport const LIMIT = 64 * 1024;\n', '1024'],
  ])('the esbuild check sees %s', async (_title, source, kept) => {
    const folder = mkdtempSync(join(tmpdir(), 'faultline-esbuild-effects-'));
    writeFileSync(join(folder, 'module.js'), source);
    expect(await esbuildKeptOf(join(folder, 'module.js'))).toContain(kept);
  });

  it('the esbuild check drops what dist/ writes instead (brand set in the constructor, marked table, literals)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'faultline-esbuild-effects-'));
    const source =
      "const symbol = Symbol.for('x.Brand');\nexport class Branded { constructor() { this[symbol] = true; } }\n" +
      "export const Kind = /* @__PURE__ */ Object.freeze({ a: 'a' });\nconst ZERO = '00000000';\nexport const isZero = (id) => id === ZERO;\nexport const LIMIT = 65_536;\n";
    writeFileSync(join(folder, 'module.js'), source);
    expect(await esbuildKeptOf(join(folder, 'module.js'))).toBe('');
  });

  it('the check sees a table a bundler cannot drop', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'faultline-effects-'));
    const file = join(folder, 'table.js');
    writeFileSync(file, "export const State = Object.freeze({ done: 'done' });\nconst FINAL = new Set([State.done]);\nexport const isFinal = (state) => FINAL.has(state);\n");
    expect(await keptOf(file)).toContain('new Set([State.done])');
  });
});
