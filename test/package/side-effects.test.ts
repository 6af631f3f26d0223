// package.json says `"sideEffects": false`, and dist/ ships shared chunks (rollup.config.mjs): an app that uses one
// export of a chunk gets the whole file, and its bundler can drop the rest only if every statement at module scope is
// one it can prove does nothing. So each file of dist/, imported for its effects alone with every module treated as
// having effects (no `sideEffects` flag to lean on), must leave nothing behind. A `new Set([Table.a])`, a spread of a
// frozen object, a computed key or a template that reads a constant would be kept (rollup cannot prove a property read
// of `Object.freeze(…)`'s result free of a getter): such tables are written as literals or built on first use.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
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

  it('the check sees a table a bundler cannot drop', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'faultline-effects-'));
    const file = join(folder, 'table.js');
    writeFileSync(file, "export const State = Object.freeze({ done: 'done' });\nconst FINAL = new Set([State.done]);\nexport const isFinal = (state) => FINAL.has(state);\n");
    expect(await keptOf(file)).toContain('new Set([State.done])');
  });
});
