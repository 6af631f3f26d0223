// The script-tag demo page in headless Chromium: served by `npm run demo:web`'s server, clicked through, and what it
// shows asserted. A screenshot is kept under test/artifacts/ (not committed).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium } from '../conformance/chromium.js';
import { requireDist } from '../conformance/dist.js';
import { ARTIFACTS } from '../conformance/report.js';
// @ts-expect-error — plain JavaScript demo server
import { startDemoServer } from '../../demo/web/serve.mjs';

requireDist();
requireChromium();

describe('the script-tag demo page (demo/index.html)', () => {
  let server: { url: string; close: () => Promise<void> };
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startDemoServer({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(`${server.url}/demo/index.html`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads the SDK from the script tag without errors', async () => {
    expect(await page.evaluate(() => typeof (window as unknown as { Faultline?: object }).Faultline)).toBe('object');
    expect(await page.textContent('#question')).toContain('get_user_profile');
    expect(pageErrors).toEqual([]);
  });

  it('runs the agent on the scripted model and shows a card per tool call with what the model received', async () => {
    await page.click('#run-agent');
    await page.waitForFunction(() => document.querySelector('#answer')?.textContent !== '', undefined, { timeout: 30_000 });
    expect(await page.textContent('#agent-status')).toMatch(/^Finished \(stop\) after 2 model call\(s\)\.$/);
    const cards = await page.$$eval('.card', (nodes) =>
      nodes.map((node) => ({ ok: node.getAttribute('data-ok'), outcome: node.getAttribute('data-outcome'), type: node.querySelector('.error-type')?.textContent ?? null })),
    );
    expect(cards).toEqual([
      { ok: 'true', outcome: 'success', type: null },
      { ok: 'false', outcome: 'invalid_arguments', type: 'InputValidationError' },
      { ok: 'false', outcome: 'invalid_arguments', type: 'InputValidationError' },
      { ok: 'false', outcome: 'failure', type: 'DataNotFoundError' },
      { ok: 'false', outcome: 'failure', type: 'AuthenticationError' },
      { ok: 'false', outcome: 'crash', type: 'ToolInternalError' },
      { ok: 'true', outcome: 'partial', type: 'PartialFailure' },
      { ok: 'false', outcome: 'error_result', type: 'DataNotFoundError' },
      { ok: 'false', outcome: 'timeout', type: 'TimeoutError' },
      { ok: 'false', outcome: 'not_found', type: 'ToolNotFound' },
    ]);
    const crashJSON = await page.textContent('.card[data-outcome="crash"] .model-json');
    expect(JSON.parse(crashJSON ?? '{}')).toMatchObject({ ok: false, error: { type: 'ToolInternalError' } });
    expect(crashJSON).not.toContain('rows');
    expect(await page.textContent('.card[data-outcome="partial"] .retry')).toMatch(/^retried after attempt 1: waited 100 ms \(RateLimitError\)$/);
    const authJSON = await page.textContent('.card:nth-child(5) .model-json');
    expect(authJSON).toContain('[REDACTED]');
    expect(authJSON).not.toContain('sk-demo-expired');
    expect(await page.textContent('#answer')).toContain('Ada Lovelace');
  });

  it('shows the model-level failures: a retry, a fallback, a dropped stream', async () => {
    await page.click('#run-model-failures');
    await page.waitForFunction(() => document.querySelectorAll('#model-results li').length === 3, undefined, { timeout: 30_000 });
    const lines = await page.$$eval('#model-results li', (nodes) => nodes.map((node) => [node.getAttribute('data-result'), node.textContent]));
    expect(lines[0]).toEqual(['ok', expect.stringContaining('“The answer after a retry.” retried after 200 ms')]);
    expect(lines[1]).toEqual(['ok', expect.stringContaining('fell back to backup')]);
    expect(lines[2]).toEqual(['error', expect.stringContaining('terminal StreamError (read_failed)')]);
  });

  it('shows a graph run: the transport error and the execution errors table, the recoverable record kept', async () => {
    await page.selectOption('#graph-scenario', 'fatal_local_node');
    await page.click('#run-graph');
    await page.waitForFunction(() => document.querySelectorAll('#execution-errors tbody tr').length > 0, undefined, { timeout: 30_000 });
    expect(await page.textContent('#transport-error')).toBe(
      'transport error: type=flow_error code=WRITE_FATAL message=execution failed at step 1: node write execution failed: database write failed',
    );
    const rows = await page.$$eval('#execution-errors tbody tr', (nodes) => nodes.map((node) => [...node.querySelectorAll('td')].map((cell) => cell.textContent)));
    expect(rows).toEqual([
      ['recoverable', 'lookup_inventory', '', 'ORDER_INVENTORY_SOFT_TIMEOUT', 'inventory lookup timed out'],
      ['fatal', 'write', '', 'WRITE_FATAL', 'database write failed'],
    ]);
    await page.selectOption('#graph-scenario', 'fatal_child_subgraph');
    await page.click('#run-graph');
    await page.waitForFunction(() => document.querySelector('#execution-errors tbody tr td:nth-child(3)')?.textContent === 'child-error-graph', undefined, { timeout: 30_000 });
    expect(await page.textContent('#transport-error')).toBe('no transport error: the run completed');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'demo-web.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
