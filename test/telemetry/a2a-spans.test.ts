// An A2A call whose remote task failed, as spans (issue 16): the client's span sends its traceparent, our handler's
// server span is its child, and the task's run (runner → graph → node) nests under that; the client span fails with
// the task's error type; a planted secret in the remote failure appears in no span; without telemetry no header.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createA2AClient, createA2AHandler } from '../../src/a2a/index.js';
import { createGraphAgent, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { NO_TELEMETRY, type SpanHandle, type Telemetry } from '../../src/telemetry/index.js';
import { exported, otel, record } from './otel-sdk.js';

const SECRET = 'sk-live-PLANTED-a2a-9876543210';
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

function failingAgent() {
  const graph = new StateGraph(messagesStateSchema())
    .addNode('charge', () => {
      throw Object.assign(new Error(`payment provider refused key ${SECRET}`), { code: 'CARD_DECLINED' });
    })
    .setEntryPoint('charge')
    .setFinishPoint('charge')
    .compile();
  return createGraphAgent('payments', graph);
}

describe('an A2A call as spans', () => {
  it('client span → server span (child, via traceparent) → the remote run; the failed task fails the client span', async () => {
    const client = record({ secrets: [SECRET] });
    const server = record({ secrets: [SECRET] });
    const headers: Array<string | null> = [];
    const handler = createA2AHandler({ agent: failingAgent(), card: { name: 'payments' }, allowedHosts: ['payments.test'], telemetry: server.telemetry, secrets: [SECRET] });
    const a2a = createA2AClient({
      url: 'https://payments.test/',
      telemetry: client.telemetry,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        headers.push(request.headers.get('traceparent'));
        return handler(request);
      },
    });
    const result = await a2a.sendMessage('charge order 42');
    expect(result).toMatchObject({ kind: 'task', status: { state: 'failed' } });

    const call = client.span('SendMessage');
    expect(call.kind).toBe(otel.SpanKind.CLIENT);
    expect(call.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({ 'a2a.method.name': 'SendMessage', 'rpc.method': 'message/send', 'server.address': 'payments.test', 'a2a.task.state': 'failed', 'error.type': 'flow_error' });
    expect(headers).toEqual([`00-${call.spanContext().traceId}-${idOf(call)}-01`]);

    const served = server.span('SendMessage');
    expect(served.kind).toBe(otel.SpanKind.SERVER);
    expect(served.spanContext().traceId).toBe(call.spanContext().traceId);
    expect(parentOf(served)).toBe(idOf(call));
    const runner = server.span('invoke_agent payments');
    const workflow = server.span('invoke_workflow payments');
    const node = server.span('graph.node charge');
    expect(parentOf(runner)).toBe(idOf(served));
    expect(parentOf(workflow)).toBe(idOf(runner));
    expect(parentOf(node)).toBe(idOf(workflow));
    expect(node.attributes['faultline.execution_error.severity']).toBe('fatal');
    for (const span of [...client.spans(), ...server.spans()]) expect(exported(span)).not.toContain(SECRET);
  });

  it('a handler without telemetry ignores the header; a client without telemetry sends none', async () => {
    const headers: Array<string | null> = [];
    const handler = createA2AHandler({ agent: failingAgent(), card: { name: 'payments' }, allowedHosts: ['payments.test'] });
    const a2a = createA2AClient({ url: 'https://payments.test/', fetch: async (input, init) => ((headers.push(new Request(input, init).headers.get('traceparent'))), handler(new Request(input, init))) });
    await a2a.sendMessage('hi');
    expect(headers).toEqual([null]);
    const traced = await handler(
      new Request('https://payments.test/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: 'not a traceparent' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }),
      }),
    );
    expect(traced.status).toBe(200);
  });

  it("the tracing is the telemetry object's (openTelemetry sets it); the client refuses a telemetry without it rather than trace nothing", async () => {
    expect(typeof record().telemetry.a2aClient?.start).toBe('function');
    const headers: Array<string | null> = [];
    const handler = createA2AHandler({ agent: failingAgent(), card: { name: 'payments' }, allowedHosts: ['payments.test'] });
    const a2a = createA2AClient({ url: 'https://payments.test/', telemetry: NO_TELEMETRY, fetch: async (input, init) => (headers.push(new Request(input, init).headers.get('traceparent')), handler(new Request(input, init))) });
    await a2a.sendMessage('hi');
    expect(headers).toEqual([null]);
    const started: string[] = [];
    const span: SpanHandle = { setAttributes() {}, addEvent() {}, end() {}, fail() {}, traceparent: () => '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', run: (fn) => fn() };
    const own: Telemetry = { recordContent: false, startSpan: (name) => (started.push(name), span) };
    const refused = (() => {
      try {
        createA2AClient({ url: 'https://payments.test/', telemetry: own });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    // A telemetry made by hand traces nothing here (the client's spans are openTelemetry's): refused as one that is none.
    expect((refused as ConfigError).problems).toEqual(['telemetry must come from openTelemetry(otel) (or be NO_TELEMETRY)']);
    expect(started).toEqual([]);
  });
});
