import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Public API docs: every exported value (function, class, constant) has JSDoc with an @example, and every exported
// type has at least a summary line. Checked on the source entries through the TypeScript checker.

const root = join(import.meta.dirname, '..', '..');
const entries = ['src/index.ts', ...readdirSync(join(root, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'internal')
  .map((entry) => `src/${entry.name}/index.ts`)
  .filter((file) => {
    try {
      readFileSync(join(root, file));
      return true;
    } catch {
      return false;
    }
  })];

function audit(): { missingExample: string[]; missingSummary: string[] } {
  const program = ts.createProgram(entries.map((file) => join(root, file)), {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const missingExample = new Set<string>();
  const missingSummary = new Set<string>();
  for (const file of entries) {
    const source = program.getSourceFile(join(root, file));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`cannot read ${file}`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const isValue = (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable)) !== 0;
      const summary = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      const tags = symbol.getJsDocTags(checker);
      if (summary === '') missingSummary.add(exported.name);
      if (isValue && !tags.some((tag) => tag.name === 'example')) missingExample.add(exported.name);
    }
  }
  return { missingExample: [...missingExample].sort(), missingSummary: [...missingSummary].sort() };
}

describe('public API documentation', () => {
  const result = audit();

  it('gives every exported function, class and constant an @example', () => {
    expect(result.missingExample).toEqual([]);
  });

  it('gives every exported type a summary', () => {
    expect(result.missingSummary).toEqual([]);
  });
});
