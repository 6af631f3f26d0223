// toAGUIEvents over runner runs: an LLM agent under the runner (chunks, tool calls, tool results, its failures), a
// graph with a recoverable and a fatal execution-error record (each record once, as faultline.record; the nodes as
// steps; the completion as faultline.completion without state values; exactly one RUN_ERROR), a run that succeeds,
// and a run stopped through the signal (RUN_FINISHED, outcome cancelled).
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder } from '../../../src/agent/index.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { markRecoverable } from '../../../src/errors/index.js';
import { createGraphAgent, END, ExecutionErrorCollector, messagesStateSchema, StateGraph } from '../../../src/graph/index.js';
import { Runner } from '../../../src/runner/index.js';
import { DataNotFoundError, defineTool } from '../../../src/tools/index.js';
import { toAGUIEvents } from '../../../src/ui/history-exports.js';
import { customValues, expectValidAGUI, readEvents } from './ag-ui-check.js';

const city = z.object({ city: z.string() });

function graphWithRecords(fatal: boolean) {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()))
    .use(collector)
    .addNode('lookup', () => {
      throw markRecoverable(Object.assign(new Error('catalog lookup timed out'), { code: 'CATALOG_TIMEOUT' }));
    })
    .addNode('write', () => {
      if (fatal) throw Object.assign(new Error('database write failed: password=hunter2hunter2hunter2'), { code: 'WRITE_FATAL' });
      return {};
    })
    .addEdge('lookup', 'write')
    .setEntryPoint('lookup')
    .addEdge('write', END)
    .compile();
}

describe('toAGUIEvents: a runner run', () => {
  it('writes an agent under the runner: its text, tool calls, tool results with their faultline.error, and RUN_FINISHED', async () => {
    const tool = defineTool({ name: 'find_order', description: '404', parameters: city, execute: () => { throw new DataNotFoundError('No order.'); } });
    const model = createScriptedChatClient([{ text: 'Checking.', toolCalls: [{ id: 'c1', name: 'find_order', arguments: { city: 'Paris' } }] }, { text: 'There is no order.' }]);
    const runner = new Runner({ appName: 'shop', agent: new AgentBuilder('support').chatClient(model).tools([tool]).toolLogger(() => {}).build() });
    const events = await readEvents(toAGUIEvents(runner.run({ userId: 'u', sessionId: 's', message: 'Where is my order?', invocationId: 'inv-1' }), { threadId: 't' }));
    expectValidAGUI(events);
    expect(events[0]).toEqual({ type: 'RUN_STARTED', threadId: 't', runId: 'inv-1', protocolVersion: '1.0' });
    const text = events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map((event) => (event as { delta: string }).delta).join('');
    expect(text).toBe('Checking.There is no order.');
    expect(events.filter((event) => event.type === 'TOOL_CALL_START')).toEqual([{ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'find_order', parentMessageId: expect.any(String) }]);
    const suggestion = new DataNotFoundError('x').suggestion;
    expect(events.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: 'c1', content: JSON.stringify({ ok: false, error: { type: 'DataNotFoundError', message: 'No order.', suggestion } }) });
    expect(customValues(events, 'faultline.error')).toEqual([{ type: 'DataNotFoundError', message: 'No order.', suggestion, kind: 'tool', retryable: false, scope: 'tool', toolCallId: 'c1', toolName: 'find_order' }]);
    expect(customValues(events, 'faultline.completion')).toEqual([{ status: 'completed', errorCodes: [] }]);
    expect(events.at(-1)).toEqual({ type: 'RUN_FINISHED', threadId: 't', runId: 'inv-1', result: { status: 'completed' } });
  });

  it('writes a graph run with a recoverable and a fatal record: each record once, nodes as steps, one RUN_ERROR', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', graphWithRecords(true)) });
    const events = await readEvents(toAGUIEvents(runner.run({ userId: 'u', sessionId: 's', message: 'Order 42' })));
    expectValidAGUI(events);
    // A fatal record travels at once (its own event); a recovered one with the state that carries it (here: the
    // completion's fallback state) — each exactly once.
    const records = customValues(events, 'faultline.record').sort((a, b) => (a.stepNumber as number) - (b.stepNumber as number));
    expect(records.map((record) => [record.severity, record.nodeId, record.code, record.scope, record.kind])).toEqual([
      ['recoverable', 'lookup', 'CATALOG_TIMEOUT', 'record', 'flow_error'],
      ['fatal', 'write', 'WRITE_FATAL', 'record', 'flow_error'],
    ]);
    expect(events.filter((event) => event.type === 'STEP_STARTED').map((event) => (event as { stepName: string }).stepName)).toEqual(['lookup', 'write']);
    const completion = customValues(events, 'faultline.completion');
    expect(completion).toHaveLength(1);
    expect(completion[0]).toMatchObject({ status: 'failed', error: { type: 'flow_error', code: 'WRITE_FATAL' } });
    expect([...(completion[0]?.errorCodes as string[])].sort()).toEqual(['CATALOG_TIMEOUT', 'WRITE_FATAL']);
    expect(JSON.stringify(completion)).not.toContain('messages'); // no state values
    expect(events.filter((event) => event.type === 'RUN_ERROR')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'flow_error' });
    expect(JSON.stringify(events)).not.toContain('hunter2hunter2hunter2');
  });

  it('finishes a graph run whose only record was recovered, with that record and a completed status', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', graphWithRecords(false)) });
    const events = await readEvents(toAGUIEvents(runner.run({ userId: 'u', sessionId: 's', message: 'Order 42' })));
    expectValidAGUI(events);
    expect(customValues(events, 'faultline.record').map((record) => record.severity)).toEqual(['recoverable']);
    expect(customValues(events, 'faultline.completion')).toEqual([{ status: 'completed', errorCodes: ['CATALOG_TIMEOUT'] }]);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { status: 'completed' } });
  });

  it('ends a runner run stopped through the signal with RUN_FINISHED, outcome cancelled', async () => {
    const controller = new AbortController();
    const model = createScriptedChatClient([{ text: 'a long answer '.repeat(20), chunkSize: 3, delayMs: 50 }]);
    const runner = new Runner({ appName: 'shop', agent: new AgentBuilder('support').chatClient(model).build() });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    const events = await readEvents(toAGUIEvents(runner.run({ userId: 'u', sessionId: 's', message: 'hi' }), { signal: controller.signal }));
    expectValidAGUI(events);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
  });
});
