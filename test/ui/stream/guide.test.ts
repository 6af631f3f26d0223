// The code blocks of docs/ui.md type-check: every ```ts and ```tsx block is compiled as its own module against the
// sources (`faultline/<entry>` maps to src/) and the app's own dependencies (`ai`, `@ai-sdk/react`, `react`), with a
// user's strictest settings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const guide = join(root, 'docs', 'ui.md');

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: true,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  paths: { 'faultline/*': [join(root, 'src/*/index.ts')] },
};

function blocks(): Array<{ code: string; tag: string; line: number }> {
  const found: Array<{ code: string; tag: string; line: number }> = [];
  let open: { tag: string; line: number; body: string[] } | undefined;
  readFileSync(guide, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (open === undefined) {
        const fence = /^```(\w*)/.exec(line);
        if (fence) open = { tag: fence[1] ?? '', line: index + 2, body: [] };
      } else if (line.startsWith('```')) {
        if (open.tag === 'ts' || open.tag === 'tsx') found.push({ code: open.body.join('\n'), tag: open.tag, line: open.line });
        open = undefined;
      } else open.body.push(line);
    });
  return found;
}

describe('docs/ui.md', () => {
  it('has a route and a useChat component, and every block type-checks', () => {
    const found = blocks();
    expect(found.map((block) => block.tag)).toEqual(expect.arrayContaining(['ts', 'tsx']));
    const files = new Map(found.map((block, index) => [join(import.meta.dirname, `guide-block-${index + 1}.${block.tag}`), block]));
    const host = ts.createCompilerHost(options, true);
    const read = host.readFile.bind(host);
    const exists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (name) => files.get(name)?.code ?? read(name);
    host.fileExists = (name) => files.has(name) || exists(name);
    host.getSourceFile = (name, version, ...rest) => {
      const block = files.get(name);
      return block ? ts.createSourceFile(name, block.code, version, true, block.tag === 'tsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS) : getSourceFile(name, version, ...rest);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = [...files.keys()].flatMap((name) => {
      const source = program.getSourceFile(name) as ts.SourceFile;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => {
        const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
        return `docs/ui.md:${(files.get(name)?.line ?? 0) + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
