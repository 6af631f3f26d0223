// The span tree of a graph run (issue 16): invoke_workflow → graph.node spans; a recoverable node and a fatal node
// both fail their spans, told apart by faultline.execution_error.severity; the fatal one fails the run's span; a node's
// retries are events; a child graph's spans nest under its agent node's span; under the Runner everything nests
// under its invoke_agent span.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { recoverableError } from '../../src/errors/index.js';
import { createGraphAgent, ExecutionErrorCollector, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { Runner } from '../../src/runner/index.js';
import { otel, record } from './otel-sdk.js';

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

function shop() {
  let attempts = 0;
  return new StateGraph(messagesStateSchema())
    .use(new ExecutionErrorCollector())
    .addNode('lookup_inventory', () => {
      throw recoverableError('inventory is slow', { code: 'INVENTORY_SLOW' });
    })
    .addNode('charge', () => {
      attempts++;
      throw Object.assign(new Error('card declined'), { code: 'CARD_DECLINED', retryable: attempts < 2 });
    }, { retry: { maxAttempts: 2, initialDelayMs: 0 } })
    .addEdge('lookup_inventory', 'charge')
    .setEntryPoint('lookup_inventory')
    .setFinishPoint('charge')
    .compile();
}

describe('a graph run as spans', () => {
  it('invoke_workflow → a recoverable node and a fatal node, told apart by severity; the run fails', async () => {
    const recorder = record();
    const outcome = await shop().run({ user_input: 'order 42' }, { telemetry: recorder.telemetry, workflowName: 'shop' });
    expect(outcome.status).toBe('failed');
    const run = recorder.span('invoke_workflow shop');
    const lookup = recorder.span('graph.node lookup_inventory');
    const charge = recorder.span('graph.node charge');
    for (const node of [lookup, charge]) expect(parentOf(node)).toBe(idOf(run));
    expect(lookup.attributes).toMatchObject({ 'faultline.graph.node.id': 'lookup_inventory', 'faultline.graph.step': 0, 'faultline.execution_error.severity': 'recoverable', 'error.type': 'Error' });
    expect(lookup.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(charge.attributes).toMatchObject({ 'faultline.graph.step': 1, 'faultline.execution_error.severity': 'fatal', 'faultline.graph.node.attempts': 2 });
    expect(charge.events.map((event) => event.name)).toEqual(['faultline.retry', 'exception']);
    expect(run.status).toMatchObject({ code: otel.SpanStatusCode.ERROR });
    expect(run.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'shop', 'error.type': 'workflow' });
  });

  it('a completed run leaves the run span UNSET; a child graph nests under its agent node; the Runner is the root', async () => {
    const recorder = record();
    const child = new StateGraph(messagesStateSchema()).addNode('count', () => ({ last_response: '12' })).setEntryPoint('count').setFinishPoint('count').compile();
    const parent = new StateGraph(messagesStateSchema())
      .addSubgraph('inventory', child)
      .addNode('answer', () => ({ last_response: 'in stock' }))
      .addEdge('inventory', 'answer')
      .setEntryPoint('inventory')
      .setFinishPoint('answer')
      .compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', parent), telemetry: recorder.telemetry });
    for await (const _ of runner.run({ userId: 'u', sessionId: 's-1', message: 'order 42' })) void _;
    const root = recorder.span('invoke_agent shop');
    const workflow = recorder.span('invoke_workflow orders');
    const inventoryNode = recorder.span('graph.node inventory');
    const childWorkflow = recorder.span('invoke_workflow inventory');
    const count = recorder.span('graph.node count');
    expect(parentOf(workflow)).toBe(idOf(root));
    expect(parentOf(inventoryNode)).toBe(idOf(workflow));
    expect(parentOf(childWorkflow)).toBe(idOf(inventoryNode));
    expect(parentOf(count)).toBe(idOf(childWorkflow));
    expect(new Set(recorder.spans().map((span) => span.spanContext().traceId)).size).toBe(1);
    for (const span of recorder.spans()) expect(span.status.code).toBe(otel.SpanStatusCode.UNSET);
    expect(root.attributes).toMatchObject({ 'gen_ai.agent.name': 'shop', 'gen_ai.conversation.id': 's-1' });
  });

  it('under the Runner, a failed graph fails the root span with the completion’s error', async () => {
    const recorder = record();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', shop()), telemetry: recorder.telemetry });
    for await (const _ of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) void _;
    expect(recorder.span('invoke_agent shop').status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(recorder.span('invoke_agent shop').attributes['error.type']).toBe('flow_error');
  });
});
