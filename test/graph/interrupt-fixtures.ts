/** Graphs shared by the interrupt tests: a refund that a person approves, with counters around its `interrupt()` call. */
import { expect } from 'vitest';
import { jsonSchema } from '../../src/tools/index.js';
import {
  END,
  ExecutionErrorCollector,
  interrupt,
  reducers,
  START,
  StateGraph,
  StateSchema,
  type CompiledGraph,
  type GraphOutcome,
  type InterruptOptions,
  type Reducer,
} from '../../src/graph/index.js';
import type { Interrupt } from '../../src/interrupts/index.js';

/** What ran, and how often: `before` counts the runs of `approve` up to its `interrupt()`, `after` those past it. */
export interface Counters {
  before: number;
  after: number;
  refunds: number;
  notes: number;
}

export const counters = (): Counters => ({ before: 0, after: 0, refunds: 0, notes: 0 });

export const ANSWER_SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' }, by: { type: 'string' } }, required: ['ok'], additionalProperties: false };

/**
 * `START → approve, note` (one step); `approve → refund → END`. `approve` asks a person (`interrupt()`) whether to
 * refund, with `options` (a `responseSchema` by default); `note` runs beside it and finishes; `refund` is the side
 * effect a node of its own.
 */
export function refundGraph(count: Counters, options: InterruptOptions<{ ok: boolean }> = { responseSchema: jsonSchema<{ ok: boolean }>(ANSWER_SCHEMA) }): CompiledGraph {
  const collector = new ExecutionErrorCollector();
  const schema = collector
    .addField(new StateSchema())
    .addField('amount', { default: () => 30 })
    .addField('approved')
    .addField('trail', { reducer: reducers.append as Reducer, default: () => [] });
  return new StateGraph(schema)
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('approve', (state, context) => {
      count.before++;
      const answer = interrupt(context, { refund: state.amount }, options);
      count.after++;
      return { approved: answer.ok, trail: ['approve'] };
    })
    .addNode('note', () => {
      count.notes++;
      return { trail: ['note'] };
    })
    .addNode('refund', (state) => {
      if (state.approved === true) count.refunds++;
      return { trail: ['refund'] };
    })
    .addEdge(START, 'approve')
    .addEdge(START, 'note')
    .addEdge('approve', 'refund')
    .addEdge('refund', END)
    .compile();
}

/** The outcome, asserted interrupted: its interrupts. */
export function interruptsOf(outcome: GraphOutcome): Interrupt[] {
  expect(outcome.status, JSON.stringify(outcome)).toBe('interrupted');
  return (outcome as Extract<GraphOutcome, { status: 'interrupted' }>).interrupts;
}

/** The rejection of `promise`, asserted to happen. */
export async function refusal(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the resume to be refused');
}
