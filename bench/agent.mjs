// The agent loop: a 2-step tool loop (the model calls a tool, the tool runs, the model answers) against a fetch mock
// returning prebuilt SSE responses. Floor: a minimal hand-written loop on the same mock (fetch, split, JSON.parse,
// call the function, fetch again), which does no validation, no events, no sessions.
import * as z from 'zod';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AgentBuilder, createCircuitBreaker, createOpenAICompatibleClient, createRetryBudget, defineTool, openTelemetry } from '../dist/index.js';
import { compare, fixed, jsonLine, table } from './lib.mjs';

const RUNS = Number(process.env.BENCH_AGENT_RUNS ?? 2000);
const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-bench' };
const sse = (payloads) => payloads.map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`).join('');
const TOOL_TURN = sse([
  { ...head, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null }] },
  { ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, finish_reason: null }] },
  { ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, finish_reason: null }] },
  { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  '[DONE]',
]);
const ANSWER_TURN = sse([
  { ...head, choices: [{ index: 0, delta: { role: 'assistant', content: 'It is ' }, finish_reason: null }] },
  { ...head, choices: [{ index: 0, delta: { content: 'sunny in Paris.' }, finish_reason: null }] },
  { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  '[DONE]',
]);
const encoder = new TextEncoder();
const TOOL_BYTES = encoder.encode(TOOL_TURN);
const ANSWER_BYTES = encoder.encode(ANSWER_TURN);

/** Answers a request with tool results in it with the final text, any other with the tool call. */
async function mockFetch(_url, init) {
  const body = typeof init?.body === 'string' ? init.body : '';
  return new Response(body.includes('"role":"tool"') ? ANSWER_BYTES : TOOL_BYTES, { headers: { 'content-type': 'text/event-stream' } });
}

const weather = async ({ city }) => ({ city, sky: 'sunny' });
const agent = new AgentBuilder('bench')
  .chatClient(createOpenAICompatibleClient({ baseURL: 'http://bench.invalid/v1', model: 'gpt-bench', apiKey: 'sk-bench', fetch: mockFetch }))
  .instructions('Answer with the tools.')
  .tools([defineTool({ name: 'get_weather', description: 'Weather for a city.', parameters: z.object({ city: z.string() }), execute: weather })])
  .build();

// The same agent with a shared circuit breaker and retry budget on its model and its tool.
const circuitBreaker = createCircuitBreaker();
const retryBudget = createRetryBudget();
const guardedAgent = new AgentBuilder('bench')
  .chatClient(createOpenAICompatibleClient({ baseURL: 'http://bench.invalid/v1', model: 'gpt-bench', apiKey: 'sk-bench', fetch: mockFetch, circuitBreaker, retryBudget }))
  .instructions('Answer with the tools.')
  .tools([defineTool({ name: 'get_weather', description: 'Weather for a city.', parameters: z.object({ city: z.string() }), execute: weather, circuitBreaker, retryBudget })])
  .build();

async function runOf(subject) {
  let text = '';
  for await (const item of subject.run('Weather in Paris?')) if (item.type === 'text-delta') text += item.delta;
  if (text !== 'It is sunny in Paris.') throw new Error(`unexpected answer: ${text}`);
}
// The same agent traced through the OpenTelemetry SDK (a simple processor into an in-memory exporter, emptied per
// round): 4 spans per run (invoke_agent, 2 × chat, execute_tool), every attribute redacted.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracedAgent = new AgentBuilder('bench')
  .chatClient(createOpenAICompatibleClient({ baseURL: 'http://bench.invalid/v1', model: 'gpt-bench', apiKey: 'sk-bench', fetch: mockFetch }))
  .instructions('Answer with the tools.')
  .tools([defineTool({ name: 'get_weather', description: 'Weather for a city.', parameters: z.object({ city: z.string() }), execute: weather })])
  .telemetry(openTelemetry(otel, { tracer: provider.getTracer('bench'), secrets: ['sk-bench'] }))
  .build();

// What the OTel SDK itself costs for the same 4 spans (same attribute counts, no redaction): the floor of tracing.
const rawTracer = provider.getTracer('bench-raw');
const rawAttributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-bench', 'gen_ai.provider.name': 'bench.invalid', 'server.address': 'bench.invalid', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 };
async function rawSpansRun() {
  for (let index = 0; index < 4; index++) {
    const span = rawTracer.startSpan(index === 0 ? 'invoke_agent bench' : 'chat gpt-bench', { attributes: rawAttributes });
    span.setAttributes({ 'gen_ai.response.finish_reasons': ['stop'] });
    span.end();
  }
}

const faultlineRun = () => runOf(agent);
const guardedRun = () => runOf(guardedAgent);
const tracedRun = () => runOf(tracedAgent);

/** The floor: the least a streaming tool loop must do. */
async function handWrittenRun() {
  const messages = [{ role: 'system', content: 'Answer with the tools.' }, { role: 'user', content: 'Weather in Paris?' }];
  for (;;) {
    const response = await mockFetch('http://bench.invalid/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'gpt-bench', stream: true, messages }) });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let text = '';
    const calls = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      buffer += decoder.decode(next.value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop();
      for (const block of blocks) {
        const data = block.slice(6);
        if (data === '[DONE]') continue;
        const delta = JSON.parse(data).choices[0].delta;
        if (delta.content) text += delta.content;
        for (const call of delta.tool_calls ?? []) {
          calls[call.index] ??= { id: call.id, name: call.function.name, arguments: '' };
          calls[call.index].arguments += call.function.arguments ?? '';
        }
      }
    }
    if (calls.length === 0) {
      if (text !== 'It is sunny in Paris.') throw new Error('floor: unexpected answer');
      return;
    }
    messages.push({ role: 'assistant', content: null, tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) });
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ ok: true, data: await weather(JSON.parse(call.arguments)) }) });
  }
}

const batch = (run) => async () => {
  for (let index = 0; index < RUNS; index++) await run();
};
const results = await compare(
  {
    faultline: batch(faultlineRun),
    'faultline + circuit breaker + retry budget': batch(guardedRun),
    'faultline + OpenTelemetry': async () => {
      exporter.reset();
      await batch(tracedRun)();
    },
    'the OTel SDK alone, 4 spans': async () => {
      exporter.reset();
      await batch(rawSpansRun)();
    },
    'hand-written loop (floor)': batch(handWrittenRun),
  },
  { warmup: 1, rounds: Number(process.env.BENCH_ROUNDS ?? 7) },
);
const perRun = (name) => results[name].median / RUNS;
const floor = perRun('hand-written loop (floor)');
const base = perRun('faultline');
const guarded = perRun('faultline + circuit breaker + retry budget');
const traced = perRun('faultline + OpenTelemetry');
const rawSpans = perRun('the OTel SDK alone, 4 spans');
table(`Agent loop: a 2-step streaming tool loop on a fetch mock, ${RUNS} sequential runs per round (median of rounds)`, ['loop', 'ms per run', '× floor', '× plain faultline'], [
  ['faultline Agent.run', base.toFixed(3), (base / floor).toFixed(1), '1.00'],
  ['… with a shared circuit breaker and retry budget (model + tool)', guarded.toFixed(3), (guarded / floor).toFixed(1), (guarded / base).toFixed(2)],
  ['… traced (OTel SDK, 4 spans per run, in-memory exporter)', traced.toFixed(3), (traced / floor).toFixed(1), (traced / base).toFixed(2)],
  ['the OTel SDK alone: the same 4 spans, no agent (tracing floor)', rawSpans.toFixed(3), '', ''],
  ['hand-written loop (floor)', floor.toFixed(3), '1.0', ''],
]);
jsonLine('agent', { msPerRun: fixed(base, 3), floorMsPerRun: fixed(floor, 3), breakerMsPerRun: fixed(guarded, 3), breakerOverhead: fixed(guarded / base, 3), tracedMsPerRun: fixed(traced, 3), tracingOverhead: fixed(traced / base, 3), rawSpansMsPerRun: fixed(rawSpans, 3), ourTracingOverRaw: fixed((traced - base) / rawSpans, 2), target: 0.6 });
