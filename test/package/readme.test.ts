import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// README code blocks are type-checked: every ```ts block of README.md is compiled as its own ES module against the
// sources (`faultline`, `faultline/<entry>` and `npm:faultline` map to src/), in memory, with one program for all
// blocks. A block without its own faultline import gets one for the package's names it uses; the illustrative free
// names README blocks lean on (`getUser`, `signal`, `compiled`…) are declared with types from the package.

const root = join(import.meta.dirname, '..', '..');
const readmePath = join(root, 'README.md');

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force, // every block is its own module, even one without import or export
  strict: true,
  exactOptionalPropertyTypes: true, // a user's strictest settings: what the README shows compiles there too
  noUncheckedIndexedAccess: true,
  noEmit: true,
  types: ['node'], // a block may serve a handler under Node's http (faultline/node)
  paths: {
    faultline: [join(root, 'src/index.ts')],
    'faultline/*': [join(root, 'src/*/index.ts')],
    'npm:faultline': [join(root, 'src/index.ts')],
  },
};

/** The free names README blocks use without defining them, each typed from the package (namespace `Faultline`). */
const illustrativeDeclarations: Record<string, string> = {
  work: 'declare function work(): Promise<unknown>;',
  retryLater: 'declare function retryLater(delayMs?: number): void;',
  apiKey: 'declare const apiKey: string;',
  getUser: 'declare const getUser: Faultline.AnyTool;',
  getWeather: 'declare const getWeather: Faultline.AnyTool;',
  signal: 'declare const signal: AbortSignal;',
  lookupInventory: 'declare const lookupInventory: Faultline.NodeFunction;',
  transportError: 'declare let transportError: Faultline.ResponseError | undefined;',
  records: 'declare let records: Faultline.ExecutionError[] | undefined;',
  collector: 'declare const collector: Faultline.ExecutionErrorCollector;',
  compiled: 'declare const compiled: Faultline.CompiledGraph;',
  parent: 'declare const parent: Faultline.StateGraph;',
  agent: 'declare const agent: Faultline.RunnableAgent;',
};

interface ReadmeBlock {
  number: number;
  /** 1-based README line of the block's first code line. */
  readmeLine: number;
  code: string;
  title: string;
}

function readmeBlocks(): ReadmeBlock[] {
  const lines = readFileSync(readmePath, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  let open: { tag: string; start: number; body: string[] } | undefined;
  lines.forEach((line, index) => {
    if (open === undefined) {
      const fence = /^\s*```\s*([\w-]*)/.exec(line);
      if (fence) open = { tag: fence[1] ?? '', start: index + 2, body: [] };
    } else if (/^\s*```\s*$/.test(line)) {
      if (open.tag === 'ts') {
        const code = open.body.join('\n');
        const title = open.body.find((bodyLine) => bodyLine.trim() !== '')?.trim() ?? '(empty)';
        blocks.push({ number: blocks.length + 1, readmeLine: open.start, code, title });
      }
      open = undefined;
    } else {
      open.body.push(line);
    }
  });
  return blocks;
}

function bindingNames(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, into);
}

/** What a block declares at its top level, and whether it imports faultline itself. */
function ownDeclarations(code: string): { names: Set<string>; importsFaultline: boolean } {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  let importsFaultline = false;
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bindingNames(declaration.name, names);
    } else if (ts.isImportDeclaration(statement)) {
      const specifier = ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : '';
      if (/^(npm:)?faultline(\/|$)/.test(specifier)) importsFaultline = true;
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      else if (bindings) for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isImportEqualsDeclaration(statement)) {
      names.add(statement.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) &&
      statement.name && ts.isIdentifier(statement.name)
    ) {
      names.add(statement.name.text);
    }
  }
  return { names, importsFaultline };
}

/** The lines put before a block: an import of the package's names it uses, then the declarations it needs. */
function prelude(code: string, exportNames: ReadonlySet<string>): string {
  const words = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const own = ownDeclarations(code);
  const lines: string[] = [];
  if (!own.importsFaultline) {
    const used = [...exportNames].filter((name) => words.has(name) && !own.names.has(name)).sort();
    if (used.length > 0) lines.push(`import { ${used.join(', ')} } from 'faultline';`);
  }
  const declarations = Object.entries(illustrativeDeclarations)
    .filter(([name]) => words.has(name) && !own.names.has(name))
    .map(([, declaration]) => declaration);
  if (declarations.some((declaration) => declaration.includes('Faultline.'))) {
    lines.push("import type * as Faultline from 'faultline';");
  }
  lines.push(...declarations);
  return lines.map((line) => `${line}\n`).join('');
}

interface CheckedBlock extends ReadmeBlock {
  problems: string[];
}

function checkBlocks(blocks: readonly ReadmeBlock[]): CheckedBlock[] {
  const defaultHost = ts.createCompilerHost(options, true);
  const virtualFiles = new Map<string, string>();
  const parsed = new Map<string, ts.SourceFile>(); // lib, zod and src files are parsed once for both programs
  const host: ts.CompilerHost = {
    ...defaultHost,
    fileExists: (fileName) => virtualFiles.has(fileName) || defaultHost.fileExists(fileName),
    readFile: (fileName) => virtualFiles.get(fileName) ?? defaultHost.readFile(fileName),
    getSourceFile: (fileName, languageVersion, onError, shouldCreateNewSourceFile) => {
      const text = virtualFiles.get(fileName);
      if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true, ts.ScriptKind.TS);
      const cached = parsed.get(fileName);
      if (cached) return cached;
      const source = defaultHost.getSourceFile(fileName, languageVersion, onError, shouldCreateNewSourceFile);
      if (source) parsed.set(fileName, source);
      return source;
    },
  };

  // The package's exported names, values and types, from the root entry through the checker.
  const entry = join(root, 'src/index.ts');
  const sourcesProgram = ts.createProgram([entry], options, host);
  const sourcesChecker = sourcesProgram.getTypeChecker();
  const entrySource = sourcesProgram.getSourceFile(entry);
  const entrySymbol = entrySource && sourcesChecker.getSymbolAtLocation(entrySource);
  if (!entrySymbol) throw new Error('cannot read src/index.ts');
  const exportNames = new Set(sourcesChecker.getExportsOfModule(entrySymbol).map((symbol) => symbol.name));

  const files = blocks.map((block) => {
    const fileName = join(import.meta.dirname, `readme-block-${block.number}.ts`); // resolves zod from node_modules
    const head = prelude(block.code, exportNames);
    virtualFiles.set(fileName, head + block.code);
    return { block, fileName, headLines: head.split('\n').length - 1 };
  });
  const rootNames = files.map((file) => file.fileName);
  const program = ts.createProgram({ rootNames, options, host, oldProgram: sourcesProgram });
  const programProblems = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
    (diagnostic) => `compiler: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} (TS${diagnostic.code})`,
  );

  return files.map(({ block, fileName, headLines }) => {
    const source = program.getSourceFile(fileName);
    if (!source) return { ...block, problems: [`${fileName} was not compiled`] };
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    const problems = diagnostics.map((diagnostic) => {
      const text = `${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} (TS${diagnostic.code})`;
      if (diagnostic.start === undefined) return text;
      const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
      const blockLine = line - headLines + 1;
      if (blockLine < 1) return `prelude line ${line + 1}, column ${character + 1}: ${text}`;
      return `line ${blockLine}, column ${character + 1} (README.md:${block.readmeLine + blockLine - 1}): ${text}`;
    });
    return { ...block, problems: [...programProblems, ...problems] };
  });
}

describe('README code blocks', () => {
  const checked = checkBlocks(readmeBlocks());

  it('finds ts blocks to check in README.md', () => {
    expect(checked.length, 'README.md has no ```ts block: nothing would be type-checked').toBeGreaterThan(0);
  });

  const cases = checked.map((block) => [`block ${block.number}: ${block.title}`, block] as const);
  it.each(cases)('type-checks %s', (_name, block) => {
    expect(
      block.problems,
      `README block ${block.number} (README.md:${block.readmeLine}, "${block.title}") does not type-check`,
    ).toEqual([]);
  });
});
