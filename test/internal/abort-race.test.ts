// AbortRace: Promise.race against a signal without leaving a reaction per call (the leak it replaces is shown in
// test/hardening/stream-memory.test.ts). Its outcomes are those of `Promise.race([promise, abortPromise])`.
import { describe, expect, it } from 'vitest';
import { AbortRace } from '../../src/internal/delay.js';

describe('AbortRace', () => {
  it('passes a value or an error through', async () => {
    const racer = new AbortRace(new AbortController().signal);
    await expect(racer.race(Promise.resolve(7))).resolves.toBe(7);
    const error = new Error('no');
    await expect(racer.race(Promise.reject(error))).rejects.toBe(error);
    racer.dispose();
  });

  it('rejects every pending race with the exact reason when the signal aborts', async () => {
    const controller = new AbortController();
    const racer = new AbortRace(controller.signal);
    const never = new Promise<never>(() => {});
    const races = [racer.race(never), racer.race(never)];
    const reason = new Error('user left');
    controller.abort(reason);
    for (const race of races) await expect(race).rejects.toBe(reason);
  });

  it('on an aborted signal: the reason, unless the promise had already settled (as Promise.race)', async () => {
    const controller = new AbortController();
    controller.abort('gone');
    const racer = new AbortRace(controller.signal);
    await expect(racer.race(new Promise(() => {}))).rejects.toBe('gone');
    await expect(racer.race(Promise.resolve('first'))).resolves.toBe('first');
  });

  it('a promise that settled just before the abort still wins', async () => {
    const controller = new AbortController();
    const racer = new AbortRace(controller.signal);
    let resolve!: (value: string) => void;
    const race = racer.race(new Promise<string>((done) => (resolve = done)));
    resolve('value');
    controller.abort('late');
    await expect(race).resolves.toBe('value');
  });

  it('after dispose, the signal carries no listener of it', () => {
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => (added++, add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => (removed++, remove(...args))) as typeof remove;
    const racer = new AbortRace(signal);
    void racer.race(Promise.resolve(1));
    racer.dispose();
    expect([added, removed]).toEqual([1, 1]);
  });
});
