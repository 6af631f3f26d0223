// Property tests (fast-check, fixed seeds) over generated hostile chat requests: valid bodies mutated every way (fields
// deleted, retyped, wrapped; prototype keys and unknown keys added; values JSON cannot carry, deep nesting, long
// strings, getters that throw, values that change on every read planted anywhere). Whatever arrives, readChatRequest
// and fromUIMessages either give a transcript that is a valid next request, or throw a UIMessagesError whose issues
// are bounded and whose message is bounded — nothing else, and no polluted prototype.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileValue } from '../../helpers/hostile-values.js';
import { mutate, type Mutation } from '../../helpers/json-mutations.js';
import { expectValidTranscript } from '../../helpers/agent-run.js';
import { fromUIMessages, readChatRequest, UIMessagesError } from '../../../src/ui/history-exports.js';
import type { ChatMessage } from '../../../src/chat/index.js';

const replay = [{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'call lookup', signature: 'sig==' } }];
const SEEDS: unknown[] = [
  { id: 'c1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where is order A-1?' }] }] },
  {
    id: 'c2',
    trigger: 'submit-message',
    messageId: 'u2',
    messages: [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where is order A-1?' }] },
      {
        id: 'a1',
        role: 'assistant',
        metadata: { faultline: { finishReason: 'stop' } },
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'call lookup', state: 'done', providerMetadata: { faultline: { reasoning: 'call lookup', replay } } },
          { type: 'text', text: 'Checking.', state: 'done' },
          {
            type: 'tool-lookup',
            toolCallId: 'call_1',
            state: 'output-available',
            input: { order: 'A-1' },
            output: { ok: true, data: { status: 'shipped' } },
            callProviderMetadata: { faultline: { arguments: '{"order":"A-1"}' } },
            resultProviderMetadata: { faultline: { content: '{"ok":true,"data":{"status":"shipped"}}' } },
          },
          { type: 'tool-lookup', toolCallId: 'call_2', state: 'output-error', input: { order: 'B-2' }, errorText: 'No order B-2.' },
          { type: 'data-faultline-error', id: 'call_2', data: { type: 'DataNotFoundError', message: 'No order B-2.', kind: 'tool', retryable: false, scope: 'tool' } },
          { type: 'step-start' },
          { type: 'text', text: 'A-1 shipped; B-2 does not exist.', state: 'done' },
          { type: 'tool-lookup', toolCallId: 'call_3', state: 'input-available', input: { order: 'C-3' } },
        ],
      },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks' }, { type: 'data-note', data: [1, 2] }] },
    ],
  },
];

const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype'];
const KNOWN_KEYS = ['id', 'role', 'parts', 'type', 'text', 'state', 'toolCallId', 'input', 'output', 'errorText', 'providerMetadata', 'callProviderMetadata', 'resultProviderMetadata', 'faultline', 'content', 'arguments', 'replay', 'messages', 'trigger'];
const PART_TYPES = ['text', 'reasoning', 'step-start', 'tool-lookup', 'dynamic-tool', 'file', 'source-url', 'data-x', 'image', 'tool-', ''];
const STATES = ['input-streaming', 'input-available', 'output-available', 'output-error', 'output-denied', 'approval-requested', 'done'];

const jsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...PART_TYPES, ...STATES),
  fc.string({ minLength: 0, maxLength: 3 }).map((text) => text.repeat(400)), // long strings, over the test's bound
  fc.integer({ min: 150, max: 400 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown),
);
const path = fc.array(fc.nat(), { maxLength: 7 });
const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ action: fc.constant('delete' as const), path }),
  fc.record({ action: fc.constant('set' as const), path, value: jsonValue }),
  fc.record({ action: fc.constant('retype' as const), path, value: fc.constantFrom(null, 0, '', [], {}, true) }),
  fc.record({ action: fc.constant('add' as const), path, key: fc.constantFrom(...DANGEROUS_KEYS, ...KNOWN_KEYS), value: jsonValue }),
  fc.record({ action: fc.constant('wrap' as const), path }),
);

const LIMITS = { maxStringLength: 1_000, maxDepth: 64, maxBodyBytes: 200_000, maxMessages: 20, maxParts: 40 };

/** Every key of every object inside `value`. */
function keysOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, into));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) into.push(key, ...keysOf(item));
  return into;
}

function expectBoundedRefusal(error: unknown): void {
  expect(UIMessagesError.isInstance(error), `threw ${String(error)}`).toBe(true);
  const refusal = error as UIMessagesError;
  expect([400, 413]).toContain(refusal.status);
  expect(refusal.issues.length).toBeGreaterThan(0);
  expect(refusal.issues.length).toBeLessThanOrEqual(20);
  expect(refusal.message.length).toBeLessThan(5 * 700);
  for (const issue of refusal.issues) expect(issue.message.length).toBeLessThan(600);
  expect(() => JSON.stringify(refusal.toJSON())).not.toThrow();
}

function expectTranscript(messages: ChatMessage[]): void {
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) expect(message.content === null || typeof message.content === 'string').toBe(true);
  expectValidTranscript(messages);
}

describe('generated hostile chat requests', () => {
  it('mutated bodies: a valid transcript or a bounded UIMessagesError, a prototype key always refused (as a Request and as a value)', async () => {
    const seen = { read: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SEEDS), fc.array(mutationArbitrary, { minLength: 1, maxLength: 5 }), async (seed, mutations) => {
        const mutated = mutate(seed, mutations);
        const dangerous = keysOf(mutated).some((key) => DANGEROUS_KEYS.includes(key));
        const text = JSON.stringify(mutated);
        for (const input of [mutated, new Request('http://127.0.0.1/api/chat', { method: 'POST', body: text })]) {
          try {
            const chat = await readChatRequest(input, LIMITS);
            expect(dangerous).toBe(false);
            expectTranscript(chat.messages);
            seen.read++;
          } catch (error) {
            expectBoundedRefusal(error);
            seen.refused++;
            // a prototype key is named, unless a bound refused the body before it was read that far
            const codes = (error as UIMessagesError).issues.map((issue) => issue.code);
            if (dangerous && !codes.includes('too_deep') && !codes.includes('too_large')) expect(codes).toContain('prototype_key');
          }
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { seed: 2_028, numRuns: 400 },
    );
    // Both outcomes are exercised: mutations that leave a body valid, and every kind of refusal.
    expect(seen.read).toBeGreaterThan(50);
    expect(seen.refused).toBeGreaterThan(200);
  });

  it('values handed in directly with anything planted (non-JSON values, deep nesting, throwing or changing getters): never a crash', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), path, hostileValue, fc.constantFrom(...KNOWN_KEYS), (seed, at, planted, key) => {
        const value = mutate(seed, [{ action: 'add', path: at, key, value: null }]);
        // plant the producer's fresh value where the mutation added the key (the mutation helper clones through JSON)
        let node: unknown = value;
        for (const index of at) {
          if (node === null || typeof node !== 'object' || Object.keys(node).length === 0) break;
          const keys = Object.keys(node);
          node = (node as Record<string, unknown>)[keys[index % keys.length] as string];
        }
        if (node !== null && typeof node === 'object' && !Array.isArray(node)) Object.defineProperty(node, key, { value: planted.make(), enumerable: true, configurable: true });
        const messages = (value as { messages?: unknown }).messages;
        try {
          expectTranscript(fromUIMessages(messages, LIMITS));
        } catch (error) {
          expectBoundedRefusal(error);
        }
      }),
      { seed: 2_029, numRuns: 300 },
    );
  });

  it('random JSON in place of the messages: never a crash', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        try {
          expectTranscript(fromUIMessages(value, LIMITS));
        } catch (error) {
          expectBoundedRefusal(error);
        }
      }),
      { seed: 2_030, numRuns: 300 },
    );
  });
});
