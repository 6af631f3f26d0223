// Conformance in workerd (Cloudflare's runtime, through miniflare): a Worker importing dist/, with NO nodejs_compat
// flag, runs the scenarios against the loopback fault server with the runtime's own fetch and streams.
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from './bundle.js';
import { COMPATIBILITY_DATE, ROOT, requireDist } from './dist.js';
// @ts-expect-error — plain JavaScript
import { startFaultServer } from './fault-server.mjs';
import { begin, report, type ScenarioResult } from './report.js';
// @ts-expect-error — plain JavaScript shared by every runtime
import { scenarios } from './scenarios.mjs';

requireDist();
begin('workerd', 'workerd (miniflare): a Worker bundling the ESM build, no nodejs_compat, loopback fault server');


describe('conformance: workerd (dist in a Worker, no nodejs_compat, loopback fault server)', () => {
  let results: ScenarioResult[] = [];
  let server: { url: string; close: () => Promise<void> };
  let worker: Miniflare;
  beforeAll(async () => {
    server = await startFaultServer();
    worker = new Miniflare({ modules: true, script: await bundle(join(ROOT, 'test/conformance/workerd/worker.mjs')), compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: [] });
    const response = await worker.dispatchFetch(`http://worker.local/?base=${encodeURIComponent(server.url)}`);
    results = (await response.json()) as ScenarioResult[];
    report('workerd', results);
  }, 180_000);
  afterAll(async () => {
    await worker?.dispose();
    await server?.close();
  });

  for (const scenario of scenarios as Array<{ name: string }>) {
    it(scenario.name, () => {
      const result = results.find((each) => each.name === scenario.name);
      expect(result?.status === 'failed' ? result.error : result?.status).toMatch(/^(passed|skipped)$/);
    });
  }
});
