import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InterruptExpiredError, InterruptNotFoundError, ResumeError, ResumeIncompleteError, ResumePayloadError } from '../../src/errors/index.js';
import { approvalDenied, approvalExpired, argumentsKey, checkDecisions, RESUME_LIMITS, type Interrupt } from '../../src/interrupts/index.js';

const NOW = Date.parse('2026-12-05T10:30:00.000Z');
const approval = (id: string, extra: Partial<Interrupt> = {}): Interrupt => ({ id, runId: 'run-7', kind: 'approval', toolCallId: `call_${id}`, toolName: 'refund', args: { orderId: '42' }, createdAt: '2026-12-05T10:00:00.000Z', ...extra });
const question = (id: string, responseSchema?: Record<string, unknown>): Interrupt => ({ id, runId: 'run-7', kind: 'input', nodeId: 'confirm', value: 'Ship it?', createdAt: '2026-12-05T10:00:00.000Z', ...(responseSchema ? { responseSchema } : {}) });

function refusal(run: () => unknown): ResumeError {
  try {
    run();
  } catch (error) {
    if (ResumeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkDecisions', () => {
  it('accepts one decision per pending interrupt: an approval, a denial with a reason, a value matching its schema', () => {
    const pending = [approval('a'), approval('b'), question('c', { type: 'object', properties: { ship: { type: 'boolean' } }, required: ['ship'] })];
    const { decisions, expired } = checkDecisions('run-7', pending, [{ id: 'a', approved: true }, { id: 'b', approved: false, reason: 'too much' }, { id: 'c', value: { ship: true } }], NOW);
    expect([...decisions.values()]).toEqual([{ id: 'a', approved: true }, { id: 'b', approved: false, reason: 'too much' }, { id: 'c', value: { ship: true } }]);
    expect(expired).toEqual([]);
  });

  it('refuses an id the run does not wait on with InterruptNotFoundError, listing the pending ids', () => {
    const error = refusal(() => checkDecisions('run-7', [approval('a'), approval('b')], [{ id: 'a', approved: true }, { id: 'zzz', approved: true }], NOW));
    expect(InterruptNotFoundError.isInstance(error)).toBe(true);
    expect(error.code).toBe('INTERRUPT_NOT_FOUND');
    expect((error as InterruptNotFoundError).ids).toEqual(['zzz']);
    expect(error.pendingIds).toEqual(['a', 'b']);
    expect(error.message).toContain('waits on a, b');
    expect(error.httpStatus).toBe(404);
  });

  it('refuses a decision after expiresAt with InterruptExpiredError, and needs none for an expired interrupt', () => {
    const pending = [approval('a', { expiresAt: '2026-12-05T10:29:59.999Z' }), approval('b')];
    const error = refusal(() => checkDecisions('run-7', pending, [{ id: 'a', approved: true }, { id: 'b', approved: true }], NOW));
    expect(InterruptExpiredError.isInstance(error)).toBe(true);
    expect((error as InterruptExpiredError).expiredAt).toBe('2026-12-05T10:29:59.999Z');
    expect(error.httpStatus).toBe(410);
    const { expired } = checkDecisions('run-7', pending, [{ id: 'b', approved: true }], NOW);
    expect(expired.map((interrupt) => interrupt.id)).toEqual(['a']);
  });

  it('an interrupt expiring exactly now is expired; one millisecond later it is not', () => {
    expect(checkDecisions('run-7', [approval('a', { expiresAt: new Date(NOW).toISOString() })], [], NOW).expired).toHaveLength(1);
    expect(() => checkDecisions('run-7', [approval('a', { expiresAt: new Date(NOW + 1).toISOString() })], [], NOW)).toThrow(ResumeIncompleteError);
  });

  it('refuses a resume that leaves a pending interrupt undecided with ResumeIncompleteError, listing them', () => {
    const error = refusal(() => checkDecisions('run-7', [approval('a'), approval('b'), approval('c')], [{ id: 'b', approved: true }], NOW));
    expect(ResumeIncompleteError.isInstance(error)).toBe(true);
    expect((error as ResumeIncompleteError).undecidedIds).toEqual(['a', 'c']);
    expect(error.httpStatus).toBe(422);
  });

  it('refuses a value failing its responseSchema with ResumePayloadError naming each issue by path', () => {
    const pending = [question('c', { type: 'object', properties: { ship: { type: 'boolean' }, note: { type: 'string', maxLength: 3 } }, required: ['ship'] })];
    const error = refusal(() => checkDecisions('run-7', pending, [{ id: 'c', value: { note: 'too long' } }], NOW));
    expect(ResumePayloadError.isInstance(error)).toBe(true);
    expect((error as ResumePayloadError).issues).toEqual(expect.arrayContaining([expect.stringContaining('value.ship'), expect.stringContaining('value.note')]));
  });

  it('refuses the wrong kind of answer: a value for an approval, an approval for a question', () => {
    expect(refusal(() => checkDecisions('run-7', [approval('a')], [{ id: 'a', value: true }], NOW)).message).toContain('asks for an approval');
    expect(refusal(() => checkDecisions('run-7', [question('c')], [{ id: 'c', approved: true }], NOW)).message).toContain('asks for a value');
  });

  it('refuses two different decisions for one id, and accepts the same decision twice', () => {
    expect(ResumePayloadError.isInstance(refusal(() => checkDecisions('run-7', [approval('a')], [{ id: 'a', approved: true }, { id: 'a', approved: false }], NOW)))).toBe(true);
    expect(checkDecisions('run-7', [approval('a')], [{ id: 'a', approved: true }, { id: 'a', approved: true }], NOW).decisions.size).toBe(1);
  });

  it('never crashes on a hostile resume: every input is accepted or refused with a ResumeError (fixed seed)', () => {
    const pending = [approval('a'), question('c', { type: 'string' }), question('d')];
    // values JSON cannot hold too (a BigInt, a boxed value, a Map), and a cycle
    const hostile = fc.anything({ withBigInt: true, withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true, withDate: true, withSparseArray: true });
    const cycle = (() => {
      const value: Record<string, unknown> = { id: 'd' };
      value['value'] = value;
      return value;
    })();
    const decision = fc.oneof(
      hostile,
      fc.record({ id: fc.oneof(fc.constantFrom('a', 'c', 'd', 'zz', ''), hostile), approved: fc.oneof(fc.boolean(), hostile), reason: hostile }, { requiredKeys: [] }),
      fc.record({ id: fc.constantFrom('a', 'c', 'd'), value: hostile }),
      fc.constant(JSON.parse('{"id":"a","approved":true,"__proto__":{"polluted":1}}')),
      fc.constant(cycle),
    );
    // each decision also sent twice: two decisions for one id are compared, which must not throw either
    const decisions = fc.array(decision, { maxLength: 6 }).chain((list) => fc.constantFrom(list, [...list, ...list]));
    fc.assert(
      fc.property(fc.oneof(hostile, decisions), (given) => {
        try {
          const { decisions } = checkDecisions('run-7', pending, given, NOW);
          expect(decisions.size).toBe(3);
        } catch (error) {
          expect(ResumeError.isInstance(error)).toBe(true);
          expect((error as ResumeError).message.length).toBeLessThan(2_000);
        }
        expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      }),
      { seed: 2026_12_05, numRuns: 400 },
    );
  });

  it('bounds a resume: more than maxDecisions decisions, or a reason over maxReasonLength, is refused', () => {
    const many = Array.from({ length: RESUME_LIMITS.maxDecisions + 1 }, () => ({ id: 'a', approved: true }));
    expect(refusal(() => checkDecisions('run-7', [approval('a')], many, NOW)).message).toContain(`at most ${RESUME_LIMITS.maxDecisions}`);
    expect(refusal(() => checkDecisions('run-7', [approval('a')], [{ id: 'a', approved: false, reason: 'x'.repeat(RESUME_LIMITS.maxReasonLength + 1) }], NOW)).message).toContain('reason is longer');
  });
});

describe('what the model is told', () => {
  it('a denial is a structured tool error with the reason and a suggestion not to repeat the call', () => {
    expect(approvalDenied('refund', 'over limit')).toEqual({
      type: 'ToolApprovalDenied',
      message: 'The user did not approve this call of "refund"; it was not run. Their reason: over limit',
      context: { tool: 'refund', reason: 'over limit' },
      suggestion: expect.stringContaining('Do not call it again with the same arguments'),
    });
    expect(approvalExpired('refund', '2026-12-05T11:00:00.000Z')).toMatchObject({ type: 'ToolApprovalExpired', context: { expiresAt: '2026-12-05T11:00:00.000Z' } });
  });
});

describe('argumentsKey', () => {
  it('is the same for the same JSON in any key order and differs for a different value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(JSON.stringify(value), (_key, inner) => (inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).reverse()) : inner));
        expect(argumentsKey(reordered)).toBe(argumentsKey(value));
      }),
      { seed: 7, numRuns: 300 },
    );
    expect(argumentsKey({ a: 1 })).not.toBe(argumentsKey({ a: '1' }));
    expect(argumentsKey(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });

  it('never throws: a value JSON cannot hold gets a key no JSON value has (it threw a bare TypeError)', () => {
    const cyclic = new (class Holder {
      self = this;
    })();
    const unreadable = { get x() {
      throw new Error('getter');
    } };
    for (const value of [1n, { n: 1n }, [cyclic], cyclic, unreadable]) {
      const key = argumentsKey(value);
      expect(key.startsWith('\u0000')).toBe(true);
    }
    fc.assert(fc.property(fc.jsonValue(), (value) => {
          expect(argumentsKey(value).startsWith('\u0000')).toBe(false);
        }), { seed: 8, numRuns: 200 });
  });
});
