// Hostile and malformed chat requests: every kind gets a UIMessagesError naming the problem by code and path (HTTP
// 400, 413 or 408), never a crash, a hang, a polluted prototype or an echo of a whole value. One row per kind.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nestedText } from '../../helpers/hostile-values.js';
import { fromUIMessages, readChatRequest, UIMessagesError, type UIMessagesIssue } from '../../../src/ui/history-exports.js';

const user = (text = 'Hi', id = 'u1') => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const tool = (fields: Record<string, unknown> = {}) => ({ type: 'tool-lookup', toolCallId: 'call_1', state: 'output-available', input: { order: 'A-1' }, output: { ok: true, data: 1 }, ...fields });
const assistant = (...parts: unknown[]) => ({ id: 'a1', role: 'assistant', parts });
const body = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'chat-1', messages, trigger: 'submit-message', ...extra });
const post = (text: string | BodyInit, headers: Record<string, string> = {}) => new Request('http://127.0.0.1/api/chat', { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...headers }, ...(typeof text === 'string' ? {} : { duplex: 'half' }) } as RequestInit);

async function refusedWith(input: unknown, options?: Parameters<typeof readChatRequest>[1]): Promise<UIMessagesError> {
  try {
    await readChatRequest(input, options);
  } catch (error) {
    expect(UIMessagesError.isInstance(error), String(error)).toBe(true);
    return error as UIMessagesError;
  }
  throw new Error('expected the request to be refused');
}

afterEach(() => {
  vi.useRealTimers();
});

interface Row {
  name: string;
  body: () => unknown;
  issue: Partial<UIMessagesIssue>;
  status?: number;
  options?: Parameters<typeof readChatRequest>[1];
}

const ROWS: Row[] = [
  { name: 'a body that is not an object', body: () => [user()], issue: { code: 'invalid', path: '(body)' } },
  { name: 'no messages', body: () => ({ id: 'c', trigger: 'submit-message' }), issue: { code: 'invalid', path: 'messages' } },
  { name: 'an empty message list', body: () => body([]), issue: { code: 'invalid', path: 'messages' } },
  { name: 'an id that is not a string', body: () => body([user()], { id: 42 }), issue: { code: 'invalid', path: 'id' } },
  { name: 'an unknown trigger', body: () => body([user()], { trigger: 'resume-stream' }), issue: { code: 'invalid', path: 'trigger' } },
  { name: 'a messageId that is not a string', body: () => body([user()], { messageId: 7 }), issue: { code: 'invalid', path: 'messageId' } },
  { name: 'a message that is not an object', body: () => body(['hello']), issue: { code: 'invalid', path: 'messages[0]' } },
  { name: 'an unknown role', body: () => body([{ id: 'x', role: 'tool', parts: [] }]), issue: { code: 'invalid', path: 'messages[0].role' } },
  { name: 'parts that are not an array', body: () => body([{ id: 'x', role: 'user', parts: 'hi' }]), issue: { code: 'invalid', path: 'messages[0].parts' } },
  { name: 'a text part whose text is not a string', body: () => body([{ id: 'x', role: 'user', parts: [{ type: 'text', text: 5 }] }]), issue: { code: 'invalid', path: 'messages[0].parts[0].text' } },
  { name: 'a tool-<name> part that is no tool call (no call id, no state)', body: () => body([user(), assistant({ type: 'tool-call-v9', x: 1 })]), issue: { code: 'invalid', path: 'messages[1].parts[0].toolCallId' } },
  { name: 'an unknown part type (refused: guessing at it could change the transcript)', body: () => body([user(), assistant({ type: 'image', url: 'x' })]), issue: { code: 'unknown_part', path: 'messages[1].parts[0].type' } },
  { name: 'a tool part in a user message', body: () => body([{ id: 'x', role: 'user', parts: [tool()] }]), issue: { code: 'invalid', path: 'messages[0].parts[0].type' } },
  { name: 'a tool part with an unknown state', body: () => body([user(), assistant(tool({ state: 'done' }))]), issue: { code: 'invalid', path: 'messages[1].parts[0].state' } },
  { name: 'a tool part without a call id', body: () => body([user(), assistant(tool({ toolCallId: '' }))]), issue: { code: 'invalid', path: 'messages[1].parts[0].toolCallId' } },
  { name: 'a tool part with no tool name', body: () => body([user(), assistant(tool({ type: 'tool-' }))]), issue: { code: 'invalid', path: 'messages[1].parts[0].type' } },
  {
    name: 'two tool parts with one call id',
    body: () => body([user(), assistant(tool(), { type: 'step-start' }, tool())]),
    issue: { code: 'duplicate_call', path: 'messages[1].parts[2].toolCallId' },
  },
  {
    name: 'a tool output whose call cannot be rebuilt',
    body: () => body([user(), assistant(tool({ input: undefined }))]),
    issue: { code: 'orphan_output', path: 'messages[1].parts[0].input' },
  },
  { name: 'a provider-executed tool', body: () => body([user(), assistant(tool({ providerExecuted: true }))]), issue: { code: 'unsupported', path: 'messages[1].parts[0].providerExecuted' } },
  {
    name: 'tool content metadata that is not a string',
    body: () => body([user(), assistant(tool({ resultProviderMetadata: { faultline: { content: { ok: true } } } }))]),
    issue: { code: 'invalid', path: 'messages[1].parts[0].resultProviderMetadata.faultline.content' },
  },
  {
    name: 'metadata that is not an object',
    body: () => body([user(), assistant({ type: 'text', text: 'x', providerMetadata: 'faultline' })]),
    issue: { code: 'invalid', path: 'messages[1].parts[0].providerMetadata' },
  },
  {
    name: 'replay items of the wrong shape',
    body: () => body([user(), assistant({ type: 'reasoning', text: 'x', providerMetadata: { faultline: { replay: [{ protocol: 1 }] } } })]),
    issue: { code: 'invalid', path: 'messages[1].parts[0].providerMetadata.faultline.replay' },
  },
  { name: 'an output-error without errorText or metadata', body: () => body([user(), assistant(tool({ state: 'output-error', output: undefined }))]), issue: { code: 'invalid', path: 'messages[1].parts[0].errorText' } },
  { name: 'a user message with nothing a model can be sent', body: () => body([{ id: 'x', role: 'user', parts: [{ type: 'data-x', data: 1 }] }]), issue: { code: 'invalid', path: 'messages' } },
  { name: 'more messages than maxMessages', body: () => body(Array.from({ length: 6 }, (_, index) => user('x', `u${index}`))), options: { maxMessages: 5 }, issue: { code: 'too_many', path: 'messages' } },
  { name: 'more parts than maxParts', body: () => body([{ id: 'x', role: 'user', parts: Array.from({ length: 11 }, () => ({ type: 'text', text: 'x' })) }]), options: { maxParts: 10 }, issue: { code: 'too_many', path: 'messages' } },
  { name: 'a string longer than maxStringLength', body: () => body([user('x'.repeat(101))]), options: { maxStringLength: 100 }, issue: { code: 'too_long', path: 'messages[0].parts[0].text' } },
  { name: 'a body over maxBodyBytes (as a value)', body: () => body([user('x'.repeat(5_000))]), options: { maxBodyBytes: 4_096 }, issue: { code: 'too_large' }, status: 413 },
  { name: 'nesting deeper than maxDepth', body: () => body([user(), assistant(tool({ output: JSON.parse(nestedText(200)) }))]), issue: { code: 'too_deep' } },
];

describe('hostile chat requests: one typed refusal per kind', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    for (const input of [row.body(), post(JSON.stringify(row.body()))]) {
      const error = await refusedWith(input, row.options);
      expect(error.status).toBe(row.status ?? 400);
      expect(error.issues).toContainEqual(expect.objectContaining(row.issue));
      expect(error.kind).toBe('ui_messages');
      expect(error.code).toBe(error.status === 413 ? 'BODY_TOO_LARGE' : 'INVALID_UI_MESSAGES');
    }
  });

  it('a "__proto__" or "constructor" key anywhere is refused and pollutes nothing', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const text = JSON.stringify(body([user(), assistant(tool({ output: { ok: true, data: { nested: { PLACE: { polluted: true } } } } }))])).replace('"PLACE"', JSON.stringify(key));
      const error = await refusedWith(post(text));
      expect(error.issues).toEqual([expect.objectContaining({ code: 'prototype_key', path: `messages[1].parts[0].output.data.nested.${key}` })]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(() => fromUIMessages(JSON.parse(text).messages)).toThrow(UIMessagesError);
    }
  });

  it('a body nested a million levels deep is refused before JSON.parse ever sees it', async () => {
    const depth = 1_000_000;
    const error = await refusedWith(post(`{"id":"c","trigger":"submit-message","messages":${'['.repeat(depth)}${']'.repeat(depth)}}`));
    expect(error.issues).toEqual([{ code: 'too_deep', path: '(body)', message: 'nests deeper than 128 levels (maxDepth); it was not parsed' }]);
    // brackets inside strings are text, not nesting
    const chat = await readChatRequest(post(JSON.stringify(body([user('['.repeat(500))]))));
    expect(chat.messages).toEqual([{ role: 'user', content: '['.repeat(500) }]);
  });

  it('a body that is not JSON is refused quoting at most its first 60 characters', async () => {
    const error = await refusedWith(post(`{"id": "x", ${'y'.repeat(10_000)}`));
    expect(error.issues).toEqual([{ code: 'not_json', path: '(body)', message: expect.stringMatching(/^is not JSON \(it starts "\{\\"id\\": \\"x\\", y+…?"\)$/) }]);
    expect(error.message.length).toBeLessThan(200);
  });

  it('a body that says it is over maxBodyBytes is refused with 413 without being read', async () => {
    const request = post(JSON.stringify(body([user()])), { 'content-length': String(10_000_000) });
    const error = await refusedWith(request);
    expect(error.status).toBe(413);
    expect(request.bodyUsed).toBe(false);
  });

  it('a streamed body past maxBodyBytes is cut there and refused with 413', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1024;
        controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
      },
    });
    const error = await refusedWith(post(stream), { maxBodyBytes: 8_192 });
    expect(error.status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024);
  });

  it('a body that trickles in slower than bodyTimeoutMs is refused with 408 and leaves no timer', async () => {
    vi.useFakeTimers();
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"id":')) });
    const pending = refusedWith(post(stream), { bodyTimeoutMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await pending;
    expect(error.status).toBe(408);
    expect(error.code).toBe('BODY_TIMEOUT');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a request whose body was already read is refused saying so', async () => {
    const request = post(JSON.stringify(body([user()])));
    await request.text();
    expect((await refusedWith(request)).issues[0]?.message).toMatch(/already read/);
  });

  it('lists at most 20 problems, names the first five in its message, and says how many there were', async () => {
    const messages = Array.from({ length: 30 }, (_, index) => ({ id: index, role: 'user', parts: [] }));
    const error = await refusedWith(body(messages));
    expect(error.issues).toHaveLength(20);
    expect(error.message).toMatch(/^The chat request was refused: 30 problems: \(1\) messages\[0\]\.id: must be a string \(got 0\);/);
    expect(error.message).toMatch(/; and 25 more$/);
  });

  it('quotes a refused value at most 200 characters, credential shapes masked', async () => {
    const secret = `sk-proj-${'A1b2C3d4'.repeat(6)}`;
    const error = await refusedWith(body([{ id: 'x', role: `${secret} ${'z'.repeat(1_000)}`, parts: [] }]));
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error.toJSON())).not.toContain(secret);
    expect(error.issues[0]?.message.length).toBeLessThan(300);
  });

  it('answers the request itself: toResponse() is its status with a JSON body listing each problem', async () => {
    const error = await refusedWith(body([user(), assistant({ type: 'image' })]));
    const response = error.toResponse();
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ error: { type: 'invalid_request', kind: 'ui_messages', code: 'INVALID_UI_MESSAGES', message: error.message, issues: error.issues } });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'UIMessagesError', kind: 'ui_messages', status: 400, issues: error.issues });
  });

  it('constructs from a message alone and from odd options, as every framework error does', () => {
    const bare = new UIMessagesError('m');
    expect([bare.status, bare.code, bare.issues]).toEqual([400, 'INVALID_UI_MESSAGES', []]);
    const odd = new UIMessagesError('m', { status: 999, issues: 'x' } as never);
    expect([odd.status, odd.issues]).toEqual([400, []]);
    expect(new UIMessagesError('m', { status: 413 }).code).toBe('BODY_TOO_LARGE');
    expect(UIMessagesError.isInstance(new Error('m'))).toBe(false);
  });

  it('reads a valid body, returning its other fields as extra and its messageId', async () => {
    const chat = await readChatRequest(post(JSON.stringify(body([user()], { messageId: 'm1', model: 'small', temperature: 0.2 }))));
    expect(chat).toEqual({ id: 'chat-1', messages: [{ role: 'user', content: 'Hi' }], trigger: 'submit-message', messageId: 'm1', extra: { model: 'small', temperature: 0.2 } });
  });
});
