// How many files of dist/ each entry makes Node read, parse and link at import: each costs ~0.7 ms of a cold start
// whatever its size (issue 17 measured `import('faultline/a2a')` at 1.08–1.20× @a2a-js/sdk/client's with one file per
// source module, 68 files, and 0.5–0.7× with shared chunks). rollup.config.mjs merges chunks under 30 kB into the ones
// that use them; these bounds fail when the build goes back to many small files.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, requireDist } from '../conformance/dist.js';

requireDist();

/** The files of dist/ that importing `entry` loads (static imports and re-exports, followed). */
function filesLoadedBy(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/g)) visit(resolve(dirname(file), match[1] as string));
  };
  visit(join(DIST, entry));
  return [...seen].map((file) => relative(DIST, file));
}

const ENTRIES = ['index.js', ...['errors', 'tools', 'chat', 'agent', 'graph', 'runner', 'a2a', 'cloudflare', 'mcp', 'node', 'resilience', 'telemetry', 'testing', 'ui'].map((name) => `${name}/index.js`)];

/**
 * Entries that load a ninth file: since `faultline/node` throws `StreamError`s of its own (a body read after the
 * answer, a client that stopped reading), rollup gives the modules the agent and the breakers share with it a chunk of
 * 24 kB it does not merge (no `experimentalMinChunkSize` from 20 to 40 kB, nor one chunk for every error class,
 * brings them back to 8). Measured: `import('faultline/agent')` 21.6–22.5 → 23.0–23.4 ms (median of 15, same machine).
 */
const NINE = new Set(['agent/index.js', 'resilience/index.js']);

describe('files each entry loads from dist/', () => {
  it.each(ENTRIES.filter((entry) => entry !== 'index.js'))('%s loads at most 8 files (9 for the agent and the breakers)', (entry) => {
    expect(filesLoadedBy(entry).length).toBeLessThanOrEqual(NINE.has(entry) ? 9 : 8);
  });

  it('the root entry loads at most 16 files (it re-exports every capability)', () => {
    expect(filesLoadedBy('index.js').length).toBeLessThanOrEqual(16);
  });

  it('follows imports into shared chunks (the count is not vacuous)', () => {
    const loaded = filesLoadedBy('a2a/index.js');
    expect(loaded[0]).toBe('a2a/index.js');
    expect(loaded.some((file) => file.startsWith('chunks/'))).toBe(true);
  });
});
