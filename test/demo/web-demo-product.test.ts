// The demo page as a product page, in headless Chromium: what faultline is and how to get it, each tool card's code
// beside what the model receives and what the developer log got, the graph drawn from the run, and screenshots at
// desktop (1280 px) and mobile (390 px) width under test/artifacts/ (not committed).
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireChromium } from '../conformance/chromium.js';
import { DIST, requireDist } from '../conformance/dist.js';
import { ARTIFACTS } from '../conformance/report.js';
// @ts-expect-error — plain JavaScript
import { createDemoTools, createScriptedModel, DEMO_QUESTION } from '../../demo/scenario.mjs';
// @ts-expect-error — plain JavaScript
import { SNIPPET_SOURCE, SNIPPETS, snippetFor } from '../../demo/web/snippets.mjs';
import { openDemoPage, runAgent, runGraph, type DemoPage } from './web-page.js';

requireDist();
requireChromium();

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
type Snippet = { id: string; key: string; lines: string[] };

/** The same scenario run in Node: what the model really received for each call, in call order. */
async function modelContents(): Promise<Array<{ toolName: string; outcome: string; content: string }>> {
  // The built package, as the page loads it (typed by the sources it is built from; dist/ exists only after a build).
  const F = (await import(join(DIST, 'index.js'))) as typeof import('../../src/index.js');
  const agent = new F.AgentBuilder('web-demo').chatClient(createScriptedModel(F)).tools(createDemoTools(F)).maxIterations(4).toolLogger(false).build();
  const results = new Map<string, { toolName: string; outcome: string; content: string }>();
  const order: string[] = [];
  for await (const item of agent.run(DEMO_QUESTION)) {
    if (item.type === 'tool-call') order.push(item.call.id);
    if (item.type === 'tool-result') results.set(item.callId, { toolName: item.toolName, outcome: item.outcome, content: item.content });
  }
  return order.map((id) => results.get(id)!);
}

describe('the demo page as a product page', () => {
  let demo: DemoPage;
  let page: Page;

  beforeAll(async () => {
    demo = await openDemoPage({ width: 1280, height: 900 });
    page = demo.page;
    await runAgent(page);
  }, 60_000);
  afterAll(() => demo?.close());

  it('says what faultline is, how to install it (the README line) and where the docs are (links that resolve)', async () => {
    expect((await page.innerText('header .what')).replace(/\s+/g, ' ')).toBe(
      'faultline is a TypeScript SDK for LLM agents whose failures land in the right layer: the model gets a typed, structured result it can act on; the developer gets the details.',
    );
    const install = await page.textContent('#install-line');
    expect(install).toBe('npm install ../faultline/faultline-0.1.0.tgz zod');
    expect(read('README.md')).toContain(install); // the README's tarball line, not a line of its own
    const links = await page.$$eval('header .docs a', (nodes) => nodes.map((node) => ({ href: node.getAttribute('href')!, url: (node as HTMLAnchorElement).href })));
    expect(links.map(({ href }) => href)).toEqual(['../README.md', '../docs/tools.md', '../docs/agent.md', '../docs/graph.md', '../docs/errors.md', '../docs/errors/README.md']);
    for (const { href, url } of links) {
      const served = await page.evaluate(async (target) => {
        const response = await fetch(target);
        return { status: response.status, text: await response.text() };
      }, url);
      expect(served.status, href).toBe(200);
      expect(served.text).toBe(read(href.replace('../', '')));
    }
  });

  it('opens the first card’s payload, and every payload is the JSON the model received', async () => {
    const expected = await modelContents();
    const shown = await page.$$eval('.card', (cards) =>
      cards.map((card) => ({ open: (card.querySelector('details.json.model') as HTMLDetailsElement).open, visible: (card.querySelector('pre.model-json') as HTMLElement).checkVisibility(), json: card.querySelector('pre.model-json')!.textContent! })),
    );
    expect(shown).toHaveLength(10);
    expect(shown[0]).toMatchObject({ open: true, visible: true });
    expect(shown.slice(1).every((card) => !card.open)).toBe(true);
    expect(JSON.parse(shown[0]!.json)).toEqual({ ok: true, data: { id: 42, name: 'Ada Lovelace', plan: 'pro' } });
    // Chromium's JSON.parse says where a parse failed in more words than Node's: the one runtime-made difference.
    const same = (json: string) => JSON.parse(json.replace(/ \(line \d+ column \d+\)/g, ''));
    expect(shown.map((card) => same(card.json))).toEqual(expected.map((result) => same(result.content)));
  });

  it('shows beside every card the code that produced it: real lines of the scenario, its key call among them', async () => {
    const source = read(SNIPPET_SOURCE).split('\n').map((line) => line.trim());
    for (const snippet of SNIPPETS as Snippet[]) {
      for (const line of snippet.lines) if (line !== '…') expect(source, `${snippet.id}: ${line}`).toContain(line);
      expect(snippet.lines.some((line) => line.includes(snippet.key)), snippet.id).toBe(true);
      expect(source.some((line) => line.includes(snippet.key)), snippet.id).toBe(true);
    }
    const expected = await modelContents();
    const cards = await page.$$eval('.card', (nodes) => nodes.map((card) => ({ id: card.querySelector('figure.code')?.getAttribute('data-snippet'), code: card.querySelector('pre.code-text')?.textContent })));
    const chosen = expected.map((result) => snippetFor({ ...result, result: JSON.parse(result.content) }) as Snippet);
    expect(cards.map((card) => card.id)).toEqual(['profile-success', 'profile-schema', 'profile-schema', 'profile-not-found', 'profile-auth', 'profile-crash', 'weather-partial', 'weather-error-result', 'search-timeout', 'unknown-tool']);
    expect(cards).toEqual(chosen.map((snippet) => ({ id: snippet.id, code: snippet.lines.join('\n') })));
  });

  it('shows beside what the model receives what the developer log got: the real error, its stack, redacted arguments', async () => {
    const dev = await page.$$eval('.card', (cards) =>
      cards.map((card) => {
        const model = card.querySelector('details.json.model')!.getBoundingClientRect();
        const panel = card.querySelector('details.json.dev')!;
        return { outcome: card.getAttribute('data-outcome'), sideBySide: Math.abs(panel.getBoundingClientRect().top - model.top) < 1 && panel.getBoundingClientRect().left > model.right, title: panel.querySelector('.json-title')?.textContent, json: JSON.parse(panel.querySelector('pre.dev-json')!.textContent!) };
      }),
    );
    expect(dev).toHaveLength(10);
    for (const card of dev) expect(card).toMatchObject({ sideBySide: true, title: 'Developer log', json: { records: expect.any(Array), durationMs: expect.any(Number) } });
    const of = (outcome: string) => dev.find((card) => card.outcome === outcome)!.json;
    expect(of('success').records).toEqual([]);
    expect(await page.textContent('.card[data-outcome="error_result"] details.dev .json-peek')).toBe('no records: the tool returned this error result itself');
    const crash = of('crash');
    expect(crash.records).toEqual([expect.objectContaining({ level: 'error', event: 'tool.crash', arguments: { user_id: 500 }, error: expect.objectContaining({ name: 'TypeError', message: "Cannot read properties of undefined (reading 'rows')" }) })]);
    expect(crash.records[0].error.stack[0]).toMatch(/^at .*scenario\.mjs:\d+:\d+/); // where it was thrown: the model never sees this
    expect(crash.failure).toMatchObject({ name: 'TypeError' });
    const auth = dev[4]!.json;
    expect(auth.records[0]).toMatchObject({ event: 'tool.failure', arguments: { user_id: 401 }, error: { name: 'AuthenticationError' } });
    expect(JSON.stringify(auth)).toContain('[REDACTED]');
    expect(JSON.stringify(dev)).not.toContain('sk-demo-expired-key');
    expect(of('timeout').records).toEqual([
      expect.objectContaining({ event: 'tool.timeout', arguments: { query: 'faultline' } }),
      expect.objectContaining({ event: 'tool.failure', error: expect.objectContaining({ name: 'TimeoutError', stack: expect.any(Array) }) }),
    ]);
    expect(of('partial').records.map((record: { event: string }) => record.event)).toContain('tool.retry');
    expect(of('not_found').records).toEqual([expect.objectContaining({ event: 'tool.not_found' })]);
  });

  it('draws the graph that ran, its failed nodes marked as the run’s records say', async () => {
    const drawn = () =>
      page.$$eval('#graph-drawing svg .graph-node', (nodes) => Object.fromEntries(nodes.map((node) => [node.getAttribute('data-node'), node.getAttribute('data-status')])));
    const edges = () => page.$$eval('#graph-drawing svg .graph-edge', (lines) => lines.map((line) => line.getAttribute('data-edge')).sort());
    const records = () => page.$$eval('#execution-errors tbody tr[data-severity]', (rows) => rows.map((row) => [row.querySelector('[data-label="path"]')!.textContent || row.querySelector('[data-label="node"]')!.textContent, row.getAttribute('data-severity')]));
    await runGraph(page, 'recoverable');
    expect(await drawn()).toEqual({ __start__: 'none', lookup_inventory: 'recoverable', finalize: 'none', __end__: 'none' });
    expect(await edges()).toEqual(['__start__->lookup_inventory', 'finalize->__end__', 'lookup_inventory->finalize']);
    for (const [node, severity] of await records()) expect((await drawn())[node!]).toBe(severity);
    await runGraph(page, 'fatal_local_node');
    expect(await drawn()).toEqual({ __start__: 'none', lookup_inventory: 'recoverable', write: 'fatal', __end__: 'none' });
    for (const [node, severity] of await records()) expect((await drawn())[node!]).toBe(severity);
    await runGraph(page, 'fatal_child_subgraph');
    expect(await drawn()).toEqual({ __start__: 'none', 'child-error-graph': 'fatal', parent_finalize: 'none', __end__: 'none' });
    expect(await page.textContent('#graph-drawing [data-node="child-error-graph"] .graph-status')).toBe('fatal in child_write');
    expect(await page.getAttribute('#graph-drawing svg', 'aria-label')).toBe('Graph fatal_child_subgraph: 2 nodes; child-error-graph fatal in child_write');
    expect(await page.isVisible('#graph-drawing svg')).toBe(true);
  });

  it('has ToolExecutionFailed, the generic model-facing type, in its legend', async () => {
    expect(await page.isVisible('#legend [data-key="error-type:ToolExecutionFailed"] .badge')).toBe(true);
    expect(await page.innerText('#legend')).not.toMatch(/\bToolError\b/);
  });

  it('reads at 1280 px and at 390 px: screenshots saved, nothing wider than the screen at 390', async () => {
    await page.click('#run-model-failures'); // every section filled in, the graph with both kinds of failed node
    await page.waitForFunction(() => document.querySelectorAll('#model-results li').length === 3, undefined, { timeout: 30_000 });
    await runGraph(page, 'fatal_local_node');
    mkdirSync(ARTIFACTS, { recursive: true });
    const desktop = join(ARTIFACTS, 'demo-web-1280.png');
    const mobile = join(ARTIFACTS, 'demo-web-390.png');
    await page.screenshot({ path: desktop, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.waitForFunction(() => (document.querySelector('#graph-drawing svg')?.getBoundingClientRect().height ?? 0) > (document.querySelector('#graph-drawing svg')?.getBoundingClientRect().width ?? 0));
      const width = () => page.evaluate(() => document.scrollingElement!.scrollWidth);
      expect(await width()).toBeLessThanOrEqual(390);
      await page.screenshot({ path: mobile, fullPage: true });
      await page.click('#toggle-json'); // every payload and developer log open: still nothing wider than the screen
      expect(await width()).toBeLessThanOrEqual(390);
      const overflowing = await page.$$eval('main *', (nodes) => nodes.filter((node) => node.getBoundingClientRect().right > 390.5).map((node) => `${node.tagName}.${node.className}`));
      expect(overflowing).toEqual([]);
      await page.click('#toggle-json');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    for (const file of [desktop, mobile]) expect(statSync(file).size).toBeGreaterThan(60_000);
    expect(demo.pageErrors).toEqual([]);
  });
});
