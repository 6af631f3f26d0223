// Runs docs blocks: one esbuild build bundles every block with the sources (`faultline`, `faultline/<entry>` map to
// src/; other packages stay imports resolved from node_modules), then each block runs in its own Node process with a
// time limit. A block passes when its process exits 0 within the limit and prints, in order, what it says it prints.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { type DocsBlock, root } from './blocks.js';

export interface BlockRun {
  /** Empty when the block ran as it says. */
  problems: string[];
  stdout: string;
}

/** The output folder (under test/artifacts/, not committed) where node resolves the blocks' package imports. */
const outdir = join(root, 'test', 'artifacts', 'docs-blocks');

function docsPlugin(blocks: readonly DocsBlock[]): Plugin {
  return {
    name: 'docs-blocks',
    setup(builder) {
      builder.onResolve({ filter: /^docs-block-\d+$/ }, (args) => ({ path: args.path, namespace: 'docs-block' }));
      builder.onLoad({ filter: /.*/, namespace: 'docs-block' }, (args) => {
        const block = blocks[Number(args.path.slice('docs-block-'.length)) - 1] as DocsBlock;
        return { contents: block.code, loader: block.tag, resolveDir: join(root, 'test', 'docs') };
      });
      builder.onResolve({ filter: /^(npm:)?faultline(\/[\w-]+)?$/ }, (args) => {
        const entry = /faultline\/([\w-]+)$/.exec(args.path)?.[1];
        return { path: join(root, 'src', entry === undefined ? 'index.ts' : join(entry, 'index.ts')) };
      });
    },
  };
}

function runOne(file: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd: root, timeout: timeoutMs, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const timedOut = error !== null && (error as { killed?: boolean }).killed === true;
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr, timedOut });
      });
  });
}

/** Bundles and runs every block; `concurrency` processes at a time. */
export async function runBlocks(blocks: readonly DocsBlock[], options: { timeoutMs: number; concurrency: number }): Promise<Map<DocsBlock, BlockRun>> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const names = blocks.map((_block, index) => `docs-block-${index + 1}`);
  // One build per block, all at once: a block that does not compile fails alone.
  const built = await Promise.all(names.map((entry) => build({
    entryPoints: [{ in: entry, out: entry }],
    bundle: true, format: 'esm', platform: 'node', target: 'node20', jsx: 'automatic',
    packages: 'external', outdir, outExtension: { '.js': '.mjs' }, logLevel: 'silent', write: true,
    plugins: [docsPlugin(blocks)],
  }).then(() => undefined, (error: Error) => error.message)));
  const results = new Map<DocsBlock, BlockRun>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < blocks.length) {
      const index = next++;
      const block = blocks[index] as DocsBlock;
      const buildError = built[index];
      if (buildError !== undefined) {
        results.set(block, { problems: [`does not build: ${buildError}`], stdout: '' });
        continue;
      }
      const outcome = await runOne(join(outdir, `${names[index]}.mjs`), options.timeoutMs);
      const problems: string[] = [];
      if (outcome.timedOut) problems.push(`did not end within ${options.timeoutMs} ms (a server left open, a hang?)`);
      else if (outcome.code !== 0) problems.push(`exited with ${outcome.code}: ${outcome.stderr.trim().slice(-1500)}`);
      let from = 0;
      for (const expected of block.prints) {
        const at = outcome.stdout.indexOf(expected, from);
        if (at === -1) {
          problems.push(`does not print "${expected}" (after what it printed before it); it printed:\n${outcome.stdout.slice(0, 2000)}`);
          break;
        }
        from = at + expected.length;
      }
      results.set(block, { problems, stdout: outcome.stdout });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return results;
}
