// The house rules of src/, from the code's own imports (type-only imports included: they tie files together too):
// no import circle at all — a type two files share lives in a file both import —, no file over 300 lines, and no
// file importing a folder above its own (a sub-room imports the rooms beside and below it, never the face that
// gathers it). folders.test.ts checks that folders depend one way; this file checks the files inside them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../helpers/import-circles.js';

const sourceRoot = fileURLToPath(new URL('../../src', import.meta.url));
const MAX_LINES = 300;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** file → the files it imports or re-exports (relative specifiers only), resolved against the set of known files. */
export function fileGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = new Set<string>();
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const base = resolve(dirname(file), (match[1] ?? match[2] ?? match[3])!.replace(/\.m?js$/, ''));
      const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => files.has(candidate));
      if (target !== undefined && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Imports from a file into a folder that contains the importer's own folder (`a/b/x.ts` → `a/y.ts`), as `from -> to`. */
export function backImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const home = dirname(from);
      const there = dirname(to);
      if (there !== home && `${home}/`.startsWith(`${there}/`)) found.push(`${from} -> ${to}`);
    }
  }
  return found;
}

const files = new Map(sourceFiles(sourceRoot).map((file) => [file, readFileSync(file, 'utf8')]));
const graph = fileGraph(files);
const shown = (path: string) => relative(sourceRoot, path);

describe('the files of src/', () => {
  it('import one another without a circle (a type two files share lives in a file both import)', () => {
    expect(importCircles(graph).map((circle) => circle.map(shown))).toEqual([]);
  });

  it(`are at most ${MAX_LINES} lines long (a longer file is split by concern)`, () => {
    const long = [...files].filter(([, text]) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0) > MAX_LINES).map(([file]) => shown(file));
    expect(long).toEqual([]);
  });

  it('never import a folder above their own: a sub-room imports beside and below it, the face imports the rooms', () => {
    expect(backImports(graph).map((edge) => edge.split(' -> ').map(shown).join(' -> '))).toEqual([]);
  });

  it('the graph is read whole: it sees type-only imports, re-exports and every folder', () => {
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(files.size).toBeGreaterThan(250);
    expect(edges).toBeGreaterThan(files.size);
    const typeOnly = graph.get(join(sourceRoot, 'agent/model-request.ts'));
    expect(typeOnly).toContain(join(sourceRoot, 'agent/loop-context.ts'));
    expect(graph.get(join(sourceRoot, 'index.ts'))).toContain(join(sourceRoot, 'graph/index.ts'));
  });
});

describe('the checkers', () => {
  it('find a two-file circle, a longer one through a type import and a re-export, and accept a chain', () => {
    const planted = new Map([
      ['/s/a.ts', "import { b } from './b.js';"],
      ['/s/b.ts', "import type { A } from './a.js';"],
      ['/s/c.ts', "export { d } from './d.js';"],
      ['/s/d.ts', "import './e.js';"],
      ['/s/e.ts', "const c = await import('./c.js');"],
      ['/s/f.ts', "import { b } from './b.js';\nimport { g } from './g/index.js';"],
      ['/s/g/index.ts', "export const g = 1;"],
    ]);
    expect(importCircles(fileGraph(planted))).toEqual([['/s/c.ts', '/s/d.ts', '/s/e.ts'], ['/s/a.ts', '/s/b.ts']]);
  });

  it('find an import from a sub-room into the folder above it, and accept one into a sibling or a room below', () => {
    const planted = new Map([
      ['/s/graph/index.ts', "export * from './run/executor.js';"],
      ['/s/graph/compiled.ts', "import { run } from './run/executor.js';"],
      ['/s/graph/run/executor.ts', "import type { Compiled } from '../compiled.js';\nimport { Spec } from '../spec/spec.js';"],
      ['/s/graph/spec/spec.ts', "import { x } from '../../internal/x.js';"],
      ['/s/internal/x.ts', 'export const x = 1;'],
    ]);
    expect(backImports(fileGraph(planted))).toEqual(['/s/graph/run/executor.ts -> /s/graph/compiled.ts']);
  });
});
