/**
 * Load: 1,000 concurrent agent runs and 1,000 concurrent graph runs under the `Runner`, in one process, several
 * rounds in a row. Every run must complete with the right result (each agent run: one tool call — some tools fail,
 * crash or get invalid arguments — then a final answer; each graph run: a recoverable node failure for some orders,
 * a fatal node for others, and exactly one `runner.completion`). Afterwards nothing may be left behind: the heap
 * returns to its baseline (forced GC), no timer stays armed, no `abort` listener stays on the caller's signal, no
 * listener stays on the shared agent's emitter. Per-run cost must stay flat from 100 to 1,000 concurrent runs.
 *
 * Half the agent runs share one `Agent` over `createOpenAICompatibleClient` with a `fetch` stub serving prebuilt SSE
 * (the client's timers, streams and decoder under load); the other half each get their own agent over
 * `createScriptedChatClient` (which records its requests, so it must not be shared across thousands of runs).
 * Assertions on time are deliberately loose (2-core CI): a ratio, never an absolute duration.
 */
import { getEventListeners, setMaxListeners } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type Agent, type AgentEvents, type AgentRunItem, type SessionStore } from '../../src/agent/index.js';
import { createOpenAICompatibleClient, createScriptedChatClient, type ChatClient } from '../../src/chat/index.js';
import { markRecoverable, ToolError } from '../../src/errors/index.js';
import {
  createGraphAgent,
  decodeStateDelta,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  StateGraph,
  StateSchema,
  type State,
} from '../../src/graph/index.js';
import { isRunnerCompletion, isTerminalError, Runner, type RunEvent } from '../../src/runner/index.js';
import { sseText, textEvents, toolCallEvents } from '../../src/testing/openai-stream.js';
import { DataNotFoundError, defineTool, ToolResult, type ToolLogRecord } from '../../src/tools/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const RUNS = 1_000;
const SMALL_RUNS = 100;
const ROUNDS = 3;
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------------
// Agent side: one tool, five outcomes chosen by the order number

type ToolCase = 'success' | 'failure' | 'crash' | 'invalid_arguments' | 'error_result';
const TOOL_CASES: readonly ToolCase[] = ['success', 'failure', 'crash', 'invalid_arguments', 'error_result'];
const toolCaseOf = (order: number): ToolCase => TOOL_CASES[order % TOOL_CASES.length] as ToolCase;

/** What the model receives as `error.type` per case (success has none). */
const MODEL_ERROR_TYPE: Record<ToolCase, string | undefined> = {
  success: undefined,
  failure: 'DataNotFoundError',
  crash: 'ToolInternalError',
  invalid_arguments: 'InputValidationError',
  error_result: 'OutOfStock',
};

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Stock level of an order.',
  parameters: z.object({ order: z.number().int() }),
  execute: async ({ order }) => {
    await Promise.resolve();
    switch (toolCaseOf(order)) {
      case 'failure':
        throw new DataNotFoundError(`No order ${order}.`);
      case 'crash':
        throw new Error(`database connection reset while reading order ${order}`);
      case 'error_result':
        return ToolResult.error({ type: 'OutOfStock', message: `Order ${order} is out of stock.` });
      default:
        return { order, stock: order * 2 };
    }
  },
});

/** The tool arguments the model sends for `order` (a string where a number belongs, for the invalid case). */
const argumentsFor = (order: number): string => (toolCaseOf(order) === 'invalid_arguments' ? `{"order": "order-${order}"}` : `{"order": ${order}}`);

/** The model's final answer, computed from the tool message it got back. */
function answerFor(order: number, toolContent: string): string {
  const result = JSON.parse(toolContent) as { ok: boolean; data?: { stock?: number }; error?: { type: string } };
  return result.ok ? `Order ${order}: ${String(result.data?.stock)} in stock.` : `Order ${order}: the lookup failed (${result.error?.type}).`;
}

/** The answer the run must end with, computed independently of the model. */
function expectedAnswer(order: number): string {
  const type = MODEL_ERROR_TYPE[toolCaseOf(order)];
  return type === undefined ? `Order ${order}: ${order * 2} in stock.` : `Order ${order}: the lookup failed (${type}).`;
}

const orderOf = (messages: readonly { role: string; content?: string | null }[]): number => {
  const user = messages.find((message) => message.role === 'user');
  return Number(/order (\d+)/.exec(user?.content ?? '')?.[1]);
};

/** Prebuilt SSE bodies of the tool-call turn, one per order (orders are 0…RUNS−1 in every batch). */
const TOOL_CALL_SSE: readonly string[] = Array.from({ length: RUNS }, (_, order) =>
  sseText(toolCallEvents([{ id: `call_${order}`, name: 'lookup_order', arguments: argumentsFor(order) }])),
);

/** An OpenAI-compatible endpoint without a network: first call → the tool call, second call → the answer. */
const stubFetch: typeof fetch = async (_input, init) => {
  const body = JSON.parse(String(init?.body)) as { messages: Array<{ role: string; content?: string | null }> };
  const last = body.messages.at(-1);
  const order = orderOf(body.messages);
  const text = last?.role === 'tool' ? sseText(textEvents([answerFor(order, String(last.content))])) : (TOOL_CALL_SSE[order] as string);
  return new Response(text, { headers: { 'content-type': 'text/event-stream' } });
};

const noSessions: SessionStore = { load: async () => [], append: async () => {} };

const toolLogCounts = { records: 0 };
const countingLogger = (_record: ToolLogRecord): void => {
  toolLogCounts.records++;
};

function sharedAgent(): Agent {
  const client: ChatClient = createOpenAICompatibleClient({ baseURL: 'https://llm.load.test/v1', apiKey: 'sk-load-0123456789abcdef', model: 'load-model', fetch: stubFetch, retry: false });
  return new AgentBuilder('load-shared').chatClient(client).tools([lookupOrder]).sessionStore(noSessions).toolLogger(countingLogger).build();
}

function scriptedAgent(order: number): Agent {
  const client = createScriptedChatClient([
    { toolCalls: [{ id: `call_${order}`, name: 'lookup_order', arguments: argumentsFor(order) }] },
    (request) => ({ text: answerFor(order, String(request.messages.at(-1)?.content)) }),
  ]);
  return new AgentBuilder(`load-scripted-${order}`).chatClient(client).tools([lookupOrder]).sessionStore(noSessions).toolLogger(countingLogger).build();
}

/** Runs one agent run to its end and checks its items; returns nothing (nothing of the run is kept). */
async function agentRun(agent: Agent, order: number, signal: AbortSignal): Promise<void> {
  const items: AgentRunItem[] = [];
  for await (const item of await agent.run(`Stock for order ${order}?`, { signal })) items.push(item);
  const toolCase = toolCaseOf(order);
  const results = items.filter((item) => item.type === 'tool-result');
  expect(results, `order ${order}: one tool result`).toHaveLength(1);
  const result = results[0] as Extract<AgentRunItem, { type: 'tool-result' }>;
  expect(result.outcome).toBe(toolCase);
  expect(result.result.error?.type).toBe(MODEL_ERROR_TYPE[toolCase]);
  const errors = items.filter((item) => item.type === 'error');
  if (toolCase === 'crash') {
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ terminal: false });
    expect(ToolError.isInstance((errors[0] as { error: unknown }).error)).toBe(true);
  } else {
    expect(errors, `order ${order}: no error items`).toEqual([]);
  }
  const finish = items.at(-1);
  expect(finish?.type, `order ${order}: ends with finish`).toBe('finish');
  expect(finish).toMatchObject({ finishReason: 'stop', iterations: 2, text: expectedAnswer(order) });
}

// ---------------------------------------------------------------------------------------------------------------
// Graph side: lookup (recoverable failure for some orders) → finalize (fatal for others), under one Runner

const isRecoverableOrder = (order: number): boolean => order % 4 === 1;
const isFatalOrder = (order: number): boolean => order % 10 === 7;
const coded = (message: string, code: string): Error => Object.assign(new Error(message), { code });

function loadGraphRunner(): Runner {
  const collector = new ExecutionErrorCollector();
  const schema = collector.addField(new StateSchema().addField('order', {}).addField('stock', {}).addField('status', {}));
  const compiled = new StateGraph(schema)
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('lookup', (state: State) => {
      const order = state.order as number;
      if (isRecoverableOrder(order)) throw markRecoverable(coded(`inventory for order ${order} timed out`, 'LOOKUP_SOFT_TIMEOUT'));
      return { stock: order * 3 };
    })
    .addNode('finalize', (state: State) => {
      const order = state.order as number;
      if (isFatalOrder(order)) throw coded(`ledger write for order ${order} failed`, 'LEDGER_FATAL');
      return { status: state.stock === undefined ? 'degraded' : 'complete' };
    })
    .setEntryPoint('lookup')
    .addEdge('lookup', 'finalize')
    .setFinishPoint('finalize')
    .compile();
  return new Runner({ appName: 'load', agent: createGraphAgent('load-graph', compiled), sessionStore: noSessions });
}

/** Runs one graph run under the runner and checks its events and its completion. */
async function graphRun(runner: Runner, order: number, signal: AbortSignal): Promise<void> {
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: `s-${order}`, message: `order ${order}`, state: { order }, signal })) events.push(event);
  const completions = events.filter(isRunnerCompletion);
  expect(completions, `order ${order}: exactly one completion`).toHaveLength(1);
  const completion = events.at(-1) as RunEvent;
  expect(completions[0]).toBe(completion);
  const records = executionErrorsFromStateDelta(completion.stateDelta) ?? [];
  const expectedRecords = [
    ...(isRecoverableOrder(order) ? [{ severity: 'recoverable', nodeId: 'lookup', stepNumber: 0, error: { type: 'flow_error', message: `inventory for order ${order} timed out`, code: 'LOOKUP_SOFT_TIMEOUT' } }] : []),
    ...(isFatalOrder(order) ? [{ severity: 'fatal', nodeId: 'finalize', stepNumber: 1, error: { type: 'flow_error', message: `ledger write for order ${order} failed`, code: 'LEDGER_FATAL' } }] : []),
  ];
  expect(records).toEqual(expectedRecords.map((record) => expect.objectContaining(record)));
  const state = decodeStateDelta(completion.stateDelta);
  expect(state.order).toBe(order);
  expect(state.stock).toBe(isRecoverableOrder(order) ? undefined : order * 3);
  if (isFatalOrder(order)) {
    expect(events.filter(isTerminalError)).toEqual([completion]);
    expect(completion.response?.error).toEqual({
      type: 'flow_error',
      code: 'LEDGER_FATAL',
      message: `node finalize failed at step 1: ledger write for order ${order} failed`,
    });
    expect(state.status).toBeUndefined();
  } else {
    expect(events.filter(isTerminalError)).toEqual([]);
    expect(completion.response?.error).toBeUndefined();
    expect(state.status).toBe(isRecoverableOrder(order) ? 'degraded' : 'complete');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

/** `count` agent runs and `count` graph runs, all started at once; resolves with the wall time in ms. */
async function batch(count: number, agent: Agent, runner: Runner, signal: AbortSignal): Promise<number> {
  const started = performance.now();
  const runs: Promise<void>[] = [];
  for (let order = 0; order < count; order++) {
    runs.push(agentRun(order % 2 === 0 ? agent : scriptedAgent(order), order, signal));
    runs.push(graphRun(runner, order, signal));
  }
  await Promise.all(runs);
  return performance.now() - started;
}

/** Heap in use after forced collections (with turns of the event loop in between for pending finalizers). */
async function settledHeap(): Promise<number> {
  for (let pass = 0; pass < 4; pass++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const activeTimers = (): number => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

/**
 * Tracks the timers armed through `globalThis.setTimeout` (the SDK's only timer source) until `restore()`: a handle
 * stays in `pending` until it fires or is cleared. Precise where `getActiveResourcesInfo` also counts the test
 * runner's own timers.
 */
function trackTimers(): { pending: Set<unknown>; armed: () => number; restore: () => void } {
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const pending = new Set<unknown>();
  let armed = 0;
  globalThis.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = realSetTimeout((...callArgs: unknown[]) => {
      pending.delete(handle);
      handler(...callArgs);
    }, ms, ...args);
    pending.add(handle);
    armed++;
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
    pending.delete(handle);
    realClearTimeout(handle);
  }) as typeof clearTimeout;
  return {
    pending,
    armed: () => armed,
    restore: () => {
      globalThis.setTimeout = realSetTimeout;
      globalThis.clearTimeout = realClearTimeout;
    },
  };
}

/** Listeners on the shared agent's nanoevents emitter (a private field: read only to detect leaks). */
function emitterListenerCount(agent: Agent): number {
  const emitter = (agent as unknown as { emitter: { events: Record<string, unknown[] | undefined> } }).emitter;
  return Object.values(emitter.events).reduce((sum, listeners) => sum + (listeners?.length ?? 0), 0);
}

// ---------------------------------------------------------------------------------------------------------------

describe('1,000 concurrent agent runs and 1,000 concurrent graph runs in one process', () => {
  it('all complete with the right results, leave no heap, timers or listeners behind, and cost the same per run at 100 and 1,000', { timeout: 40_000 }, async () => {
    const agent = sharedAgent();
    const runner = loadGraphRunner();
    const caller = new AbortController(); // every run observes it, as a server's request signal would
    setMaxListeners(10 * RUNS, caller.signal);
    const seen = { toolStart: 0, toolEnd: 0 };
    const unbind = [
      agent.on('tool-start', (() => seen.toolStart++) as AgentEvents['tool-start']),
      agent.on('tool-end', (() => seen.toolEnd++) as AgentEvents['tool-end']),
    ];
    const boundListeners = emitterListenerCount(agent);

    // Warm-up (JIT, lazy module state), then the baselines.
    await batch(SMALL_RUNS, agent, runner, caller.signal);
    const processTimersBefore = activeTimers();
    const baseline = await settledHeap();
    const timers = trackTimers();
    const heaps: number[] = [];
    const largeTimes: number[] = [];
    const smallTimes: number[] = [];
    let peakAbortListeners = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const running = batch(RUNS, agent, runner, caller.signal);
        // Every run links to the caller's signal as it starts (synchronously).
        peakAbortListeners = Math.max(peakAbortListeners, getEventListeners(caller.signal, 'abort').length);
        largeTimes.push(await running);
        heaps.push(await settledHeap());
      }
      for (let round = 0; round < 3; round++) smallTimes.push(await batch(SMALL_RUNS, agent, runner, caller.signal));
    } finally {
      timers.restore();
    }
    const final = await settledHeap();

    // Every run of the shared agent was observed once: one tool-start and one tool-end per run.
    const sharedRuns = (SMALL_RUNS + ROUNDS * RUNS + 3 * SMALL_RUNS) / 2;
    expect(seen).toEqual({ toolStart: sharedRuns, toolEnd: sharedRuns });
    expect(toolLogCounts.records).toBeGreaterThan(0);

    // Nothing left armed or attached. (The runs did arm timers and listen to the caller's signal.)
    expect(timers.armed(), 'timers the runs armed (tool and model time limits)').toBeGreaterThan(RUNS);
    expect(timers.pending.size, 'timers armed by the runs and still pending after every run finished').toBe(0);
    expect(activeTimers(), 'active timers of the process').toBeLessThanOrEqual(processTimersBefore);
    // However many runs share the caller's signal, it carries one listener of ours (watchAbort fans out).
    expect(peakAbortListeners, 'abort listeners on the caller signal while the runs were going').toBe(1);
    expect(getEventListeners(caller.signal, 'abort'), 'abort listeners left on the caller signal').toHaveLength(0);
    expect(emitterListenerCount(agent), 'listeners left on the agent emitter').toBe(boundListeners);
    unbind.forEach((off) => off());
    expect(emitterListenerCount(agent)).toBe(0);

    // Memory returns to its baseline: no growth from round 2 to round 3, and little above the warm baseline.
    const report = JSON.stringify({ baselineMB: baseline / MB, roundsMB: heaps.map((heap) => heap / MB), finalMB: final / MB });
    expect((heaps[2] as number) - (heaps[1] as number), `heap grew across rounds 2→3: ${report}`).toBeLessThan(10 * MB);
    expect(final - baseline, `heap did not return to its baseline: ${report}`).toBeLessThan(10 * MB);

    // Per-run overhead is flat: the best 1,000-run round costs at most 3× the best 100-run round, per run.
    const perRunLarge = Math.min(...largeTimes) / RUNS;
    const perRunSmall = Math.min(...smallTimes) / SMALL_RUNS;
    expect(perRunLarge / perRunSmall, `per run: ${perRunSmall.toFixed(3)} ms at ${SMALL_RUNS}, ${perRunLarge.toFixed(3)} ms at ${RUNS}`).toBeLessThan(3);
  });
});

describe('the leak guards of this file', () => {
  it('notice a timer left armed, and forget one that was cleared or fired', async () => {
    const timers = trackTimers();
    let left: ReturnType<typeof setTimeout> | undefined;
    try {
      clearTimeout(setTimeout(() => {}, 60_000));
      await new Promise((resolve) => setTimeout(resolve, 1));
      left = setTimeout(() => {}, 60_000);
    } finally {
      timers.restore();
    }
    expect(timers.armed()).toBe(3);
    expect([...timers.pending]).toEqual([left]);
    clearTimeout(left);
  });

  it('notice 20 MB kept alive, and its release', async () => {
    const baseline = await settledHeap();
    let kept: number[][] | undefined = Array.from({ length: 20 }, () => new Array<number>(MB / 8).fill(1.5));
    expect((await settledHeap()) - baseline).toBeGreaterThan(15 * MB);
    expect(kept).toHaveLength(20);
    kept = undefined;
    expect((await settledHeap()) - baseline).toBeLessThan(2 * MB);
  });
});
