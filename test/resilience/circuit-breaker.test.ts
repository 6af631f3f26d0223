// The circuit breaker's state machine under fake timers (issue 16): closed → open after retryable failures in the
// window → half-open probes after the cool-down → closed (or open again); non-retryable failures never open it; no
// timer is ever left running.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CircuitOpenError, ConfigError } from '../../src/errors/index.js';
import { createCircuitBreaker, type CircuitStateChange } from '../../src/resilience/index.js';

const API = 'https://api.example.com/v1 gpt-4.1';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-12-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

function refusal(run: () => unknown): CircuitOpenError {
  try {
    run();
  } catch (error) {
    if (CircuitOpenError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a CircuitOpenError');
}

describe('the state machine', () => {
  it('opens after failureThreshold retryable failures, fails fast while open, probes once, closes on success', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 3, windowMs: 10_000, openMs: 5_000 });
    const changes: CircuitStateChange[] = [];
    breaker.on('state', (change) => changes.push(change));
    for (let index = 0; index < 2; index++) breaker.acquire(API).failure(true);
    expect(breaker.state(API)).toBe('closed');
    breaker.acquire(API).failure(true);
    expect(breaker.state(API)).toBe('open');
    expect(changes).toMatchObject([{ dependency: API, from: 'closed', to: 'open', reason: 'failure_threshold', failures: 3, calls: 3 }]);

    vi.advanceTimersByTime(2_000);
    const refused = refusal(() => breaker.acquire(API));
    expect(refused).toMatchObject({ kind: 'circuit_open', code: 'CIRCUIT_OPEN', dependency: API, state: 'open', retryAfterMs: 3_000, retryable: true });
    expect(refused.message).toBe(`The circuit of ${API} is open: it failed too often; the next probe in 3 s`);
    expect(refused.toJSON()).toMatchObject({ name: 'CircuitOpenError', kind: 'circuit_open', dependency: API, retryAfterMs: 3_000 });

    vi.advanceTimersByTime(3_000);
    expect(breaker.state(API)).toBe('half_open');
    const probe = breaker.acquire(API);
    expect(changes.at(-1)).toMatchObject({ from: 'open', to: 'half_open', reason: 'cooled_down' });
    const second = refusal(() => breaker.acquire(API)); // one probe at a time
    expect(second.state).toBe('half_open');
    probe.success();
    expect(breaker.state(API)).toBe('closed');
    expect(changes.at(-1)).toMatchObject({ from: 'half_open', to: 'closed', reason: 'probe_succeeded' });
    breaker.acquire(API).failure(true); // the window starts afresh
    expect(breaker.state(API)).toBe('closed');
  });

  it('a failed probe opens the circuit again for a full cool-down', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 1_000 });
    breaker.acquire(API).failure(true);
    vi.advanceTimersByTime(1_000);
    breaker.acquire(API).failure(true);
    expect(breaker.state(API)).toBe('open');
    expect(refusal(() => breaker.acquire(API)).retryAfterMs).toBe(1_000);
  });

  it('non-retryable failures (400, 401, validation) never open it — they are answers', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2 });
    for (let index = 0; index < 100; index++) breaker.acquire(API).failure(false);
    expect(breaker.state(API)).toBe('closed');
    const probeBreaker = createCircuitBreaker({ failureThreshold: 1, openMs: 10 });
    probeBreaker.acquire(API).failure(true);
    vi.advanceTimersByTime(10);
    probeBreaker.acquire(API).failure(false); // a probe answered with a 400: the service is up
    expect(probeBreaker.state(API)).toBe('closed');
  });

  it('failures older than the window no longer count', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 3, windowMs: 10_000 });
    breaker.acquire(API).failure(true);
    breaker.acquire(API).failure(true);
    vi.advanceTimersByTime(11_000);
    breaker.acquire(API).failure(true);
    expect(breaker.state(API)).toBe('closed');
    expect(breaker.snapshot()).toEqual([{ dependency: API, state: 'closed', failures: 1, calls: 1, retryAfterMs: 0 }]);
  });

  it('failureRate opens on a rate once minimumCalls were made', () => {
    const breaker = createCircuitBreaker({ failureRate: 0.5, minimumCalls: 10 });
    for (let index = 0; index < 6; index++) breaker.acquire(API).failure(true); // 6 of 6, but fewer than 10 calls
    expect(breaker.state(API)).toBe('closed');
    for (let index = 0; index < 3; index++) breaker.acquire(API).success();
    expect(breaker.state(API)).toBe('closed');
    breaker.acquire(API).failure(true); // 7 of 10
    expect(breaker.state(API)).toBe('open');
  });

  it('a released probe (an abort) frees its slot; a probe that never reports stops holding it after probeTimeoutMs', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 100, probeTimeoutMs: 1_000 });
    const changes: CircuitStateChange[] = [];
    breaker.on('state', (change) => changes.push(change));
    breaker.acquire(API).failure(true);
    vi.advanceTimersByTime(100);
    breaker.acquire(API).release();
    const lost = breaker.acquire(API); // never settled: its caller vanished
    expect(refusal(() => breaker.acquire(API)).retryAfterMs).toBe(1_000);
    vi.advanceTimersByTime(1_000);
    breaker.acquire(API).success();
    expect(breaker.state(API)).toBe('closed');
    const before = changes.length;
    lost.success(); // a late report of a forgotten probe counts like any call's, and moves nothing by itself
    expect(breaker.state(API)).toBe('closed');
    expect(changes).toHaveLength(before);
  });

  it('a permit reports once; a success from before the circuit opened does not close it', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 1_000 });
    const early = breaker.acquire(API);
    const failing = breaker.acquire(API);
    failing.failure(true);
    failing.success();
    expect(breaker.state(API)).toBe('open');
    early.success();
    expect(breaker.state(API)).toBe('open');
  });

  it('keeps one circuit per dependency, bounded by maxDependencies (least recently used forgotten)', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, maxDependencies: 3 });
    breaker.acquire('a').failure(true);
    for (const name of ['b', 'c']) breaker.acquire(name).success();
    expect(breaker.state('a')).toBe('open');
    expect(breaker.state('b')).toBe('closed');
    breaker.acquire('d').success(); // 'a' was used least recently
    expect(breaker.snapshot().map((circuit) => circuit.dependency)).toEqual(['b', 'c', 'd']);
    expect(breaker.state('a')).toBe('closed');
  });

  it('reset closes circuits; a listener that throws never breaks a call; no timer is ever left running', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1 });
    breaker.on('state', () => {
      throw new Error('observer broke');
    });
    breaker.acquire('a').failure(true);
    breaker.acquire('b').failure(true);
    expect(vi.getTimerCount()).toBe(0);
    breaker.reset('a');
    expect([breaker.state('a'), breaker.state('b')]).toEqual(['closed', 'open']);
    breaker.reset();
    expect(breaker.state('b')).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('options', () => {
  it('every problem in one ConfigError', () => {
    let thrown: unknown;
    try {
      createCircuitBreaker({ failureThreshold: 0, failureRate: 2, windowMs: -1, openMs: Number.NaN, halfOpenProbes: 1.5, colour: 'red' } as never);
    } catch (error) {
      thrown = error;
    }
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigError).problems).toEqual([
      'failureThreshold must be an integer ≥ 1 (got 0)',
      'windowMs must be a finite number of ms > 0 (got -1)',
      'openMs must be a finite number of ms > 0 (got NaN)',
      'halfOpenProbes must be an integer ≥ 1 (got 1.5)',
      'failureRate must be a number in (0, 1] (got 2)',
      'unknown option "colour"',
    ]);
    expect(() => createCircuitBreaker(null as never)).toThrow(ConfigError);
    expect(() => createCircuitBreaker().on('open' as never, () => {})).toThrow(ConfigError);
  });

  it('names a dependency given as another value (plain JS) by its string everywhere: circuit, error, events, snapshot', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 1, windowMs: 10_000, openMs: 5_000 });
    const changes: CircuitStateChange[] = [];
    breaker.on('state', (change) => changes.push(change));
    const port = 8080 as unknown as string;
    breaker.acquire(port).failure(true);
    expect(changes.map((change) => change.dependency)).toEqual(['8080']);
    const refused = refusal(() => breaker.acquire('8080'));
    expect(refused.dependency).toBe('8080');
    expect(refusal(() => breaker.acquire(port)).dependency).toBe('8080');
    expect(breaker.snapshot().map((circuit) => circuit.dependency)).toEqual(['8080']);
  });
});
