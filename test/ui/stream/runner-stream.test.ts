// Runner runs (an LLM agent's, a graph's) as the UI message stream: the events mapped to parts — streamed text once,
// tool calls and their outputs, a graph's execution-error records as kept parts, the runner's completion as a kept
// part — and the same ending rules: finish, the failure ending, or abort for a cancelled run.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder } from '../../../src/agent/index.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { recoverableError } from '../../../src/errors/index.js';
import { createGraphAgent, ExecutionErrorCollector, messagesStateSchema, StateGraph } from '../../../src/graph/index.js';
import { Runner } from '../../../src/runner/index.js';
import { defineTool, DataNotFoundError } from '../../../src/tools/index.js';
import { toUIMessageStream, type FaultlineCompletionData, type FaultlineErrorData, type FaultlineRecordData } from '../../../src/ui/index.js';
import { checkedBody, chunksOfType } from './ui-stream.js';

function partsOf<T>(message: { parts: ReadonlyArray<{ type: string }> } | undefined, type: string): T[] {
  return (message?.parts ?? []).filter((part) => part.type === type).map((part) => (part as unknown as { data: T }).data);
}

/** A graph whose first node fails recoverably (code INVENTORY_SOFT_TIMEOUT) and whose second fails for good (WRITE_FATAL). */
function recoverableThenFatal() {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(messagesStateSchema().addField('order_status'))
    .use(collector)
    .addNode('lookup_inventory', () => {
      throw recoverableError('inventory lookup timed out', { code: 'INVENTORY_SOFT_TIMEOUT' });
    })
    .addNode('write', () => {
      throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
    })
    .addEdge('lookup_inventory', 'write')
    .setEntryPoint('lookup_inventory')
    .setFinishPoint('write')
    .compile();
}

describe('a Runner run of an LLM agent', () => {
  it('streams the text once, each tool call with its output (a failed one typed), and a completed completion', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Finds an order.',
      parameters: z.object({ id: z.string() }),
      execute: ({ id }) => {
        if (id === 'missing') throw new DataNotFoundError(`No order ${id}.`);
        return { id, status: 'shipped' };
      },
    });
    const model = createScriptedChatClient([
      { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 'A-1' } }, { id: 'c2', name: 'lookup', arguments: { id: 'missing' } }] },
      { text: 'Order A-1 shipped; the other one does not exist.' },
    ]);
    const agent = new AgentBuilder('orders').chatClient(model).tools([lookup]).toolLogger(false).build();
    const runner = new Runner({ appName: 'shop', agent });
    const body = await checkedBody(toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', message: 'Where are A-1 and missing?' })));
    const texts = body.message?.parts.filter((part) => part.type === 'text');
    expect(texts).toEqual([{ type: 'text', text: 'Order A-1 shipped; the other one does not exist.', state: 'done' }]);
    const tools = body.message?.parts.filter((part) => part.type === 'tool-lookup') as unknown as Array<Record<string, unknown>>;
    expect(tools.map((part) => [part.toolCallId, part.state])).toEqual([
      ['c1', 'output-available'],
      ['c2', 'output-error'],
    ]);
    expect(partsOf<FaultlineErrorData>(body.message, 'data-faultline-error')).toEqual([
      expect.objectContaining({ type: 'DataNotFoundError', message: 'No order missing.', kind: 'tool', retryable: false, scope: 'tool', toolCallId: 'c2', toolName: 'lookup' }),
    ]);
    expect(partsOf<FaultlineCompletionData>(body.message, 'data-faultline-completion')).toEqual([{ status: 'completed', records: { recoverable: 0, fatal: 0 }, codes: [] }]);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });
});

describe('a Runner run of a graph', () => {
  it('a recoverable and a fatal record: both kept as record parts, the completion failed with their codes, then the failure ending', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', recoverableThenFatal()) });
    const body = await checkedBody(toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', message: 'Order 42' })));
    // Each record once, though state deltas repeat them (the collector's fatal emission, then the fallback state).
    const records = partsOf<FaultlineRecordData>(body.message, 'data-faultline-record').sort((a, b) => a.stepNumber - b.stepNumber);
    expect(records).toEqual([
      expect.objectContaining({ severity: 'recoverable', nodeId: 'lookup_inventory', code: 'INVENTORY_SOFT_TIMEOUT', message: 'inventory lookup timed out', kind: 'workflow', scope: 'record', retryable: false }),
      expect.objectContaining({ severity: 'fatal', nodeId: 'write', code: 'WRITE_FATAL', message: 'database write failed', scope: 'record' }),
    ]);
    expect(chunksOfType(body.chunks, 'data-faultline-record' as never).map((chunk) => (chunk as { id: string }).id)).toEqual(['record-1', 'record-2']);
    const [completion] = partsOf<FaultlineCompletionData>(body.message, 'data-faultline-completion');
    expect(completion).toMatchObject({ status: 'failed', records: { recoverable: 1, fatal: 1 } });
    expect([...(completion?.codes ?? [])].sort()).toEqual(['INVENTORY_SOFT_TIMEOUT', 'WRITE_FATAL']);
    expect(completion?.state).toBeUndefined(); // no state values without completionState
    expect(completion?.error).toMatchObject({ scope: 'run', message: expect.stringContaining('database write failed') });
    const types = body.chunks.map((chunk) => chunk.type);
    expect(types.slice(-4)).toEqual(['data-faultline-completion', 'data-faultline-error', 'error', 'finish']);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });

  it('with completionState, the completion carries the decoded business state', async () => {
    const graph = new StateGraph(messagesStateSchema().addField('order_status'))
      .addNode('done', () => ({ order_status: 'shipped' }))
      .setEntryPoint('done')
      .setFinishPoint('done')
      .compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', graph) });
    const body = await checkedBody(toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', message: 'Order 42' }), { completionState: true }));
    const [completion] = partsOf<FaultlineCompletionData>(body.message, 'data-faultline-completion');
    expect(completion).toMatchObject({ status: 'completed', state: expect.objectContaining({ order_status: 'shipped' }) });
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('a graph agent’s own events, read without a Runner, still end: with the failure when one ended the run', async () => {
    const agent = createGraphAgent('orders', recoverableThenFatal());
    const events = agent.runEvents({ invocationId: 'inv-1', appName: 'shop', userId: 'u', sessionId: 's', message: { role: 'user', content: 'Order 42' }, history: [], signal: new AbortController().signal });
    const body = await checkedBody(toUIMessageStream(events));
    expect(partsOf<FaultlineRecordData>(body.message, 'data-faultline-record').map((record) => record.severity).sort()).toEqual(['fatal', 'recoverable']);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
  });

  it('a cancelled run ends with abort, never finish', async () => {
    const slow = new StateGraph(messagesStateSchema())
      .addNode('wait', async (_state, context) => {
        await new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
        return {};
      })
      .setEntryPoint('wait')
      .setFinishPoint('wait')
      .compile();
    const controller = new AbortController();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('slow', slow) });
    const stream = toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', message: 'Go', signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('the user left')), 20);
    const body = await checkedBody(stream);
    expect(body.chunks.at(-1)).toEqual({ type: 'abort', reason: expect.stringContaining('the user left') });
    expect(partsOf<FaultlineCompletionData>(body.message, 'data-faultline-completion')[0]?.status).toBe('cancelled');
  });
});
