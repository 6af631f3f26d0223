// toAGUIEvents over agent runs (the scripted model): the exact events of a run, each tool failure as its exact
// tool content plus a faultline.error, a terminal failure as exactly one RUN_ERROR (code: the kind), an abort as
// RUN_FINISHED with the outcome cancelled, a reader that goes away cancelling the run, a reader that does not read
// holding the run back, and no secret in any byte of the SSE body.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../../src/agent/index.js';
import { createScriptedChatClient, type ScriptedTurn } from '../../../src/chat/index.js';
import { ChatClientError, ConfigError } from '../../../src/errors/index.js';
import { DataNotFoundError, defineTool, RateLimitError, type AnyTool } from '../../../src/tools/index.js';
import { encodeAGUISSE, toAGUIEvents, toAGUIResponse, type AGUIEvent } from '../../../src/ui/history-exports.js';
import { customValues, expectValidAGUI, readEvents } from './ag-ui-check.js';

afterEach(() => {
  vi.useRealTimers();
});

const city = z.object({ city: z.string() });
const weather = defineTool({ name: 'get_weather', description: 'Weather.', parameters: city, execute: ({ city: name }) => ({ city: name, temperatureC: 21 }) });

function agent(turns: ScriptedTurn[], tools: AnyTool[] = [weather], maxIterations = 10) {
  return new AgentBuilder('weather').chatClient(createScriptedChatClient(turns)).tools(tools).maxIterations(maxIterations).toolLogger(() => {}).build();
}

const types = (events: readonly AGUIEvent[]) => events.map((event) => (event.type === 'CUSTOM' ? `CUSTOM ${event.name}` : event.type));

describe('toAGUIEvents: an agent run', () => {
  it('writes a run with reasoning, text, a tool call and its answer as the exact events AG-UI defines', async () => {
    const run = agent([{ reasoning: 'Need weather.', text: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], chunkSize: 100 }, { text: 'It is 21 °C.', chunkSize: 100 }]).run('Weather?');
    const events = await readEvents(toAGUIEvents(run, { threadId: 'thread-1', runId: 'run-1' }));
    expectValidAGUI(events);
    expect(events).toEqual([
      { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1', protocolVersion: '1.0' },
      { type: 'STEP_STARTED', stepName: 'step-1' },
      { type: 'REASONING_START', messageId: 'run-1-s1-r1' },
      { type: 'REASONING_MESSAGE_START', messageId: 'run-1-s1-r1-message', role: 'reasoning' },
      // streamed text goes out a whole word at a time (the last word may still grow): redaction sees credentials whole
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'run-1-s1-r1-message', delta: 'Need ' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'run-1-s1-r1-message', delta: 'weather.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'run-1-s1-r1-message' },
      { type: 'REASONING_END', messageId: 'run-1-s1-r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'run-1-s1-t2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'run-1-s1-t2', delta: 'Let me ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'run-1-s1-t2', delta: 'check.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'run-1-s1-t2' },
      { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'get_weather', parentMessageId: 'run-1-s1-t2' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"city":"Paris"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'run-1-result-call_1', toolCallId: 'call_1', content: '{"ok":true,"data":{"city":"Paris","temperatureC":21}}', role: 'tool' },
      { type: 'STEP_FINISHED', stepName: 'step-1' },
      { type: 'STEP_STARTED', stepName: 'step-2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'run-1-s2-t3', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'run-1-s2-t3', delta: 'It is 21 ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'run-1-s2-t3', delta: '°C.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'run-1-s2-t3' },
      { type: 'STEP_FINISHED', stepName: 'step-2' },
      { type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1', result: { finishReason: 'stop', iterations: 2 }, usage: [{ inputTokens: 0, outputTokens: 0, totalTokens: 0 }] },
    ]);
  });

  it('gives each failed tool its exact tool content and a faultline.error with kind, code (the outcome) and retryable', async () => {
    const tools = [
      weather,
      defineTool({ name: 'find_order', description: '404', parameters: city, execute: () => { throw new DataNotFoundError('No order.', { suggestion: 'Ask for the number.' }); } }),
      defineTool({ name: 'rates', description: '429', parameters: city, execute: () => { throw new RateLimitError('Rate limited.', { retryAfterMs: 2_000 }); } }),
      defineTool({ name: 'crash', description: 'crash', parameters: city, execute: () => { throw new TypeError('x is undefined'); } }),
      defineTool({ name: 'strict', description: 'invalid', parameters: z.object({ count: z.number() }), execute: () => 1 }),
    ];
    const calls = ['find_order', 'rates', 'crash'].map((name, index) => ({ id: `c${index}`, name, arguments: { city: 'Paris' } }));
    const items: AgentRunItem[] = [];
    const run = agent([{ toolCalls: [...calls, { id: 'c3', name: 'strict', arguments: '{"count":"x"}' }] }, { text: 'Sorry.' }], tools).run('Go');
    const recorded = new ReadableStream<AgentRunItem>({
      async start(controller) {
        for await (const item of run) {
          items.push(item);
          controller.enqueue(item);
        }
        controller.close();
      },
    });
    const events = await readEvents(toAGUIEvents(recorded));
    expectValidAGUI(events);
    const results = events.filter((event) => event.type === 'TOOL_CALL_RESULT');
    const contents = items.filter((item) => item.type === 'tool-result').map((item) => (item as { content: string }).content);
    expect(results.map((event) => (event as { content: string }).content)).toEqual(contents);
    // results come as each tool ends: compared by call id
    const errors = customValues(events, 'faultline.error').sort((a, b) => String(a.toolCallId).localeCompare(String(b.toolCallId)));
    expect(errors.map((error) => [error.toolCallId, error.type, error.kind, error.code, error.retryable, error.scope])).toEqual([
      ['c0', 'DataNotFoundError', 'tool', 'failure', false, 'tool'],
      ['c1', 'RateLimitError', 'tool', 'failure', true, 'tool'],
      ['c2', 'ToolInternalError', 'tool', 'crash', false, 'tool'],
      ['c3', 'InputValidationError', 'tool', 'invalid_arguments', false, 'tool'],
    ]);
    expect(errors[0]).toMatchObject({ message: 'No order.', suggestion: 'Ask for the number.', toolName: 'find_order' });
    expect(JSON.stringify(errors)).not.toContain('x is undefined'); // a crash shows what the model saw, never the developer's error
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
  });

  it('takes retryable and retryAfterMs from the tool result when it carries them, and writes retry notices as faultline.retry', async () => {
    const items = [
      { type: 'tool-call', iteration: 1, call: { id: 'c1', name: 'rates', arguments: '{}' } },
      { type: 'retry', iteration: 1, source: 'tool', attempt: 1, delayMs: 2_000, error: { type: 'RateLimitError', message: 'Slow down.' }, callId: 'c1', toolName: 'rates' },
      { type: 'tool-result', iteration: 1, callId: 'c1', toolName: 'rates', outcome: 'failure', ok: false, result: { ok: false, error: { type: 'RateLimitError', message: 'Still.' } }, content: '{"ok":false,"error":{"type":"RateLimitError","message":"Still."}}', attempts: 2, durationMs: 1, synthetic: false, retryable: false, retryAfterMs: 7_000 },
      { type: 'finish', finishReason: 'stop', iterations: 1, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, text: '', messages: [] },
    ] as unknown as AgentRunItem[];
    const source = new ReadableStream<AgentRunItem>({ start: (controller) => { for (const item of items) controller.enqueue(item); controller.close(); } });
    const events = await readEvents(toAGUIEvents(source));
    expectValidAGUI(events);
    expect(customValues(events, 'faultline.retry')).toEqual([{ source: 'tool', attempt: 1, delayMs: 2_000, error: { type: 'RateLimitError', message: 'Slow down.' }, toolCallId: 'c1', toolName: 'rates' }]);
    expect(customValues(events, 'faultline.error')).toEqual([{ type: 'RateLimitError', message: 'Still.', kind: 'tool', code: 'failure', retryable: false, retryAfterMs: 7_000, scope: 'tool', toolCallId: 'c1', toolName: 'rates' }]);
  });

  it('ends a failed run with its faultline.error and exactly one RUN_ERROR whose code is the kind, nothing after', async () => {
    const failure = new ChatClientError('Chat API returned 503', { status: 503, retryable: true, retryAfterMs: 1_500 });
    const events = await readEvents(toAGUIEvents(agent([{ text: 'The weather in Par', error: failure, chunkSize: 5 }]).run('Weather?')));
    expectValidAGUI(events);
    expect(types(events).slice(-5)).toEqual(['TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'STEP_FINISHED', 'CUSTOM faultline.error', 'RUN_ERROR']);
    expect(events.at(-1)).toEqual({ type: 'RUN_ERROR', message: 'Chat API returned 503', code: 'chat_client' });
    expect(customValues(events, 'faultline.error').at(-1)).toEqual({ type: 'ChatClientError', message: 'Chat API returned 503', kind: 'chat_client', retryable: true, retryAfterMs: 1_500, scope: 'run' });
  });

  it('ends a run stopped through its signal option with RUN_FINISHED, outcome cancelled — and the run is aborted', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const hanging = defineTool({ name: 'get_weather', description: 'hangs', parameters: city, execute: (_args, { signal }) => { toolSignal = signal; return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })); } });
    const stream = toAGUIEvents(agent([{ toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] }], [hanging]).run('Weather?'), { signal: controller.signal });
    const events: AGUIEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'TOOL_CALL_END') setTimeout(() => controller.abort(new Error('the user pressed stop')), 5);
    }
    expectValidAGUI(events);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(types(events)).not.toContain('RUN_ERROR');
    expect(toolSignal?.aborted).toBe(true);
  });

  it('ends a run aborted with an AbortError as cancelled too', async () => {
    const controller = new AbortController();
    const run = agent([{ text: 'a'.repeat(50), chunkSize: 1, delayMs: 5 }]).run('x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 1);
    const events = await readEvents(toAGUIEvents(run));
    expectValidAGUI(events);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
  });

  it('cancels the run when its reader goes away, leaving no timer behind', async () => {
    let toolSignal: AbortSignal | undefined;
    const hanging = defineTool({ name: 'get_weather', description: 'hangs', parameters: city, timeoutMs: 60_000, execute: (_args, { signal }) => { toolSignal = signal; return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })); } });
    vi.useFakeTimers();
    const reader = toAGUIEvents(agent([{ toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] }], [hanging]).run('Weather?')).getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === 'TOOL_CALL_END') break;
    }
    const pending = reader.read(); // the next answer is the tool's, which never comes
    while (toolSignal === undefined) await vi.advanceTimersByTimeAsync(1);
    await reader.cancel(new Error('the browser went away'));
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(toolSignal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('pulls the run only as fast as it is read: a reader that does not read holds the run back', async () => {
    let pulled = 0;
    const items: AgentRunItem[] = Array.from({ length: 1_000 }, (_, index) => ({ type: 'text-delta', iteration: 1, delta: `piece ${index} ` }));
    const source = new ReadableStream<AgentRunItem>({ pull: (controller) => void (pulled < items.length ? controller.enqueue(items[pulled++] as AgentRunItem) : controller.close()) }, { highWaterMark: 0 });
    const body = encodeAGUISSE(toAGUIEvents(source));
    const reader = body.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBeLessThanOrEqual(3);
    await reader.cancel();
  });

  it('ends a run stream that stops without a finish with a RUN_ERROR, never silence', async () => {
    const source = new ReadableStream<AgentRunItem>({ start: (controller) => { controller.enqueue({ type: 'text-delta', iteration: 1, delta: 'Hi' }); controller.close(); } });
    const events = await readEvents(toAGUIEvents(source));
    expectValidAGUI(events);
    expect(events.at(-1)).toEqual({ type: 'RUN_ERROR', message: 'The run ended without a finish or an error item.', code: 'stream' });
    const broken = new ReadableStream<AgentRunItem>({ pull: (controller) => controller.error(new TypeError('socket hang up')) });
    expect((await readEvents(toAGUIEvents(broken))).at(-1)).toEqual({ type: 'RUN_ERROR', message: 'The run stream failed: socket hang up', code: 'stream' });
  });

  it('finishes a run that hit max iterations with its reason in the result', async () => {
    const events = await readEvents(toAGUIEvents(agent([{ toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] }], [weather], 1).run('x')));
    expectValidAGUI(events);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { finishReason: 'max_iterations', iterations: 1 } });
  });

  it('answers with an SSE response: the headers AG-UI clients expect, one data frame per event', async () => {
    const response = toAGUIResponse(agent([{ text: 'Hi.' }]).run('x'), { runId: 'r1', threadId: 't1' });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const text = await response.text();
    expect(text.endsWith('\n\n')).toBe(true);
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.every((frame) => frame.startsWith('data: ') && !frame.includes('\n'))).toBe(true);
    const events = frames.map((frame) => JSON.parse(frame.slice('data: '.length)) as AGUIEvent);
    expectValidAGUI(events);
    expect(events[0]).toEqual({ type: 'RUN_STARTED', threadId: 't1', runId: 'r1', protocolVersion: '1.0' });
  });

  it('keeps every secret out of every byte: configured ones in every form, credential shapes always', async () => {
    const secret = 'planted-SECRET-4f9a2c71';
    const key = `sk-proj-${'Zq8Lm3Xv'.repeat(5)}`;
    const leaky = defineTool({
      name: 'get_weather',
      description: 'leaks',
      parameters: z.object({ city: z.string() }),
      execute: ({ city: name }) => {
        if (name === 'fail') throw new DataNotFoundError(`No city; our key ${secret} and ${key} did not help.`);
        return { echo: `${secret} ${encodeURIComponent(secret)} ${key}` };
      },
    });
    const turns: ScriptedTurn[] = [
      // one character per delta: a secret is never whole in any one event, only in what a UI shows
      { reasoning: `think ${secret}`, text: `I will use ${key} with Bearer ${key.slice(3)} at https://user:pa55-${secret}@db.example/x.`, chunkSize: 1, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: secret } }, { id: 'c2', name: 'get_weather', arguments: { city: 'fail' } }] },
      { text: `done ${secret}`, chunkSize: 1, error: new ChatClientError(`upstream said ${secret} / ${key} via https://u:hunter2hunter2@api.example/`, { status: 500 }) },
    ];
    const body = await toAGUIResponse(agent(turns, [leaky]).run('x'), { secrets: [secret] }).text();
    const events = body.split('\n\n').filter(Boolean).map((frame) => JSON.parse(frame.slice('data: '.length)) as AGUIEvent);
    expectValidAGUI(events);
    // what a UI shows: every message's deltas joined
    const shown = new Map<string, string>();
    for (const event of events) if (event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'REASONING_MESSAGE_CONTENT') shown.set(event.messageId, (shown.get(event.messageId) ?? '') + event.delta);
    for (const text of [body, ...shown.values()]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(3));
      expect(text).not.toContain('hunter2hunter2');
    }
    expect([...shown.values()].join('')).toContain('I will use [REDACTED] with Bearer [REDACTED] at https://[REDACTED]@db.example/x.');
    expect(body).toContain('RUN_ERROR');
  });

  it('refuses what is not a run, and bad options, with a ConfigError naming each', () => {
    expect(() => toAGUIEvents({} as never)).toThrow(ConfigError);
    expect(() => toAGUIEvents(new ReadableStream<AgentRunItem>(), { threadId: '', secrets: [1] as never, signal: {} as never })).toThrow(/threadId must be a non-empty string.*secrets\[0\] must be a string of 4 characters or more, or '' \(got 1\).*signal must be an AbortSignal/);
  });
});
