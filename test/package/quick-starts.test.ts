// The README's quick starts as a new user meets them: the package packed (`npm pack` of the built dist), installed
// with zod into a new project the way the README's Install section says (zod and nanoevents packed from the copies
// installed here, since tests reach no registry),
// and each quick start copied into a file of that project — only its types stripped — run by Node, printing what
// the README says it prints. The docs-execution test runs the same blocks against the sources; this one proves the
// packed package, its exports map and its dependencies give the same.
import { execFileSync, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, root } from '../docs/blocks.js';

const quickStarts = blocksOf(join(root, 'README.md')).filter((block) => block.fragment === undefined);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let project = '';
let installLog = '';

function run(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd: project, timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('the README quick starts, in a new project that installed the packed tarball', () => {
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'faultline-quick-start-'));
    const sources = [root, join(root, 'node_modules', 'zod'), join(root, 'node_modules', 'nanoevents')];
    const packed = execFileSync(npm, ['pack', '--json', '--pack-destination', project, ...sources], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tarballs = (JSON.parse(packed) as Array<{ filename: string }>).map((entry) => join(project, entry.filename));
    // A new project as npm makes it (npm 11: "type": "commonjs"), then the README's own line that makes it ESM.
    execFileSync(npm, ['init', '-y'], { cwd: project, stdio: 'ignore' });
    const install = readFileSync(join(root, 'README.md'), 'utf8').match(/^cd \.\.\/your-app && (.*)$/m)?.[1] ?? '';
    expect(install).toContain('npm pkg set type=module');
    execFileSync(npm, ['pkg', 'set', 'type=module'], { cwd: project, stdio: 'ignore' });
    installLog = execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--engine-strict', ...tarballs], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }, 180_000);
  afterAll(() => {
    if (project !== '') rmSync(project, { recursive: true, force: true });
  });

  it('finds the four quick starts, each saying what it prints', () => {
    expect(quickStarts.length).toBeGreaterThanOrEqual(4);
    for (const block of quickStarts) expect(block.prints.length, block.where).toBeGreaterThan(0);
  });

  it('installs with no warning and gives the package its docs (error.docs points into it)', () => {
    expect(installLog).not.toMatch(/warn/i);
    const docs = execFileSync(process.execPath, ['--input-type=module', '-e', "import { WorkflowError } from 'faultline'; console.log(new WorkflowError('m', { code: 'STATE_INVALID' }).docs)"], { cwd: project, encoding: 'utf8' }).trim();
    expect(docs).toBe('faultline/docs/errors/workflow-error.md#state_invalid');
    const [page = ''] = docs.split('#');
    expect(readFileSync(join(project, 'node_modules', page), 'utf8')).toMatch(/^## STATE_INVALID$/m);
  });

  it('ships every file its README and docs link to, and resolves the script-tag build through its exports', () => {
    const installed = join(project, 'node_modules', 'faultline');
    const pages = [join(installed, 'README.md'), ...readdirSync(join(installed, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md')).map((name) => join(installed, 'docs', name))];
    const missing: string[] = [];
    for (const page of pages) {
      const prose = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, link = ''] of prose.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        if (!existsSync(join(dirname(page), decodeURIComponent(link)))) missing.push(`${relative(installed, page)} → ${link}`);
      }
    }
    expect(missing).toEqual([]);
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('faultline/dist/faultline.iife.js'))"], { cwd: project, encoding: 'utf8' });
    expect(existsSync(new URL(resolved.trim()))).toBe(true);
  });

  it.each(quickStarts.map((block) => [block.where, block] as const))('%s runs as written from the installed package', async (where, block) => {
    const { code } = await transform(block.code, { loader: block.tag, format: 'esm', target: 'node20', jsx: 'automatic' });
    const file = join(project, `${where.replace(/[^\w]/g, '_')}.js`); // .js, as a user names it: the project's type decides
    writeFileSync(file, code);
    const outcome = await run(file);
    expect(outcome.stderr.trim() === '' || outcome.code === 0 ? '' : outcome.stderr.slice(-1500), where).toBe('');
    expect(outcome.code, where).toBe(0);
    let from = 0;
    for (const expected of block.prints) {
      const at = outcome.stdout.indexOf(expected, from);
      expect(at, `${where} does not print "${expected}"; it printed:\n${outcome.stdout.slice(0, 1500)}`).toBeGreaterThanOrEqual(0);
      from = at + expected.length;
    }
  }, 90_000);
});
