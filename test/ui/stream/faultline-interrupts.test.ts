// faultlineInterrupts(message): the questions a message's run stopped on, read from its data-faultline-interrupt
// parts — checked and copied field by field, bounded, and never an exception for a message of any shape.
import { describe, expect, it } from 'vitest';
import { faultlineInterrupts } from '../../../src/ui/index.js';

const approval = { id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_1', toolName: 'refund', reason: 'needs a yes', expiresAt: '2026-12-05T11:00:00.000Z' };

describe('faultlineInterrupts', () => {
  it('reads each data-faultline-interrupt part as a typed interrupt, unknown fields and arguments dropped', () => {
    const message = { parts: [{ type: 'text', text: 'hi' }, { type: 'data-faultline-interrupt', id: 'int_1', data: { ...approval, args: { card: '4242' }, extra: 1 } }] };
    expect(faultlineInterrupts(message)).toEqual([approval]);
  });

  it('skips parts that hold no interrupt and answers any message shape with a list', () => {
    const hostile = { get parts(): never { throw new Error('boom'); } };
    const throwing = { type: 'data-faultline-interrupt', get data(): never { throw new Error('boom'); } };
    for (const message of [undefined, null, {}, { parts: 'x' }, hostile, { parts: [null, 1, throwing, { type: 'data-faultline-interrupt', data: { id: 1 } }, { type: 'data-faultline-interrupt', data: { ...approval, kind: 'other' } }] }]) {
      expect(faultlineInterrupts(message as never)).toEqual([]);
    }
  });

  it('bounds what it copies: long texts cut, at most 50 interrupts', () => {
    const parts = Array.from({ length: 80 }, (_, index) => ({ type: 'data-faultline-interrupt', data: { ...approval, id: `i${index}`, reason: 'x'.repeat(5_000) } }));
    const read = faultlineInterrupts({ parts });
    expect(read).toHaveLength(50);
    expect(read[0]!.reason!.length).toBeLessThanOrEqual(1_024);
  });
});
