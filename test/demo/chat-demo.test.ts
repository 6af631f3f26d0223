// The useChat demo (`npm run demo:chat`, demo/chat/) in headless Chromium: its server started as the script starts it
// (the page bundled with esbuild, the built package behind POST /api/chat, the scripted model), each scenario clicked,
// and what a visitor sees asserted. A screenshot is kept under test/artifacts/ (not committed).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript demo server
import { startChatDemo } from '../../demo/chat/serve.mjs';
// @ts-expect-error — plain JavaScript shared with the demo
import { PLANTED_KEY } from '../../demo/chat/scenarios.mjs';
import { launchChromium, requireChromium } from '../conformance/chromium.js';
import { requireDist } from '../conformance/dist.js';
import { ARTIFACTS } from '../conformance/report.js';

requireDist();
requireChromium();

describe('the useChat demo page (demo/chat/)', () => {
  let server: { url: string; model: string; close: () => Promise<void> };
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  /** Clicks a scenario, waits for its response to start, then for the hook to settle (the status reads ready or error). */
  const run = async (scenario: string) => {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/chat', { timeout: 15_000 });
    await page.click(`button[data-scenario="${scenario}"]`);
    await answered;
    await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#status')?.getAttribute('data-status') ?? ''), undefined, { polling: 50, timeout: 15_000 });
  };
  const cards = () =>
    page.$$eval('[data-part="tool"]', (nodes) =>
      nodes.map((node) => ({
        tool: node.getAttribute('data-tool'),
        state: node.getAttribute('data-state'),
        type: node.querySelector('.fault-type')?.textContent ?? null,
        suggestion: node.querySelector('.fault-suggestion')?.textContent ?? null,
        retries: node.querySelectorAll('.retry').length,
      })),
    );

  beforeAll(async () => {
    server = await startChatDemo({ port: 0, env: {} });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    await page.goto(`${server.url}/`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts offline on the scripted model and lists every scenario', async () => {
    expect(server.model).toBe('scripted');
    await page.waitForSelector('button[data-scenario]');
    expect(await page.$$eval('button[data-scenario]', (nodes) => nodes.map((node) => node.getAttribute('data-scenario')))).toEqual(['success', 'tools', 'provider-error', 'max-iterations', 'slow', 'graph', 'approval']);
  });

  it('shows each failing tool with its type and suggestion, and the retry the 429 waited out', async () => {
    await run('tools');
    const shown = await cards();
    expect(shown.map((card) => [card.tool, card.state, card.type])).toEqual([
      ['get_order', 'output-error', 'DataNotFoundError'],
      ['get_customer', 'output-error', 'AuthenticationError'],
      ['get_stock', 'output-available', null],
      ['get_order', 'output-error', 'APIFailure'],
      ['ship_order', 'output-error', 'ToolInternalError'],
      ['refund_order', 'output-error', 'InputValidationError'],
      ['track_parcel', 'output-error', 'TimeoutError'],
    ]);
    for (const card of shown.filter((each) => each.type !== null)) expect(card.suggestion).toMatch(/\w{3,}/);
    expect(shown.find((card) => card.tool === 'get_stock')?.retries).toBe(1);
    expect(await page.$$eval('.spinner', (nodes) => nodes.length)).toBe(0);
    expect(await page.content()).not.toContain(PLANTED_KEY);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'chat-demo-tools.png'), fullPage: true });
  });

  it('sends a follow-up with the history useChat holds, and the server answers it', async () => {
    await page.fill('#draft', 'Which ones failed?');
    await page.click('#send');
    await page.waitForFunction(() => /Got \d+ messages of history\./.test(document.querySelector('.message.assistant:last-of-type')?.textContent ?? ''), undefined, { polling: 50, timeout: 15_000 });
    expect(await page.getAttribute('#status', 'data-status')).toBe('ready');
  });

  it('shows a provider failing mid-answer as a typed run error, the partial text kept and closed', async () => {
    await run('provider-error');
    expect(await page.getAttribute('#status', 'data-status')).toBe('error');
    expect(await page.textContent('#error')).toMatch(/overloaded/);
    expect(await page.$$eval('[data-part="run-error"] .fault-type', (nodes) => nodes.map((node) => node.textContent))).toHaveLength(1);
    expect(await page.$$eval('.message.assistant [data-part="text"]', (nodes) => nodes.map((node) => [node.textContent, node.getAttribute('data-state')]))).toEqual([['The first part of the answer', 'done']]);
  });

  it("shows a graph run's recoverable and fatal records", async () => {
    await run('graph');
    expect(await page.$$eval('.record', (rows) => rows.map((row) => [row.getAttribute('data-severity'), row.getAttribute('data-node'), row.querySelector('.record-code')?.textContent]))).toEqual([
      ['recoverable', 'lookup', 'SOFT_TIMEOUT'],
      ['fatal', 'write', 'WRITE_FATAL'],
    ]);
  });

  it('stops a slow answer at once, leaving no spinner', async () => {
    await page.click('button[data-scenario="slow"]');
    await page.waitForFunction(() => (document.querySelector('.message.assistant [data-part="text"]')?.textContent ?? '').includes('word3 '), undefined, { polling: 20, timeout: 10_000 });
    await page.click('#stop');
    await page.waitForFunction(() => document.querySelector('#status')?.getAttribute('data-status') === 'ready', undefined, { polling: 50, timeout: 5_000 });
    expect(await page.$$eval('.spinner', (nodes) => nodes.length)).toBe(0);
  });

  it('asks for an approval on the refund card; Deny with a reason shows it denied, Approve runs it and shows its output', async () => {
    const card = () => page.$eval('[data-part="tool"]', (node) => ({ state: node.getAttribute('data-state'), answer: node.querySelector('.approval-answer')?.textContent ?? null, output: node.querySelector('.output')?.textContent ?? null }));
    const answered = async (click: () => Promise<void>) => {
      const response = page.waitForResponse((each) => new URL(each.url()).pathname === '/api/chat', { timeout: 15_000 });
      await click();
      await response;
      await page.waitForFunction(() => !document.querySelector('[data-part="tool"]')?.getAttribute('data-state')?.startsWith('approval-') && document.querySelector('#status')?.getAttribute('data-status') === 'ready', undefined, { polling: 50, timeout: 15_000 });
    };
    await run('approval');
    expect(await card()).toEqual({ state: 'approval-requested', answer: null, output: null });
    expect(await page.$$eval('[data-answer]', (nodes) => nodes.map((node) => node.textContent))).toEqual(['Approve', 'Deny']);
    await page.fill('.approval-reason', 'Not this one');
    await answered(() => page.click('[data-answer="deny"]'));
    expect(await card()).toEqual({ state: 'output-denied', answer: 'Denied: Not this one', output: null });
    expect(await page.$$eval('.message.assistant [data-part="text"]', (nodes) => nodes.map((node) => node.textContent)).then((texts) => texts.at(-1))).toBe('I did not refund order A-1: you declined.');
    await run('approval');
    await answered(() => page.click('[data-answer="approve"]'));
    expect(await card()).toEqual({ state: 'output-available', answer: null, output: 'output: {"ok":true,"data":{"order_id":"A-1","refunded":30}}' });
    expect(await page.$$eval('.message.assistant [data-part="text"]', (nodes) => nodes.map((node) => node.textContent)).then((texts) => texts.at(-1))).toBe('Refunded 30 on order A-1.');
    expect(await page.$$eval('[data-part="run-error"], #error', (nodes) => nodes.length)).toBe(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'chat-demo-approval.png'), fullPage: true });
  });

  it('raised no page error', () => {
    expect(pageErrors).toEqual([]);
  });
});
