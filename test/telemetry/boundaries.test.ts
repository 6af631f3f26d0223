// OpenTelemetry is an optional peer: nothing in src/telemetry imports it (types included), and the folder depends
// only on errors/ and internal/ (tools/, agent/, graph/, a2a/ and mcp/ will depend on it, so it must not depend on
// them). No module-scope statement other than declarations, so the package stays side-effect free.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const folder = join(import.meta.dirname, '..', '..', 'src', 'telemetry');
const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));

function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(folder, file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  source.forEachChild((node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
  });
  const dynamic = source.text.match(/import\(\s*['"][^'"]+['"]\s*\)/g) ?? [];
  return [...found, ...dynamic];
}

describe('src/telemetry', () => {
  it('has files', () => {
    expect(files).toContain('index.ts');
  });

  it.each(files)('%s never imports @opentelemetry/* and imports only ./, ../errors/ and ../internal/', (file) => {
    for (const specifier of specifiers(file)) {
      expect(specifier).not.toMatch(/opentelemetry/);
      expect(specifier).toMatch(/^(\.\/|\.\.\/errors\/|\.\.\/internal\/)[\w./-]+\.js$/);
    }
  });

  it.each(files)('%s has only declarations at module scope, and stays under 300 lines', (file) => {
    const text = readFileSync(join(folder, file), 'utf8');
    expect(text.split('\n').length).toBeLessThan(300);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      const declaration =
        ts.isImportDeclaration(statement) ||
        ts.isExportDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isVariableStatement(statement);
      expect(declaration, `${file}: ${statement.getText().slice(0, 60)}`).toBe(true);
    }
  });
});
