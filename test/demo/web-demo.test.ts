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
// @ts-expect-error — plain JavaScript
import { startFaultServer } from '../conformance/fault-server.mjs';

requireDist();
requireChromium();

describe('the script-tag demo page (demo/index.html)', () => {
  let server: { url: string; close: () => Promise<void> };
  let faults: { url: string; close: () => Promise<void> };
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const consoleLines: string[] = [];

  beforeAll(async () => {
    server = await startDemoServer({ port: 0 });
    faults = await startFaultServer(); // another loopback origin: the Anthropic fault endpoint, reached with CORS
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.goto(`${server.url}/demo/index.html`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await faults?.close();
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

  describe('the Anthropic option', () => {
    const KEY = 'sk-ant-api03-PASTED-BY-A-VISITOR-0123456789abcdef';
    const visible = (selector: string) => page.isVisible(selector);
    const runTurn = async () => {
      await page.click('#run-agent');
      await page.waitForFunction(() => /^(Finished|The run failed)/.test(document.querySelector('#agent-status')?.textContent ?? ''), undefined, { timeout: 30_000 });
    };

    it('is offered next to the OpenAI-compatible one; choosing it shows the key and model fields and hides the endpoint fields', async () => {
      const options = await page.$$eval('#model-source option', (nodes) => nodes.map((node) => [node.getAttribute('value'), node.textContent]));
      expect(options).toEqual([
        ['scripted', 'Built-in scripted model (offline)'],
        ['real', 'A real OpenAI-compatible endpoint'],
        ['anthropic', 'Anthropic (paste a key)'],
      ]);
      expect(await page.inputValue('#model-source')).toBe('scripted');
      for (const field of ['#base-url', '#model-name', '#api-key', '#anthropic-key', '#anthropic-model', '#anthropic-base-url']) expect(await visible(field), field).toBe(false);

      await page.selectOption('#model-source', 'real');
      expect([await visible('#base-url'), await visible('#model-name'), await visible('#api-key')]).toEqual([true, true, true]);
      expect([await visible('#anthropic-key'), await visible('#anthropic-model')]).toEqual([false, false]);

      await page.selectOption('#model-source', 'anthropic');
      expect([await visible('#anthropic-key'), await visible('#anthropic-model'), await visible('#anthropic-base-url')]).toEqual([true, true, true]);
      expect([await visible('#base-url'), await visible('#model-name'), await visible('#api-key')]).toEqual([false, false, false]);
      expect(await page.getAttribute('#anthropic-key', 'type')).toBe('password');
      expect(await page.inputValue('#anthropic-model')).toBe('claude-sonnet-4-5');
      expect(await page.textContent('#anthropic-fields')).toContain('anthropic-dangerous-direct-browser-access: true');
    });

    it('asks for a key before calling anything', async () => {
      await page.selectOption('#model-source', 'anthropic');
      await page.fill('#anthropic-key', '');
      await runTurn();
      expect(await page.textContent('#agent-status')).toBe('The run failed: Error: Paste an Anthropic API key to use Claude.');
    });

    it('runs a turn on Anthropic from the page (cross-origin, loopback fault endpoint): the browser header and the key sent, the key shown nowhere', async () => {
      const sent: Array<{ headers: Record<string, string>; body: Record<string, unknown> }> = [];
      const watch = (request: import('playwright-core').Request) => {
        if (request.method() === 'POST' && request.url().endsWith('/v1/messages')) sent.push({ headers: request.headers(), body: request.postDataJSON() as Record<string, unknown> });
      };
      page.on('request', watch);
      await page.selectOption('#model-source', 'anthropic');
      await page.fill('#anthropic-key', KEY);
      await page.fill('#anthropic-base-url', `${faults.url}/anthropic/ok/web-demo-turn`);
      await runTurn();
      page.off('request', watch);
      expect(await page.textContent('#agent-status')).toBe('Finished (stop) after 1 model call(s).');
      expect(await page.textContent('#answer')).toBe('Hello from the Anthropic fault server.');
      expect(new URL(faults.url).origin).not.toBe(new URL(server.url).origin);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-dangerous-direct-browser-access': 'true', 'anthropic-version': '2023-06-01' });
      expect(sent[0]?.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true });
      expect((sent[0]?.body.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('get_user_profile');
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(KEY);
      expect(consoleLines.filter((line) => line.includes(KEY))).toEqual([]);
      expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
    });

    it('shows an overloaded_error mid-stream as the run failure, keeping the text already streamed and no key', async () => {
      await page.selectOption('#model-source', 'anthropic');
      await page.fill('#anthropic-key', KEY);
      await page.fill('#anthropic-base-url', `${faults.url}/anthropic/overloaded-mid-stream/web-demo-overloaded`);
      await runTurn();
      expect(await page.textContent('#agent-status')).toMatch(/^The run failed: StreamError: .*overloaded_error/);
      expect(await page.textContent('#answer')).toBe('The first part of the answer');
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(KEY);
      expect(consoleLines.filter((line) => line.includes(KEY))).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.selectOption('#model-source', 'scripted');
      expect(await visible('#anthropic-key')).toBe(false);
    });
  });
});
