// The real `useChat` of @ai-sdk/react 3 in headless Chromium against faultline runs served with
// `toUIMessageStreamResponse`: for each scenario, what the hook holds (parts, their states, status, error, the
// transient parts onData saw), what the page shows, that no spinner is left, that every frame on the wire is valid
// for the AI SDK, and that the history the hook posts back is accepted as the next turn (`fromUIMessages`).
import type { UIMessage } from 'ai';
import { safeValidateUIMessages } from 'ai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript shared with the demo
import { FAILING_CALLS, PLANTED_KEY } from '../../../demo/chat/scenarios.mjs';
import * as F from '../../../src/index.js';
import * as UIHistory from '../../../src/ui/history-exports.js';
import * as UIStream from '../../../src/ui/index.js';
import { launchChromium, requireChromium } from '../../conformance/chromium.js';
import { startChatServer, type ChatServer, type Exchange } from './server.js';
import { framesOf, invalidChunks, typesOf, type Frame } from './wire.js';

requireChromium();
const UI = { ...UIStream, ...UIHistory };

/** A part of a UIMessage as the page hands it over (plain JSON). */
interface Part {
  type: string;
  state?: string;
  toolCallId?: string;
  id?: string;
  data?: Record<string, unknown>;
  text?: string;
  output?: unknown;
  errorText?: string;
}
interface Hook {
  status: string;
  error: { name: string; message: string } | null;
  messages: Array<{ id: string; role: UIMessage['role']; parts: Part[]; metadata?: { faultline?: { finishReason?: string } } }>;
  data: Array<{ type: string; id?: string; data: Record<string, unknown>; transient?: boolean }>;
}
interface Fault {
  type: string;
  retryable: string;
  message: string;
  suggestion: string | null;
}
interface Screen {
  status: string;
  error: string | null;
  spinners: number;
  texts: Array<{ state: string; text: string }>;
  tools: Array<{ tool: string; call: string; state: string; errorText: string | null; fault: Fault | null; retries: string[] }>;
  runErrors: Fault[];
  records: Array<{ severity: string; node: string; code: string }>;
  finish: string | null;
  completion: string | null;
  html: string;
}

const BUSY = ['streaming', 'input-streaming', 'input-available'];
/** Runs in the page: the hook is ready or in error. */
const settled = () => ['ready', 'error'].includes((window as unknown as { __chat?: Hook }).__chat?.status ?? '');

let server: ChatServer;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await startChatServer(F, UI);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** What the page shows (visible spinners, tool cards with their typed failure, run errors, records). */
function screen(page: Page): Promise<Screen> {
  return page.evaluate(() => {
    const text = (root: Element, selector: string) => root.querySelector(selector)?.textContent ?? null;
    const fault = (root: Element | null): Fault | null =>
      root
        ? { type: text(root, '.fault-type') ?? '', retryable: root.getAttribute('data-retryable') ?? '', message: text(root, '.fault-message') ?? '', suggestion: text(root, '.fault-suggestion') }
        : null;
    const visible = (node: Element) => (node as HTMLElement).offsetParent !== null;
    return {
      status: document.querySelector('#status')?.getAttribute('data-status') ?? '',
      error: document.querySelector('#error')?.textContent ?? null,
      spinners: [...document.querySelectorAll('.spinner')].filter(visible).length,
      texts: [...document.querySelectorAll('.message.assistant [data-part="text"]')].map((node) => ({ state: node.getAttribute('data-state') ?? '', text: node.textContent ?? '' })),
      tools: [...document.querySelectorAll('[data-part="tool"]')].map((node) => ({
        tool: node.getAttribute('data-tool') ?? '',
        call: node.getAttribute('data-call') ?? '',
        state: node.getAttribute('data-state') ?? '',
        errorText: text(node, '.error-text'),
        fault: fault(node.querySelector('.fault')),
        retries: [...node.querySelectorAll('.retry')].map((notice) => notice.textContent ?? ''),
      })),
      runErrors: [...document.querySelectorAll('[data-part="run-error"] .fault')].map((node) => fault(node)!),
      records: [...document.querySelectorAll('.record')].map((row) => ({ severity: row.getAttribute('data-severity') ?? '', node: row.getAttribute('data-node') ?? '', code: text(row, '.record-code') ?? '' })),
      finish: document.querySelector('.finish')?.getAttribute('data-finish') ?? null,
      completion: document.querySelector('[data-part="completion"]')?.textContent ?? null,
      html: document.documentElement.outerHTML,
    };
  });
}

const hookOf = (page: Page) => page.evaluate(() => (window as unknown as { __chat: Hook }).__chat);

interface Turn {
  page: Page;
  hook: Hook;
  screen: Screen;
  exchange: Exchange;
  frames: Frame[];
  answer: Hook['messages'][number];
}

/** Opens the page of `scenario`, sends a message (stopping when `stopWhen` holds), and waits for the hook to settle. */
async function converse(scenario: string, options: { stopWhen?: string } = {}): Promise<Turn> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${scenario}: ${String(error)}`));
  await page.goto(`${server.url}/?scenario=${scenario}`);
  await page.waitForFunction(() => typeof (window as unknown as { __send?: unknown }).__send === 'function', undefined, { polling: 50 });
  return turn(page, 'go', options);
}

async function turn(page: Page, text: string, { stopWhen }: { stopWhen?: string } = {}): Promise<Turn> {
  const before = server.exchanges.length;
  await page.evaluate((message) => void (window as unknown as { __send: (text: string) => Promise<void> }).__send(message), text);
  if (stopWhen) {
    await page.waitForFunction((needle) => JSON.stringify((window as unknown as { __chat?: Hook }).__chat?.messages ?? []).includes(needle), stopWhen, { polling: 20, timeout: 10_000 });
    await page.evaluate(() => (window as unknown as { __stop: () => Promise<void> }).__stop());
  }
  await expect.poll(() => server.exchanges.length, { timeout: 10_000 }).toBeGreaterThan(before);
  const exchange = server.exchanges[before]!;
  await exchange.done;
  await page.waitForFunction(settled, undefined, { polling: 50, timeout: 15_000 });
  const hook = await hookOf(page);
  return { page, hook, screen: await screen(page), exchange, frames: stopWhen ? [] : framesOf(exchange.text), answer: hook.messages.at(-1)! };
}

/**
 * The hook settled, no part of the messages from `from` on left in a working state (but `interrupted`, the parts a
 * stop() cut), no spinner on the page.
 */
function expectSettled({ hook, screen: shown }: Turn, { from = 0, interrupted = [] as string[] } = {}) {
  expect(['ready', 'error']).toContain(hook.status);
  expect(shown.status).toBe(hook.status);
  const busy = hook.messages.slice(from).flatMap((message) => message.parts.filter((part) => BUSY.includes(part.state ?? '')).map((part) => `${part.type}:${part.state}`));
  expect(busy).toEqual(interrupted);
  expect(shown.spinners).toBe(0);
}

/** The wire: the headers, every frame valid for the AI SDK, start first, finish/abort then [DONE] last, no secret. */
async function expectWire({ exchange, frames }: Turn, end: 'finish' | 'abort' = 'finish') {
  expect(exchange.status).toBe(200);
  expect(exchange.headers).toMatchObject({ 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  expect(await invalidChunks(frames)).toEqual([]);
  const types = typesOf(frames);
  expect(types[0]).toBe('start');
  expect(types.slice(-2)).toEqual([end, '[DONE]']);
  expect(exchange.text).not.toContain(PLANTED_KEY);
}

/** A second turn: the history the hook holds goes back, `fromUIMessages` accepts it, the next answer arrives. */
async function expectNextTurnAccepted(first: Turn) {
  const posted = await hookOf(first.page);
  const valid = await safeValidateUIMessages({ messages: posted.messages });
  expect(valid.success ? 'valid' : String(valid.error)).toBe('valid');
  const next = await turn(first.page, 'And now?');
  expect(next.exchange.status).toBe(200);
  const entry = server.journal.filter((each) => each.turn === 2).at(-1);
  expect(entry?.rejected).toBeUndefined();
  expect(next.hook.status).toBe('ready');
  expect(next.answer.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([expect.stringMatching(/^Got \d+ messages of history\.$/)]);
  expectSettled(next, { from: posted.messages.length });
  return entry!;
}

/** The messages of the last model request of a first turn (what the model saw). */
const modelSaw = (first: Turn) => (server.journal.find((each) => each.chatId === first.exchange.request.id && each.turn === 1)?.model?.requests.at(-1)?.messages ?? []) as Array<{ role: string }>;
const dataParts = (message: Turn['answer'], type: string) => message.parts.filter((part) => part.type === type);
const toolParts = (message: Turn['answer']) => message.parts.filter((part) => part.type.startsWith('tool-'));

describe('useChat (@ai-sdk/react 3, headless Chromium) against toUIMessageStreamResponse', () => {
  it('a successful run shows reasoning, a tool output and the answer, every part done, and its history is the next turn', async () => {
    const first = await converse('success');
    expectSettled(first);
    await expectWire(first);
    expect(first.hook.error).toBeNull();
    expect(first.answer.parts.map((part) => `${part.type}${part.state ? `:${part.state}` : ''}`)).toEqual([
      'step-start',
      'reasoning:done',
      'tool-get_order:output-available',
      'step-start',
      'text:done',
    ]);
    expect(toolParts(first.answer)[0]?.output).toEqual({ ok: true, data: { order_id: 'A-1', status: 'shipped', items: 2 } });
    expect(first.screen.texts.at(-1)).toEqual({ state: 'done', text: 'Order A-1 has shipped: 2 items are on their way.' });
    expect(first.screen.tools).toMatchObject([{ tool: 'get_order', call: 'call_ok', state: 'output-available', fault: null }]);
    const entry = await expectNextTurnAccepted(first);
    // The history is the transcript the model saw (its reasoning included), then the answer and the new question.
    const sawFirst = modelSaw(first).filter((message) => message.role !== 'system');
    expect(entry.messages?.slice(0, sawFirst.length)).toEqual(sawFirst);
    expect(entry.messages?.slice(sawFirst.length)).toMatchObject([
      { role: 'assistant', content: 'Order A-1 has shipped: 2 items are on their way.' },
      { role: 'user', content: 'And now?' },
    ]);
    await first.page.close();
  });

  it('seven tools failing each way: each card shows its type, message, suggestion and retryability; the 429 shows its retry and then its output', async () => {
    const first = await converse('tools');
    expectSettled(first);
    await expectWire(first);
    expect(first.hook.status).toBe('ready');
    const states = Object.fromEntries(toolParts(first.answer).map((part) => [part.toolCallId, part.state]));
    expect(states).toEqual({
      call_404: 'output-error',
      call_401: 'output-error',
      call_429: 'output-available',
      call_500: 'output-error',
      call_crash: 'output-error',
      call_invalid: 'output-error',
      call_timeout: 'output-error',
    });
    const errors: Record<string, Record<string, unknown>> = Object.fromEntries(dataParts(first.answer, 'data-faultline-error').map((part) => [part.id, part.data]));
    const expected: Record<string, [string, boolean]> = {
      call_404: ['DataNotFoundError', false],
      call_401: ['AuthenticationError', false],
      call_500: ['APIFailure', true],
      call_crash: ['ToolInternalError', false],
      call_invalid: ['InputValidationError', false],
      call_timeout: ['TimeoutError', true],
    };
    expect(Object.fromEntries(Object.entries(errors).map(([id, data]) => [id, [data.type, data.retryable]]))).toEqual(expected);
    for (const [id, data] of Object.entries(errors)) {
      const part = toolParts(first.answer).find((each) => each.toolCallId === id)!;
      expect(part.errorText).toBe(data.message);
      expect(data).toMatchObject({ scope: 'tool', toolCallId: id, toolName: FAILING_CALLS.find((call: { id: string }) => call.id === id).name });
      expect(typeof data.kind).toBe('string');
      expect(JSON.stringify(data)).not.toMatch(/\bat .+:\d+:\d+|stack/);
      const card = first.screen.tools.find((each) => each.call === id)!;
      expect(card.fault).toEqual({ type: data.type, retryable: String(data.retryable), message: data.message, suggestion: (data.suggestion as string | undefined) ?? null });
      expect(card.errorText).toBeNull(); // the typed failure stands in for the bare string
    }
    expect(errors.call_crash?.message).not.toMatch(/carrier|db-primary/);
    // faultlineErrors reads the message the hook holds back as the same typed failures, in order.
    expect(UI.faultlineErrors(first.answer)).toEqual(dataParts(first.answer, 'data-faultline-error').map((part) => part.data));
    // The retry the 429 waited out: seen by onData, never kept in the message, shown on its card; then its output.
    const retries = first.hook.data.filter((part) => part.type === 'data-faultline-retry');
    expect(retries.map((part) => part.data)).toMatchObject([{ source: 'tool', attempt: 1, delayMs: 150, toolCallId: 'call_429', toolName: 'get_stock', error: { type: 'RateLimitError', retryable: true } }]);
    expect(dataParts(first.answer, 'data-faultline-retry')).toEqual([]);
    expect(first.screen.tools.find((card) => card.call === 'call_429')?.retries).toEqual([expect.stringMatching(/^Retried get_stock \(attempt 2\) after \d+ ms, following RateLimitError: The Stock API rate limit was reached/)]);
    expect(toolParts(first.answer).find((part) => part.toolCallId === 'call_429')?.output).toEqual({ ok: true, data: { sku: 'SKU-1', units: 12 } });
    // Each output part is sent when its tool ends: the crash (at once) before the retried 429 (which the model called
    // earlier) and before the timeout.
    const ended = first.frames.flatMap((frame) => (frame !== '[DONE]' && (frame.type === 'tool-output-error' || frame.type === 'tool-output-available') ? [frame.toolCallId] : []));
    expect(ended).toHaveLength(FAILING_CALLS.length);
    expect(ended.indexOf('call_crash')).toBeLessThan(ended.indexOf('call_429'));
    expect(ended.indexOf('call_crash')).toBeLessThan(ended.indexOf('call_timeout'));
    expect(first.screen.html).not.toContain(PLANTED_KEY);
    const entry = await expectNextTurnAccepted(first);
    // The exact tool content the model saw comes back with the history.
    const tool = (messages: ReadonlyArray<{ role: string }> = []) => messages.filter((message) => message.role === 'tool');
    expect(tool(entry.messages)).toEqual(tool(modelSaw(first)));
    expect(tool(entry.messages)).toHaveLength(FAILING_CALLS.length);
    await first.page.close();
  });

  it('a provider error mid-stream: the partial text is closed, the typed run error is kept, status is error with its message', async () => {
    const first = await converse('provider-error');
    expectSettled(first);
    await expectWire(first);
    expect(first.hook.status).toBe('error');
    expect(first.hook.error?.message).toMatch(/overloaded/);
    expect(first.answer.parts.filter((part) => part.type === 'text').map((part) => [part.text, part.state])).toEqual([['The first part of the answer', 'done']]);
    const [runError] = dataParts(first.answer, 'data-faultline-error');
    expect(runError?.data).toMatchObject({ type: expect.any(String), message: expect.stringMatching(/overloaded/), retryable: expect.any(Boolean) });
    expect(['run', 'model']).toContain(runError?.data?.scope);
    const types = typesOf(first.frames);
    expect(types.slice(-4)).toEqual(['data-faultline-error', 'error', 'finish', '[DONE]']);
    expect(types.indexOf('text-end')).toBeLessThan(types.indexOf('error'));
    expect((first.frames.at(-2) as { finishReason?: string }).finishReason).toBe('error');
    expect(first.screen.runErrors).toEqual([{ type: runError?.data?.type, retryable: String(runError?.data?.retryable), message: runError?.data?.message, suggestion: runError?.data?.suggestion ?? null }]);
    expect(first.screen.error).toBe(first.hook.error?.message);
    await expectNextTurnAccepted(first);
    await first.page.close();
  });

  it("max iterations: the run ends ready with the protocol's finish reason, and faultline's own reason in the message metadata", async () => {
    const first = await converse('max-iterations');
    expectSettled(first);
    await expectWire(first);
    expect(first.hook.status).toBe('ready');
    expect(toolParts(first.answer).map((part) => part.state)).toEqual(['output-available', 'output-available']);
    expect(first.answer.metadata?.faultline?.finishReason).toBe('max_iterations');
    // The protocol's reason for a run cut while it still asked for tools, as the AI SDK's own step limit ends one.
    expect((first.frames.at(-2) as { finishReason?: string }).finishReason).toBe('tool-calls');
    expect(first.screen.finish).toBe('max_iterations');
    await expectNextTurnAccepted(first);
    await first.page.close();
  });

  it('stop() mid-answer: the hook is ready at once, the server run is cancelled, no spinner is left, and the partial history is the next turn', async () => {
    const first = await converse('slow', { stopWhen: 'word5 ' });
    expectSettled(first, { interrupted: ['text:streaming'] });
    expect(first.hook.status).toBe('ready');
    expect(first.hook.error).toBeNull();
    const [text] = first.answer.parts.filter((part) => part.type === 'text');
    expect(text?.text).toMatch(/^word0 word1 word2 word3 word4 word5 /);
    expect(text?.text).not.toContain('word399');
    // useChat stops applying chunks once its own abort fired, so the interrupted part keeps the state it had: a page
    // keys its spinners on `status`, as this one does.
    expect(text?.state).toBe('streaming');
    const observed = server.journal.find((each) => each.chatId === first.exchange.request.id && each.turn === 1)?.observed ?? [];
    await expect.poll(() => observed.map((each) => each.event), { timeout: 3_000 }).toEqual(['model stream cancelled']);
    expect(first.exchange.text).not.toContain('word399');
    await expectNextTurnAccepted(first);
    await first.page.close();
  });

  it('a graph run through the Runner: a recoverable and a fatal record kept in the message, the completion, the run error', async () => {
    const first = await converse('graph');
    expectSettled(first);
    await expectWire(first);
    // Kept in the order the run's state deltas carried them (the recoverable one only with the completion): by step here.
    const records = dataParts(first.answer, 'data-faultline-record')
      .map((part) => part.data as { severity: string; nodeId: string; code: string; scope: string; stepNumber: number })
      .sort((a, b) => a.stepNumber - b.stepNumber);
    expect(records.map((record) => [record.severity, record.nodeId, record.code, record.scope])).toEqual([
      ['recoverable', 'lookup', 'SOFT_TIMEOUT', 'record'],
      ['fatal', 'write', 'WRITE_FATAL', 'record'],
    ]);
    expect(dataParts(first.answer, 'data-faultline-completion').map((part) => part.data)).toMatchObject([
      { status: 'failed', records: { recoverable: 1, fatal: 1 }, codes: expect.arrayContaining(['SOFT_TIMEOUT', 'WRITE_FATAL']), error: { scope: 'run', code: 'WRITE_FATAL' } },
    ]);
    expect(UI.faultlineErrors(first.answer).map((error) => [error.scope, error.code])).toEqual(
      dataParts(first.answer, 'data-faultline-record').map((part) => ['record', part.data?.code]).concat([['run', 'WRITE_FATAL']]),
    );
    expect(first.screen.runErrors).toMatchObject([{ type: 'flow_error', retryable: 'false', message: expect.stringMatching(/database write failed/) }]);
    expect(first.screen.completion).toBe('Run failed (WRITE_FATAL, SOFT_TIMEOUT)');
    expect(first.screen.records).toEqual([
      { severity: 'recoverable', node: 'lookup', code: 'SOFT_TIMEOUT' },
      { severity: 'fatal', node: 'write', code: 'WRITE_FATAL' },
    ]);
    expect(first.hook.status).toBe('error');
    expect(first.hook.error?.message).toMatch(/database write failed|WRITE_FATAL/);
    await expectNextTurnAccepted(first);
    await first.page.close();
  });

  it('no page raised an error', () => {
    expect(pageErrors).toEqual([]);
  });
});
