// faultline/testing without its optional peer msw: importing it fails with a ConfigError that names msw and the
// install command, not Node's ERR_MODULE_NOT_FOUND pointing inside the package. The built entry is copied where no
// node_modules can be found and imported in a fresh process. The top-level await that loads msw makes the entry
// ESM-only, as docs/testing.md says: CommonJS loads it with import(), and require() refuses it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIST, ROOT, requireDist } from '../conformance/dist.js';

requireDist();

const folder = mkdtempSync(join(tmpdir(), 'faultline-no-msw-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('faultline/testing in a project without msw', () => {
  it('fails to import with a ConfigError naming msw and how to install it', () => {
    cpSync(DIST, join(folder, 'dist'), { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
    const script = "import('./dist/testing/index.js').then(() => console.log(JSON.stringify({ loaded: true })), (error) => console.log(JSON.stringify({ name: error.name, kind: error.kind, message: error.message, cause: error.cause?.code })))";
    const printed = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: folder, encoding: 'utf8' }));
    expect(printed).toEqual({
      name: 'ConfigError',
      kind: 'config',
      message: 'faultline/testing needs msw 2, an optional peer dependency it does not install: run `npm install --save-dev msw@2`',
      cause: 'ERR_MODULE_NOT_FOUND',
    });
  });

  it('loads where msw is installed', async () => {
    const testing = await import(join(DIST, 'testing', 'index.js'));
    expect(typeof testing.chatFaultHandlers).toBe('function');
  });
});

describe('faultline/testing from CommonJS', () => {
  // process.features.require_module: Node can require() an ES module at all (20.19+, 22.12+).
  it.runIf((process.features as { require_module?: boolean }).require_module)('require() refuses it (a top-level await), import() loads it, require() loads the root entry', () => {
    const script = [
      "let required = 'loaded';",
      "try { require('faultline/testing'); } catch (error) { required = error.code; }",
      "import('faultline/testing').then((testing) => console.log(JSON.stringify({ required, imported: typeof testing.chatFaultHandlers, root: typeof require('faultline').createOpenAICompatibleClient })));",
    ].join('\n');
    const printed = JSON.parse(execFileSync(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
    expect(printed).toEqual({ required: 'ERR_REQUIRE_ASYNC_MODULE', imported: 'function', root: 'function' });
  });
});
