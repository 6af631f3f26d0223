// The house rule "folders depend one way only": no two folders of src/ import each other, directly or through a
// cycle of folders (a provider folder and the shared chat core included).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../helpers/import-circles.js';

const sourceRoot = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** folder → the other folders its files import (type imports included: they couple folders too). */
export function folderGraph(files: ReadonlyMap<string, string>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    const from = dirname(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const match of text.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const to = dirname(resolve(from, match[1]!));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle of folders (strongly connected components with more than one folder), as sorted name lists. */
export function folderCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  return importCircles(graph);
}

describe('folders of src/', () => {
  it('depend one way only: no cycle of folders', () => {
    const files = new Map(sourceFiles(sourceRoot).map((file) => [file, readFileSync(file, 'utf8')]));
    const cycles = folderCycles(folderGraph(files)).map((cycle) => cycle.map((folder) => relative(sourceRoot, folder) || '.'));
    expect(cycles).toEqual([]);
  });

  it('the checker finds a two-folder cycle and a longer one, and accepts a chain', () => {
    const planted = new Map([
      ['/s/a/x.ts', "import { y } from '../b/y.js';"],
      ['/s/b/y.ts', "import type { x } from '../a/x.js';"],
      ['/s/c/z.ts', "export { w } from '../d/w.js';"],
      ['/s/d/w.ts', "import '../e/v.js';"],
      ['/s/e/v.ts', "import { z } from '../c/z.js';"],
      ['/s/f/u.ts', "import { y } from '../b/y.js';"],
    ]);
    expect(folderCycles(folderGraph(planted))).toEqual(expect.arrayContaining([['/s/a', '/s/b'], ['/s/c', '/s/d', '/s/e']]));
    expect(folderCycles(folderGraph(planted))).toHaveLength(2);
  });
});
