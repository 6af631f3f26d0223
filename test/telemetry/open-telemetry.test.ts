import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { ChatClientError } from '../../src/errors/chat-client-error.js';
import { CircuitOpenError } from '../../src/errors/circuit-open-error.js';
import { NetworkError } from '../../src/tools/network-error.js';
import {
  CommonAttribute,
  FaultlineAttribute,
  formatTraceparent,
  GenAIAttribute,
  openTelemetry,
  parseTraceparent,
  TelemetryEvent,
  type OTelAPI,
  type OTelContext,
  type OTelSpan,
} from '../../src/telemetry/index.js';
import { otel, record } from './otel-sdk.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('openTelemetry: the span tree', () => {
  it('nests a span under the SpanHandle given as parent, in the same trace', () => {
    const { telemetry, span } = record();
    const run = telemetry.startSpan('invoke_agent planner');
    const chat = telemetry.startSpan('chat gpt-4o', { parent: run, kind: 'client' });
    const tool = telemetry.startSpan('execute_tool search', { parent: run });
    chat.end();
    tool.end();
    run.end();
    const root = span('invoke_agent planner');
    expect(root.parentSpanContext).toBeUndefined();
    for (const child of [span('chat gpt-4o'), span('execute_tool search')]) {
      expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(child.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    }
  });

  it('nests three levels deep', () => {
    const { telemetry, span } = record();
    const graph = telemetry.startSpan('invoke_workflow g');
    const node = telemetry.startSpan('graph.node plan', { parent: graph });
    const chat = telemetry.startSpan('chat m', { parent: node });
    chat.end();
    node.end();
    graph.end();
    expect(span('chat m').parentSpanContext?.spanId).toBe(span('graph.node plan').spanContext().spanId);
    expect(span('graph.node plan').parentSpanContext?.spanId).toBe(span('invoke_workflow g').spanContext().spanId);
  });

  it('continues a remote trace from a parsed traceparent: same trace id, the remote span as parent', () => {
    const { telemetry, span } = record();
    const parent = parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01`);
    telemetry.startSpan('SendMessage', { kind: 'server', parent }).end();
    const served = span('SendMessage');
    expect(served.spanContext().traceId).toBe(TRACE_ID);
    expect(served.parentSpanContext?.spanId).toBe(SPAN_ID);
    expect(served.parentSpanContext?.isRemote).toBe(true);
    expect(served.spanContext().spanId).not.toBe(SPAN_ID);
  });

  it('ignores an invalid TraceParent object and starts a new trace', () => {
    const { telemetry, span } = record();
    telemetry.startSpan('s', { parent: { traceId: TRACE_ID.toUpperCase(), spanId: SPAN_ID, traceFlags: 1 } }).end();
    expect(span('s').parentSpanContext).toBeUndefined();
    expect(span('s').spanContext().traceId).not.toBe(TRACE_ID.toUpperCase());
  });

  it('gives a traceparent() that continues the trace elsewhere', () => {
    const { telemetry, span } = record();
    const client = telemetry.startSpan('SendMessage', { kind: 'client' });
    const header = client.traceparent();
    client.end();
    expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(header).toBe(formatTraceparent({ ...span('SendMessage').spanContext(), traceFlags: 1 }));
    const other = record();
    other.telemetry.startSpan('served', { kind: 'server', parent: parseTraceparent(header) }).end();
    expect(other.span('served').spanContext().traceId).toBe(span('SendMessage').spanContext().traceId);
    expect(other.span('served').parentSpanContext?.spanId).toBe(span('SendMessage').spanContext().spanId);
  });

  it('uses a span handle of another copy of the package as a parent through its traceparent()', () => {
    const { telemetry, span } = record();
    const foreign = { traceparent: () => `00-${TRACE_ID}-${SPAN_ID}-01`, setAttributes() {}, addEvent() {}, end() {}, fail() {}, run: (fn: () => unknown) => fn() };
    telemetry.startSpan('child', { parent: foreign as never }).end();
    expect(span('child').spanContext().traceId).toBe(TRACE_ID);
    expect(span('child').parentSpanContext?.spanId).toBe(SPAN_ID);
  });
});

describe('openTelemetry: kinds, status, events', () => {
  it('maps internal, client and server to the OpenTelemetry span kinds (internal by default)', () => {
    const { telemetry, span } = record();
    for (const kind of ['internal', 'client', 'server'] as const) telemetry.startSpan(kind, { kind }).end();
    telemetry.startSpan('default').end();
    telemetry.startSpan('unknown', { kind: 'producer' as never }).end();
    expect(span('internal').kind).toBe(otel.SpanKind.INTERNAL);
    expect(span('client').kind).toBe(otel.SpanKind.CLIENT);
    expect(span('server').kind).toBe(otel.SpanKind.SERVER);
    expect(span('default').kind).toBe(otel.SpanKind.INTERNAL);
    expect(span('unknown').kind).toBe(otel.SpanKind.INTERNAL);
  });

  it('leaves the status UNSET when the span did not fail (success is the application’s to declare)', () => {
    const { telemetry, span } = record();
    telemetry.startSpan('ok').end();
    expect(span('ok').status).toEqual({ code: otel.SpanStatusCode.UNSET });
  });

  it('ends with status ERROR, the message, error.type and a redacted exception event when it failed', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('chat gpt-4o', { kind: 'client' });
    handle.fail(new ChatClientError('The provider answered 503.', { status: 503 }));
    handle.end();
    const failed = span('chat gpt-4o');
    expect(failed.status).toEqual({ code: otel.SpanStatusCode.ERROR, message: 'The provider answered 503.' });
    expect(failed.attributes[CommonAttribute.ErrorType]).toBe('chat_client');
    const exception = failed.events.find((event) => event.name === TelemetryEvent.Exception);
    expect(exception?.attributes).toEqual({ 'exception.type': 'ChatClientError', 'exception.message': 'The provider answered 503.' });
    expect(JSON.stringify(failed.events)).not.toContain('stacktrace');
  });

  it.each([
    ['a ChatClientError', () => new ChatClientError('503', { status: 503 }), 'chat_client'],
    ['a CircuitOpenError', () => new CircuitOpenError('open', { dependency: 'api.example' }), 'circuit_open'],
    ['a NetworkError (tool failure)', () => new NetworkError(), 'NetworkError'],
    ['a plain {type, message} tool error', () => ({ type: 'DataNotFoundError', message: 'none' }), 'DataNotFoundError'],
    ['an AbortError DOMException', () => new DOMException('aborted', 'AbortError'), 'cancelled'],
    ['a plain Error', () => new Error('plain'), 'Error'],
    ['a thrown string', () => 'boom', '_OTHER'],
  ])('records error.type of %s on the exported span', (_title, make, expected) => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('s');
    handle.fail(make());
    handle.end();
    expect(span('s').attributes['error.type']).toBe(expected);
    expect(span('s').status.code).toBe(otel.SpanStatusCode.ERROR);
  });

  it('lets fail(error, { type }) override error.type', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('tools/call search');
    handle.fail(new Error('JSON-RPC error'), { type: '-32603' });
    handle.end();
    expect(span('tools/call search').attributes[CommonAttribute.ErrorType]).toBe('-32603');
  });

  it('records a thrown string as _OTHER with the string as message and no exception.type', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('s');
    handle.fail('boom');
    handle.end();
    expect(span('s').attributes[CommonAttribute.ErrorType]).toBe('_OTHER');
    expect(span('s').status.message).toBe('boom');
    expect(span('s').events[0]?.attributes).toEqual({ 'exception.message': 'boom' });
  });

  it('sets status ERROR without a message when the error has none', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('s');
    handle.fail(new Error(''));
    handle.end();
    expect(span('s').status).toEqual({ code: otel.SpanStatusCode.ERROR });
  });

  it('records retries and fallbacks as span events with their attributes', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('chat gpt-4o');
    handle.addEvent(TelemetryEvent.Retry, { [FaultlineAttribute.RetryAttempt]: 2, [FaultlineAttribute.RetryDelayMs]: 250, [CommonAttribute.ErrorType]: 'chat_client' });
    handle.addEvent(TelemetryEvent.Fallback, { [FaultlineAttribute.FallbackFrom]: 'gpt-4o', [FaultlineAttribute.FallbackTo]: 'gpt-4o-mini', skipped: undefined });
    handle.addEvent('bare');
    handle.end();
    const events = span('chat gpt-4o').events.map((event) => [event.name, event.attributes]);
    expect(events).toEqual([
      ['faultline.retry', { 'faultline.retry.attempt': 2, 'faultline.retry.delay_ms': 250, 'error.type': 'chat_client' }],
      ['faultline.fallback', { 'faultline.fallback.from': 'gpt-4o', 'faultline.fallback.to': 'gpt-4o-mini' }],
      ['bare', {}],
    ]);
  });

  it('sets start attributes (samplers see them) and later ones, dropping undefined values', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('chat gpt-4o', { attributes: { [GenAIAttribute.RequestModel]: 'gpt-4o', [GenAIAttribute.ProviderName]: undefined } });
    handle.setAttributes({ [GenAIAttribute.UsageInputTokens]: 12, [GenAIAttribute.ResponseFinishReasons]: ['stop'], [GenAIAttribute.ResponseId]: undefined });
    handle.end();
    expect(span('chat gpt-4o').attributes).toEqual({ 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 12, 'gen_ai.response.finish_reasons': ['stop'] });
  });

  it('ignores a second end() and everything after the first', () => {
    const { telemetry, spans } = record();
    const handle = telemetry.startSpan('once');
    handle.end();
    const endTime = spans()[0]!.endTime;
    handle.setAttributes({ late: true });
    handle.addEvent('late');
    handle.fail(new Error('late'));
    handle.end();
    expect(spans()).toHaveLength(1);
    expect(spans()[0]!.endTime).toEqual(endTime);
    expect(spans()[0]!.status).toEqual({ code: otel.SpanStatusCode.UNSET });
    expect(spans()[0]!.attributes).toEqual({});
    expect(spans()[0]!.events).toEqual([]);
  });

  it('reports recordContent as configured (false by default)', () => {
    expect(record().telemetry.recordContent).toBe(false);
    expect(record({ recordContent: true }).telemetry.recordContent).toBe(true);
  });

  it('uses api.trace.getTracer(tracerName) when no tracer is given', () => {
    const names: string[] = [];
    const api = fakeAPI();
    api.trace.getTracer = (name: string) => {
      names.push(name);
      return { startSpan: () => fakeSpan() };
    };
    openTelemetry(api);
    openTelemetry(api, { tracerName: 'my-app' });
    expect(names).toEqual(['faultline', 'my-app']);
  });
});

function fakeSpan(): OTelSpan {
  return {
    spanContext: () => ({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 }),
    setAttribute() {},
    setAttributes() {},
    addEvent() {},
    setStatus() {},
    end() {},
    isRecording: () => true,
  };
}

/** An API whose context.with records the context it was given; contexts are plain tagged objects. */
function fakeAPI(withContext?: (context: OTelContext) => void) {
  const context = (tag: string, span?: OTelSpan): OTelContext & { tag: string; span?: OTelSpan } => ({
    tag,
    span,
    getValue: () => undefined,
    setValue() {
      return this;
    },
    deleteValue() {
      return this;
    },
  });
  const root = context('root');
  return {
    trace: {
      getTracer: (_name: string) => ({ startSpan: () => fakeSpan() }),
      setSpan: (_base: OTelContext, span: OTelSpan) => context('with-span', span),
      setSpanContext: (_base: OTelContext) => context('with-span-context'),
    },
    context: {
      active: () => root,
      with<T>(given: OTelContext, fn: () => T): T {
        withContext?.(given);
        return fn();
      },
    },
  } satisfies OTelAPI;
}

describe('SpanHandle.run', () => {
  it('runs fn inside api.context.with, with the context holding this span', () => {
    const seen: OTelContext[] = [];
    const span = fakeSpan();
    const api = fakeAPI((context) => seen.push(context));
    const telemetry = openTelemetry(api, { tracer: { startSpan: () => span } });
    const result = telemetry.startSpan('s').run(() => 42);
    expect(result).toBe(42);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ tag: 'with-span', span });
  });

  it('returns fn’s value and rethrows fn’s error with the real API', () => {
    const { telemetry } = record();
    const handle = telemetry.startSpan('s');
    expect(handle.run(() => 'value')).toBe('value');
    const failure = new Error('from fn');
    expect(() => handle.run(() => { throw failure; })).toThrow(failure);
    handle.end();
  });

  it('keeps a promise returned by fn', async () => {
    const { telemetry } = record();
    await expect(telemetry.startSpan('s').run(async () => 7)).resolves.toBe(7);
  });

  it('calls fn exactly once when context.with throws before calling it, or never calls it', () => {
    for (const broken of [() => { throw new Error('no context manager'); }, () => undefined]) {
      const api = fakeAPI();
      api.context.with = broken as never;
      const telemetry = openTelemetry(api);
      let calls = 0;
      expect(telemetry.startSpan('s').run(() => ++calls)).toBe(1);
      expect(calls).toBe(1);
    }
  });

  it('calls fn once and rethrows when fn throws inside context.with', () => {
    const telemetry = openTelemetry(fakeAPI());
    let calls = 0;
    expect(() =>
      telemetry.startSpan('s').run(() => {
        calls++;
        throw new Error('fn failed');
      }),
    ).toThrow('fn failed');
    expect(calls).toBe(1);
  });
});

describe('openTelemetry: option checks', () => {
  it('throws one ConfigError listing every problem', () => {
    let error: unknown;
    try {
      openTelemetry({ trace: {}, context: { active: () => undefined } } as never, {
        tracer: {} as never,
        tracerName: '',
        recordContent: 'yes' as never,
        secrets: ['a-secret', 42] as never,
        maxAttributeLength: 0,
        onError: 'log' as never,
      });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(8);
    expect(problems.join('\n')).toMatch(/api\.trace must have setSpan\(\), setSpanContext\(\)/);
    expect(problems.join('\n')).toMatch(/api\.context must have with\(\)/);
    expect(problems.join('\n')).toMatch(/tracer must have a startSpan\(\) method/);
    expect(problems.join('\n')).toMatch(/tracerName must be a non-empty string/);
    expect(problems.join('\n')).toMatch(/recordContent must be a boolean \(got "yes"\)/);
    expect(problems.join('\n')).toMatch(/secrets\[1\] must be a string of 4 characters or more, or '' \(got 42\)/);
    expect(problems.join('\n')).toMatch(/maxAttributeLength must be an integer > 0/);
    expect(problems.join('\n')).toMatch(/onError must be a function/);
    expect((error as ConfigError).message).toMatch(/^Invalid openTelemetry: 8 problems: \(1\)/);
  });

  it('refuses an api that is not the module, and options that are not an object', () => {
    for (const api of [undefined, null, 42, 'otel']) expect(() => openTelemetry(api as never)).toThrow(/api must be the @opentelemetry\/api module/);
    expect(() => openTelemetry({} as never)).toThrow(/api\.trace must have getTracer\(\), setSpan\(\), setSpanContext\(\)/);
    expect(() => openTelemetry(otel, 'options' as never)).toThrow(/options must be an object/);
  });

  it('does not need api.trace.getTracer when a tracer is given', () => {
    const api = fakeAPI();
    const { getTracer: _unused, ...trace } = api.trace;
    expect(() => openTelemetry({ ...api, trace } as never, { tracer: { startSpan: () => fakeSpan() } })).not.toThrow();
  });

  it('accepts the real API with no options, and null options', () => {
    expect(() => openTelemetry(otel)).not.toThrow();
    expect(() => openTelemetry(otel, null as never)).not.toThrow();
  });

  it('turns a getTracer that throws into a ConfigError with the cause', () => {
    const api = fakeAPI();
    const failure = new Error('provider broken');
    api.trace.getTracer = () => {
      throw failure;
    };
    expect(() => openTelemetry(api)).toThrow(expect.objectContaining({ kind: 'config', cause: failure }));
  });
});
