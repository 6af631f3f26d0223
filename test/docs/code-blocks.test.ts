// Every ```ts, ```js and ```tsx block of README.md and docs/**/*.md type-checks (one program for all) and runs (each
// in its own Node process, against the sources, with the scripted model, faultline/testing handlers or a loopback
// server in place of the network), printing what its `// prints: …` comments say. A block marked
// `<!-- fragment: what it is -->` on the line before it is type-checked only, with the package's names imported and
// the declared free names (`model`, `agent`, `env`…) in scope.
import { beforeAll, describe, expect, it } from 'vitest';
import { allBlocks, type DocsBlock } from './blocks.js';
import { type BlockRun, runBlocks } from './run.js';
import { typeCheck } from './type-check.js';

const blocks = allBlocks();
const runnable = blocks.filter((block) => block.fragment === undefined);
const name = (block: DocsBlock): string => `${block.where} (${block.title.slice(0, 60)})`;

describe('docs code blocks', () => {
  const checked = typeCheck(blocks);
  let runs: Map<DocsBlock, BlockRun>;
  beforeAll(async () => {
    runs = await runBlocks(runnable, { timeoutMs: 30_000, concurrency: 2 });
  }, 300_000);

  it('finds blocks in the README and in docs/, and most of them run', () => {
    expect(blocks.some((block) => block.file === 'README.md' && block.fragment === undefined)).toBe(true);
    expect(runnable.length).toBeGreaterThan(blocks.length / 2);
  });

  it('README quick starts each say what they print', () => {
    const quickStarts = blocks.filter((block) => block.file === 'README.md' && block.fragment === undefined);
    expect(quickStarts.filter((block) => block.prints.length > 0).length).toBeGreaterThanOrEqual(4);
  });

  it.each(blocks.map((block) => [name(block), block] as const))('%s type-checks', (_name, block) => {
    expect(checked.get(block), `${block.where} does not type-check`).toEqual([]);
  });

  it.each(runnable.map((block) => [name(block), block] as const))('%s runs and prints what it says', (_name, block) => {
    expect(runs.get(block)?.problems, `${block.where} does not run as written`).toEqual([]);
  });
});
