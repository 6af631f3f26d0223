import { afterEach, describe, expect, it, vi } from 'vitest';
import { createId, randomUUID } from '../../src/internal/ids.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes prefixed v4 UUIDs with crypto.randomUUID where it exists', () => {
    const randomUUIDSpy = vi.spyOn(globalThis.crypto, 'randomUUID');
    const id = createId('call');
    expect(id).toMatch(/^call-/);
    expect(id.slice(5)).toMatch(V4);
    expect(randomUUIDSpy).toHaveBeenCalledTimes(1);
  });

  it('without randomUUID (a page over plain HTTP) draws from getRandomValues 4 KB at a time: valid, distinct ids', () => {
    const real = globalThis.crypto;
    const getRandomValues = vi.fn(<T extends ArrayBufferView | null>(array: T) => real.getRandomValues(array as never) as T);
    vi.stubGlobal('crypto', { getRandomValues });
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    expect(ids.every((id) => V4.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
    expect(getRandomValues).toHaveBeenCalledTimes(Math.ceil(1000 / 256)); // 256 ids per 4096-byte draw
  });

  it('sets the version and variant bits whatever the random bytes are', () => {
    vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView | null>(array: T) => (new Uint8Array((array as unknown as Uint8Array).buffer).fill(0xff), array) });
    const ids = Array.from({ length: 600 }, () => randomUUID()); // up to 256 may still come from an earlier draw
    expect(new Set(ids.slice(256))).toEqual(new Set(['ffffffff-ffff-4fff-bfff-ffffffffffff']));
  });
});
