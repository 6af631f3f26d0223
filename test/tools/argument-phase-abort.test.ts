/**
 * runTool's argument phase is under the call's abort and time limit (ArgumentPhaseGuard, src/tools/tool-arguments.ts):
 * an asynchronous schema and the `repair` hook are raced against the caller's signal (runTool rejects with its
 * reason at once) and `timeoutMs` (a TimeoutError result, outcome 'timeout'), and `repair` is not called once the
 * call is aborted. Before, both ran before anything watched the signal or a deadline: a hanging refinement or repair
 * (documented use: "ask a small model") kept the call — and the agent run — alive after the abort, forever.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { defineTool, runTool, TimeoutError, type StandardSchemaV1, type ToolLogRecord } from '../../src/tools/index.js';

const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ message: z.string() }), execute: ({ message }) => message });
const hanging: StandardSchemaV1<Record<string, unknown>> = { '~standard': { version: 1, vendor: 'test', validate: () => new Promise<never>(() => {}) } };
const slowSchemaTool = (timeoutMs?: number) =>
  defineTool({ name: 'slow_schema', description: 'd', parameters: hanging, jsonSchema: { type: 'object' }, ...(timeoutMs ? { timeoutMs } : {}), execute: () => 1 });
const PENDING = 'still pending';
/** How `promise` settled within `ms`, or PENDING. */
const settle = (promise: Promise<unknown>, ms = 1_000) =>
  Promise.race([promise.then(() => 'resolved', (error: unknown) => `rejected: ${String(error)}`), new Promise((resolve) => setTimeout(() => resolve(PENDING), ms))]);
const abortSoon = (ms = 30) => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('user cancelled')), ms);
  return controller.signal;
};

describe('runTool: the argument phase ends with the caller\'s abort', () => {
  it('an abort while the repair hook runs rejects with the signal\'s reason', async () => {
    const outcome = await settle(runTool(echo, '{"message": 5}', { signal: abortSoon(), logger: false, repair: () => new Promise(() => {}) }));
    expect(outcome).toBe('rejected: Error: user cancelled');
  });

  it('an already-aborted signal: the repair hook is not called', async () => {
    let repairCalls = 0;
    const signal = AbortSignal.abort(new Error('gone'));
    const outcome = await settle(runTool(echo, '{"message": 5}', { signal, logger: false, repair: () => void repairCalls++ }));
    expect(outcome).toBe('rejected: Error: gone');
    expect(repairCalls).toBe(0);
  });

  it('an abort while an async schema validates rejects with the signal\'s reason', async () => {
    expect(await settle(runTool(slowSchemaTool(), '{}', { signal: abortSoon(), logger: false }))).toBe('rejected: Error: user cancelled');
  });

  it('an agent run aborted while repairArguments hangs ends', async () => {
    const model = createScriptedChatClient([{ toolCalls: [{ name: 'echo', arguments: '{"message": 5}' }] }, { text: 'done' }]);
    const agent = new AgentBuilder('a').chatClient(model).tools([echo]).repairArguments(() => new Promise(() => {})).toolLogger(false).build();
    const outcome = await settle(collectAgentRun(await agent.run('hi', { signal: abortSoon(100) })), 1_500);
    expect(outcome).not.toBe(PENDING);
  });
});

describe('runTool: the argument phase is bounded by timeoutMs', () => {
  it('a hanging async schema gives a TimeoutError result (outcome timeout), logged', async () => {
    const records: ToolLogRecord[] = [];
    const run = await runTool(slowSchemaTool(50), '{}', { logger: (record) => records.push(record) });
    expect(run.outcome).toBe('timeout');
    expect(run.attempts).toBe(0);
    expect(TimeoutError.isInstance(run.error)).toBe(true);
    expect(run.result.error?.type).toBe('TimeoutError');
    expect(run.result.error?.message).toBe("The tool 'slow_schema' did not finish within 50 ms.");
    expect(records.map((record) => `${record.event}: ${record.message}`)).toEqual(['tool.timeout: did not finish within 50 ms (checking its arguments)']);
  });

  it('a hanging repair hook, with the per-call timeoutMs', async () => {
    const run = await runTool(echo, '{"message": 5}', { logger: false, timeoutMs: 50, repair: () => new Promise(() => {}) });
    expect(run.outcome).toBe('timeout');
  });

  it('a repair hook that answers in time still repairs, and one that throws is still an invalid_arguments result', async () => {
    const repaired = await runTool(echo, '{"message": 5}', { logger: false, timeoutMs: 1_000, repair: async () => '{"message": "fixed"}' });
    expect(repaired.outcome).toBe('success');
    expect(repaired.argumentsRepaired).toBe(true);
    const failed = await runTool(echo, '{"message": 5}', { logger: false, repair: () => Promise.reject(new Error('model down')) });
    expect(failed.outcome).toBe('invalid_arguments');
  });
});

describe('the repair hook gets the call\'s signal, so the model call it makes stops with the call', () => {
  /** A repair that waits for its signal, as a model call given it does; notes how the signal ended. */
  const listening = (seen: { reason?: unknown; aborted?: boolean }) => ({ signal }: { signal: AbortSignal }) =>
    new Promise<never>((_resolve, reject) => {
      expect(signal).toBeInstanceOf(AbortSignal);
      expect(signal.aborted).toBe(false);
      signal.addEventListener('abort', () => {
        seen.aborted = true;
        seen.reason = signal.reason;
        reject(signal.reason);
      });
    });

  it('aborts with the caller\'s abort, with its reason', async () => {
    const seen: { reason?: unknown; aborted?: boolean } = {};
    const outcome = await settle(runTool(echo, '{"message": 5}', { signal: abortSoon(), logger: false, repair: listening(seen) }));
    expect(outcome).toBe('rejected: Error: user cancelled');
    expect(seen).toEqual({ aborted: true, reason: new Error('user cancelled') });
  });

  it('aborts when timeoutMs ends the argument phase (a TimeoutError reason)', async () => {
    const seen: { reason?: unknown; aborted?: boolean } = {};
    const run = await runTool(echo, '{"message": 5}', { logger: false, timeoutMs: 50, repair: listening(seen) });
    expect(run.outcome).toBe('timeout');
    expect(seen.aborted).toBe(true);
    expect((seen.reason as DOMException).name).toBe('TimeoutError');
  });

  it('aborts under an agent run whose caller aborts (repairArguments)', async () => {
    const seen: { reason?: unknown; aborted?: boolean } = {};
    const model = createScriptedChatClient([{ toolCalls: [{ name: 'echo', arguments: '{"message": 5}' }] }, { text: 'done' }]);
    const agent = new AgentBuilder('a').chatClient(model).tools([echo]).repairArguments(listening(seen)).toolLogger(false).build();
    const outcome = await settle(collectAgentRun(await agent.run('hi', { signal: abortSoon(100) })), 1_500);
    expect(outcome).toBe('rejected: Error: user cancelled');
    expect(seen).toEqual({ aborted: true, reason: new Error('user cancelled') });
  });

  it('stays unaborted for a repair that answers in time', async () => {
    let given: AbortSignal | undefined;
    const run = await runTool(echo, '{"message": 5}', { logger: false, repair: async ({ signal }) => ((given = signal), '{"message": "fixed"}') });
    expect(run.outcome).toBe('success');
    expect(given?.aborted).toBe(false);
  });
});
