// src/graph/ is built as floors: each sub-folder (a room) imports only the rooms below it, the root files (the face:
// index, StateGraph, CompiledGraph, createGraphAgent) import the rooms, and no files import each other in a circle —
// so a change to how a node is retried (run/) names every file it can reach, and no lower room can reach the face.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles } from '../helpers/import-circles.js';

const GRAPH = fileURLToPath(new URL('../../src/graph', import.meta.url));

/** The rooms from the ground floor up; `.` is the face. A room imports only rooms before it in this list. */
const FLOORS = ['core', 'records', 'checkpoints', 'run', 'compile', 'nodes', '.'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** file → the files of the same tree it imports (type imports and re-exports included), paths relative to `root`. */
export function importsWithin(root: string, files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = new Set<string>();
    for (const match of text.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(root, resolve(dirname(join(root, file)), (match[1] as string).replace(/\.js$/, '.ts')));
      if (!target.startsWith('..') && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

const roomOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] as string) : '.');

/** Every import that does not go down: `from → to` for a target room not below the importing one. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>, floors: readonly string[]): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [here, there] = [floors.indexOf(roomOf(from)), floors.indexOf(roomOf(to))];
      if (here !== there && !(there >= 0 && there < here)) found.push(`${from} → ${to}`);
    }
  }
  return found.sort();
}

/** Files that import each other in a loop (strongly connected components of more than one file). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return importCircles(graph);
}

describe('the rooms of src/graph/', () => {
  const files = new Map(sourceFiles(GRAPH).map((file) => [relative(GRAPH, file), readFileSync(file, 'utf8')]));
  const graph = importsWithin(GRAPH, files);

  it('are exactly the known floors, each holding files (a new room must be given its floor)', () => {
    expect([...new Set([...files.keys()].map(roomOf))].sort()).toEqual([...FLOORS].sort());
  });

  it('import only the rooms below them, and the face is imported by no room', () => {
    expect(upwardImports(graph, FLOORS)).toEqual([]);
  });

  it('hold no import circle, not even of two files', () => {
    expect(circles(graph)).toEqual([]);
  });

});

describe('the room checks', () => {
  it('find an import that goes up, one into the face, and a circle', () => {
    const planted = importsWithin('/g', new Map([
      ['core/a.ts', "import type { B } from '../run/b.js';"],
      ['run/b.ts', "import { a } from '../core/a.js';\nimport { face } from '../face.js';"],
      ['run/c.ts', "export { d } from './d.js';"],
      ['run/d.ts', "import { c } from './c.js';"],
      ['face.ts', "import { b } from './run/b.js';"],
    ]));
    expect(upwardImports(planted, ['core', 'run', '.'])).toEqual(['core/a.ts → run/b.ts', 'run/b.ts → face.ts']);
    expect(circles(planted)).toEqual(expect.arrayContaining([['run/c.ts', 'run/d.ts'], ['core/a.ts', 'face.ts', 'run/b.ts']]));
    expect(circles(planted)).toHaveLength(2);
  });
});
