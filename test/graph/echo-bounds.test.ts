/**
 * Echoed identifiers are bounded: a 1 MB id (run id, node id, state key, router choice, goto target, stored value)
 * sent into every graph and checkpoint entry point comes back in no message whole — every error's message, its
 * problems and its cause chain stay under a few thousand characters, quoting at most 200 of it at a time.
 */
import { describe, expect, it } from 'vitest';
import { DurableObjectCheckpointer } from '../../src/cloudflare/index.js';
import { AgentError } from '../../src/errors/index.js';
import {
  CHILD_RUN_SEPARATOR,
  Command,
  createGraphAgent,
  ExecutionErrorCollector,
  InMemoryCheckpointer,
  messagesStateSchema,
  StateGraph,
  type Checkpointer,
  type GraphCheckpoint,
  type GraphOutcome,
} from '../../src/graph/index.js';
import { Runner } from '../../src/runner/index.js';
import { FakeStorage } from '../cloudflare/fake-platform.js';
import { mapCheckpointer } from './checkpoint-fixtures.js';

const BIG = 'x'.repeat(1024 * 1024);
const LIMIT = 8_000;

/** Every text an error carries: its message, its problems, its causes' messages. */
function texts(error: unknown): string[] {
  const found: string[] = [];
  for (let link = error, depth = 0; link !== undefined && link !== null && depth < 10; link = (link as { cause?: unknown }).cause, depth++) {
    found.push(String((link as { message?: unknown }).message ?? ''));
    found.push(...(((link as { problems?: unknown }).problems as string[] | undefined) ?? []));
  }
  return found;
}

/** What an entry point gave back: a failed outcome's error, or what it threw or rejected with. */
async function failureOf(attempt: () => unknown): Promise<unknown> {
  try {
    const outcome = (await attempt()) as GraphOutcome | undefined;
    return outcome?.status === 'failed' ? outcome.error : outcome;
  } catch (error) {
    return error;
  }
}

function oneNode(id = 'work', run: () => unknown = () => ({})) {
  return new StateGraph(messagesStateSchema()).use(new ExecutionErrorCollector()).addNode(id, run).setEntryPoint(id).setFinishPoint(id);
}

function stored(value: Partial<GraphCheckpoint>): Checkpointer {
  const checkpoint = { version: 1, runId: 'r', status: 'running', step: 0, state: {}, pending: ['work'], updatedAt: '2025-01-01T00:00:00.000Z', ...value };
  return { get: async () => checkpoint as GraphCheckpoint, put: async () => true, delete: async () => {} };
}

const entries: Array<[string, () => unknown]> = [
  ['resume of an unknown run id', () => oneNode().compile().resume(BIG, { checkpointer: new InMemoryCheckpointer() })],
  ['a run id with the separator', () => oneNode().compile().run({}, { checkpointer: new InMemoryCheckpointer(), runId: BIG + CHILD_RUN_SEPARATOR })],
  ['a stored checkpoint of another run', () => oneNode().compile().resume('r', { checkpointer: stored({ runId: BIG }) })],
  ['a stored checkpoint with an unknown pending node', () => oneNode().compile().resume('r', { checkpointer: stored({ pending: [BIG] }) })],
  ['a stored checkpoint of 5,000 bad state keys', () => oneNode().compile().resume('r', { checkpointer: stored({ state: Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`${index}${'k'.repeat(1_000)}`, 1])) as never }) })],
  ['a stored checkpoint of another graph', () => oneNode().compile().resume('r', { checkpointer: stored({ graph: BIG }) })],
  ['a stored checkpoint held under a big owner id', () => oneNode().compile().resume(BIG, { checkpointer: stored({ runId: BIG, owner: BIG, leaseUntil: new Date(Date.now() + 60_000).toISOString() }) })],
  [
    'a resume of a big run id held by another process',
    async () => {
      const checkpointer = mapCheckpointer();
      await oneNode().compile().run({}, { checkpointer, runId: BIG });
      const held = { ...JSON.parse(checkpointer.store.get(BIG) as string), status: 'running', pending: ['work'], owner: 'elsewhere', leaseUntil: new Date(Date.now() + 60_000).toISOString() };
      checkpointer.store.set(BIG, JSON.stringify(held));
      return oneNode().compile().resume(BIG, { checkpointer });
    },
  ],
  ['a node id added twice', () => oneNode(BIG).addNode(BIG, () => ({})).compile()],
  ['a node id with the separator', () => oneNode(BIG + CHILD_RUN_SEPARATOR).compile()],
  ['an edge to an unknown node', () => oneNode().addEdge('work', BIG).compile()],
  ['5,000 edges to unknown nodes', () => Array.from({ length: 5_000 }, (_, index) => index).reduce((graph, index) => graph.addEdge('work', `${index}${BIG.slice(0, 1_000)}`), oneNode()).compile()],
  ['a path map to an unknown node', () => oneNode().addConditionalEdges('work', () => 'a', { [BIG]: BIG }).compile()],
  ['a fallback goto to an unknown node', () => new StateGraph(messagesStateSchema()).use(new ExecutionErrorCollector()).addNode('work', () => ({}), { fallback: { goto: BIG } }).setEntryPoint('work').setFinishPoint('work').compile()],
  ['a router choosing an unknown node', () => oneNode().addConditionalEdges('work', () => BIG).compile().run({})],
  ['a router choosing outside its path map', () => oneNode().addConditionalEdges('work', () => BIG, { a: 'work' }).compile().run({})],
  ['a Command to an unknown node', () => oneNode('work', () => new Command({ goto: BIG })).compile({ collectorCheck: false }).run({})],
  ['a big node id that fails', () => oneNode(BIG, () => Promise.reject(new Error('down'))).compile().run({})],
  ['a big node id that returns no update', () => oneNode(BIG, () => 42).compile().run({})],
  ['a big node id past the step limit', () => oneNode(BIG).addEdge(BIG, BIG).compile({ stepLimit: 2 }).run({})],
  ['a state key that is not JSON, checkpointed', () => oneNode('work', () => ({ [BIG]: 10n })).compile().run({}, { checkpointer: new InMemoryCheckpointer(), runId: BIG })],
  ['an update key whose getter throws', () => oneNode('work', () => Object.defineProperty({}, BIG, { enumerable: true, get: () => { throw new Error('trap'); } })).compile().run({})],
  ['a big run id on a Durable Object', () => oneNode().compile().run({}, { checkpointer: new DurableObjectCheckpointer(new FakeStorage()), runId: BIG })],
  ['a graph agent with a big name and a bad option', () => createGraphAgent(BIG, oneNode().compile(), { checkpointer: {} as never })],
];

describe('an entry point sent a 1 MB id', () => {
  for (const [name, attempt] of entries) {
    it(`bounds every message: ${name}`, async () => {
      const error = await failureOf(attempt);
      expect(error, 'it failed, with a typed error').toBeDefined();
      expect(AgentError.isInstance(error)).toBe(true);
      const all = texts(error);
      expect(all.length).toBeGreaterThan(0);
      for (const text of all) expect(text.length).toBeLessThan(LIMIT);
      expect(all.join('').includes(BIG.slice(0, 300))).toBe(false);
    });
  }

  it('bounds the run_error of a graph agent whose invocation id has the separator, under the Runner', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', oneNode().compile(), { checkpointer: new InMemoryCheckpointer() }) });
    const messages: string[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'hi', invocationId: BIG + CHILD_RUN_SEPARATOR })) if (event.response?.error) messages.push(event.response.error.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message.length).toBeLessThan(LIMIT);
  });
});
