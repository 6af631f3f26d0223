/** Graphs and helpers shared by the checkpoint tests: nodes that count their runs and can be broken, then fixed. */
import { expect } from 'vitest';
import { markRecoverable } from '../../src/errors/index.js';
import {
  CHILD_RUN_SEPARATOR,
  Command,
  createGraphAgent,
  END,
  ExecutionErrorCollector,
  messagesStateSchema,
  reducers,
  StateGraph,
  type Checkpointer,
  type CompiledGraph,
  type GraphCheckpoint,
  type GraphOutcome,
  type NodeContext,
  type Reducer,
  type State,
} from '../../src/graph/index.js';
import { isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';

/** Node behaviour a test switches at will: broken nodes fail fatally, degraded ones recoverably. */
export interface Switches {
  calls: Record<string, number>;
  broken: Set<string>;
  degraded: Set<string>;
  /** Aborts `controller` when a node starts at this step. */
  abortAt?: { step: number; controller: AbortController } | undefined;
}

export function switches(): Switches {
  return { calls: {}, broken: new Set(), degraded: new Set() };
}

/** A node that counts its runs, appends its id to `trail`, and fails while broken. */
export function countingNode(id: string, on: Switches, result: (update: State) => unknown = (update) => update) {
  return async (_state: State, context: NodeContext) => {
    on.calls[id] = (on.calls[id] ?? 0) + 1;
    if (on.abortAt && on.abortAt.step === context.stepNumber && !on.abortAt.controller.signal.aborted) {
      on.abortAt.controller.abort(new Error(`stopped at step ${context.stepNumber}`));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (on.broken.has(id)) throw Object.assign(new Error(`${id} is broken`), { code: `${id.toUpperCase()}_DOWN` });
    if (on.degraded.has(id)) throw markRecoverable(new Error(`${id} is degraded`));
    return result({ trail: [id] });
  };
}

/** A graph with a collector and an appending `trail`. */
export function graphWith(): { graph: StateGraph; collector: ExecutionErrorCollector } {
  const collector = new ExecutionErrorCollector();
  const schema = collector.addField(messagesStateSchema()).addField('trail', { reducer: reducers.append as Reducer, default: () => [] });
  return { graph: new StateGraph(schema).withNodeCallbacks(collector.nodeCallbacks()), collector };
}

/** `a → b → c`, each a counting node. */
export function chainGraph(on: Switches): CompiledGraph {
  const { graph } = graphWith();
  for (const id of ['a', 'b', 'c']) graph.addNode(id, countingNode(id, on));
  return graph.setEntryPoint('a').addEdge('a', 'b').addEdge('b', 'c').addEdge('c', END).compile();
}

/** `start` fans out to `left` (which routes by `Command.goto`) and `right`, both lead to `join`. */
export function fanOutGraph(on: Switches): CompiledGraph {
  const { graph } = graphWith();
  graph
    .addNode('start', countingNode('start', on))
    .addNode('left', countingNode('left', on, (update) => new Command({ update, goto: 'join' })), { ends: ['join'] })
    .addNode('right', countingNode('right', on))
    .addNode('join', countingNode('join', on));
  return graph.setEntryPoint('start').addEdge('start', 'left').addEdge('start', 'right').addEdge('right', 'join').addEdge('join', END).compile();
}

/** The outcome's state (final or fallback) as JSON data, record timestamps left out. */
export function comparable(outcome: GraphOutcome): { status: string; steps: number; state: unknown; code?: string | undefined } {
  const state = outcome.status === 'failed' ? outcome.fallbackState : outcome.state;
  return { status: outcome.status, steps: outcome.steps, state: withoutTimestamps(state), code: outcome.status === 'failed' ? outcome.error.code : undefined };
}

export function withoutTimestamps(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, item: unknown) => (key === 'timestamp' ? undefined : item)) ?? 'null');
}

/** Who failed how, in order. */
export function recordsOf(state: State | undefined): Array<{ nodeId?: string; severity: string; message?: string; stepNumber: number }> {
  const records = (state?.execution_errors ?? []) as Array<{ nodeId?: string; severity: string; error?: { message: string }; stepNumber: number }>;
  return records.map((record) => ({ nodeId: record.nodeId, severity: record.severity, message: record.error?.message, stepNumber: record.stepNumber }));
}

export function failed(outcome: GraphOutcome): Extract<GraphOutcome, { status: 'failed' }> {
  if (outcome.status !== 'failed') throw new Error(`expected a failed run, got ${outcome.status}`);
  return outcome;
}

export function completed(outcome: GraphOutcome): Extract<GraphOutcome, { status: 'completed' }> {
  if (outcome.status !== 'completed') throw new Error(`expected a completed run, got ${outcome.status}${outcome.status === 'failed' ? `: ${outcome.error.message}` : ''}`);
  return outcome;
}

/**
 * The `Checkpointer` of its documentation's example — a compare-and-swap over a plain Map, not exclusive (a claim
 * lapses with its lease) — as a user would write it (JSON text in, a new object out).
 */
export function mapCheckpointer(): Checkpointer & { store: Map<string, string> } {
  const store = new Map<string, string>();
  return {
    store,
    async get(runId) {
      const text = store.get(runId);
      return text === undefined ? undefined : (JSON.parse(text) as GraphCheckpoint);
    },
    async put(checkpoint) {
      const stored = store.get(checkpoint.runId);
      if (checkpoint.revision !== undefined && ((stored === undefined ? undefined : (JSON.parse(stored) as GraphCheckpoint).revision) ?? 0) !== checkpoint.revision - 1) return false;
      store.set(checkpoint.runId, JSON.stringify(checkpoint));
      return true;
    },
    async delete(runId) {
      for (const id of [...store.keys()]) if (id === runId || id.startsWith(runId + CHILD_RUN_SEPARATOR)) store.delete(id);
    },
  };
}

/** A {@link mapCheckpointer} that keeps every checkpoint it was given and wrote. */
export function recordingCheckpointer(): Checkpointer & { puts: GraphCheckpoint[]; store: Map<string, string> } {
  const inner = mapCheckpointer();
  const puts: GraphCheckpoint[] = [];
  return {
    ...inner,
    puts,
    async put(checkpoint) {
      const written = await inner.put(checkpoint);
      if (written) puts.push(structuredClone(checkpoint));
      return written;
    },
  };
}

/**
 * The process "dies" right after the `kill`-th put of a step's checkpoint (running, or completed): that put throws, and
 * so does every later one (its release too: the claim is left behind, as a dead process leaves it).
 */
export function dyingCheckpointer(inner: Checkpointer, kill: number): Checkpointer & { dead: boolean } {
  let count = 0;
  const wrapper = {
    dead: false,
    get: (runId: string) => inner.get(runId),
    delete: (runId: string) => inner.delete(runId),
    async put(checkpoint: GraphCheckpoint) {
      if (wrapper.dead) throw new Error('the process is gone');
      const written = await inner.put(checkpoint);
      if ((checkpoint.status === 'completed' || (checkpoint.status === 'running' && checkpoint.owner !== undefined)) && ++count === kill) {
        wrapper.dead = true;
        throw new Error('killed');
      }
      return written;
    },
  };
  return wrapper;
}

export function expectCode(outcome: GraphOutcome, code: string): Extract<GraphOutcome, { status: 'failed' }> {
  const result = failed(outcome);
  expect(result.error.code).toBe(code);
  return result;
}

/** One run under the `Runner`: its events, the last being its completion. */
export interface Run {
  completion: RunEvent;
  events: RunEvent[];
}

/** Runs `graph` as a checkpointed graph agent under a new `Runner` (a fresh process, as it were). */
export async function runOnce(graph: CompiledGraph, checkpointer: Checkpointer, invocationId: string, signal?: AbortSignal): Promise<Run> {
  const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', graph, { checkpointer }) });
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: invocationId, message: 'order 42', invocationId, signal })) events.push(event);
  const completion = events.at(-1) as RunEvent;
  expect(isRunnerCompletion(completion)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 5)); // an aborted graph's last node settles
  return { completion, events };
}

/** The completion without what differs between any two runs: ids, timestamps, the invocation id. */
export function comparableCompletion(event: RunEvent): unknown {
  const { response, stateDelta } = event;
  const { id: _id, created: _created, ...rest } = response ?? { object: '', done: true };
  const delta = Object.fromEntries(Object.entries(stateDelta ?? {}).map(([key, text]) => [key, withoutTimestamps(JSON.parse(text ?? 'null'))]));
  return { author: event.author, response: rest, stateDelta: delta };
}

