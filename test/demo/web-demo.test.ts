// The script-tag demo page in headless Chromium: served by `npm run demo:web`'s server, clicked through, and what it
// shows asserted — what a visitor sees (visibility, text, layout), not only the DOM. The product-page parts (code,
// developer side, graph drawing, screenshots) are in web-demo-product.test.ts, the Anthropic option in
// web-demo-anthropic.test.ts.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireChromium } from '../conformance/chromium.js';
import { requireDist } from '../conformance/dist.js';
import { openDemoPage, runGraph as runGraphOn, type DemoPage } from './web-page.js';

requireDist();
requireChromium();

describe('the script-tag demo page (demo/index.html)', () => {
  let demo: DemoPage;
  let page: Page;
  let server: DemoPage['server'];
  let pageErrors: string[];
  const runGraph = (scenario: string) => runGraphOn(page, scenario);

  beforeAll(async () => {
    demo = await openDemoPage();
    ({ page, server, pageErrors } = demo);
  }, 60_000);
  afterAll(() => demo?.close());

  it('loads the SDK from the script tag without errors', async () => {
    expect(await page.evaluate(() => typeof (window as unknown as { Faultline?: object }).Faultline)).toBe('object');
    expect(await page.textContent('#question')).toContain('get_user_profile');
    expect(pageErrors).toEqual([]);
  });

  it('runs the agent on the scripted model and shows a card per tool call with what the model received', async () => {
    await page.click('#run-agent');
    await page.waitForFunction(() => /^(Finished|The run failed)/.test(document.querySelector('#agent-status')?.textContent ?? ''), undefined, { timeout: 30_000 });
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
    expect(await page.textContent('.card:nth-child(5) .error-type')).toBe('AuthenticationError');
    expect(authJSON).toContain('[REDACTED]');
    expect(authJSON).not.toContain('sk-demo-expired');
    expect(await page.textContent('#answer')).toContain('Ada Lovelace');
  });

  it('shows each turn as its own block, saying who spoke, with no text running into the next turn', async () => {
    // What a visitor reads: the first turn's text and the answer never run together ('…look that up.Ada…').
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/look that up\.\s*Ada/);
    expect(await page.innerText('#transcript')).not.toMatch(/[a-z]\.[A-Z]/);
    const turns = await page.$$eval('#transcript > .turn', (nodes) =>
      nodes.map((node) => ({
        speaker: node.querySelector('.speaker')?.textContent,
        meta: node.querySelector('.turn-meta')?.textContent,
        text: node.querySelector(':scope > .turn-text')?.textContent,
        cards: node.querySelectorAll('.card').length,
      })),
    );
    expect(turns).toEqual([
      { speaker: 'User', meta: 'the question', text: expect.stringContaining('get_user_profile'), cards: 0 },
      { speaker: 'Model', meta: 'model call 1', text: 'Let me look that up.', cards: 10 },
      { speaker: 'Model', meta: 'model call 2 · final answer', text: expect.stringMatching(/^Ada Lovelace \(pro plan\)\./), cards: 0 },
    ]);
    // Separate blocks on screen, one under the other, each with its speaker visible.
    const boxes = await page.$$eval('#transcript > .turn', (nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as DOMRect));
    for (let index = 1; index < boxes.length; index++) expect(boxes[index]!.top).toBeGreaterThanOrEqual(boxes[index - 1]!.bottom);
    for (const speaker of await page.$$('#transcript .speaker')) expect(await speaker.isVisible()).toBe(true);
    expect(await page.innerText('#transcript')).toMatch(/Let me look that up\.\n[^]*\nAda Lovelace/);
    expect(await page.textContent('#answer')).toMatch(/^Ada Lovelace \(pro plan\)\..*Search timed out\.$/);
  });

  it('shows what the model receives as pretty-printed JSON, the first open, the others collapsed to one line until opened, then whole and never clipped', async () => {
    const clippedPayloads = () =>
      page.$$eval('.model-json', (nodes) =>
        nodes.filter((node) => node.checkVisibility() && (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1)).map((node) => node.closest('.card')?.getAttribute('data-outcome')),
      );
    expect(await clippedPayloads()).toEqual([]); // a payload is either collapsed or shown whole: never in a box that cuts it
    const collapsed = await page.$$eval('.card', (cards) =>
      cards.map((card) => {
        const details = card.querySelector('details.json.model') as HTMLDetailsElement | null;
        const summary = details?.querySelector('summary');
        const pre = details?.querySelector('pre.model-json') as HTMLElement | null;
        const lineHeight = summary ? parseFloat(getComputedStyle(summary).lineHeight) : 0;
        return { open: details?.open, summary: summary?.innerText, summaryLines: summary ? Math.round(summary.querySelector('.json-title')!.getBoundingClientRect().height / lineHeight) : 0, oneRow: summary ? summary.querySelector('.json-peek')!.getBoundingClientRect().top < summary.querySelector('.json-title')!.getBoundingClientRect().bottom : false, preShown: pre ? pre.checkVisibility() : null };
      }),
    );
    expect(collapsed).toHaveLength(10);
    expect(collapsed.map((card) => card.open)).toEqual([true, ...Array(9).fill(false)]); // the first payload is shown whole
    expect(collapsed[0]?.preShown).toBe(true);
    for (const card of collapsed) {
      expect(card).toMatchObject({ summaryLines: 1, oneRow: true, preShown: card.open });
      expect(card.summary).toMatch(/^Model receives\s*\d+ lines of JSON$/);
    }
    for (const summary of await page.$$('.card details.json.model:not([open]) > summary')) await summary.click();
    expect(await clippedPayloads()).toEqual([]);
    const opened = await page.$$eval('.card pre.model-json', (nodes) =>
      nodes.map((pre) => {
        const clipped: string[] = [];
        for (let node: HTMLElement | null = pre as HTMLElement; node && node !== document.body; node = node.parentElement) {
          const style = getComputedStyle(node);
          if (node.scrollWidth > node.clientWidth + 1 && style.overflowX !== 'visible') clipped.push(`${node.tagName}.${node.className} x`);
          if (node.scrollHeight > node.clientHeight + 1 && style.overflowY !== 'visible') clipped.push(`${node.tagName}.${node.className} y`);
          if (style.maxHeight !== 'none') clipped.push(`${node.tagName}.${node.className} max-height`);
        }
        const box = pre.getBoundingClientRect();
        const card = pre.closest('.card')!.getBoundingClientRect();
        return { text: (pre as HTMLElement).innerText, textContent: pre.textContent, clipped, fits: box.right <= card.right + 0.5 && box.bottom <= card.bottom + 0.5, wraps: getComputedStyle(pre).whiteSpace };
      }),
    );
    expect(opened).toHaveLength(10);
    for (const json of opened) {
      expect(json.clipped).toEqual([]);
      expect(json.fits).toBe(true);
      expect(json.wraps).toBe('pre-wrap');
      expect(json.text).toBe(json.textContent); // all of it is shown, nothing hidden behind a scroll or a cut
      expect(json.text).toBe(JSON.stringify(JSON.parse(json.text), null, 2));
    }
    // The end of the longest payload, cut off in a fixed-height box before, is now on screen.
    const notFound = page.locator('.card[data-outcome="not_found"] pre.model-json');
    expect(JSON.parse(await notFound.innerText())).toMatchObject({ error: { type: 'ToolNotFound', context: { closest: 'get_weather' } } });
    await notFound.scrollIntoViewIfNeeded();
    expect(await notFound.isVisible()).toBe(true);
    await page.click('#toggle-json'); // the toolbar control opens and closes them all
    expect(await page.$$eval('.card details.json', (nodes) => nodes.every((node) => (node as HTMLDetailsElement).open))).toBe(true);
    expect(await page.textContent('#toggle-json')).toBe('Collapse all JSON');
    await page.click('#toggle-json');
    expect(await page.$$eval('.card details.json', (nodes) => nodes.every((node) => !(node as HTMLDetailsElement).open))).toBe(true);
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
      'transport error: type=flow_error code=WRITE_FATAL message=node write failed at step 1: database write failed',
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
    expect(pageErrors).toEqual([]);
  });

  it('says under a fatal child record of a run that completed that the parent recovered, and only there', async () => {
    const note = page.locator('#execution-errors tr[data-note="parent-recovered"]');
    await runGraph('fatal_child_subgraph');
    expect(await page.innerText('#graph')).toContain(
      '↳ The parent recovered: this fatal error stopped the child graph “child-error-graph” only; the parent graph received it as a record and completed the run.',
    );
    expect(await note.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.querySelector('#graph-verdict')?.textContent)).toBe('run completed');
    // It follows the fatal record it explains.
    expect(await page.$$eval('#execution-errors tbody tr', (rows) => rows.map((row) => row.getAttribute('data-severity') ?? row.getAttribute('data-note')))).toEqual(['fatal', 'parent-recovered']);
    const state = page.locator('#graph-state');
    expect(await state.isVisible()).toBe(true);
    await state.locator('summary').click();
    expect(JSON.parse(await state.locator('pre').innerText())).toMatchObject({ note: 'parent received child error child agent database write failed' });
    await state.locator('summary').click();

    await runGraph('fatal_local_node');
    expect(await note.count()).toBe(0); // a fatal local node ended the run: nobody recovered
    expect(await page.innerText('#graph')).not.toMatch(/parent recovered/i);
    expect(await page.evaluate(() => document.querySelector('#graph-verdict')?.textContent)).toBe('run failed');
  });

  it('has a legend entry, with the same badge, for every badge the page shows', async () => {
    const legendFor = () =>
      page.$$eval('.badge', (nodes) =>
        nodes
          .filter((node) => !node.closest('#legend') && (node as HTMLElement).offsetParent !== null)
          .map((node) => {
            const key = node.getAttribute('data-key') ?? '';
            const entry = document.querySelector(`#legend .legend-item[data-key="${CSS.escape(key)}"]`) as HTMLElement | null;
            const sample = entry?.querySelector('.badge');
            return {
              badge: `${node.className} ${node.textContent}`,
              key,
              entry: entry !== null && entry.offsetParent !== null,
              sameClass: sample?.className === node.className,
              sameLabel: !key.includes(':') || sample?.textContent === node.textContent,
              explained: (entry?.querySelector('dd')?.textContent ?? '').length > 10,
            };
          }),
      );
    const shown = [...(await legendFor())];
    expect(shown.length).toBeGreaterThan(20);
    for (const badge of shown) expect(badge, badge.badge).toMatchObject({ entry: true, sameClass: true, sameLabel: true, explained: true });
    for (const scenario of ['recoverable', 'fatal_local_node', 'fatal_child_subgraph']) {
      await runGraph(scenario);
      shown.push(...(await legendFor()));
    }
    const kinds = new Set(shown.map((badge) => badge.key));
    // Every kind of badge the page uses is among them: outcomes, attempts, error types, model results, severities, runs.
    for (const key of ['outcome:success', 'outcome:crash', 'attempts', 'error-type:ToolNotFound', 'result:recovered', 'result:terminal', 'severity:recoverable', 'severity:fatal', 'run:completed', 'run:failed']) expect(kinds, key).toContain(key);
    for (const badge of shown) expect(badge, badge.badge).toMatchObject({ entry: true, sameClass: true, sameLabel: true, explained: true });
    expect(await page.isVisible('#legend')).toBe(true);
    expect(await page.textContent('#legend h2')).toBe('Reading the badges');
  });

  it('looks like a product page: a header saying what the page shows, readable text, no horizontal scroll down to 375 px', async () => {
    const noHorizontalScroll = () => page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
    await page.setViewportSize({ width: 375, height: 812 });
    const first = await noHorizontalScroll();
    await page.setViewportSize({ width: 1100, height: 900 });
    expect(first.scrollWidth).toBeLessThanOrEqual(first.innerWidth);
    expect(await page.textContent('header h1')).toBe('Every failure, in the layer that should handle it');
    expect(await page.innerText('header .lede')).toMatch(/runs it here, in your browser/);
    expect(await page.$$eval('header .toc a', (links) => links.map((link) => [link.getAttribute('href'), (link as HTMLElement).innerText.replace(/\s+/g, ' ').trim()]))).toEqual([
      ['#agent', '1 Tool failures, as the model sees them'],
      ['#model-failures', '2 Model calls that fail and recover'],
      ['#graph', "3 A graph run's execution errors"],
    ]);
    const typography = await page.evaluate(() => {
      const body = getComputedStyle(document.body);
      return { size: parseFloat(body.fontSize), lineHeight: parseFloat(body.lineHeight) / parseFloat(body.fontSize), width: document.querySelector('main')!.getBoundingClientRect().width };
    });
    expect(typography.size).toBeGreaterThanOrEqual(15);
    expect(typography.lineHeight).toBeGreaterThanOrEqual(1.4);
    expect(typography.width).toBeLessThanOrEqual(1080);
    // Nothing on the page comes from another origin: it works offline.
    const origins = await page.evaluate(() => [...document.querySelectorAll('link[href], script[src], img[src]')].map((node) => new URL((node as HTMLLinkElement).href || (node as HTMLScriptElement).src, location.href).origin));
    for (const origin of origins) expect(['null', new URL(server.url).origin]).toContain(origin);
    expect(await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).origin).filter((origin) => origin !== location.origin))).toEqual([]);

    await page.setViewportSize({ width: 375, height: 812 });
    try {
      const narrow = await noHorizontalScroll();
      expect(narrow.scrollWidth).toBeLessThanOrEqual(narrow.innerWidth);
      await page.click('#toggle-json'); // every payload open, and the endpoint fields shown: still no sideways scroll
      await page.selectOption('#model-source', 'anthropic');
      const opened = await noHorizontalScroll();
      expect(opened.scrollWidth).toBeLessThanOrEqual(opened.innerWidth);
      await page.selectOption('#model-source', 'real');
      const real = await noHorizontalScroll();
      expect(real.scrollWidth).toBeLessThanOrEqual(real.innerWidth);
      // The table becomes one block per record, each cell labelled.
      expect(await page.isVisible('#execution-errors thead')).toBe(false);
      expect(await page.$eval('#execution-errors td[data-label="code"]', (cell) => getComputedStyle(cell, '::before').content)).toBe('"code"');
      await page.selectOption('#model-source', 'scripted');
      await page.click('#toggle-json');
    } finally {
      await page.setViewportSize({ width: 1100, height: 900 });
    }
    expect(pageErrors).toEqual([]);
  });
});
