// Conformance in headless Chromium: the ESM build (unbundled, with an import map) and the IIFE build (a <script> tag),
// each page running the scenarios with the browser's own fetch and streams against the loopback fault server.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium } from './chromium.js';
import { requireDist } from './dist.js';
// @ts-expect-error — plain JavaScript
import { startFaultServer } from './fault-server.mjs';
import { begin, report, type ScenarioResult } from './report.js';
// @ts-expect-error — plain JavaScript shared by every runtime
import { scenarios } from './scenarios.mjs';

requireDist();
requireChromium();

for (const [runtime, page, what] of [
  ['chromium-esm', 'esm.html', 'headless Chromium (Debian): the ESM build through an import map, no bundler'],
  ['chromium-iife', 'iife.html', 'headless Chromium (Debian): the IIFE build in a <script> tag'],
] as const) {
  begin(runtime, what);
  describe(`conformance: ${runtime} (dist in headless Chromium, loopback fault server)`, () => {
    let results: ScenarioResult[] = [];
    let server: { url: string; close: () => Promise<void> };
    let browser: Browser;
    const pageErrors: string[] = [];
    beforeAll(async () => {
      server = await startFaultServer();
      browser = await launchChromium();
      const tab = await browser.newPage();
      tab.on('pageerror', (error) => pageErrors.push(String(error)));
      await tab.goto(`${server.url}/test/conformance/browser/${page}`);
      await tab.waitForFunction(() => (window as unknown as { __results?: unknown }).__results !== undefined, undefined, { timeout: 120_000 });
      results = (await tab.evaluate(() => (window as unknown as { __results: unknown }).__results)) as ScenarioResult[];
      report(runtime, results);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('loads the build without page errors', () => {
      expect(pageErrors).toEqual([]);
      expect(results.map((result) => result.name)).not.toContain('loading');
    });

    for (const scenario of scenarios as Array<{ name: string }>) {
      it(scenario.name, () => {
        const result = results.find((each) => each.name === scenario.name);
        expect(result?.status === 'failed' ? result.error : result?.status).toMatch(/^(passed|skipped)$/);
      });
    }
  });
}
