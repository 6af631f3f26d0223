// Type-checks docs blocks in one program: each block is its own ES module compiled against the sources (`faultline`,
// `faultline/<entry>` and `npm:faultline` map to src/) with a user's strictest settings. A block that runs is checked
// exactly as written; a fragment gets an import of the package's names it uses and the declared free names below.
import { join } from 'node:path';
import ts from 'typescript';
import { type DocsBlock, root } from './blocks.js';

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force, // every block is its own module, even one without import or export
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  exactOptionalPropertyTypes: true, // what the docs show compiles under a user's strictest settings
  noUncheckedIndexedAccess: true,
  allowJs: true,
  checkJs: true,
  noEmit: true,
  skipLibCheck: true,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'], // a block may serve a handler under Node's http (faultline/node)
  paths: {
    faultline: [join(root, 'src/index.ts')],
    'faultline/*': [join(root, 'src/*/index.ts')],
    'npm:faultline': [join(root, 'src/index.ts')],
  },
};

/** The free names fragments may use without defining them, each typed from the package (namespace `Faultline`). */
const freeNames: Record<string, string> = {
  work: 'declare function work(): Promise<unknown>;',
  retryLater: 'declare function retryLater(delayMs?: number): void;',
  apiKey: 'declare const apiKey: string;',
  getUser: 'declare const getUser: Faultline.AnyTool;',
  getWeather: 'declare const getWeather: Faultline.AnyTool;',
  signal: 'declare const signal: AbortSignal;',
  model: 'declare const model: Faultline.ChatClient;',
  lookupInventory: 'declare const lookupInventory: Faultline.NodeFunction;',
  transportError: 'declare let transportError: Faultline.ResponseError | undefined;',
  records: 'declare let records: Faultline.ExecutionError[] | undefined;',
  collector: 'declare const collector: Faultline.ExecutionErrorCollector;',
  compiled: 'declare const compiled: Faultline.CompiledGraph;',
  parent: 'declare const parent: Faultline.StateGraph;',
  agent: 'declare const agent: Faultline.RunnableAgent;',
  env: 'declare const env: Record<string, any>;',
  tools: 'declare const tools: Faultline.AnyTool[];',
  Deno: 'declare const Deno: { serve(options: object, handler: (request: Request) => Response | Promise<Response>): unknown };',
};

function bindingNames(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, into);
}

/** What a block declares at its top level, and whether it imports faultline itself. */
function ownDeclarations(code: string): { names: Set<string>; importsFaultline: boolean } {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TSX);
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

/** The lines put before a fragment: an import of the package's names it uses, then the free names it needs. */
function prelude(code: string, exportNames: ReadonlySet<string>): string {
  const words = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const own = ownDeclarations(code);
  const lines: string[] = [];
  if (!own.importsFaultline) {
    const used = [...exportNames].filter((name) => words.has(name) && !own.names.has(name)).sort();
    if (used.length > 0) lines.push(`import { ${used.join(', ')} } from 'faultline';`);
  }
  const declarations = Object.entries(freeNames)
    .filter(([name]) => words.has(name) && !own.names.has(name))
    .map(([, declaration]) => declaration);
  if (declarations.some((declaration) => declaration.includes('Faultline.'))) {
    lines.push("import type * as Faultline from 'faultline';");
  }
  lines.push(...declarations);
  return lines.map((line) => `${line}\n`).join('');
}

/** Each block's type errors (empty when it compiles), as `file:line: message`. */
export function typeCheck(blocks: readonly DocsBlock[]): Map<DocsBlock, string[]> {
  const defaultHost = ts.createCompilerHost(options, true);
  const virtualFiles = new Map<string, string>();
  const parsed = new Map<string, ts.SourceFile>(); // lib, zod and src files are parsed once for both programs
  const host: ts.CompilerHost = {
    ...defaultHost,
    fileExists: (fileName) => virtualFiles.has(fileName) || defaultHost.fileExists(fileName),
    readFile: (fileName) => virtualFiles.get(fileName) ?? defaultHost.readFile(fileName),
    getSourceFile: (fileName, languageVersion, onError, shouldCreateNewSourceFile) => {
      const text = virtualFiles.get(fileName);
      if (text !== undefined) {
        const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : fileName.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
        return ts.createSourceFile(fileName, text, languageVersion, true, kind);
      }
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

  const files = blocks.map((block, index) => {
    // Next to this file, so `zod`, `ai` and `react` resolve from node_modules.
    const fileName = join(import.meta.dirname, `docs-block-${index + 1}.${block.tag}`);
    const head = block.fragment === undefined ? '' : prelude(block.code, exportNames);
    virtualFiles.set(fileName, head + block.code);
    return { block, fileName, headLines: head.split('\n').length - 1 };
  });
  const program = ts.createProgram({ rootNames: files.map((file) => file.fileName), options, host, oldProgram: sourcesProgram });
  const programProblems = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
    (diagnostic) => `compiler: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} (TS${diagnostic.code})`,
  );

  return new Map(files.map(({ block, fileName, headLines }) => {
    const source = program.getSourceFile(fileName);
    if (!source) return [block, [`${fileName} was not compiled`]];
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    const problems = diagnostics.map((diagnostic) => {
      const text = `${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} (TS${diagnostic.code})`;
      if (diagnostic.start === undefined) return text;
      const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
      const blockLine = line - headLines + 1;
      if (blockLine < 1) return `prelude line ${line + 1}: ${text}`;
      return `${block.file}:${block.line + blockLine - 1}:${character + 1}: ${text}`;
    });
    return [block, [...programProblems, ...problems]];
  }));
}
