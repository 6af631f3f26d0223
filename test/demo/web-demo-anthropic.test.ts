// The demo page's Anthropic option in headless Chromium: a visitor's pasted key reaches Anthropic (here a loopback
// fault endpoint on another origin) with the browser header, and is shown, logged and stored nowhere.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireChromium } from '../conformance/chromium.js';
import { requireDist } from '../conformance/dist.js';
import { openDemoPage, runAgent, type DemoPage } from './web-page.js';

requireDist();
requireChromium();

describe('the script-tag demo page (demo/index.html)', () => {
  let demo: DemoPage;
  let page: Page;
  let faults: DemoPage['faults'];
  let server: DemoPage['server'];
  let pageErrors: string[];
  let consoleLines: string[];

  beforeAll(async () => {
    demo = await openDemoPage();
    ({ page, faults, server, pageErrors, consoleLines } = demo);
  }, 60_000);
  afterAll(() => demo?.close());

  describe('the Anthropic option', () => {
    const KEY = 'sk-ant-api03-PASTED-BY-A-VISITOR-0123456789abcdef';
    const visible = (selector: string) => page.isVisible(selector);
    const runTurn = () => runAgent(page);

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
