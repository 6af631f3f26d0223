// Shard 2 of the per-export check in compare.ts: each public export alone keeps no more under esbuild than rollup.
import { expect, it } from 'vitest';
import { overRollup, publicExports, SHARDS, shardOf } from './compare.js';

it(`each public export imported alone keeps no more under esbuild than under rollup (shard 2 of ${SHARDS})`, async () => {
  const all = await publicExports();
  expect(all.size).toBeGreaterThan(200);
  const shard = shardOf(all, 1);
  expect(shard.length).toBeGreaterThan(all.size / SHARDS - 1);
  expect(await overRollup(shard)).toEqual({});
}, 300_000);
