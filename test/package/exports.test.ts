// The package manifest and the public entry files (STYLE.md "Build and docs" and "Layout"): `.` plus one subpath per
// capability folder, `types` first, `sideEffects: false`, two runtime dependencies, and index files that only re-export.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sourceRoot = join(root, 'src');

interface PackageJSON {
  name?: unknown;
  type?: unknown;
  sideEffects?: unknown;
  main?: unknown;
  types?: unknown;
  dependencies?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJSON;
const exportsMap = manifest.exports ?? {};
/** The IIFE build for a page without a bundler (README, Install): a file, not an entry with types. */
const SCRIPT_TAG_BUILD = './dist/faultline.iife.js';

/** Folders under src/ that are public capabilities: they have an index.ts, and are not `internal/`. */
const capabilityFolders = readdirSync(sourceRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'internal' && existsSync(join(sourceRoot, entry.name, 'index.ts')))
  .map((entry) => entry.name)
  .sort();

const indexFiles = ['index.ts', ...capabilityFolders.map((folder) => `${folder}/index.ts`)];

/** Statements of a file that are not export declarations (`export … from '…'`, `export {}`), as `line: text`. */
function nonExportStatements(path: string, text: string): string[] {
  const sourceFile = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return sourceFile.statements
    .filter((statement) => !ts.isExportDeclaration(statement))
    .map((statement) => `${sourceFile.getLineAndCharacterOfPosition(statement.getStart(sourceFile)).line + 1}: ${statement.getText(sourceFile)}`);
}

describe('package.json', () => {
  it('is named faultline', () => {
    expect(manifest.name).toBe('faultline');
  });

  it('is an ES module package', () => {
    expect(manifest.type).toBe('module');
  });

  it('declares itself free of side effects so bundlers can tree-shake it', () => {
    expect(manifest.sideEffects).toBe(false);
  });

  it('depends at runtime on exactly zod and nanoevents', () => {
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(['nanoevents', 'zod']);
  });

  it('lists types first in every conditional exports entry', () => {
    const misordered = Object.entries(exportsMap)
      .filter(([, target]) => typeof target === 'object')
      .filter(([, target]) => Object.keys(target)[0] !== 'types')
      .map(([subpath, target]) => `${subpath}: ${Object.keys(target).join(', ')}`);
    expect(misordered).toEqual([]);
  });

  it('points every entry at dist/ with a .d.ts for types and a .js for the code', () => {
    const wrong = Object.entries(exportsMap)
      .filter(([subpath]) => subpath !== './package.json' && subpath !== SCRIPT_TAG_BUILD)
      .filter(([, target]) => {
        if (typeof target !== 'object') return true;
        const { types, default: code } = target;
        return !(types?.startsWith('./dist/') && types.endsWith('.d.ts') && code?.startsWith('./dist/') && code.endsWith('.js'));
      })
      .map(([subpath, target]) => `${subpath}: ${JSON.stringify(target)}`);
    expect(wrong).toEqual([]);
  });

  it('exports the root, package.json and one subpath per capability folder of src/ that has an index.ts', () => {
    expect(capabilityFolders).toEqual(expect.arrayContaining(['errors', 'tools']));
    const expected = ['.', './package.json', SCRIPT_TAG_BUILD, ...capabilityFolders.map((folder) => `./${folder}`)].sort();
    expect(Object.keys(exportsMap).sort()).toEqual(expected);
  });

  it('maps each capability subpath to the build of that folder', () => {
    for (const folder of capabilityFolders) {
      expect(exportsMap[`./${folder}`], `./${folder}`).toEqual({
        types: `./dist/${folder}/index.d.ts`,
        default: `./dist/${folder}/index.js`,
      });
    }
    expect(exportsMap['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(exportsMap['./package.json']).toBe('./package.json');
  });

  it('exports the script-tag build at its own path, the file unpkg and jsdelivr serve (tools that resolve through the package reach it)', () => {
    expect(exportsMap[SCRIPT_TAG_BUILD]).toBe(SCRIPT_TAG_BUILD);
    expect((manifest as { unpkg?: unknown }).unpkg).toBe(SCRIPT_TAG_BUILD);
  });

  it('never exports src/internal', () => {
    expect(Object.keys(exportsMap).filter((subpath) => subpath.includes('internal'))).toEqual([]);
  });

  it('keeps main and types in line with the root export', () => {
    expect(manifest.main).toBe('./dist/index.js');
    expect(manifest.types).toBe('./dist/index.d.ts');
  });
});

describe('the public index files', () => {
  it('exist for the root and for every capability folder', () => {
    for (const file of indexFiles) expect(existsSync(join(sourceRoot, file)), `src/${file}`).toBe(true);
  });

  for (const file of indexFiles) {
    it(`src/${file} contains only export statements`, () => {
      expect(nonExportStatements(file, readFileSync(join(sourceRoot, file), 'utf8'))).toEqual([]);
    });
  }

  it('the index check reports, by line, a file that declares or imports something itself', () => {
    const planted =
      "// a comment is fine\nexport * from './a.js';\nexport const answer = 42;\nimport './side-effect.js';\nexport type { A } from './a.js';\nfunction local() {}\n";
    expect(nonExportStatements('planted.ts', planted)).toEqual(['3: export const answer = 42;', "4: import './side-effect.js';", '6: function local() {}']);
  });
});
