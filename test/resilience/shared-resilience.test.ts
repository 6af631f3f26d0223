// A circuit breaker and a retry budget shared by many runs (issue 16): 1,000 concurrent runs against a failing fake
// provider make a bounded number of attempts (counted) and recover when it comes back; a fallback chain skips an open
// circuit at once; the retry event says when the budget stopped a retry. The clock is faked (Date only), the
// provider is a fetch function over loopback-free fakes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder, runAgent } from '../../src/agent/index.js';
import { createFallbackChatClient, createOpenAICompatibleClient, type ChatClient } from '../../src/chat/index.js';
import { ChatClientError, CircuitOpenError } from '../../src/errors/index.js';
import { createCircuitBreaker, createRetryBudget, type CircuitBreaker, type RetryBudget } from '../../src/resilience/index.js';
import { sseResponse, textEvents } from '../helpers/openai.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

/** A provider that is down (503) or up (a one-word answer), counting every request it receives. */
function fakeProvider(text = 'ok') {
  const provider = {
    down: true,
    requests: 0,
    fetch: (async () => {
      provider.requests++;
      await Promise.resolve();
      if (provider.down) return new Response(JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error' } }), { status: 503, headers: { 'content-type': 'application/json' } });
      return sseResponse(textEvents([text]));
    }) as typeof fetch,
  };
  return provider;
}

function client(provider: ReturnType<typeof fakeProvider>, resilience: { circuitBreaker?: CircuitBreaker; retryBudget?: RetryBudget }, model = 'gpt-test'): ChatClient {
  return createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', apiKey: 'sk-test', model, fetch: provider.fetch, retry: { maxAttempts: 3, initialDelayMs: 0 }, ...resilience });
}

async function outcomes(runs: Array<Promise<unknown>>): Promise<{ ok: number; chat: number; open: number; other: unknown[] }> {
  const settled = await Promise.allSettled(runs);
  const result = { ok: 0, chat: 0, open: 0, other: [] as unknown[] };
  for (const each of settled) {
    if (each.status === 'fulfilled') result.ok++;
    else if (CircuitOpenError.isInstance(each.reason)) result.open++;
    else if (ChatClientError.isInstance(each.reason)) result.chat++;
    else result.other.push(each.reason);
  }
  return result;
}

describe('1,000 concurrent runs against a failing provider', () => {
  it('without resilience: 3,000 attempts (3 each) — the retry storm this prevents', async () => {
    const provider = fakeProvider();
    const model = client(provider, {});
    const result = await outcomes(Array.from({ length: 1_000 }, () => runAgent({ model, prompt: 'Hi' })));
    expect(result).toMatchObject({ ok: 0, chat: 1_000, open: 0 });
    expect(provider.requests).toBe(3_000);
  });

  it('with a shared breaker and budget: at most calls + budget attempts, every run a typed failure; then it recovers', async () => {
    const provider = fakeProvider();
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 5, windowMs: 30_000, openMs: 10_000 });
    const retryBudget = createRetryBudget({ ratio: 0.1, minRetries: 10, windowMs: 10_000 });
    const model = client(provider, { circuitBreaker, retryBudget });
    const states: string[] = [];
    circuitBreaker.on('state', (change) => states.push(`${change.from}→${change.to}`));

    const failing = await outcomes(Array.from({ length: 1_000 }, () => runAgent({ model, prompt: 'Hi' })));
    expect(failing.other).toEqual([]);
    expect(failing.ok).toBe(0);
    expect(failing.chat + failing.open).toBe(1_000);
    const allowedRetries = Math.max(10, Math.floor(0.1 * 1_000));
    expect(provider.requests).toBeLessThanOrEqual(1_000 + allowedRetries); // was 3,000
    expect(retryBudget.stats().retries).toBeLessThanOrEqual(allowedRetries);
    expect(circuitBreaker.state('https://llm.test/v1 gpt-test')).toBe('open');

    // While open, a run fails at once without a request.
    const before = provider.requests;
    await expect(runAgent({ model, prompt: 'Hi' })).rejects.toSatisfy(CircuitOpenError.isInstance);
    expect(provider.requests).toBe(before);

    // The provider comes back; after the cool-down one probe closes the circuit and everything flows again.
    provider.down = false;
    vi.setSystemTime(Date.now() + 10_000);
    await expect(runAgent({ model, prompt: 'Hi' })).resolves.toMatchObject({ text: 'ok' });
    expect(circuitBreaker.state('https://llm.test/v1 gpt-test')).toBe('closed');
    const recovered = await outcomes(Array.from({ length: 1_000 }, () => runAgent({ model, prompt: 'Hi' })));
    expect(recovered).toMatchObject({ ok: 1_000, chat: 0, open: 0 });
    expect(provider.requests).toBe(before + 1 + 1_000);
    expect(states).toEqual(['closed→open', 'open→half_open', 'half_open→closed']);
  }, 60_000);

  it('a budget alone bounds the retries, and the retry event says when the budget stopped one', async () => {
    const provider = fakeProvider();
    const retryBudget = createRetryBudget({ ratio: 0.1, minRetries: 10 });
    const agent = new AgentBuilder('support').chatClient(client(provider, { retryBudget })).build();
    const retries: Array<{ budgetExhausted?: boolean; delayMs: number }> = [];
    agent.on('retry', (event) => retries.push(event));
    const runs = Array.from({ length: 1_000 }, async () => {
      for await (const item of agent.run('Hi')) if (item.type === 'error' && item.terminal) throw item.error;
    });
    const result = await outcomes(runs);
    expect(result).toMatchObject({ ok: 0, chat: 1_000 });
    expect(provider.requests).toBeLessThanOrEqual(1_100);
    expect(retries.filter((event) => !event.budgetExhausted).length).toBe(provider.requests - 1_000);
    const stopped = retries.filter((event) => event.budgetExhausted);
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped[0]).toMatchObject({ budgetExhausted: true, delayMs: 0 });
  }, 60_000);
});

describe('a fallback chain and an open circuit', () => {
  it('skips the primary model while its circuit is open and moves to the next at once', async () => {
    const primary = fakeProvider();
    const secondary = fakeProvider('from the fallback');
    secondary.down = false;
    const circuitBreaker = createCircuitBreaker({ failureThreshold: 2, openMs: 60_000 });
    const chain = createFallbackChatClient([client(primary, { circuitBreaker }, 'big-model'), client(secondary, { circuitBreaker }, 'small-model')]);
    await runAgent({ model: chain, prompt: 'Hi' }); // primary: 3 failed attempts (the circuit opens on the 2nd), then the fallback
    expect(circuitBreaker.state('https://llm.test/v1 big-model')).toBe('open');
    const primaryRequests = primary.requests;
    const fallbacks: unknown[] = [];
    const agent = new AgentBuilder('support').chatClient(chain).build();
    agent.on('retry', (event) => fallbacks.push(event));
    const started = performance.now();
    const items = [];
    for await (const item of agent.run('Hi')) items.push(item);
    expect(items.at(-1)).toMatchObject({ type: 'finish', text: 'from the fallback' });
    expect(primary.requests).toBe(primaryRequests); // not one request to the open circuit
    expect(fallbacks).toMatchObject([{ source: 'model', fallbackTo: expect.stringContaining('small-model'), error: { name: 'CircuitOpenError', kind: 'circuit_open' } }]);
    expect(performance.now() - started).toBeLessThan(1_000); // no back-off wait before moving on
    expect(circuitBreaker.state('https://llm.test/v1 small-model')).toBe('closed');
  });
});
