/**
 * Depth and instability through every clone/serialize path. Each path gets the same hostile producers
 * (test/helpers/hostile-values.ts): JSON data, data nested to 20,000 levels, values JSON cannot carry (BigInt, cycles,
 * functions, Symbols, Maps, Sets, a throwing toJSON) and values that change after they were handed over (a BigInt
 * added a millisecond later, a getter that throws on its second read, a getter that answers differently each time).
 * The property of every path: it never throws a raw RangeError/TypeError, never hangs, always ends with its typed
 * outcome, and what it serialized once is what travels — later mutation changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../src/agent/index.js';
import { collectChatStream, createOpenAICompatibleClient, createScriptedChatClient, type ChatResponse } from '../../src/chat/index.js';
import { AgentError, markRecoverable, SerializeError, StreamError, toResponseError } from '../../src/errors/index.js';
import { createExecutionError, createGraphAgent, ExecutionErrorCollector, executionErrorsFromStateDelta, StateGraph, StateSchema, STATE_NOT_SERIALIZABLE } from '../../src/graph/index.js';
import { isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';
import { defineTool, runTool, serializeToolResult, toolRunContent, ToolFailure, ToolResult, type ToolLogRecord } from '../../src/tools/index.js';
import { expectValidTranscript, finishOf, readRun, sleep } from '../helpers/agent-run.js';
import { depthArbitrary, hostileValue, jsonWritable, mutatesLater, nested, nestedText, throwsOnSecondRead, type Producer } from '../helpers/hostile-values.js';

const SEED = 1111;

function toolReturning(make: () => unknown) {
  return defineTool({ name: 'hostile', description: 'Returns whatever it is given.', parameters: z.object({}), execute: () => make() });
}

describe('tool results: serialized once, where runTool checks them', () => {
  it('never throws, and what the model gets is the checked text, for any value a tool returns', async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue, fc.boolean(), async (producer: Producer, wrap) => {
        const records: ToolLogRecord[] = [];
        const tool = toolReturning(() => (wrap ? ToolResult.success(producer.make()) : producer.make()));
        const run = await runTool(tool, '{}', { logger: (record) => records.push(record) });
        const content = run.content;
        expect(() => JSON.parse(content)).not.toThrow();
        expect(JSON.parse(content)).toEqual(run.result.toJSON());
        expect(toolRunContent(run)).toBe(content);
        expect(serializeToolResult(run.result)).toBe(content); // the snapshot serializes to the same text
        if (!producer.label.includes('later')) {
          // (a value that changes later may or may not have changed when it was sealed: no oracle for its outcome)
          const writable = jsonWritable(producer.make());
          expect(run.outcome === 'unserializable', producer.label).toBe(!writable);
          if (!writable) expect(records.some((record) => record.event === 'tool.unserializable_result')).toBe(true);
        }
        await sleep(3); // values that change later must not change what was sent
        expect(run.content).toBe(content);
        expect(serializeToolResult(run.result)).toBe(content);
      }),
      { seed: SEED, numRuns: 120 },
    );
  });

  it('names the part that cannot be sent, in the model-facing error and in the developer log', async () => {
    const records: ToolLogRecord[] = [];
    const run = await runTool(toolReturning(() => ({ order: { total: 10n } })), '{}', { logger: (record) => records.push(record) });
    expect(run.outcome).toBe('unserializable');
    expect(run.result.error?.message).toBe("The tool 'hostile' returned a result that cannot be sent to the model: data.order.total holds a BigInt.");
    const logged = records.find((record) => record.event === 'tool.unserializable_result');
    expect(logged?.message).toContain('data.order.total is a BigInt');
    expect(SerializeError.isInstance(run.error)).toBe(true);
    expect((run.error as SerializeError).issues).toEqual([{ code: 'bigint', path: 'data.order.total', message: expect.stringContaining('BigInt') }]);
  });

  it('says what was dropped when a tool returns a function or a Symbol', async () => {
    for (const [value, kind] of [
      [() => 1, 'a function'],
      [Symbol('s'), 'a Symbol'],
    ] as const) {
      const run = await runTool(toolReturning(() => value), '{}', { logger: () => {} });
      expect(run.outcome).toBe('unserializable');
      expect(run.content).not.toBe('{"ok":true}');
      expect(run.result.error?.message).toBe(`The tool 'hostile' returned a result that cannot be sent to the model: data is ${kind}.`);
    }
  });

  it('logs the parts JSON leaves out or empties inside the data', async () => {
    const records: ToolLogRecord[] = [];
    const run = await runTool(toolReturning(() => ({ rows: new Map([[1, 2]]), format: () => 'x', kept: 1 })), '{}', { logger: (record) => records.push(record) });
    expect(run.outcome).toBe('success');
    expect(run.content).toBe('{"ok":true,"data":{"rows":{},"kept":1}}');
    const dropped = records.find((record) => record.event === 'tool.dropped_values');
    expect(dropped?.level).toBe('warn');
    expect(dropped?.data).toEqual({ dropped: [{ path: 'data.rows', kind: 'a Map' }, { path: 'data.format', kind: 'a function' }] });
  });

  it('reports data nested past the runtime stack as too deep, with where', async () => {
    const run = await runTool(toolReturning(() => nested(20_000)), '{}', { logger: () => {} });
    expect(run.outcome).toBe('unserializable');
    expect(run.result.error?.message).toMatch(/: data\.a\.a\.a.*nests too deeply\.$/);
  });
});

describe('the agent loop with unstable tool results', () => {
  it.each([
    ['an object that gains a BigInt 5 ms later', () => mutatesLater(5)],
    ['a getter that throws on its second read', () => throwsOnSecondRead()],
  ])('ends with its finish item and one tool message per call for %s', async (_label, make) => {
    // The first call is slow: the hostile result of the second is reported first, and waits (resolved) in the
    // transcript until the first ends — the transcript keeps call order.
    const slow = defineTool({ name: 'slow', description: 'Takes a while.', parameters: z.object({}), execute: async () => (await sleep(15), { slow: true }) });
    const agent = new AgentBuilder('unstable')
      .chatClient(
        createScriptedChatClient([
          { toolCalls: [{ id: 'call_1', name: 'slow', arguments: {} }, { id: 'call_2', name: 'hostile', arguments: {} }] },
          async () => {
            await sleep(10); // the tool's object changes while the model "thinks"
            return { text: 'done' };
          },
        ]),
      )
      .tools([slow, toolReturning(make)])
      .toolLogger(() => {})
      .build();
    const items: AgentRunItem[] = await readRun(await agent.run('go'));
    const finish = finishOf(items);
    expectValidTranscript(finish.messages);
    const results = items.filter((item): item is Extract<AgentRunItem, { type: 'tool-result' }> => item.type === 'tool-result');
    expect(results.map((item) => item.callId)).toEqual(['call_2', 'call_1']);
    expect(finish.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual(['call_1', 'call_2']);
    for (const result of results) {
      expect(result.outcome).toBe('success');
      expect(JSON.parse(result.content)).toEqual(result.result);
      expect(finish.messages.find((message) => message.toolCallId === result.callId)?.content).toBe(result.content);
    }
  });
});

describe('graph state: encoded key by key', () => {
  it('ends with exactly one completion carrying every key that encodes, each other key reported, for any values in the state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileValue, { minLength: 1, maxLength: 4 }), fc.boolean(), async (producers, fatal) => {
        const collector = new ExecutionErrorCollector();
        const values = producers.map((producer) => producer.make());
        // A value that changes later may or may not have changed when the state is encoded: no oracle for it.
        const writable = producers.map((producer) => (producer.label.includes('later') ? undefined : jsonWritable(producer.make())));
        const graph = new StateGraph(new StateSchema())
          .use(collector)
          .addNode('soft', () => {
            throw markRecoverable(new Error('soft failure first'));
          })
          .addNode('fill', () => Object.fromEntries(values.map((value, index) => [`key_${index}`, value])))
          .addNode('end', () => {
            if (fatal) throw new Error('fatal at the end');
            return { ended: true };
          })
          .addEdge('soft', 'fill')
          .addEdge('fill', 'end')
          .setEntryPoint('soft')
          .setFinishPoint('end');
        const runner = new Runner({ appName: 'props', agent: createGraphAgent('props', graph.compile()) });
        const events: RunEvent[] = [];
        for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) events.push(event);
        const completions = events.filter(isRunnerCompletion);
        expect(completions).toHaveLength(1);
        const delta = completions[0]?.stateDelta ?? {};
        writable.forEach((ok, index) => {
          if (ok === true) expect(Object.hasOwn(delta, `key_${index}`), `key_${index} (${producers[index]?.label})`).toBe(true);
          if (ok === false) expect(Object.hasOwn(delta, `key_${index}`)).toBe(false);
        });
        const reported = events.filter((event) => !isRunnerCompletion(event) && event.response?.error?.code === STATE_NOT_SERIALIZABLE).map((event) => event.response?.error?.message ?? '');
        writable.forEach((ok, index) => {
          if (ok === false) expect(reported.some((message) => message.startsWith(`marshal state delta key "key_${index}"`))).toBe(true);
        });
        const records = executionErrorsFromStateDelta(delta) ?? [];
        expect(records.map((record) => record.nodeId)).toEqual(fatal ? ['soft', 'end'] : ['soft']);
        if (!fatal && writable.some((ok) => ok === false)) expect(completions[0]?.response?.error?.code).toBe(STATE_NOT_SERIALIZABLE);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});

describe('errors whose causes and fields are hostile', () => {
  it('toJSON, toResponseError and error records never throw, whatever the cause holds', () => {
    fc.assert(
      fc.property(hostileValue, (producer) => {
        const cause = producer.make();
        const error = new AgentError('outer', { cause });
        expect(() => JSON.stringify(error.toJSON())).not.toThrow();
        expect(toResponseError(cause)).toEqual(cause === null || cause === undefined ? undefined : expect.objectContaining({ type: 'flow_error' }));
        expect(() => JSON.stringify(createExecutionError({ nodeId: 'n' }, cause, 'fatal'))).not.toThrow();
        expect(() => new ToolFailure('Custom', 'with hostile context', { context: producer.make() as Record<string, unknown> })).not.toThrow();
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('tool-call arguments sent as a JSON value', () => {
  /** A stream whose one tool call carries `argumentsText` as a JSON *value* (not the string the format specifies). */
  function streamWith(argumentsText: string): string {
    const head = '{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"lookup","arguments":';
    return `data: ${head}${argumentsText}}}]}}]}\n\ndata: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n`;
  }
  const completionWith = (argumentsText: string) =>
    `{"id":"c","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":${argumentsText}}}]},"finish_reason":"tool_calls"}]}`;
  const client = (body: string, type: string) =>
    createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', model: 'm', retry: false, fetch: async () => new Response(body, { headers: { 'content-type': type } }) });

  it('is written back as text, or refused as a StreamError naming the call, never a raw RangeError, at any depth', async () => {
    await fc.assert(
      fc.asyncProperty(depthArbitrary.map((depth) => Math.max(1, depth)), fc.constantFrom<'object' | 'array'>('object', 'array'), fc.boolean(), async (depth, kind, complete) => {
        const argumentsText = nestedText(depth, '1', kind); // an object or array: a scalar delta is no argument text
        const request = { messages: [{ role: 'user' as const, content: 'go' }] };
        let outcome: unknown;
        try {
          outcome = complete
            ? await client(completionWith(argumentsText), 'application/json').complete(request)
            : await collectChatStream(client(streamWith(argumentsText), 'text/event-stream').stream(request));
        } catch (error) {
          outcome = error;
        }
        if (depth <= 100) {
          expect((outcome as ChatResponse).message?.toolCalls?.[0]?.arguments).toBe(argumentsText);
        } else {
          expect(StreamError.isInstance(outcome), `depth ${depth}: ${String(outcome)}`).toBe(true);
          expect((outcome as StreamError).reason).toBe('malformed_chunk');
          expect((outcome as StreamError).message).toMatch(/the tool call "lookup" that cannot be taken: arguments\.a.*nests deeper than 100 levels|the tool call "lookup" that cannot be taken: arguments\[0\].*nests deeper than 100 levels/);
        }
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});
