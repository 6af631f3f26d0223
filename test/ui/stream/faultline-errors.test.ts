// faultlineErrors reads a UI message's failures back as typed objects — from a real run's message, and from anything a
// network can send (never trusting the shape, never throwing) — and the data-part types fit `useChat`'s generics.
import type { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder } from '../../../src/agent/index.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { ChatClientError } from '../../../src/errors/index.js';
import { defineTool, RateLimitError } from '../../../src/tools/index.js';
import { faultlineErrors, toUIMessageStream, type FaultlineDataParts, type FaultlineErrorData, type FaultlineMessageMetadata, type FaultlineRecordData } from '../../../src/ui/index.js';
import { checkedBody } from './ui-stream.js';

/** Everything faultlineErrors returns is well formed: the fields the type promises, of their types. */
function wellFormed(error: FaultlineErrorData): boolean {
  return (
    typeof error.type === 'string' &&
    typeof error.message === 'string' &&
    typeof error.kind === 'string' &&
    typeof error.retryable === 'boolean' &&
    ['tool', 'run', 'model', 'record'].includes(error.scope) &&
    (error.code === undefined || typeof error.code === 'string') &&
    (error.retryAfterMs === undefined || (typeof error.retryAfterMs === 'number' && error.retryAfterMs >= 0)) &&
    (error.context === undefined || (typeof error.context === 'object' && error.context !== null && !Array.isArray(error.context))) &&
    error.message.length <= 4_096
  );
}

describe('faultlineErrors', () => {
  it('reads a run’s tool failure and terminal failure back, typed, in order', async () => {
    const limited = defineTool({
      name: 'quote',
      description: 'A stock quote.',
      parameters: z.object({ symbol: z.string() }),
      execute: () => {
        throw new RateLimitError('The quote API rate limit was reached.', { retryAfterMs: 3_000 });
      },
    });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_q', name: 'quote', arguments: { symbol: 'ACME' } }] }, { error: new ChatClientError('Upstream 503', { status: 503 }) }]);
    const agent = new AgentBuilder('quotes').chatClient(model).tools([limited]).toolLogger(false).build();
    const { message } = await checkedBody(toUIMessageStream(agent.run('ACME?')));
    expect(faultlineErrors(message)).toEqual([
      {
        type: 'RateLimitError',
        message: 'The quote API rate limit was reached.',
        suggestion: 'Wait at least 3 seconds before calling this tool again, and make fewer calls.',
        kind: 'tool',
        code: 'failure',
        retryable: true,
        retryAfterMs: 3_000,
        scope: 'tool',
        toolCallId: 'call_q',
        toolName: 'quote',
      },
      { type: 'ChatClientError', message: 'Upstream 503', kind: 'chat_client', retryable: true, scope: 'run' },
    ]);
  });

  it('reads a record with its severity, node and step', () => {
    const data = { type: 'flow_error', message: 'inventory timed out', code: 'T', kind: 'workflow', retryable: false, scope: 'record', severity: 'recoverable', nodeId: 'inv', stepNumber: 2, timestamp: '2026-01-01T00:00:00Z', path: ['child'] };
    const [record] = faultlineErrors({ parts: [{ type: 'data-faultline-record', id: 'record-1', data }] }) as FaultlineRecordData[];
    expect(record).toEqual(data);
  });

  it('skips what is not a failure and copies only the known fields of what is', () => {
    const hostile = JSON.parse(
      '{"type":"data-faultline-error","id":"e","data":{"type":"X","message":"m","kind":"tool","retryable":false,"scope":"tool","__proto__":{"polluted":true},"extra":"dropped","retryAfterMs":-5,"context":[1,2]}}',
    ) as unknown;
    const parts: unknown[] = [
      null,
      'text',
      { type: 'text', text: 'hi' },
      { type: 'data-faultline-error', data: { type: 'X', message: 'm' } }, // missing fields
      { type: 'data-faultline-error', data: { type: 'X', message: 'm', kind: 'tool', retryable: 'yes', scope: 'tool' } },
      { type: 'data-faultline-error', data: { type: 'X', message: 'm', kind: 'tool', retryable: false, scope: 'galaxy' } },
      hostile,
      { type: 'data-faultline-error', data: { type: 'Long', message: 'x'.repeat(100_000), kind: 'run', retryable: false, scope: 'run' } },
      Object.defineProperty({ type: 'data-faultline-error' }, 'data', { enumerable: true, get: () => { throw new Error('getter'); } }),
    ];
    const errors = faultlineErrors({ parts });
    expect(errors.map((error) => error.type)).toEqual(['X', 'Long']);
    expect(errors[0]).toEqual({ type: 'X', message: 'm', kind: 'tool', retryable: false, scope: 'tool' });
    expect(Object.getPrototypeOf(errors[0])).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(errors[1]?.message.length).toBe(4_096);
    for (const value of [undefined, null, {}, { parts: 'no' }, { parts: [undefined] }]) expect(faultlineErrors(value as never)).toEqual([]);
  });

  it('never throws and returns only well-formed failures, for any JSON a server could send (property, fixed seed)', () => {
    const field = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('tool', 'run', 'model', 'record'), fc.object());
    const data = fc.record({ type: field, message: field, kind: field, retryable: field, scope: field, code: field, retryAfterMs: field, context: field, suggestion: field, toolCallId: field }, { requiredKeys: [] });
    const part = fc.oneof(fc.record({ type: fc.constantFrom('data-faultline-error', 'data-faultline-record', 'text'), data: fc.oneof(data, fc.anything()) }), fc.anything());
    fc.assert(
      fc.property(fc.array(part, { maxLength: 20 }), (parts) => {
        const errors = faultlineErrors({ parts });
        return errors.every(wellFormed);
      }),
      { seed: 28, numRuns: 500 },
    );
  });

  it('never throws for a message it cannot read: a throwing parts getter, a proxy array whose reads throw (they threw the getter’s error)', () => {
    const boom = () => {
      throw new Error('getter');
    };
    const hostile = [
      { get parts() {
        return boom();
      } },
      { parts: new Proxy([1, 2], { get: (target, key) => (key === 'length' || key === 'slice' || key === 'constructor' ? boom() : Reflect.get(target, key)) }) },
      new Proxy({}, { get: boom }),
    ];
    for (const message of hostile) expect(faultlineErrors(message as never)).toEqual([]);
  });

  it('the data-part types fit useChat’s generics without importing ai from the package', () => {
    type Message = UIMessage<FaultlineMessageMetadata, FaultlineDataParts>;
    type Chat = ReturnType<typeof useChat<Message>>;
    expectTypeOf<Chat['messages'][number]>().toEqualTypeOf<Message>();
    type DataPart = Extract<Message['parts'][number], { type: 'data-faultline-error' }>;
    expectTypeOf<DataPart['data']>().toEqualTypeOf<FaultlineErrorData>();
    expectTypeOf<NonNullable<Message['metadata']>['faultline']>().toEqualTypeOf<FaultlineMessageMetadata['faultline']>();
    expectTypeOf<Message>().toExtend<Parameters<typeof faultlineErrors>[0]>();
  });
});
