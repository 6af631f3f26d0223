// Runtime portability of src/ (STYLE.md "Runtime portability"): no Node-only module or global may appear in the
// source, so the same code runs in browsers, Workers, Deno and Node. Enforced here by a test, not by review.
//
// Comments (JSDoc included) and the text of string, template and regex literals are blanked before matching, using
// the TypeScript parser so that nothing is mistaken for code; line numbers are preserved for the report.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceRoot = join(root, 'src');

/** The runtime dependencies src/ may import by bare specifier. */
const ALLOWED_BARE_SPECIFIERS = ['zod', 'zod/mini', 'nanoevents'];

interface Violation {
  file: string;
  line: number;
  rule: string;
  text: string;
}

interface ImportedSpecifier {
  file: string;
  line: number;
  specifier: string;
}

interface ScanResult {
  violations: Violation[];
  specifiers: ImportedSpecifier[];
}

/** Identifier rules, matched on the code with comments and literal text blanked out. */
const GLOBAL_RULES: ReadonlyArray<{ rule: string; pattern: RegExp }> = [
  { rule: 'uses process', pattern: /(?<![\w$.])process(?![\w$])|\b(?:globalThis|self|window)\s*\??\.\s*process(?![\w$])/ },
  { rule: 'uses Buffer', pattern: /(?<![\w$.])Buffer(?![\w$])|\b(?:globalThis|self|window)\s*\??\.\s*Buffer(?![\w$])/ },
  { rule: 'calls require(', pattern: /(?<![\w$.])require\s*\(|\b(?:globalThis|self|window)\s*\??\.\s*require\s*\(/ },
  { rule: 'uses __dirname', pattern: /(?<![\w$])__dirname(?![\w$])/ },
  { rule: 'uses __filename', pattern: /(?<![\w$])__filename(?![\w$])/ },
  { rule: 'uses global. (use globalThis)', pattern: /(?<![\w$.])global\s*\??\./ },
  { rule: 'uses setImmediate', pattern: /(?<![\w$])setImmediate(?![\w$])/ },
];

/** Names that must not be reached by computed access either (`globalThis['process']`). */
const FORBIDDEN_GLOBAL_NAMES = new Set(['process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'setImmediate']);

const NODE_BUILTINS = new Set(builtinModules);

const LITERAL_KINDS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

function isJSDocNode(node: ts.Node): boolean {
  return node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;
}

/**
 * The source with every comment and every literal's text replaced by spaces: only code tokens stay, at their original
 * offsets (newlines are kept, so line numbers still match the file).
 */
function codeOnly(sourceFile: ts.SourceFile): string {
  const text = sourceFile.text;
  const characters = text.replace(/[^\n]/g, ' ').split('');
  const visit = (node: ts.Node): void => {
    if (isJSDocNode(node)) return;
    const children = node.getChildren(sourceFile);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    if (LITERAL_KINDS.has(node.kind)) return;
    for (let index = node.getStart(sourceFile); index < node.end; index++) characters[index] = text[index] ?? ' ';
  };
  visit(sourceFile);
  return characters.join('');
}

function isBareSpecifier(specifier: string): boolean {
  return !specifier.startsWith('./') && !specifier.startsWith('../') && !specifier.startsWith('/');
}

function isNodeBuiltin(specifier: string): boolean {
  return NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split('/')[0] ?? specifier);
}

/** Scans one TypeScript source text for Node-only APIs and collects its import specifiers. */
function scanSource(file: string, source: string): ScanResult {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = source.split('\n');
  const lineOf = (position: number) => sourceFile.getLineAndCharacterOfPosition(position).line + 1;
  const violations: Violation[] = [];
  const specifiers: ImportedSpecifier[] = [];
  const report = (position: number, rule: string) => {
    const line = lineOf(position);
    violations.push({ file, line, rule, text: (lines[line - 1] ?? '').trim() });
  };
  const addSpecifier = (literal: ts.Node | undefined) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const specifier = literal.text;
    const position = literal.getStart(sourceFile);
    specifiers.push({ file, line: lineOf(position), specifier });
    if (specifier.startsWith('node:')) report(position, `imports ${specifier}`);
    else if (isBareSpecifier(specifier) && isNodeBuiltin(specifier)) report(position, `imports the Node builtin '${specifier}'`);
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) addSpecifier(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      addSpecifier(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) addSpecifier(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      report(node.getStart(sourceFile), 'uses a dynamic import()');
      addSpecifier(node.arguments[0]);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require') {
      addSpecifier(node.arguments[0]);
    } else if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      FORBIDDEN_GLOBAL_NAMES.has(node.argumentExpression.text)
    ) {
      report(node.argumentExpression.getStart(sourceFile), `reaches ${node.argumentExpression.text} by computed access`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);

  codeOnly(sourceFile)
    .split('\n')
    .forEach((code, index) => {
      for (const { rule, pattern } of GLOBAL_RULES) {
        if (pattern.test(code)) violations.push({ file, line: index + 1, rule, text: (lines[index] ?? '').trim() });
      }
    });
  violations.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  return { violations, specifiers };
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
    })
    .sort();
}

let scanned: ScanResult | undefined;

/** Every file under src/, scanned once per test run. */
function scanTree(): ScanResult {
  if (scanned) return scanned;
  const results = sourceFiles(sourceRoot).map((path) => scanSource(relative(root, path), readFileSync(path, 'utf8')));
  scanned = { violations: results.flatMap((result) => result.violations), specifiers: results.flatMap((result) => result.specifiers) };
  return scanned;
}

const describeViolation = (violation: Violation) => `${violation.file}:${violation.line} ${violation.rule}: ${violation.text}`;

describe('the portability scanner', () => {
  const planted = [
    "import { readFileSync } from 'node:fs';", //                    1
    "import { join } from 'path';", //                               2
    "import EventEmitter from 'events';", //                         3
    "export { Buffer as Bytes } from 'buffer';", //                  4
    "import { promisify } from 'util';", //                          5
    'const env = process.env.KEY;', //                               6
    "const bytes = Buffer.from('x');", //                            7
    "const lib = require('./lib.js');", //                           8
    'const here = __dirname + __filename;', //                       9
    'global.answer = 42;', //                                        10
    'setImmediate(() => {});', //                                    11
    "const later = await import('./later.js');", //                  12
    "const sneaky = (globalThis as any)['process'];", //             13
    'const viaGlobalThis = globalThis.process;', //                  14
    "import type { Readable } from 'stream';", //                    15
    "import { readFile } from 'fs/promises';", //                    16
  ].join('\n');

  it('reports every planted violation with its file, line and rule', () => {
    const { violations } = scanSource('planted.ts', planted);
    expect(violations.map(({ line, rule }) => `${line} ${rule}`)).toEqual([
      "1 imports node:fs",
      "2 imports the Node builtin 'path'",
      "3 imports the Node builtin 'events'",
      "4 imports the Node builtin 'buffer'",
      '4 uses Buffer',
      "5 imports the Node builtin 'util'",
      '6 uses process',
      '7 uses Buffer',
      '8 calls require(',
      '9 uses __dirname',
      '9 uses __filename',
      '10 uses global. (use globalThis)',
      '11 uses setImmediate',
      '12 uses a dynamic import()',
      '13 reaches process by computed access',
      '14 uses process',
      "15 imports the Node builtin 'stream'",
      "16 imports the Node builtin 'fs/promises'",
    ]);
    expect(violations[0]).toEqual({ file: 'planted.ts', line: 1, rule: 'imports node:fs', text: "import { readFileSync } from 'node:fs';" });
  });

  it('ignores Node names inside line comments, block comments and JSDoc', () => {
    const source = [
      '/**',
      " * Never call require('fs') or read process.env; Buffer, __dirname, __filename, global.x and setImmediate",
      " * are Node-only. Example: import { readFile } from 'node:fs'; await import('./x.js');",
      ' */',
      'export const value = 1; // process.exit(1) would be wrong here',
      '/* setImmediate(() => Buffer.alloc(1)); */',
    ].join('\n');
    expect(scanSource('comments.ts', source).violations).toEqual([]);
  });

  it('ignores Node names inside string, template and regex literal text', () => {
    const source = [
      "const message = 'Could not process the request; require( a Buffer';",
      'const template = `global.x and __dirname ${String(1)} setImmediate`;',
      'const pattern = /process|require\\(|global\\./;',
      "const status = { 422: 'Unprocessable Entity' };",
    ].join('\n');
    expect(scanSource('literals.ts', source).violations).toEqual([]);
  });

  it('still sees code inside template substitutions', () => {
    const source = 'const text = `pid ${process.pid}`;';
    expect(scanSource('template.ts', source).violations.map((violation) => violation.rule)).toEqual(['uses process']);
  });

  it('does not mistake globalThis or member names for Node globals', () => {
    const source = [
      'const crypto = globalThis.crypto;',
      'const timer = globalThis.setTimeout;',
      'const step = pipeline.process;',
      'const globalScope = 1;',
      'type Processed = { processed: boolean };',
    ].join('\n');
    expect(scanSource('clean.ts', source).violations).toEqual([]);
  });

  it('collects relative and bare specifiers from imports, re-exports and type imports', () => {
    const source = [
      "import * as z from 'zod';",
      "import { on } from 'nanoevents';",
      "export * from './errors/index.js';",
      "export type { Issue } from '../issue.js';",
      "type Mini = import('zod/mini').ZodMiniType;",
    ].join('\n');
    const { specifiers, violations } = scanSource('imports.ts', source);
    expect(specifiers.map(({ line, specifier }) => `${line} ${specifier}`)).toEqual([
      '1 zod',
      '2 nanoevents',
      '3 ./errors/index.js',
      '4 ../issue.js',
      '5 zod/mini',
    ]);
    expect(violations).toEqual([]);
  });
});

describe('src/', () => {
  it('has TypeScript files to scan, including the public root', () => {
    const files = sourceFiles(sourceRoot).map((path) => relative(root, path));
    expect(files).toContain(join('src', 'index.ts'));
    expect(files.length).toBeGreaterThan(10);
  });

  // One dynamic import is the mechanism itself: src/testing/msw.ts loads the optional peer msw so that a project
  // without it gets a ConfigError naming it (faultline/testing is for test suites, not app bundles).
  it('uses no node: import, Node builtin module, dynamic import, process, Buffer, require, __dirname, __filename, global. or setImmediate', () => {
    const loadsMsw = (violation: Violation) => violation.file === join('src', 'testing', 'msw.ts') && violation.rule === 'uses a dynamic import()' && violation.text === "return await import('msw');";
    expect(scanTree().violations.filter((violation) => !loadsMsw(violation)).map(describeViolation)).toEqual([]);
  });

  // src/testing (the `faultline/testing` subpath) may also import msw, its optional peer dependency.
  it('imports nothing by bare specifier except the runtime dependencies zod, zod/mini and nanoevents (and msw in src/testing)', () => {
    const foreign = scanTree()
      .specifiers.filter(({ specifier }) => isBareSpecifier(specifier) && !ALLOWED_BARE_SPECIFIERS.includes(specifier))
      .filter(({ file, specifier }) => !(specifier === 'msw' && file.startsWith(join('src', 'testing'))))
      .map(({ file, line, specifier }) => `${file}:${line} imports '${specifier}'`);
    expect(foreign).toEqual([]);
  });

  it('imports relative files with an explicit .js extension that stays inside src/', () => {
    const bad = scanTree()
      .specifiers.filter(({ specifier }) => !isBareSpecifier(specifier))
      .filter(({ file, specifier }) => !specifier.endsWith('.js') || relative(sourceRoot, join(root, file, '..', specifier)).startsWith('..'))
      .map(({ file, line, specifier }) => `${file}:${line} imports '${specifier}'`);
    expect(bad).toEqual([]);
  });
});
