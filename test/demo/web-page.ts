// The demo page opened in headless Chromium for a test file: the page's own server (`npm run demo:web`'s), a second
// loopback origin (the fault server, for the Anthropic option), the page, and what it logged or threw.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../conformance/chromium.js';
// @ts-expect-error — plain JavaScript demo server
import { startDemoServer } from '../../demo/web/serve.mjs';
// @ts-expect-error — plain JavaScript
import { startFaultServer } from '../conformance/fault-server.mjs';

export interface DemoPage {
  server: { url: string; close: () => Promise<void> };
  faults: { url: string; close: () => Promise<void> };
  browser: Browser;
  page: Page;
  pageErrors: string[];
  consoleLines: string[];
  close(): Promise<void>;
}

/** Serves the demo and opens demo/index.html at the given viewport. */
export async function openDemoPage(viewport = { width: 1100, height: 900 }): Promise<DemoPage> {
  const server = await startDemoServer({ port: 0 });
  const faults = await startFaultServer();
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  const pageErrors: string[] = [];
  const consoleLines: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => consoleLines.push(message.text()));
  await page.goto(`${server.url}/demo/index.html`);
  return {
    server, faults, browser, page, pageErrors, consoleLines,
    async close() {
      await browser.close();
      await server.close();
      await faults.close();
    },
  };
}

/** Runs the agent (whatever model is chosen) and waits for its status line to say it ended. */
export async function runAgent(page: Page): Promise<void> {
  await page.click('#run-agent');
  await page.waitForFunction(() => /^(Finished|The run failed)/.test(document.querySelector('#agent-status')?.textContent ?? ''), undefined, { timeout: 30_000 });
}

/** Runs a graph scenario and waits for its records (every scenario has at least one). */
export async function runGraph(page: Page, scenario: string): Promise<void> {
  await page.selectOption('#graph-scenario', scenario);
  await page.$eval('#execution-errors tbody', (body) => body.replaceChildren());
  await page.click('#run-graph');
  await page.waitForFunction(() => document.querySelectorAll('#execution-errors tbody tr').length > 0, undefined, { timeout: 30_000 });
}
