/**
 * The superstep executor (seed-systems §1.11–1.14): concurrency and reduction order inside a step, node results and
 * routing, the step limit, aborts, node retries, the callback chain, the events of recovered and fatal nodes, the
 * fallback state of a fatal run (decisions.md point 6), and the LLM/tools nodes. Every run uses real timers; no test
 * waits on a timer longer than a few milliseconds.
 */
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatMessage, type ScriptedTurn } from '../../src/chat/index.js';
import { ChatClientError, markRecoverable, WorkflowError } from '../../src/errors/index.js';
import {
  Command,
  decodeStateDelta,
  emitCustomStateDelta,
  END,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  reducers,
  routeToolCalls,
  StateGraph,
  StateSchema,
  type ExecutionError,
  type GraphOutcome,
  type NodeCallbacks,
  type Reducer,
  type State,
} from '../../src/graph/index.js';
import { isTerminalError, type RunEvent } from '../../src/runner/index.js';
import { DataNotFoundError, defineTool, ToolInternalError, ToolResult } from '../../src/tools/index.js';
import { deferred, within } from '../helpers/async.js';

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function recorder(): { events: RunEvent[]; onEvent: (event: RunEvent) => void } {
  const events: RunEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

const objectsOf = (events: readonly RunEvent[]) => events.map((event) => event.response?.object);

function metadataOf(event: RunEvent | undefined, key = '_node_metadata'): Record<string, unknown> {
  const text = event?.stateDelta?.[key];
  if (typeof text !== 'string') throw new Error(`event has no ${key}`);
  return JSON.parse(text) as Record<string, unknown>;
}


function failed(outcome: GraphOutcome): Extract<GraphOutcome, { status: 'failed' }> {
  if (outcome.status !== 'failed') throw new Error(`expected a failed run, got ${outcome.status}`);
  return outcome;
}

function completed(outcome: GraphOutcome): Extract<GraphOutcome, { status: 'completed' }> {
  if (outcome.status !== 'completed') throw new Error(`expected a completed run, got ${outcome.status}`);
  return outcome;
}

const appendLog = (schema: StateSchema = new StateSchema()) => schema.addField('log', { reducer: reducers.append as Reducer, default: () => [] });

function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

function retryable(message: string): Error {
  return Object.assign(new Error(message), { retryable: true });
}

/** A record as the collector writes it, timestamp aside. */
function record(fields: Partial<ExecutionError> & Pick<ExecutionError, 'severity'>): unknown {
  return expect.objectContaining({ nodeType: 'function', ...fields, timestamp: expect.stringMatching(ISO) });
}

// ---------------------------------------------------------------------------------------------------------------

describe('supersteps', () => {
  it('runs the nodes of one step concurrently and reduces their updates in trigger order, not finish order', async () => {
    const leftStarted = deferred();
    const rightStarted = deferred();
    const finished: string[] = [];
    const joined: unknown[] = [];
    const compiled = new StateGraph(appendLog().addField('winner', {}))
      .addNode('start', () => ({ log: ['start'] }))
      .addNode('left', async () => {
        leftStarted.resolve();
        await rightStarted.promise; // would deadlock if the step ran its nodes one after the other
        await new Promise((resolve) => setTimeout(resolve, 5));
        finished.push('left');
        return { log: ['left'], winner: 'left' };
      })
      .addNode('right', async () => {
        rightStarted.resolve();
        await leftStarted.promise;
        finished.push('right');
        return { log: ['right'], winner: 'right' };
      })
      .addNode('join', (state) => {
        joined.push(state.log);
        return undefined;
      })
      .setEntryPoint('start')
      .addEdge('start', 'left')
      .addEdge('start', 'right')
      .addEdge('left', 'join')
      .addEdge('right', 'join')
      .setFinishPoint('join')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await within(compiled.run({}, { onEvent }), 2_000, 'the fan-out run'));

    expect(finished).toEqual(['right', 'left']);
    expect(outcome.state).toEqual({ log: ['start', 'left', 'right'], winner: 'right' });
    expect(joined).toEqual([['start', 'left', 'right']]);
    expect(outcome.steps).toBe(3);
    const starts = events.filter((event) => event.response?.object === 'graph.node.start').map((event) => [event.author, metadataOf(event).stepNumber]);
    expect(starts).toEqual([
      ['start', 0],
      ['left', 1],
      ['right', 1],
      ['join', 2],
    ]);
  });

  it('applies a plain update and follows the static edges', async () => {
    const compiled = new StateGraph(appendLog())
      .addNode('a', () => ({ log: ['a'] }))
      .addNode('b', () => ({ log: ['b'] }))
      .setEntryPoint('a')
      .addEdge('a', 'b')
      .setFinishPoint('b')
      .compile();

    expect(await compiled.invoke()).toEqual({ log: ['a', 'b'] });
  });

  it('lets a node return nothing: the state is unchanged and the edges are followed', async () => {
    const seen: State[] = [];
    const compiled = new StateGraph(new StateSchema())
      .addNode('quiet', () => undefined)
      .addNode('null', () => null)
      .addNode('last', (state) => {
        seen.push(state);
        return { done: true };
      })
      .setEntryPoint('quiet')
      .addEdge('quiet', 'null')
      .addEdge('null', 'last')
      .setFinishPoint('last')
      .compile();

    expect(await compiled.invoke({ order: 42 })).toEqual({ order: 42, done: true });
    expect(seen).toEqual([{ order: 42 }]);
  });

  it('reduces a Command update and routes to its goto instead of the static edges', async () => {
    const compiled = new StateGraph(appendLog())
      .addNode('check', () => new Command({ update: { log: ['check'] }, goto: 'fallback' }), { ends: ['fallback'] })
      .addNode('ship', () => ({ log: ['ship'] }))
      .addNode('fallback', () => ({ log: ['fallback'] }))
      .setEntryPoint('check')
      .addEdge('check', 'ship')
      .setFinishPoint('ship')
      .setFinishPoint('fallback')
      .compile();

    expect(await compiled.invoke()).toEqual({ log: ['check', 'fallback'] });
  });

  it('ends the run when a Command goes to END, whatever the static edges say', async () => {
    const ran: string[] = [];
    const compiled = new StateGraph(new StateSchema())
      .addNode('check', () => new Command({ update: { done: true }, goto: END }))
      .addNode('ship', () => {
        ran.push('ship');
        return {};
      })
      .setEntryPoint('check')
      .addEdge('check', 'ship')
      .setFinishPoint('ship')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(outcome.state).toEqual({ done: true });
    expect(ran).toEqual([]);
    expect(objectsOf(events).at(-1)).toBe('graph.execution');
  });

  it('still emits the final snapshot when the state cannot be JSON, its completion metadata saying why', async () => {
    const compiled = new StateGraph(new StateSchema())
      .addNode('count', () => ({ total: 10n }))
      .setEntryPoint('count')
      .setFinishPoint('count')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(outcome.state).toEqual({ total: 10n });
    const snapshot = events.at(-1);
    expect(snapshot?.response?.object).toBe('graph.execution');
    expect(Object.keys(snapshot?.stateDelta ?? {})).toEqual(['_completion_metadata']);
    const metadata = JSON.parse(snapshot?.stateDelta?._completion_metadata as string) as Record<string, unknown>;
    expect(metadata).toMatchObject({ steps: 1, error: expect.stringMatching(/marshal state delta key "total"/) });
  });

  it('fans out to every target of a Command goto list, and follows the edges for a Command without goto', async () => {
    const compiled = new StateGraph(appendLog())
      .addNode('split', () => new Command({ goto: ['b', 'c'] }))
      .addNode('b', () => new Command({ update: { log: ['b'] } }))
      .addNode('c', () => ({ log: ['c'] }))
      .addNode('d', () => ({ log: ['d'] }))
      .setEntryPoint('split')
      .addEdge('split', 'd')
      .addEdge('b', 'd')
      .setFinishPoint('c')
      .setFinishPoint('d')
      .compile();

    expect(await compiled.invoke()).toEqual({ log: ['b', 'c', 'd'] });
  });

  it('evaluates a conditional edge with a path map on the state after the step', async () => {
    const routerSaw: unknown[] = [];
    const compiled = new StateGraph(appendLog())
      .addNode('classify', () => ({ tier: 'premium', log: ['classify'] }))
      .addNode('vip', () => ({ log: ['vip'] }))
      .addNode('standard', () => ({ log: ['standard'] }))
      .setEntryPoint('classify')
      .addConditionalEdges(
        'classify',
        (state) => {
          routerSaw.push(state.tier);
          return state.tier as string;
        },
        { premium: 'vip', basic: 'standard' },
      )
      .setFinishPoint('vip')
      .setFinishPoint('standard')
      .compile();

    expect(await compiled.invoke({ tier: 'basic' })).toEqual({ tier: 'premium', log: ['classify', 'vip'] });
    expect(routerSaw).toEqual(['premium']);
  });

  it('evaluates a conditional edge without a path map as node ids, fanning out to a list and ending on END', async () => {
    const compiled = new StateGraph(appendLog())
      .addNode('plan', () => ({ next: ['b', 'c'], log: ['plan'] }))
      .addNode('b', () => ({ log: ['b'] }))
      .addNode('c', () => ({ log: ['c'] }))
      .setEntryPoint('plan')
      .addConditionalEdges('plan', async (state) => state.next as string[])
      .addConditionalEdges('b', () => END)
      .addConditionalEdges('c', () => [END])
      .compile();

    expect(await compiled.invoke()).toEqual({ next: ['b', 'c'], log: ['plan', 'b', 'c'] });
  });

  it('fails the run when a router picks a key its path map does not contain', async () => {
    const compiled = new StateGraph(new StateSchema())
      .addNode('classify', () => ({ tier: 'gold' }))
      .setEntryPoint('classify')
      .addConditionalEdges('classify', (state) => state.tier as string, { premium: END })
      .compile();

    const outcome = failed(await compiled.run());

    expect(outcome.error.message).toBe('the router after node classify chose "gold" at step 0, which its path map does not contain');
    expect(outcome.fallbackState).toEqual({ tier: 'gold' });
  });

  it.each([
    ['undefined', undefined, 'undefined'],
    ['a number', 42, '42'],
    ['an object', { to: 'b' }, '{"to":"b"}'],
    ['a list holding a number', ['b', 7], '["b",7]'],
    ['a promise of nothing', Promise.resolve(undefined), 'undefined'],
  ])('fails the run with a WorkflowError naming the node and step when a router returns %s (not a nameless TypeError)', async (_name, answer, shown) => {
    const compiled = new StateGraph(new StateSchema())
      .addNode('a', () => ({ x: 1 }))
      .addNode('b', () => ({}))
      .setEntryPoint('a')
      .addConditionalEdges('a', (() => answer) as never)
      .setFinishPoint('b')
      .compile();
    const outcome = failed(await compiled.run());
    expect(outcome.error).toBeInstanceOf(WorkflowError);
    expect(outcome.error).toMatchObject({ nodeId: 'a', stepNumber: 0 });
    expect(outcome.error.message).toBe(`the router after node a returned ${shown} at step 0: a router returns a node id, END, or a list of them`);
  });

  it('treats a node that returns a string as a node failure', async () => {
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(collector.addField())
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode('a', () => 'done')
      .setEntryPoint('a')
      .setFinishPoint('a')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent }));

    const problem = 'the node returned a string; a node returns a state update object, a Command, or nothing';
    expect(outcome.error.message).toBe(`node a failed at step 0: ${problem}`);
    expect(events.find((event) => event.response?.object === 'graph.node.error')?.response?.error).toEqual({ type: 'flow_error', message: problem });
    expect(outcome.fallbackState.execution_errors).toEqual([record({ severity: 'fatal', nodeId: 'a', stepNumber: 0, error: { type: 'flow_error', message: problem } })]);
  });

  it('ends a runaway loop at the step limit with a STEP_LIMIT WorkflowError', async () => {
    let runs = 0;
    const compiled = new StateGraph(new StateSchema())
      .addNode('spin', () => {
        runs++;
        return { runs };
      })
      .setEntryPoint('spin')
      .addConditionalEdges('spin', () => 'spin')
      .compile({ stepLimit: 5 });
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent }));

    expect(runs).toBe(5);
    expect(WorkflowError.isInstance(outcome.error)).toBe(true);
    expect(outcome.error.code).toBe('STEP_LIMIT');
    expect(outcome.error.stepNumber).toBe(5);
    expect(outcome.error.message).toBe('The graph did not finish within the step limit of 5; still pending: spin');
    expect(outcome.fallbackState).toEqual({ runs: 5 });
    const last = events.at(-1);
    expect(last?.response).toEqual({
      object: 'graph.pregel.step',
      done: false,
      error: { type: 'flow_error', message: 'The graph did not finish within the step limit of 5; still pending: spin', code: 'STEP_LIMIT' },
    });
    expect(objectsOf(events)).not.toContain('graph.execution');
    await expect(compiled.invoke()).rejects.toMatchObject({ name: 'WorkflowError', code: 'STEP_LIMIT' });
  });

  it('counts only the supersteps that ran when the step limit ends the run', async () => {
    let runs = 0;
    const compiled = new StateGraph(new StateSchema())
      .addNode('spin', () => ({ runs: ++runs }))
      .setEntryPoint('spin')
      .addConditionalEdges('spin', () => 'spin')
      .compile({ stepLimit: 5 });

    const outcome = failed(await compiled.run());

    expect(runs).toBe(5);
    expect(outcome.steps).toBe(5);
  });
});

describe('aborting a run', () => {
  it('stops promptly with outcome aborted even when the running node ignores its signal', async () => {
    const started = deferred();
    const signals: AbortSignal[] = [];
    const compiled = new StateGraph(new StateSchema())
      .addNode('prepare', () => ({ prepared: true }))
      .addNode('stuck', (_state, context) => {
        signals.push(context.signal);
        started.resolve();
        return new Promise(() => {}); // never settles, never looks at the signal
      })
      .setEntryPoint('prepare')
      .addEdge('prepare', 'stuck')
      .setFinishPoint('stuck')
      .compile();
    const controller = new AbortController();
    const { events, onEvent } = recorder();
    const reason = new Error('user pressed stop');

    const running = compiled.run({}, { signal: controller.signal, onEvent });
    await started.promise;
    controller.abort(reason);
    const outcome = await within(running, 500, 'the aborted run');

    expect(outcome).toEqual({ status: 'aborted', reason, state: { prepared: true }, steps: 1 });
    expect(signals[0]?.aborted).toBe(true);
    expect(objectsOf(events)).toEqual(['graph.node.start', 'graph.node.complete', 'graph.node.start']);
  });

  it('gives nodes the caller\'s signal, or without one a signal that never fires, shared by the nodes of one run', async () => {
    const seen: AbortSignal[] = [];
    const compiled = new StateGraph(new StateSchema())
      .addNode('a', (_state, context) => {
        seen.push(context.signal);
        return {};
      })
      .addNode('b', async (_state, context) => {
        seen.push(context.signal);
        return {};
      })
      .addEdge('a', 'b')
      .setEntryPoint('a')
      .setFinishPoint('b')
      .compile();
    await compiled.invoke();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeInstanceOf(AbortSignal);
    expect(seen[0]?.aborted).toBe(false);
    expect(seen[1]).toBe(seen[0]);
    await compiled.invoke();
    expect(seen[2]).not.toBe(seen[0]); // one per run: a listener a node leaves behind dies with its run
    const controller = new AbortController();
    await compiled.invoke({}, { signal: controller.signal });
    expect(seen.slice(4)).toEqual([controller.signal, controller.signal]);
  });

  it('runs no node when the signal is already aborted, and invoke() rejects with the reason', async () => {
    const ran: string[] = [];
    const compiled = new StateGraph(new StateSchema())
      .addNode('a', () => {
        ran.push('a');
        return {};
      })
      .setEntryPoint('a')
      .setFinishPoint('a')
      .compile();
    const reason = new Error('too late');

    const outcome = await compiled.run({ x: 1 }, { signal: AbortSignal.abort(reason) });

    expect(outcome).toEqual({ status: 'aborted', reason, state: { x: 1 }, steps: 0 });
    await expect(compiled.invoke({}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(ran).toEqual([]);
  });

  it('stops promptly during a retry backoff and never retries after the abort', async () => {
    let attempts = 0;
    const firstFailure = deferred();
    const compiled = new StateGraph(new StateSchema())
      .addNode(
        'flaky',
        () => {
          attempts++;
          firstFailure.resolve();
          throw retryable('upstream busy');
        },
        { retry: { maxAttempts: 5, initialDelayMs: 60_000, jitter: 'none' } },
      )
      .setEntryPoint('flaky')
      .setFinishPoint('flaky')
      .compile();
    const controller = new AbortController();

    const running = compiled.run({}, { signal: controller.signal });
    await firstFailure.promise;
    await Promise.resolve();
    controller.abort(new Error('stop'));
    const outcome = await within(running, 500, 'the run aborted in backoff');

    expect(outcome.status).toBe('aborted');
    expect(attempts).toBe(1);
  });
});

describe('node retries', () => {
  it('retries a retryable failure with zero-delay backoff (no timer armed) and announces each retry', async () => {
    let calls = 0;
    const attempts: number[] = [];
    const errors: Array<{ attempt: number; willRetry: boolean; message: string }> = [];
    const afters: Array<{ result: unknown; error: unknown }> = [];
    const compiled = new StateGraph(new StateSchema())
      .withNodeCallbacks({
        onNodeError: (_context, _state, error, info) => {
          errors.push({ ...info, message: (error as Error).message });
        },
        afterNode: (_context, _state, result, error) => {
          afters.push({ result, error });
          return undefined;
        },
      })
      .addNode(
        'fetch',
        (_state, context) => {
          attempts.push(context.attempt);
          calls++;
          if (calls < 3) throw retryable(`busy ${calls}`);
          return { fetched: true };
        },
        { retry: { maxAttempts: 3, initialDelayMs: 0 } },
      )
      .setEntryPoint('fetch')
      .setFinishPoint('fetch')
      .compile();
    const { events, onEvent } = recorder();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(setTimeoutSpy).not.toHaveBeenCalled();
    expect(outcome.state).toEqual({ fetched: true });
    expect(attempts).toEqual([1, 2, 3]);
    expect(errors).toEqual([
      { attempt: 1, willRetry: true, message: 'busy 1' },
      { attempt: 2, willRetry: true, message: 'busy 2' },
    ]);
    expect(afters).toEqual([{ result: { fetched: true }, error: undefined }]);
    expect(objectsOf(events)).toEqual(['graph.node.start', 'graph.node.error', 'graph.node.error', 'graph.node.complete', 'graph.execution']);
    const retries = events.filter((event) => event.response?.object === 'graph.node.error');
    expect(retries.map((event) => metadataOf(event))).toEqual([
      { nodeId: 'fetch', nodeName: 'fetch', nodeType: 'function', stepNumber: 0, phase: 'error', retrying: true, attempt: 1, maxAttempts: 3, delayMs: 0 },
      { nodeId: 'fetch', nodeName: 'fetch', nodeType: 'function', stepNumber: 0, phase: 'error', retrying: true, attempt: 2, maxAttempts: 3, delayMs: 0 },
    ]);
    expect(retries.map((event) => event.response?.error)).toEqual([
      { type: 'flow_error', message: 'busy 1' },
      { type: 'flow_error', message: 'busy 2' },
    ]);
    expect(retries.every((event) => !isTerminalError(event))).toBe(true);
  });

  it('gives up after maxAttempts: onNodeError sees every attempt, afterNode only the last', async () => {
    const errors: Array<{ attempt: number; willRetry: boolean }> = [];
    const afters: unknown[] = [];
    const compiled = new StateGraph(new StateSchema())
      .withNodeCallbacks({
        onNodeError: (_context, _state, _error, info) => {
          errors.push(info);
        },
        afterNode: (_context, _state, _result, error) => {
          afters.push((error as Error | undefined)?.message);
          return undefined;
        },
      })
      .addNode(
        'fetch',
        (_state, context) => {
          throw retryable(`busy ${context.attempt}`);
        },
        { retry: { maxAttempts: 2, initialDelayMs: 0 } },
      )
      .setEntryPoint('fetch')
      .setFinishPoint('fetch')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent }));

    expect(errors).toEqual([
      { attempt: 1, willRetry: true },
      { attempt: 2, willRetry: false },
    ]);
    expect(afters).toEqual(['busy 2']);
    expect(outcome.error.message).toBe('node fetch failed at step 0 after 2 attempts: busy 2');
    const nodeErrors = events.filter((event) => event.response?.object === 'graph.node.error');
    expect(nodeErrors.map((event) => metadataOf(event).retrying)).toEqual([true, undefined]);
  });

  it('retries only what retryOn accepts', async () => {
    let calls = 0;
    const compiled = new StateGraph(new StateSchema())
      .addNode(
        'fetch',
        () => {
          calls++;
          throw codedError('quota exhausted', calls === 1 ? 'TRANSIENT' : 'PERMANENT');
        },
        { retry: { maxAttempts: 5, initialDelayMs: 0, retryOn: (error) => (error as { code?: string }).code === 'TRANSIENT' } },
      )
      .setEntryPoint('fetch')
      .setFinishPoint('fetch')
      .compile();

    const outcome = failed(await compiled.run());

    expect(calls).toBe(2);
    expect(outcome.error.message).toBe('node fetch failed at step 0 after 2 attempts: quota exhausted');
  });

  it('by default retries only errors that say retryable: true', async () => {
    let plainCalls = 0;
    let retryableCalls = 0;
    const compiled = new StateGraph(new StateSchema())
      .addNode(
        'plain',
        () => {
          plainCalls++;
          throw new Error('bad request');
        },
        { retry: { maxAttempts: 3, initialDelayMs: 0 } },
      )
      .addNode(
        'busy',
        () => {
          retryableCalls++;
          throw retryable('busy');
        },
        { retry: { maxAttempts: 3, initialDelayMs: 0 } },
      )
      .setEntryPoint('plain')
      .setEntryPoint('busy')
      .setFinishPoint('plain')
      .setFinishPoint('busy')
      .compile();

    const outcome = failed(await compiled.run());

    expect(plainCalls).toBe(1);
    expect(retryableCalls).toBe(3);
    expect(outcome.error.message).toBe('node plain failed at step 0: bad request (busy failed too)');
  });
});

describe('node callbacks', () => {
  function tracer(name: string, calls: string[]): NodeCallbacks {
    return {
      beforeNode: () => {
        calls.push(`before:${name}`);
        return undefined;
      },
      onNodeError: (_context, _state, _error, info) => {
        calls.push(`onError:${name}:${info.attempt}:${info.willRetry}`);
      },
      afterNode: (_context, _state, _result, error) => {
        calls.push(`after:${name}:${error === undefined ? 'ok' : 'failed'}`);
        return undefined;
      },
    };
  }

  it('runs beforeNode and onNodeError global first, afterNode per-node first then global (§1.11 step 5)', async () => {
    const calls: string[] = [];
    let attempt = 0;
    const compiled = new StateGraph(new StateSchema())
      .withNodeCallbacks(tracer('global1', calls))
      .withNodeCallbacks(tracer('global2', calls))
      .addNode(
        'a',
        () => {
          attempt++;
          if (attempt === 1) throw new Error('first try fails');
          return { ok: true };
        },
        { retry: { maxAttempts: 2, initialDelayMs: 0, retryOn: () => true }, callbacks: tracer('node', calls) },
      )
      .setEntryPoint('a')
      .setFinishPoint('a')
      .compile();

    await compiled.invoke();

    expect(calls).toEqual([
      'before:global1',
      'before:global2',
      'before:node',
      'onError:global1:1:true',
      'onError:global2:1:true',
      'onError:node:1:true',
      'after:node:ok',
      'after:global1:ok',
      'after:global2:ok',
    ]);
  });

  it('recovers a node when its own afterNode overrides: the global one then sees no error and the new result', async () => {
    const globalSaw: Array<{ result: unknown; error: unknown }> = [];
    const compiled = new StateGraph(new StateSchema())
      .withNodeCallbacks({
        afterNode: (_context, _state, result, error) => {
          globalSaw.push({ result, error });
          return undefined;
        },
      })
      .addNode(
        'primary',
        () => {
          throw new Error('primary store down');
        },
        { callbacks: { afterNode: (_context, _state, _result, error) => (error ? { source: 'cache' } : undefined) } },
      )
      .addNode('use', (state) => ({ used: state.source }))
      .setEntryPoint('primary')
      .addEdge('primary', 'use')
      .setFinishPoint('use')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(globalSaw).toEqual([
      { result: { source: 'cache' }, error: undefined },
      { result: { used: 'cache' }, error: undefined },
    ]);
    expect(outcome.state).toEqual({ source: 'cache', used: 'cache' });
    expect(objectsOf(events)).toEqual(['graph.node.start', 'graph.node.error', 'graph.node.complete', 'graph.node.start', 'graph.node.complete', 'graph.execution']);
    expect(metadataOf(events[2])).toMatchObject({ nodeId: 'primary', phase: 'complete', recovered: true });
  });

  it('fails the node when an afterNode callback throws, naming the node, and shows the later callbacks that failure', async () => {
    const laterCallbacks: string[] = [];
    const compiled = new StateGraph(new StateSchema())
      .withNodeCallbacks({
        afterNode: (context) => {
          laterCallbacks.push(context.nodeId);
          return undefined;
        },
      })
      .addNode('save', () => ({ saved: true }), {
        callbacks: {
          afterNode: () => {
            throw new Error('audit log unavailable');
          },
        },
      })
      .setEntryPoint('save')
      .setFinishPoint('save')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent }));

    expect(outcome.error.message).toBe('node save failed at step 0: the after node callback failed: audit log unavailable');
    expect(outcome.fallbackState).toEqual({});
    expect(laterCallbacks).toEqual(['save']); // the callbacks after it see the failure (a collector among them would record it)
    expect(objectsOf(events)).toEqual(['graph.node.start', 'graph.node.error', 'graph.node.custom', 'graph.pregel.step']);
    expect(events[1]?.response?.error).toEqual({ type: 'flow_error', message: 'the after node callback failed: audit log unavailable' });
    expect(metadataOf(events[1])).toMatchObject({ nodeId: 'save', phase: 'after_callback' });
  });

  it('skips a node whose beforeNode returns a value, using that value as its result', async () => {
    const ran: string[] = [];
    const afterSaw: unknown[] = [];
    const compiled = new StateGraph(new StateSchema())
      .withNodeCallbacks({
        beforeNode: (context) => (context.nodeId === 'expensive' ? { answer: 'from cache' } : undefined),
        afterNode: (_context, _state, result) => {
          afterSaw.push(result);
          return undefined;
        },
      })
      .addNode('expensive', () => {
        ran.push('expensive');
        return { answer: 'computed' };
      })
      .setEntryPoint('expensive')
      .setFinishPoint('expensive')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(ran).toEqual([]);
    expect(outcome.state).toEqual({ answer: 'from cache' });
    expect(afterSaw).toEqual([{ answer: 'from cache' }]);
    expect(objectsOf(events)).toEqual(['graph.node.start', 'graph.node.complete', 'graph.execution']);
  });
});

describe('error paths with the execution-error collector', () => {
  function collectorGraph() {
    const collector = new ExecutionErrorCollector();
    const schema = appendLog(collector.addField(new StateSchema()));
    return { collector, graph: new StateGraph(schema).withNodeCallbacks(collector.nodeCallbacks()) };
  }

  it('emits start → error → complete for a recovered node, and no custom event (§1.11 step 6)', async () => {
    const { graph } = collectorGraph();
    const compiled = graph
      .addNode('lookup', () => {
        throw markRecoverable(codedError('inventory lookup timed out', 'ORDER_INVENTORY_SOFT_TIMEOUT'));
      })
      .addNode('finalize', (state) => ({ log: [`finalize saw ${(state.execution_errors as unknown[]).length} record`] }))
      .setEntryPoint('lookup')
      .addEdge('lookup', 'finalize')
      .setFinishPoint('finalize')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(objectsOf(events.filter((event) => event.author === 'lookup'))).toEqual(['graph.node.start', 'graph.node.error', 'graph.node.complete']);
    expect(objectsOf(events)).not.toContain('graph.node.custom');
    expect(events[1]?.response?.error).toEqual({ type: 'flow_error', message: 'inventory lookup timed out', code: 'ORDER_INVENTORY_SOFT_TIMEOUT' });
    expect(outcome.state).toEqual({
      execution_errors: [
        record({ severity: 'recoverable', nodeId: 'lookup', nodeName: 'lookup', stepNumber: 0, error: { type: 'flow_error', message: 'inventory lookup timed out', code: 'ORDER_INVENTORY_SOFT_TIMEOUT' } }),
      ],
      log: ['finalize saw 1 record'],
    });
  });

  it('emits start → error → collector custom → fallback custom → a non-terminal pregel step error on the fatal path', async () => {
    const { graph } = collectorGraph();
    const compiled = graph
      .addNode('prepare', () => ({ log: ['prepared'] }))
      .addNode('write', () => {
        throw codedError('database write failed', 'WRITE_FATAL');
      })
      .setEntryPoint('prepare')
      .addEdge('prepare', 'write')
      .setFinishPoint('write')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent, invocationId: 'invocation-1' }));

    const fromWrite = events.slice(2);
    expect(objectsOf(fromWrite)).toEqual(['graph.node.start', 'graph.node.error', 'graph.node.custom', 'graph.node.custom', 'graph.pregel.step']);
    expect(fromWrite.map((event) => event.author)).toEqual(['write', 'write', 'write', 'graph-pregel', 'graph-pregel']);
    expect(events.some(isTerminalError)).toBe(false);
    expect(objectsOf(events)).not.toContain('graph.execution');

    const fatal = record({ severity: 'fatal', nodeId: 'write', nodeName: 'write', stepNumber: 1, error: { type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' } });
    const collectorEvent = fromWrite[2] as RunEvent;
    expect(executionErrorsFromStateDelta(collectorEvent.stateDelta)).toEqual([fatal]);
    expect(metadataOf(collectorEvent, '_node_custom_metadata')).toMatchObject({
      eventType: 'execution_error',
      category: 'custom',
      nodeId: 'write',
      invocationId: 'invocation-1',
      message: 'database write failed',
      payload: fatal,
    });

    const fallbackEvent = fromWrite[3] as RunEvent;
    expect(metadataOf(fallbackEvent, '_node_custom_metadata')).toMatchObject({ eventType: 'fallback_state', category: 'custom', stepNumber: 1 });
    const { _node_custom_metadata: _ignored, ...fallbackDelta } = decodeStateDelta(fallbackEvent.stateDelta);
    expect(fallbackDelta).toEqual({ execution_errors: [fatal], log: ['prepared'] });
    expect(outcome.fallbackState).toEqual({ execution_errors: [fatal], log: ['prepared'] });

    const pregel = fromWrite[4] as RunEvent;
    expect(pregel.response).toEqual({
      object: 'graph.pregel.step',
      done: false,
      error: { type: 'flow_error', message: 'node write failed at step 1: database write failed', code: 'WRITE_FATAL' },
    });
    expect(metadataOf(pregel, '_pregel_metadata')).toMatchObject({ stepNumber: -1, failedStep: 1 });
    expect(outcome.error.fallbackState).toEqual(outcome.fallbackState);
  });

  it('adds what a failing node emitted with emitCustomStateDelta to the fallback state (decisions.md point 6)', async () => {
    const { graph } = collectorGraph();
    const compiled = graph
      .addNode('write', (_state, context) => {
        emitCustomStateDelta(context, { order_status: 'pending_retry' }, { eventType: 'order_fallback', message: 'write failed' });
        throw new Error('database write failed');
      })
      .setEntryPoint('write')
      .setFinishPoint('write')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent }));

    expect(outcome.fallbackState).toEqual({
      execution_errors: [record({ severity: 'fatal', nodeId: 'write', stepNumber: 0, error: { type: 'flow_error', message: 'database write failed' } })],
      log: [],
      order_status: 'pending_retry',
    });
    const customs = events.filter((event) => event.response?.object === 'graph.node.custom');
    expect(customs.map((event) => metadataOf(event, '_node_custom_metadata').eventType)).toEqual(['order_fallback', 'execution_error', 'fallback_state']);
    expect(customs[0]?.stateDelta?.order_status).toBe('"pending_retry"');
    expect(customs[2]?.stateDelta?.order_status).toBe('"pending_retry"');
  });

  it('does not write what a succeeding node emitted with emitCustomStateDelta into the state', async () => {
    const { graph } = collectorGraph();
    const compiled = graph
      .addNode('write', (_state, context) => {
        emitCustomStateDelta(context, { order_status: 'pending_retry' });
        return { log: ['written'] };
      })
      .setEntryPoint('write')
      .setFinishPoint('write')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({}, { onEvent }));

    expect(outcome.state).toEqual({ execution_errors: [], log: ['written'] });
    expect(objectsOf(events)).toEqual(['graph.node.start', 'graph.node.custom', 'graph.node.complete', 'graph.execution']);
  });

  it('records every failure of parallel branches exactly once and keeps the recovered sibling’s record', async () => {
    const { graph } = collectorGraph();
    const compiled = graph
      .addNode('start', () => {
        throw markRecoverable(new Error('start soft'));
      })
      .addNode('a', () => {
        throw markRecoverable(new Error('a soft'));
      })
      .addNode('b', () => {
        throw new Error('b hard');
      })
      .addNode('c', async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        throw new Error('c hard');
      })
      .addNode('d', () => ({ log: ['d'] }))
      .setEntryPoint('start')
      .addEdge('start', 'a')
      .addEdge('start', 'b')
      .addEdge('start', 'c')
      .addEdge('start', 'd')
      .setFinishPoint('a')
      .setFinishPoint('b')
      .setFinishPoint('c')
      .setFinishPoint('d')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({}, { onEvent }));

    expect(outcome.fallbackState).toEqual({
      execution_errors: [
        record({ severity: 'recoverable', nodeId: 'start', stepNumber: 0, error: { type: 'flow_error', message: 'start soft' } }),
        record({ severity: 'recoverable', nodeId: 'a', stepNumber: 1, error: { type: 'flow_error', message: 'a soft' } }),
        record({ severity: 'fatal', nodeId: 'b', stepNumber: 1, error: { type: 'flow_error', message: 'b hard' } }),
        record({ severity: 'fatal', nodeId: 'c', stepNumber: 1, error: { type: 'flow_error', message: 'c hard' } }),
      ],
      log: ['d'],
    });
    expect(outcome.error.message).toBe('node b failed at step 1: b hard (c failed too)');
    const collectorEvents = events.filter((event) => event.response?.object === 'graph.node.custom' && metadataOf(event, '_node_custom_metadata').eventType === 'execution_error');
    expect(collectorEvents.map((event) => event.author)).toEqual(['b', 'c']);
    expect(events.filter((event) => event.response?.object === 'graph.pregel.step')).toHaveLength(1);
  });

  it('emits a graph.execution snapshot carrying the full final state on normal completion', async () => {
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(collector.addField(messagesStateSchema()))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode('lookup', () => {
        throw markRecoverable(new Error('cache cold'));
      })
      .addNode('answer', () => ({ last_response: 'All done', node_responses: { answer: 'All done' } }))
      .setEntryPoint('lookup')
      .addEdge('lookup', 'answer')
      .setFinishPoint('answer')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = completed(await compiled.run({ user_input: 'go' }, { onEvent }));

    const snapshot = events.at(-1) as RunEvent;
    expect(snapshot.author).toBe('graph-pregel');
    expect(snapshot.response).toEqual({ object: 'graph.execution', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'All done' } }] });
    const { _completion_metadata: completionMetadata, ...state } = decodeStateDelta(snapshot.stateDelta);
    expect(state).toEqual(outcome.state);
    expect(state).toEqual({
      messages: [],
      node_responses: { answer: 'All done' },
      execution_errors: [record({ severity: 'recoverable', nodeId: 'lookup', stepNumber: 0, error: { type: 'flow_error', message: 'cache cold' } })],
      user_input: 'go',
      last_response: 'All done',
    });
    expect(completionMetadata).toMatchObject({ steps: 2 });
  });
});

describe('LLM and tools nodes', () => {
  const lookupOrder = defineTool({
    name: 'lookup_order',
    description: 'Looks up an order by id.',
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => (id === '42' ? { status: 'shipped' } : ToolResult.error(new DataNotFoundError(`No order ${id}.`))),
  });
  const chargeCard = defineTool({
    name: 'charge_card',
    description: 'Charges the card on file.',
    parameters: z.object({ amount: z.number() }),
    execute: () => {
      throw new Error('connection refused: postgres://admin:hunter2@db.internal:5432');
    },
  });
  const tools = [lookupOrder, chargeCard];
  const script = (): ScriptedTurn[] => [
    {
      toolCalls: [
        { name: 'lookup_order', arguments: { id: '42' } },
        { name: 'lookup_order', arguments: { id: '7' } },
        { name: 'charge_card', arguments: { amount: 5 } },
        { name: 'refund_order', arguments: { id: '42' } },
        { name: 'lookup_order', arguments: '{"id": ' },
      ],
    },
    { text: 'Order 42 has shipped.' },
  ];

  function toolLoop(model: ReturnType<typeof createScriptedChatClient>) {
    return new StateGraph(messagesStateSchema())
      .addLLMNode('llm', model, { tools })
      .addToolsNode('tools', tools, { logger: () => {} })
      .setEntryPoint('llm')
      .addConditionalEdges('llm', routeToolCalls('tools'))
      .addEdge('tools', 'llm')
      .compile();
  }

  it('runs the tool loop and answers every failing call with the agent loop’s {"ok":false,"error":{…}} content', async () => {
    const model = createScriptedChatClient(script());
    const { events, onEvent } = recorder();

    const outcome = completed(await toolLoop(model).run({ messages: [{ role: 'user', content: 'Where is order 42?' }] }, { onEvent }));

    const messages = outcome.state.messages as ChatMessage[];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'tool', 'tool', 'assistant']);
    expect(outcome.state.last_response).toBe('Order 42 has shipped.');
    const toolMessages = messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.toolCallId)).toEqual(['call_1_1', 'call_1_2', 'call_1_3', 'call_1_4', 'call_1_5']);
    const contents = toolMessages.map((message) => message.content as string);
    expect(contents[0]).toBe('{"ok":true,"data":{"status":"shipped"}}');
    const parsed = contents.map((content) => JSON.parse(content) as { ok: boolean; error?: Record<string, unknown> });
    expect(Object.keys(parsed[1] as object)).toEqual(['ok', 'error']);
    expect(parsed[1]).toEqual({ ok: false, error: { type: 'DataNotFoundError', message: 'No order 7.', suggestion: DataNotFoundError.defaultSuggestion } });
    expect(parsed[2]).toEqual({ ok: false, error: { type: 'ToolInternalError', message: "The tool 'charge_card' failed with an unexpected internal error.", suggestion: ToolInternalError.defaultSuggestion } });
    expect(contents[2]).not.toMatch(/hunter2|postgres|db\.internal|at /);
    expect(parsed[3]).toMatchObject({ ok: false, error: { type: 'ToolNotFound', message: expect.stringMatching(/^No tool named 'refund_order' is available\..*Available tools: lookup_order, charge_card\.$/) } });
    expect(parsed[4]).toMatchObject({ ok: false, error: { type: 'InputValidationError', message: expect.stringMatching(/^Tool 'lookup_order' was called with invalid JSON arguments: \{"id": \. Parse error: /) } });

    // The model saw the same tool messages on its second call.
    expect(model.requests[1]?.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual(contents);
    expect(events.filter((event) => event.response?.object === 'tool.response')).toHaveLength(5);

    // The agent loop gives the model exactly the same contents for the same calls.
    const agent = new AgentBuilder('orders').chatClient(createScriptedChatClient(script())).tools(tools).toolLogger(() => {}).build();
    const agentRun = await collectAgentRun(await agent.run('Where is order 42?'));
    expect(agentRun.toolResults.map((result) => result.content)).toEqual(contents);
    expect(agentRun.text).toBe('Order 42 has shipped.');
  });

  // With only `user_input` in state, the LLM node adds the user message to `messages` with its answer.
  it('keeps the question from user_input in messages, so the model sees it again after a tool round', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({}), execute: () => 'echoed' });
    const model = createScriptedChatClient([{ toolCalls: [{ name: 'echo', arguments: {} }] }, { text: 'Done.' }]);
    const compiled = new StateGraph(messagesStateSchema())
      .addLLMNode('llm', model, { tools: [echo] })
      .addToolsNode('tools', [echo], { logger: () => {} })
      .setEntryPoint('llm')
      .addConditionalEdges('llm', routeToolCalls('tools'))
      .addEdge('tools', 'llm')
      .compile();

    const state = await compiled.invoke({ user_input: 'Please echo.' });

    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'Please echo.' }]);
    expect(model.requests[1]?.messages[0]).toEqual({ role: 'user', content: 'Please echo.' });
    expect((state.messages as ChatMessage[])[0]).toEqual({ role: 'user', content: 'Please echo.' });
  });

  it('records a failed model call of an LLM node as an api_error node failure', async () => {
    const collector = new ExecutionErrorCollector();
    const model = createScriptedChatClient([{ error: new ChatClientError('Chat API returned 401: invalid API key', { status: 401 }) }]);
    const compiled = new StateGraph(collector.addField(messagesStateSchema()))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addLLMNode('llm', model)
      .setEntryPoint('llm')
      .setFinishPoint('llm')
      .compile();
    const { events, onEvent } = recorder();

    const outcome = failed(await compiled.run({ user_input: 'hello' }, { onEvent }));

    expect(outcome.fallbackState.execution_errors).toEqual([
      record({ severity: 'fatal', nodeId: 'llm', nodeName: 'llm', nodeType: 'llm', stepNumber: 0, error: { type: 'api_error', message: 'Chat API returned 401: invalid API key' } }),
    ]);
    expect(outcome.error.message).toBe('node llm failed at step 0: Chat API returned 401: invalid API key');
    expect(events.at(-1)?.response?.error).toEqual({ type: 'api_error', message: 'node llm failed at step 0: Chat API returned 401: invalid API key' });
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('retries an LLM node after a retryable model failure under the default retryOn', async () => {
    const model = createScriptedChatClient([{ error: new ChatClientError('Chat API returned 503', { status: 503 }) }, { text: 'Back online.' }]);
    const compiled = new StateGraph(messagesStateSchema())
      .addLLMNode('llm', model, { retry: { maxAttempts: 2, initialDelayMs: 0 } })
      .setEntryPoint('llm')
      .setFinishPoint('llm')
      .compile();

    const state = await compiled.invoke({ user_input: 'status?' });

    expect(model.requests).toHaveLength(2);
    expect(state.last_response).toBe('Back online.');
    expect(state.messages).toEqual([{ role: 'user', content: 'status?' }, { role: 'assistant', content: 'Back online.' }]);
  });
});
