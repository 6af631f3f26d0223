// Without telemetry nothing is built for spans: every instrumented site asks `traces()` first and, for NO_TELEMETRY or
// the inert NO_SPAN, reads none of what it would record (here: objects that throw on any read). With telemetry the
// same helpers record their attributes (the span suites next to this file check the rest, site by site).
import { describe, expect, it } from 'vitest';
import { runSpan, startModelSpan, endModelSpan, recordModelInput } from '../../src/agent/run-span.js';
import type { AgentSettings } from '../../src/agent/types.js';
import { endGraphRunSpan, graphRunSpan, traceNodeRetry } from '../../src/graph/run/node-span.js';
import { mcpRequestSpan } from '../../src/mcp/request-span.js';
import { NO_SPAN, NO_TELEMETRY, traces } from '../../src/telemetry/no-telemetry.js';
import type { ChatMessage } from '../../src/chat/core/types.js';
import type { RetryNotice } from '../../src/internal/retry.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import { endToolSpan, toolSpan, traceRetry } from '../../src/tools/tool-span.js';
import type { ToolRun } from '../../src/tools/tool-run.js';
import { record } from './otel-sdk.js';

/** An object any read of which throws: handed to a site that must not look at it. */
const untouchable = <T>(): T =>
  new Proxy({}, {
    get(_target, key) {
      throw new Error(`read ${String(key)} of what an untraced site must not look at`);
    },
  }) as T;

describe('traces()', () => {
  it('is false for nothing, NO_TELEMETRY and NO_SPAN; true for real telemetry and its spans', () => {
    const { telemetry } = record();
    const span = telemetry.startSpan('work');
    expect([traces(undefined), traces(NO_TELEMETRY), traces(NO_SPAN)]).toEqual([false, false, false]);
    expect([traces(telemetry), traces(span)]).toEqual([true, true]);
    span.end();
  });

  it('NO_TELEMETRY carries an inert A2A client tracing: the inert span, and results that tell it nothing', () => {
    const tracing = NO_TELEMETRY.a2aClient;
    expect(tracing?.start('SendMessage', 'message/send', 'https://agent.test/')).toBe(NO_SPAN);
    expect(() => tracing?.result(NO_SPAN, untouchable())).not.toThrow();
    expect(Object.isFrozen(tracing)).toBe(true);
  });
});

describe('an untraced site builds no span name and no attributes', () => {
  const untraced = { telemetry: NO_TELEMETRY, chatClient: untouchable(), name: 'a' } as unknown as AgentSettings;

  it('agent: the run and model spans, the model input and output', () => {
    expect(runSpan(untraced, untouchable(), {})).toBe(NO_SPAN);
    expect(startModelSpan(untraced, NO_SPAN)).toBe(NO_SPAN);
    const recording = { ...untraced, telemetry: { ...record().telemetry, recordContent: true } } as AgentSettings;
    recordModelInput(recording, NO_SPAN, untouchable<ChatMessage[]>());
    endModelSpan(NO_SPAN, 'stop', untouchable(), undefined);
  });

  it('tools: the call span, its retries and its end', () => {
    expect(toolSpan(untouchable<AnyTool>(), 'c1', { telemetry: NO_TELEMETRY }, untouchable())).toBe(NO_SPAN);
    expect(toolSpan(untouchable<AnyTool>(), 'c1', {}, untouchable())).toBe(NO_SPAN);
    traceRetry(NO_SPAN, untouchable<RetryNotice>(), 'network');
    endToolSpan(NO_SPAN, untouchable<ToolRun>(), NO_TELEMETRY);
  });

  it('graph: the run span and its end, a node retry', () => {
    expect(graphRunSpan(NO_TELEMETRY, 'orders', undefined, 'r1')).toBe(NO_SPAN);
    endGraphRunSpan(NO_SPAN, untouchable());
    traceNodeRetry(NO_SPAN, 1, 10, untouchable());
  });

  it('MCP: a request span, also with NO_TELEMETRY passed', () => {
    expect(mcpRequestSpan(NO_TELEMETRY, 'tools/call', untouchable(), 'https://tools.test/mcp', undefined)).toBe(NO_SPAN);
  });
});

describe('a traced site records what it did before', () => {
  it('a tool call span: GenAI names, call id, type; retries as events; outcome and attempts at the end', () => {
    const recorder = record();
    const tool = { name: 'get_weather' } as AnyTool;
    const span = toolSpan(tool, 'call-1', { telemetry: recorder.telemetry }, { city: 'Paris' });
    traceRetry(span, { attempt: 1, delayMs: 20, budgetExhausted: false } as RetryNotice, 'network');
    endToolSpan(span, { outcome: 'success', attempts: 2, content: 'sunny', result: { ok: true } } as unknown as ToolRun, recorder.telemetry);
    const done = recorder.span('execute_tool get_weather');
    expect(done.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
      'faultline.tool.outcome': 'success',
      'faultline.tool.attempts': 2,
    });
    expect(done.events.map((event) => [event.name, event.attributes])).toEqual([
      ['faultline.retry', { 'faultline.retry.attempt': 2, 'faultline.retry.delay_ms': 20, 'faultline.retry.budget_exhausted': false, 'error.type': 'network' }],
    ]);
  });

  it('a graph run span: workflow names and the step count; an interrupt as an event with ids and count', () => {
    const recorder = record();
    const span = graphRunSpan(recorder.telemetry, 'orders', undefined, 'run-1');
    traceNodeRetry(span, 1, 5, new TypeError('boom'));
    endGraphRunSpan(span, { status: 'interrupted', steps: 3, interrupts: [{ id: 'i1' }, { id: 'i2' }] } as never);
    const done = recorder.span('invoke_workflow orders');
    expect(done.attributes).toEqual({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'orders', 'gen_ai.conversation.id': 'run-1', 'faultline.graph.step': 3 });
    expect(done.events.map((event) => [event.name, event.attributes])).toEqual([
      ['faultline.retry', { 'faultline.retry.attempt': 2, 'faultline.retry.delay_ms': 5, 'error.type': 'TypeError' }],
      ['faultline.interrupt', { 'faultline.interrupt.count': 2, 'faultline.interrupt.ids': 'i1,i2' }],
    ]);
  });
});
