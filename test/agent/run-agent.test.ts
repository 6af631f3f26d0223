// runAgent / streamAgent (issue 15, "Everyday API", item 1): one call for the common case, on AgentBuilder + Agent —
// the collected result typed by `output`, the terminal error thrown, every option problem in one ConfigError.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { collectAgentRun, InMemorySessionStore, runAgent, streamAgent, type AgentRunItem, type AgentRunResult } from '../../src/agent/index.js';
import * as root from '../../src/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ChatClientError, ConfigError, OutputValidationError } from '../../src/errors/index.js';
import { defineTool, ToolResult } from '../../src/tools/index.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: 21 }),
});
const Weather = z.object({ city: z.string(), celsius: z.number() });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('runAgent', () => {
  it('runs the tool loop once and returns the collected result', async () => {
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'It is 21 °C in Paris.' }]);
    const result = await runAgent({ model, instructions: 'Use the tools.', tools: [getWeather], prompt: 'Weather in Paris?' });
    expect(result).toMatchObject({ text: 'It is 21 °C in Paris.', finishReason: 'stop', iterations: 2, errors: [] });
    expect(result.toolResults.map((item) => [item.toolName, item.outcome, item.content])).toEqual([['get_weather', 'success', '{"ok":true,"data":{"city":"Paris","celsius":21}}']]);
    expect(model.requests[0]?.messages).toEqual([
      { role: 'system', content: 'Use the tools.' },
      { role: 'user', content: 'Weather in Paris?' },
    ]);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it('takes messages instead of a prompt', async () => {
    const model = createScriptedChatClient([{ text: 'Hello again.' }]);
    const messages = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Hi again' },
    ] as const;
    const result = await runAgent({ model, messages: [...messages] });
    expect(result.text).toBe('Hello again.');
    expect(model.requests[0]?.messages).toEqual([...messages]);
  });

  it('validates the answer with output and types result.output by the schema', async () => {
    const model = createScriptedChatClient([{ text: '{"city":"Paris","celsius":21}' }]);
    const result = await runAgent({ model, prompt: 'Weather in Paris, as JSON?', output: Weather });
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(model.requests[0]?.responseFormat).toMatchObject({ name: 'output', schema: { type: 'object', required: ['city', 'celsius'] } });
    expectTypeOf(result.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
    expectTypeOf(result).toEqualTypeOf<AgentRunResult<{ city: string; celsius: number }>>();
  });

  it('without output, result.output is unknown', async () => {
    const result = await runAgent({ model: createScriptedChatClient([{ text: 'ok' }]), prompt: 'Hi' });
    expectTypeOf(result.output).toBeUnknown();
    expect(result).not.toHaveProperty('output');
  });

  it('rejects with the terminal error: a model failure', async () => {
    const failure = new ChatClientError('Chat API (llm.test) rejected the request (401 Unauthorized)', { status: 401, retryable: false });
    const error = await rejection(runAgent({ model: createScriptedChatClient([{ error: failure }]), prompt: 'Hi' }));
    expect(error).toBe(failure);
  });

  it('rejects with the terminal error: an answer failing the output schema twice', async () => {
    const model = createScriptedChatClient([{ text: '{"city":7}' }, { text: 'still not it' }]);
    const error = await rejection(runAgent({ model, prompt: 'Weather?', output: Weather }));
    expect(OutputValidationError.isInstance(error)).toBe(true);
  });

  it('rejects with the exact abort reason of an aborted signal', async () => {
    const reason = new Error('user left');
    const error = await rejection(runAgent({ model: createScriptedChatClient([{ text: 'never' }]), prompt: 'Hi', signal: AbortSignal.abort(reason) }));
    expect(error).toBe(reason);
  });

  it('honours maxIterations (finish reason max_iterations) and lists recoverable errors', async () => {
    const broken = defineTool({ name: 'broken', description: 'Fails.', parameters: z.object({}), execute: () => ToolResult.error('down') });
    const model = createScriptedChatClient([{ toolCalls: [{ name: 'broken', arguments: {} }] }], { loop: true });
    const result = await runAgent({ model, tools: [broken], prompt: 'Try', maxIterations: 2 });
    expect(result).toMatchObject({ finishReason: 'max_iterations', iterations: 2 });
    expect(result.toolResults).toHaveLength(2);
  });

  it('keeps a session in the given store across calls', async () => {
    const sessionStore = new InMemorySessionStore();
    const model = createScriptedChatClient([{ text: 'Noted: 42.' }, { text: 'Your number is 42.' }]);
    await runAgent({ model, prompt: 'My number is 42.', session: 'user-1', sessionStore });
    await runAgent({ model, prompt: 'What is my number?', session: 'user-1', sessionStore });
    expect(model.requests[1]?.messages.map((message) => message.content)).toEqual(['My number is 42.', 'Noted: 42.', 'What is my number?']);
  });

  it('reports every problem of its options in one ConfigError', async () => {
    const error = await rejection(
      runAgent({
        model: { name: 'fake' } as never,
        prompt: '',
        tools: [getWeather, getWeather],
        maxIterations: 0,
        output: { nope: true } as never,
        session: 'user-1',
        toolLogger: 'loud' as never,
        secrets: 'sk-123' as never,
      }),
    );
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).problems).toEqual([
      'model must be a ChatClient',
      'prompt must be a non-empty string',
      'session needs a sessionStore (kept across calls)',
      'secrets must be an array of strings (got a string)',
      'output must be a Standard Schema (zod, valibot, jsonSchema()…)',
      'maxIterations must be an integer ≥ 1 (got 0)',
      'duplicate tool name "get_weather" (2 tools share it)',
      'toolLogger must be false, console or a function',
    ]);
    expect((error as ConfigError).message).toMatch(/^Invalid runAgent options: 8 problems: \(1\) model must be a ChatClient; \(2\) prompt/);
  });

  it('asks for exactly one of prompt and messages, and checks each message', async () => {
    const model = createScriptedChatClient([{ text: 'x' }]);
    const neither = await rejection(runAgent({ model } as never));
    expect((neither as ConfigError).problems).toEqual(['give either prompt or messages']);
    const both = await rejection(runAgent({ model, prompt: 'a', messages: [{ role: 'user', content: 'b' }] } as never));
    expect((both as ConfigError).problems).toEqual(['give either prompt or messages']);
    const bad = await rejection(runAgent({ model, messages: [{ role: 'robot', content: 'b' }, { role: 'user', content: 1 }] as never }));
    expect((bad as ConfigError).problems).toEqual(['messages[0].role must be system, user, assistant or tool', 'messages[1].content must be a string or null']);
    const missing = await rejection(runAgent(undefined as never));
    expect((missing as ConfigError).problems).toEqual(['options must be an object']);
    expect(model.requests).toHaveLength(0);
  });

  it('rejects both prompt and messages, and neither, at compile time', () => {
    const model = createScriptedChatClient([]);
    // @ts-expect-error prompt and messages are exclusive
    void (() => runAgent({ model, prompt: 'a', messages: [] }));
    // @ts-expect-error one of prompt and messages is required
    void (() => runAgent({ model }));
  });

  it('is exported from the package root', () => {
    expect(root.runAgent).toBe(runAgent);
    expect(root.streamAgent).toBe(streamAgent);
  });
});

describe('streamAgent', () => {
  it('streams the same items as agent.run, ending with finish', async () => {
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] }, { text: 'Cold.' }]);
    const stream = await streamAgent({ model, tools: [getWeather], prompt: 'Weather in Oslo?' });
    const items: AgentRunItem[] = [];
    for await (const item of stream) items.push(item);
    expect(items.map((item) => item.type)).toEqual(['tool-call', 'message', 'tool-result', 'text-delta', 'message', 'finish']);
    expect(items.at(-1)).toMatchObject({ type: 'finish', text: 'Cold.', iterations: 2 });
    expectTypeOf(stream).toEqualTypeOf<Awaited<ReturnType<typeof streamAgent>>>();
  });

  it('ends with a terminal error item instead of throwing once the run started', async () => {
    const failure = new ChatClientError('Chat API (llm.test) failed', { status: 500, retryable: false });
    const items: AgentRunItem[] = [];
    for await (const item of await streamAgent({ model: createScriptedChatClient([{ text: 'partial', error: failure }]), prompt: 'Hi' })) items.push(item);
    expect(items.at(-1)).toEqual({ type: 'error', iteration: 1, terminal: true, error: failure });
    await expect(collectAgentRun(await streamAgent({ model: createScriptedChatClient([{ error: failure }]), prompt: 'Hi' }))).rejects.toBe(failure);
  });

  it('rejects invalid options with a ConfigError before any model call', async () => {
    const model = createScriptedChatClient([{ text: 'x' }]);
    const error = await rejection(Promise.resolve().then(() => streamAgent({ model, prompt: 'Hi', tools: 'get_weather' as never })));
    expect((error as ConfigError).problems).toEqual(['tools[0] is not a tool made by defineTool()']);
    expect(model.requests).toHaveLength(0);
  });
});
