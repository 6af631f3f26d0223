/**
 * A failed run's `WorkflowError` says `retryable` exactly when the failure that ended it does: over every way a node
 * can fail (its time limit, with and without retries; a provider error either way; errors of its own; a callback,
 * a reducer or a bad result), code that checks `error.retryable` on the run's error gets the node error's answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatClientError, WorkflowError } from '../../src/errors/index.js';
import { ExecutionErrorCollector, messagesStateSchema, NODE_TIMEOUT, StateGraph, type NodeOptions } from '../../src/graph/index.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A one-node graph whose node does `run`, with `options`; the schema adds a `strict` field that refuses "bad". */
async function runOne(run: () => unknown, options: NodeOptions = {}, timers = false) {
  const schema = messagesStateSchema().addField('strict', {
    reducer: (_existing: unknown, update: unknown) => {
      if (update === 'bad') throw new Error('strict refuses "bad"');
      return update;
    },
  });
  const compiled = new StateGraph(schema).use(new ExecutionErrorCollector()).addNode('work', run, options).setEntryPoint('work').setFinishPoint('work').compile();
  if (!timers) return compiled.run({});
  vi.useFakeTimers();
  const pending = compiled.run({});
  await vi.advanceTimersByTimeAsync(1_000);
  return pending;
}

const hang = () => new Promise(() => {});
const kinds: Array<[string, () => unknown, NodeOptions, boolean, boolean]> = [
  // name, node, options, fake timers, retryable
  ['its time limit', hang, { timeoutMs: 50 }, true, true],
  ['its time limit, after every retry', hang, { timeoutMs: 50, retry: { maxAttempts: 2, initialDelayMs: 1 } }, true, true],
  ['a retryable provider error (503)', () => Promise.reject(new ChatClientError('overloaded', { status: 503 })), {}, false, true],
  ['a provider error that is not retryable (400)', () => Promise.reject(new ChatClientError('bad request', { status: 400 })), {}, false, false],
  ['a WorkflowError of its own that is retryable', () => Promise.reject(new WorkflowError('try later', { retryable: true })), {}, false, true],
  ['an error of its own marked retryable', () => Promise.reject(Object.assign(new Error('flaky'), { retryable: true })), {}, false, true],
  ['a plain error', () => Promise.reject(new Error('broken')), {}, false, false],
  ['a result that is not an update', () => [1, 2], {}, false, false],
  ['an update its reducer refuses', () => ({ strict: 'bad' }), {}, false, false],
  ['an afterNode callback that throws', () => ({}), { callbacks: { afterNode: () => Promise.reject(new Error('audit down')) } }, false, false],
];

describe('a failed run’s error', () => {
  for (const [name, run, options, timers, retryable] of kinds) {
    it(`is retryable: ${retryable} when the node failed with ${name}`, async () => {
      const outcome = await runOne(run, options, timers);
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(outcome.error.retryable).toBe(retryable);
      expect(outcome.error.toJSON().retryable).toBe(retryable || undefined);
      if (name.startsWith('its time limit')) expect(outcome.error.code).toBe(NODE_TIMEOUT);
    });
  }
});
