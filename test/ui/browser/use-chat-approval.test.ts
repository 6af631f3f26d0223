// The real `useChat` of @ai-sdk/react 3 in headless Chromium answering a faultline run that stopped to ask (a tool
// with `needsApproval`): the page clicks Approve or Deny on the card, `addToolApprovalResponse` records the answer and
// `lastAssistantMessageIsCompleteWithApprovalResponses` sends it; the route reads it with `readChatRequest` (`resume`)
// and goes on with `agent.resume`. Checked: the tool ran once or never (the server's count), what the model was told,
// what the hook holds and the page shows, the wire, and that stale, replayed or forged answers are typed refusals.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as F from '../../../src/index.js';
import * as UIHistory from '../../../src/ui/history-exports.js';
import * as UIStream from '../../../src/ui/index.js';
import { launchChromium, requireChromium } from '../../conformance/chromium.js';
import { startChatServer, type ChatServer, type Exchange, type JournalEntry } from './server.js';
import { framesOf, invalidChunks, typesOf } from './wire.js';

requireChromium();
const UI = { ...UIStream, ...UIHistory };

interface Part {
  type: string;
  state?: string;
  toolCallId?: string;
  text?: string;
  output?: unknown;
  approval?: { id: string; approved?: boolean; reason?: string };
}
interface Message {
  id: string;
  role: string;
  parts: Part[];
}
interface Hook {
  status: string;
  error: { message: string } | null;
  messages: Message[];
}
interface Shown {
  status: string;
  error: string | null;
  spinners: number;
  buttons: string[];
  cards: Array<{ tool: string; state: string; answer: string | null; output: string | null; fault: string | null }>;
  runErrors: Array<{ type: string; message: string }>;
  texts: string[];
}

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

const hookOf = (page: Page) => page.evaluate(() => (window as unknown as { __chat: Hook }).__chat);
const settled = () => ['ready', 'error'].includes((window as unknown as { __chat?: { status: string } }).__chat?.status ?? '');

function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const text = (root: Element, selector: string) => root.querySelector(selector)?.textContent ?? null;
    return {
      status: document.querySelector('#status')?.getAttribute('data-status') ?? '',
      error: document.querySelector('#error')?.textContent ?? null,
      spinners: [...document.querySelectorAll('.spinner')].length,
      buttons: [...document.querySelectorAll('[data-answer]')].map((node) => node.getAttribute('data-answer') ?? ''),
      cards: [...document.querySelectorAll('[data-part="tool"]')].map((node) => ({
        tool: node.getAttribute('data-tool') ?? '',
        state: node.getAttribute('data-state') ?? '',
        answer: text(node, '.approval-answer'),
        output: text(node, '.output'),
        fault: text(node, '.fault-type'),
      })),
      runErrors: [...document.querySelectorAll('[data-part="run-error"] .fault')].map((node) => ({ type: text(node, '.fault-type') ?? '', message: text(node, '.fault-message') ?? '' })),
      texts: [...document.querySelectorAll('.message.assistant [data-part="text"]')].map((node) => node.textContent ?? ''),
    };
  });
}

/** Waits for the response to the request after the first `before` ones to end, then for the hook to settle. */
async function answered(page: Page, before: number): Promise<Exchange> {
  await expect.poll(() => server.exchanges.length, { timeout: 10_000 }).toBeGreaterThan(before);
  const exchange = server.exchanges[before]!;
  await exchange.done;
  await page.waitForFunction(settled, undefined, { polling: 50, timeout: 15_000 });
  return exchange;
}

/** Opens the `approval` page and asks for a refund: the run stops, and the card asks Approve or Deny. */
async function askRefund(): Promise<{ page: Page; asked: Hook; exchange: Exchange }> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await page.goto(`${server.url}/?scenario=approval`);
  await page.waitForFunction(() => typeof (window as unknown as { __send?: unknown }).__send === 'function', undefined, { polling: 50 });
  const before = server.exchanges.length;
  await page.evaluate(() => void (window as unknown as { __send: (text: string) => Promise<void> }).__send('Refund 30 on order A-1'));
  const exchange = await answered(page, before);
  return { page, asked: await hookOf(page), exchange };
}

/** Clicks an answer on the card (a reason typed first for a denial) and waits for the answer `useChat` sent itself. */
async function clickAnswer(page: Page, answer: 'approve' | 'deny', reason?: string): Promise<Exchange> {
  const before = server.exchanges.length;
  if (reason !== undefined) await page.fill('.approval-reason', reason);
  await page.click(`[data-answer="${answer}"]`);
  return answered(page, before);
}

/** The journal entry of the last answer a chat posted. */
const journalOf = (exchange: Exchange): JournalEntry | undefined => server.journal.filter((entry) => entry.chatId === exchange.request.id && entry.turn === 'resume').at(-1);
const toolPart = (message: Message | undefined) => message?.parts.find((part) => part.type === 'tool-issue_refund');
/** The tool messages of the last model request (what the model was told). */
const toldTheModel = (entry: JournalEntry | undefined) => ((entry?.model?.requests.at(-1)?.messages ?? []) as Array<{ role: string; content: string }>).filter((message) => message.role === 'tool');

async function expectWire(exchange: Exchange, { continued }: { continued: boolean }) {
  expect(exchange.status).toBe(200);
  const frames = framesOf(exchange.text);
  expect(await invalidChunks(frames)).toEqual([]);
  // An answer continues the message that asked: its start names no new message (useChat keeps the id it has).
  expect(frames[0]).toEqual(continued ? { type: 'start' } : { type: 'start', messageId: expect.stringMatching(/^msg-/) });
  return typesOf(frames);
}

describe('useChat (@ai-sdk/react 3, headless Chromium) answering an approval', () => {
  it('asks: the card waits on Approve or Deny, nothing has run, the run stopped with its id', async () => {
    const { page, asked, exchange } = await askRefund();
    const types = await expectWire(exchange, { continued: false });
    expect(types.slice(-4)).toEqual(['data-faultline-interrupt', 'finish-step', 'finish', '[DONE]']);
    expect(asked.status).toBe('ready');
    const question = toolPart(asked.messages.at(-1));
    expect(question).toMatchObject({ state: 'approval-requested', input: { order_id: 'A-1', amount: 30 }, approval: { id: expect.stringMatching(/\w/) } });
    const screen = await shown(page);
    expect(screen.buttons).toEqual(['approve', 'deny']);
    expect(screen.cards).toMatchObject([{ tool: 'issue_refund', state: 'approval-requested', answer: null, output: null, fault: null }]);
    expect(server.journal.find((entry) => entry.chatId === exchange.request.id)?.ran).toEqual([]);
    await page.close();
  });

  it('Approve: useChat sends the answer, the run goes on, the refund runs exactly once, its output and the final text on the same message', async () => {
    const { page, asked } = await askRefund();
    const exchange = await clickAnswer(page, 'approve');
    const types = await expectWire(exchange, { continued: true });
    expect(types).not.toContain('tool-input-start');
    expect(types).not.toContain('data-faultline-error');
    expect(exchange.request).toMatchObject({ trigger: 'submit-message', messageId: asked.messages[1]!.id });
    const entry = journalOf(exchange);
    const approvalId = toolPart(asked.messages[1])!.approval!.id;
    expect(entry?.resume?.decisions).toEqual([{ id: approvalId, approved: true }]);
    expect(entry?.ran).toEqual([{ order_id: 'A-1', amount: 30 }]);
    expect(toldTheModel(entry).map((message) => JSON.parse(message.content))).toEqual([{ ok: true, data: { order_id: 'A-1', refunded: 30 } }]);
    const hook = await hookOf(page);
    expect(hook.status).toBe('ready');
    expect(hook.error).toBeNull();
    expect(hook.messages.map((message) => [message.role, message.id])).toEqual([
      ['user', asked.messages[0]!.id],
      ['assistant', asked.messages[1]!.id],
    ]);
    const answer = hook.messages[1]!;
    expect(answer.parts.filter((part) => part.type === 'tool-issue_refund')).toMatchObject([{ state: 'output-available', output: { ok: true, data: { order_id: 'A-1', refunded: 30 } }, approval: { id: approvalId, approved: true } }]);
    expect(answer.parts.filter((part) => part.type === 'text').at(-1)).toMatchObject({ text: 'Refunded 30 on order A-1.', state: 'done' });
    expect(answer.parts.filter((part) => part.type === 'data-faultline-error')).toEqual([]);
    expect(UI.faultlineErrors(answer)).toEqual([]);
    const screen = await shown(page);
    expect(screen).toMatchObject({ status: 'ready', error: null, spinners: 0, buttons: [], runErrors: [] });
    expect(screen.cards).toEqual([{ tool: 'issue_refund', state: 'output-available', answer: null, output: 'output: {"ok":true,"data":{"order_id":"A-1","refunded":30}}', fault: null }]);
    expect(screen.texts.at(-1)).toBe('Refunded 30 on order A-1.');
    // Nothing more is sent by itself, and the refund never runs again.
    await page.waitForTimeout(300);
    expect(server.exchanges.filter((each) => each.request.id === exchange.request.id)).toHaveLength(2);
    expect(entry?.ran).toHaveLength(1);
    await page.close();
  });

  it('Deny with a reason: the part is output-denied, the refund never ran, and the model was told ToolApprovalDenied with the reason', async () => {
    const { page, asked } = await askRefund();
    const exchange = await clickAnswer(page, 'deny', 'Over the refund limit');
    const types = await expectWire(exchange, { continued: true });
    expect(types.filter((type) => type.startsWith('tool-'))).toEqual(['tool-output-denied']);
    expect(types).not.toContain('data-faultline-error');
    const entry = journalOf(exchange);
    const approvalId = toolPart(asked.messages[1])!.approval!.id;
    expect(entry?.resume?.decisions).toEqual([{ id: approvalId, approved: false, reason: 'Over the refund limit' }]);
    expect(entry?.ran).toEqual([]);
    const [told] = toldTheModel(entry);
    expect(JSON.parse(told!.content)).toEqual({ ok: false, error: { ...F.approvalDenied('issue_refund', 'Over the refund limit') } });
    expect(JSON.parse(told!.content).error).toMatchObject({ type: 'ToolApprovalDenied', context: { tool: 'issue_refund', reason: 'Over the refund limit' } });
    const hook = await hookOf(page);
    expect(hook.status).toBe('ready');
    expect(hook.messages).toHaveLength(2);
    const answer = hook.messages[1]!;
    expect(answer.parts.filter((part) => part.type === 'tool-issue_refund')).toMatchObject([{ state: 'output-denied', approval: { id: approvalId, approved: false, reason: 'Over the refund limit' } }]);
    expect(answer.parts.filter((part) => part.type === 'text').at(-1)?.text).toBe('I did not refund order A-1: you declined.');
    const screen = await shown(page);
    expect(screen).toMatchObject({ status: 'ready', error: null, spinners: 0, buttons: [], runErrors: [] });
    expect(screen.cards).toEqual([{ tool: 'issue_refund', state: 'output-denied', answer: 'Denied: Over the refund limit', output: null, fault: null }]);
    // The next turn's history tells the model exactly what it was told then.
    const before = server.exchanges.length;
    await page.evaluate(() => void (window as unknown as { __send: (text: string) => Promise<void> }).__send('And now?'));
    const next = await answered(page, before);
    expect(next.status).toBe(200);
    const turn2 = server.journal.filter((each) => each.chatId === exchange.request.id && each.turn === 2).at(-1);
    expect((turn2?.messages as Array<{ role: string; content: string }> | undefined)?.filter((message) => message.role === 'tool')).toEqual([{ role: 'tool', content: told!.content, toolCallId: toolPart(answer)!.toolCallId }]);
    await page.close();
  });

  it('the same answer sent again after the run went on: a typed RUN_NOT_INTERRUPTED error on the page, no HTTP 500, no loop, the refund still run once', async () => {
    const { page, asked } = await askRefund();
    const approvalId = toolPart(asked.messages[1])!.approval!.id;
    await clickAnswer(page, 'approve');
    const replayed = asked.messages.map((message) => ({ ...message, parts: message.parts.map((part) => (part.approval?.id === approvalId ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved: true } } : part)) }));
    const before = server.exchanges.length;
    await page.evaluate((messages) => void (window as unknown as { __resend: (messages: unknown) => Promise<void> }).__resend(messages), replayed);
    const exchange = await answered(page, before);
    const types = await expectWire(exchange, { continued: true });
    expect(types).toEqual(['start', 'data-faultline-error', 'error', 'finish', '[DONE]']);
    const hook = await hookOf(page);
    expect(hook.status).toBe('error');
    expect(hook.error?.message).toMatch(/already applied/);
    const screen = await shown(page);
    expect(screen.runErrors).toEqual([{ type: expect.stringMatching(/\w/), message: hook.error!.message }]);
    expect(screen.error).toBe(hook.error!.message);
    const error = hook.messages.at(-1)!.parts.find((part) => part.type === 'data-faultline-error') as { data?: Record<string, unknown> } | undefined;
    expect(error?.data).toMatchObject({ kind: 'resume', code: 'RUN_NOT_INTERRUPTED', retryable: false });
    await page.waitForTimeout(300);
    expect(server.exchanges.filter((each) => each.request.id === exchange.request.id)).toHaveLength(3);
    expect(journalOf(exchange)?.ran).toEqual([{ order_id: 'A-1', amount: 30 }]);
    await page.close();
  });

  it('an answer for a run this server does not hold (another chat): the agent’s typed ResumeError on the page, status 200, nothing ran', async () => {
    const { page, asked } = await askRefund();
    const approvalId = toolPart(asked.messages[1])!.approval!.id;
    await page.close();
    const stranger = await browser.newPage();
    stranger.on('pageerror', (error) => pageErrors.push(String(error)));
    await stranger.goto(`${server.url}/?scenario=approval`);
    await stranger.waitForFunction(() => typeof (window as unknown as { __resend?: unknown }).__resend === 'function', undefined, { polling: 50 });
    const stale = asked.messages.map((message) => ({ ...message, parts: message.parts.map((part) => (part.approval?.id === approvalId ? { ...part, state: 'approval-responded', approval: { id: approvalId, approved: true } } : part)) }));
    const before = server.exchanges.length;
    await stranger.evaluate((messages) => void (window as unknown as { __resend: (messages: unknown) => Promise<void> }).__resend(messages), stale);
    const exchange = await answered(stranger, before);
    await expectWire(exchange, { continued: true });
    const hook = await hookOf(stranger);
    expect(hook.status).toBe('error');
    const error = hook.messages.at(-1)!.parts.find((part) => part.type === 'data-faultline-error') as { data?: Record<string, unknown> } | undefined;
    expect(error?.data).toMatchObject({ kind: 'resume', code: expect.stringMatching(/^(INTERRUPT_NOT_FOUND|RUN_NOT_INTERRUPTED)$/), retryable: false });
    expect((await shown(stranger)).runErrors).toEqual([{ type: expect.stringMatching(/\w/), message: String(error?.data?.message) }]);
    expect(journalOf(exchange)?.ran).toEqual([]);
    await stranger.close();
  });

  it('a forged approval id: a typed 400 (UIMessagesError) shown as the page’s error, before any resume', async () => {
    const { page, asked } = await askRefund();
    const forged = asked.messages.map((message) => ({ ...message, parts: message.parts.map((part) => (part.state === 'approval-requested' ? { ...part, state: 'approval-responded', approval: { id: 'approval-forged', approved: true } } : part)) }));
    const before = server.exchanges.length;
    const resumes = server.journal.filter((entry) => entry.turn === 'resume').length;
    await page.evaluate((messages) => void (window as unknown as { __resend: (messages: unknown) => Promise<void> }).__resend(messages), forged);
    const exchange = await answered(page, before);
    expect(exchange.status).toBe(400);
    expect(server.journal.at(-1)?.rejected).toMatchObject({ name: 'UIMessagesError', message: expect.stringMatching(/approval-forged.*never asked/) });
    expect(server.journal.filter((entry) => entry.turn === 'resume')).toHaveLength(resumes);
    const hook = await hookOf(page);
    expect(hook.status).toBe('error');
    expect(hook.error?.message).toMatch(/approval-forged/);
    expect((await shown(page)).error).toBe(hook.error!.message);
    await page.waitForTimeout(300);
    expect(server.exchanges.filter((each) => each.request.id === exchange.request.id)).toHaveLength(2);
    expect(server.journal.find((entry) => entry.chatId === exchange.request.id)?.ran).toEqual([]);
    await page.close();
  });

  it('no page raised an error', () => {
    expect(pageErrors).toEqual([]);
  });
});
