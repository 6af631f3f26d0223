import { describe, expect, it } from 'vitest';
import { isRecoverable, markRecoverable, recoverableError, toResponseError } from '../../src/errors/index.js';

class SoftLimitError extends Error {
  recoverable(): boolean {
    return true;
  }
}

class HardLimitError extends Error {
  recoverable(): boolean {
    return false;
  }
}

describe('recoverable marking (seed-systems §1.4)', () => {
  it('marks a plain error recoverable without changing its message (scenario 12)', () => {
    const marked = markRecoverable(new Error('wrapped boom'));
    expect(isRecoverable(marked)).toBe(true);
    expect(marked.message).toBe('wrapped boom');
    expect(marked).toBeInstanceOf(Error);
  });

  it('keeps the original as cause', () => {
    const original = new Error('cache miss');
    expect((markRecoverable(original) as Error).cause).toBe(original);
  });

  it('does not wrap an error that already is recoverable', () => {
    const soft = new SoftLimitError('quota service returned soft limit');
    expect(markRecoverable(soft)).toBe(soft);
    const marked = markRecoverable(new Error('x'));
    expect(markRecoverable(marked)).toBe(marked);
  });

  it('passes null and undefined through', () => {
    expect(markRecoverable(null)).toBeNull();
    expect(markRecoverable(undefined)).toBeUndefined();
  });

  it('recognises a Recoverable() implementation (scenario 11)', () => {
    expect(isRecoverable(new SoftLimitError('soft'))).toBe(true);
    expect(isRecoverable(new Error('outer', { cause: new SoftLimitError('soft') }))).toBe(true);
  });

  it('lets the first implementer in the chain decide, even when it says false', () => {
    const chain = new HardLimitError('hard', { cause: new SoftLimitError('soft') });
    expect(isRecoverable(chain)).toBe(false);
  });

  it('wraps an error whose first implementer says false, making it recoverable', () => {
    const marked = markRecoverable(new HardLimitError('hard'));
    expect(isRecoverable(marked)).toBe(true);
  });

  it('honours a boolean recoverable property', () => {
    expect(isRecoverable(Object.assign(new Error('x'), { recoverable: true }))).toBe(true);
    expect(isRecoverable(Object.assign(new Error('x'), { recoverable: false }))).toBe(false);
    expect(isRecoverable(Object.assign(new Error('x'), { recoverable: 'yes' }))).toBe(false);
  });

  it('says false for plain errors and non-errors', () => {
    expect(isRecoverable(new Error('plain'))).toBe(false);
    expect(isRecoverable('text')).toBe(false);
    expect(isRecoverable(null)).toBe(false);
    expect(isRecoverable(undefined)).toBe(false);
    expect(isRecoverable({})).toBe(false);
  });

  it('looks inside AggregateError members', () => {
    expect(isRecoverable(new AggregateError([new Error('a'), new SoftLimitError('b')]))).toBe(true);
  });

  it('lets code and type extraction see through the wrapper (scenario 20)', () => {
    const coded = Object.assign(new Error('inventory lookup timed out'), {
      errorCode: () => 'E1',
      errorType: () => 'biz',
    });
    expect(toResponseError(markRecoverable(coded))).toEqual({ type: 'biz', message: 'inventory lookup timed out', code: 'E1' });
  });

  it('recoverableError creates a recoverable error, optionally with a code', () => {
    const error = recoverableError('cache lookup timed out', { code: 'CACHE_TIMEOUT' });
    expect(isRecoverable(error)).toBe(true);
    expect(error.message).toBe('cache lookup timed out');
    expect(toResponseError(error)).toEqual({ type: 'flow_error', message: 'cache lookup timed out', code: 'CACHE_TIMEOUT' });
    expect(toResponseError(recoverableError('no code'))).not.toHaveProperty('code');
    expect([error.name, error.code, error.cause, error instanceof Error, typeof error.stack]).toEqual(['Error', 'CACHE_TIMEOUT', undefined, true, 'string']);
    expect(markRecoverable(error)).toBe(error); // already recoverable: not wrapped again
  });

  it('marks a thrown non-error value', () => {
    const marked = markRecoverable('string failure');
    expect(isRecoverable(marked)).toBe(true);
    expect((marked as Error).message).toBe('string failure');
  });
});
