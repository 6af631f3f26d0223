import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A user's strictest project, compiled against the built package: test/types/consumer.ts imports 'faultline' by
// name (dist/*.d.ts through package.json "exports"), under strict + exactOptionalPropertyTypes +
// noUncheckedIndexedAccess with skipLibCheck off, and asserts types with expectTypeOf and @ts-expect-error (typed
// graph state, node ids, Command goto, one-call agents, run stream shapes, completion guards). npm test builds first.

const root = join(import.meta.dirname, '..', '..');
const configPath = join(root, 'test/types/tsconfig.json');
const nodeConfigPath = join(root, 'test/types/tsconfig.node.json');

function diagnostics(path = configPath): string[] {
  const config = ts.readConfigFile(path, ts.sys.readFile);
  if (config.error) return [ts.flattenDiagnosticMessageText(config.error.messageText, '\n')];
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, join(root, 'test/types'));
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
    const file = diagnostic.file ? diagnostic.file.fileName.replace(`${root}/`, '') : '(config)';
    return `${file}:${where ? where.line + 1 : 0}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe('a strict consumer project type-checks against dist', () => {
  it('has the strict flags it claims', () => {
    const options = JSON.parse(readFileSync(configPath, 'utf8')).compilerOptions;
    expect(options).toMatchObject({ strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false });
  });

  it('compiles every entry’s declarations in a Node server project without the DOM library (test/types/node-consumer.ts)', () => {
    expect(existsSync(join(root, 'dist/index.d.ts')), 'run npm run build first').toBe(true);
    // msw's own declarations (an optional peer, behind faultline/testing) need the DOM library: not ours to judge.
    expect(diagnostics(nodeConfigPath).filter((line) => !line.includes('node_modules/'))).toEqual([]);
  }, 120_000);

  it('compiles test/types/consumer.ts with no diagnostics (every @ts-expect-error is an error)', () => {
    expect(existsSync(join(root, 'dist/index.d.ts')), 'run npm run build first').toBe(true);
    expect(diagnostics()).toEqual([]);
  }, 120_000);
});
