import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain JS module of the demo (the Node adapter of our fetch handler)
import { serve } from '../../demo/node/serve.mjs';
import { createA2AAgent, createA2AClient, createA2AHandler } from '../../src/a2a/index.js';
import {
  createGraphAgent,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  StateGraph,
  type ExecutionError,
} from '../../src/graph/index.js';
import { isRunnerCompletion, isTerminalError, Runner, type RunEvent } from '../../src/runner/index.js';
import { fatalWriteGraph } from '../helpers/graphs.js';

type Server = { url: string; close: () => Promise<void> };

const fatalRemoteGraph = fatalWriteGraph;

function parentGraph(remoteUrl: string, propagateChildErrors = false) {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()).addField('note'))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addAgentNode('remote_inventory', createA2AAgent({ agentCardUrl: remoteUrl }), { outputMapper: collector.subgraphOutputMapper(), propagateChildErrors })
    .addNode('finalize', (state) => ({ note: `${(state.execution_errors as unknown[]).length} record(s)`, last_response: 'parent finished' }))
    .addEdge('remote_inventory', 'finalize')
    .setEntryPoint('remote_inventory')
    .setFinishPoint('finalize')
    .compile();
}

async function run(runner: Runner): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'write order 42' })) events.push(event);
  return events;
}

const summary = (record: ExecutionError) => ({ severity: record.severity, nodeId: record.nodeId, path: record.path, code: record.error?.code, message: record.error?.message });

describe('A2A round trip over loopback HTTP: our client, our handler, a parent graph', () => {
  let remote: Server;
  beforeAll(async () => {
    remote = await serve(createA2AHandler({ agent: createGraphAgent('inventory', fatalRemoteGraph()), card: { name: 'inventory' } }));
  });
  afterAll(async () => remote.close());

  it('gives the parent collector the remote failure as a record, with the remote node and the agent-node path', async () => {
    const events = await run(new Runner({ appName: 'shop', agent: createGraphAgent('shop', parentGraph(remote.url)) }));
    const completion = events.at(-1) as RunEvent;
    expect(isRunnerCompletion(completion)).toBe(true);
    expect(events.filter(isRunnerCompletion)).toHaveLength(1);
    expect(completion.response?.error).toBeUndefined();
    expect(executionErrorsFromStateDelta(completion.stateDelta)?.map(summary)).toEqual([
      { severity: 'fatal', nodeId: 'write', path: ['remote_inventory'], code: 'WRITE_FATAL', message: 'database write failed' },
    ]);
    expect(JSON.parse(completion.stateDelta?.note as string)).toBe('1 record(s)');
  });

  it('with propagateChildErrors the agent node fails, and the record keeps the remote code', async () => {
    const events = await run(new Runner({ appName: 'shop', agent: createGraphAgent('shop', parentGraph(remote.url, true)) }));
    const completion = events.at(-1) as RunEvent;
    expect(completion.response?.error).toMatchObject({ type: 'flow_error', code: 'WRITE_FATAL' });
    expect(executionErrorsFromStateDelta(completion.stateDelta)?.map(summary)).toEqual([
      {
        severity: 'fatal',
        nodeId: 'remote_inventory',
        path: undefined,
        code: 'WRITE_FATAL',
        message: 'node write failed at step 0: database write failed',
      },
    ]);
  });

  it('serves the recovering parent over A2A too: its task completes, the child failure stays inside it', async () => {
    const parentServer: Server = await serve(createA2AHandler({ agent: createGraphAgent('shop', parentGraph(remote.url)), card: { name: 'shop' } }));
    try {
      const task = await createA2AClient({ agentCardUrl: parentServer.url }).sendMessage('write order 42');
      expect(task.kind).toBe('task');
      expect(task.kind === 'task' && task.status.state).toBe('completed');
      const events: RunEvent[] = [];
      const agent = createA2AAgent({ agentCardUrl: parentServer.url });
      for await (const event of agent.runEvents({ invocationId: 'outer', appName: 'x', userId: 'u', sessionId: 's', message: { role: 'user', content: 'write order 42' }, history: [], signal: new AbortController().signal })) {
        events.push(event);
      }
      expect(events.some(isTerminalError)).toBe(false);
      expect(events.at(-1)?.response).toMatchObject({ done: true, choices: [{ message: { content: "parent finished" } }] });
    } finally {
      await parentServer.close();
    }
  });
});
