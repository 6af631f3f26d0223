// A failed run's message says each thing once: which node (or router) failed, at which step, after how many attempts,
// and what went wrong — never "execution failed at step 2: node charge execution failed: node charge returned …".
// One graph per way a run can fail; each message is checked for repeated facts, not against a copy of its text.
import { describe, expect, it } from 'vitest';
import { END, StateGraph, StateSchema, type GraphOutcome } from '../../src/graph/index.js';

const ID = 'charge_card';
type Build = () => StateGraph;
const start = (): StateGraph => new StateGraph(new StateSchema()).addNode('prepare', () => ({ ready: true })).setEntryPoint('prepare');
const throwing = (value: unknown) => () => {
  throw value;
};

const cases: Array<[string, Build]> = [
  ['a node that throws', () => start().addNode(ID, throwing(new Error('the card was declined'))).addEdge('prepare', ID).setFinishPoint(ID)],
  ['a node that throws undefined', () => start().addNode(ID, throwing(undefined)).addEdge('prepare', ID).setFinishPoint(ID)],
  ['a node retried until it gave up', () => start().addNode(ID, throwing(Object.assign(new Error('busy'), { retryable: true })), { retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 } }).addEdge('prepare', ID).setFinishPoint(ID)],
  ['a node that returns a string', () => start().addNode(ID, (() => 'done') as never).addEdge('prepare', ID).setFinishPoint(ID)],
  ['a node whose callback throws', () => start().addNode(ID, () => ({}), { callbacks: { afterNode: throwing(new Error('audit log unavailable')) } }).addEdge('prepare', ID).setFinishPoint(ID)],
  ['a router that throws', () => start().addNode(ID, () => ({})).addConditionalEdges('prepare', throwing(new Error('no route'))).setFinishPoint(ID)],
  ['a router that picks a missing key', () => start().addNode(ID, () => ({})).addConditionalEdges('prepare', () => 'gold', { silver: ID }).setFinishPoint(ID)],
  ['a route to a node that does not exist', () => start().addNode(ID, () => ({})).addConditionalEdges('prepare', () => 'nowhere').setFinishPoint(ID)],
  ['two nodes failing in one step', () => start().addNode(ID, throwing(new Error('declined'))).addNode('notify', throwing(new Error('smtp down'))).addEdge('prepare', ID).addEdge('prepare', 'notify').addEdge('notify', END).setFinishPoint(ID)],
];

const count = (text: string, word: string): number => text.split(new RegExp(`\\b${word}\\b`)).length - 1;

describe('run error messages say each thing once', () => {
  it.each(cases)('%s', async (_name, build) => {
    const outcome: GraphOutcome = await build().compile().run({});
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    const { message } = outcome.error;
    expect(count(message, 'step'), message).toBe(1);
    expect(count(message, 'execution'), message).toBe(0);
    const named = outcome.error.nodeId ?? '';
    expect(named, message).not.toBe('');
    expect(count(message, named), message).toBe(1);
    if (message.includes('notify')) expect(count(message, 'notify'), message).toBe(1);
    expect(message, message).toMatch(/\bat step \d+\b/);
  });
});
