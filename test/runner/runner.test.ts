/**
 * The runner and its completion bookkeeping (seed-systems §2, scenarios 33–34 and 47–53 of §8): hand-made events
 * fed to `CompletionTracker`, small custom agents (async generators) under the `Runner`, graphs end to end, and an
 * LLM agent over a scripted model. Every run must end with exactly one `runner.completion`.
 */
import { describe, expect, it, vi } from 'vitest';
import { AgentBuilder, type SessionStore } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ChatClientError, markRecoverable, StreamError } from '../../src/errors/index.js';
import {
  createGraphAgent,
  decodeStateDelta,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  StateGraph,
} from '../../src/graph/index.js';
import {
  CompletionTracker,
  createErrorEvent,
  createEvent,
  isRunnerCompletion,
  isTerminalError,
  Runner,
  type EventOrigin,
  type EventResponse,
  type Invocation,
  type RunEvent,
  type RunnableAgent,
} from '../../src/runner/index.js';
import { deferred, within } from '../helpers/async.js';

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const origin: EventOrigin = { invocationId: 'invocation-1', author: 'agent' };
const completionOrigin: EventOrigin = { invocationId: 'invocation-1', author: 'app' };

const stateEvent = (stateDelta: Record<string, string | null>, from: EventOrigin = origin) => createEvent(from, { stateDelta });
const responseEvent = (response: EventResponse, from: EventOrigin = origin) => createEvent(from, { response });
const answerEvent = (content: string, from: EventOrigin = origin) =>
  responseEvent({ object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content } }] }, from);

function track(...events: RunEvent[]): CompletionTracker {
  const tracker = new CompletionTracker('invocation-1');
  for (const event of events) tracker.capture(event);
  return tracker;
}

/** A custom agent from an async generator over the invocation. */
function agentOf(name: string, run: (invocation: Invocation, from: EventOrigin) => AsyncGenerator<RunEvent>): RunnableAgent {
  return { name, runEvents: (invocation) => run(invocation, { invocationId: invocation.invocationId, author: name }) };
}

async function runAll(runner: Runner, options: Partial<Parameters<Runner['run']>[0]> = {}): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'hi', ...options })) events.push(event);
  return events;
}

/** Exactly one completion, and it is the last event. */
function completionOf(events: readonly RunEvent[]): RunEvent {
  const completions = events.filter(isRunnerCompletion);
  expect(completions).toHaveLength(1);
  expect(events.at(-1)).toBe(completions[0]);
  return completions[0] as RunEvent;
}


function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

// ---------------------------------------------------------------------------------------------------------------

describe('CompletionTracker', () => {
  it('builds a done runner.completion authored by the app (scenario shape §2.4)', () => {
    const completion = track(answerEvent('Hello!')).completion(completionOrigin);

    expect(isRunnerCompletion(completion)).toBe(true);
    expect(isTerminalError(completion)).toBe(false);
    expect(completion.author).toBe('app');
    expect(completion.invocationId).toBe('invocation-1');
    expect(completion.response).toEqual({
      id: expect.stringMatching(/^runner-completion-/),
      object: 'runner.completion',
      created: expect.any(Number),
      done: true,
      partial: false,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' } }],
    });
    expect(completion.stateDelta).toBeUndefined();
  });

  it('carries the fallback business state but no error after a terminal error event (scenario 47)', () => {
    const tracker = track(
      stateEvent({ _node_error_: '"fatal callback"', _node_metadata: '{"nodeId":"x"}', _tool_metadata: '{"tool":"y"}' }),
      createErrorEvent(origin, { type: 'flow_error', message: 'execution failed' }),
    );

    const completion = tracker.completion(completionOrigin);

    expect(completion.response?.error).toBeUndefined();
    expect(completion.stateDelta).toEqual({ _node_error_: '"fatal callback"' });
  });

  it('carries the error of a last non-terminal graph.node.error, with the business state (scenario 48)', () => {
    const tracker = track(
      stateEvent({ _node_error_: '"fatal callback"', _pregel_metadata: '{}' }),
      responseEvent({ object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'execution failed' } }),
    );

    const completion = tracker.completion(completionOrigin);

    expect(completion.response?.error).toEqual({ type: 'flow_error', message: 'execution failed' });
    expect(completion.stateDelta).toEqual({ _node_error_: '"fatal callback"' });
    expect(isTerminalError(completion)).toBe(true);
  });

  it('carries the error of a last non-terminal graph.pregel.step, code included', () => {
    const error = { type: 'flow_error', message: 'node write failed at step 0: database write failed', code: 'WRITE_FATAL' };

    const completion = track(responseEvent({ object: 'graph.pregel.step', done: false, error })).completion(completionOrigin);

    expect(completion.response?.error).toEqual(error);
  });

  it('reports neither error nor fallback state once a later answer recovered the run (scenario 49)', () => {
    const tracker = track(
      stateEvent({ business: '"kept"' }),
      createErrorEvent(origin, { type: 'flow_error', message: 'execution failed' }),
      answerEvent('recovered'),
    );

    const completion = tracker.completion(completionOrigin);

    expect(completion.response?.error).toBeUndefined();
    expect(completion.stateDelta).toBeUndefined();
    expect(completion.response?.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'recovered' } }]);
  });

  it('ignores the error of a partial event but keeps its state delta (scenario 50, §2.3 step 1)', () => {
    const tracker = track(
      createEvent(origin, {
        response: { object: 'chat.completion.chunk', done: false, partial: true, error: { type: 'stream_error', message: 'chunk hiccup' } },
        stateDelta: { draft: '"half"' },
      }),
    );

    expect(tracker.finalError).toBeUndefined();
    expect(tracker.sawTerminalError).toBe(false);
    expect(tracker.completion(completionOrigin).response?.error).toBeUndefined();

    tracker.capture(responseEvent({ object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'later failure' } }));
    expect(tracker.completion(completionOrigin).stateDelta).toEqual({ draft: '"half"' });
  });

  it('remembers the last complete response’s error and whether it was terminal (scenario 51)', () => {
    const routed = track(createErrorEvent(origin, { type: 'flow_error', message: 'hidden failure' }));
    expect(routed.finalError).toEqual({ type: 'flow_error', message: 'hidden failure' });
    expect(routed.sawTerminalError).toBe(true);

    const plain = track(responseEvent({ object: 'chat.completion', done: true }));
    expect(plain.finalError).toBeUndefined();
    expect(plain.sawTerminalError).toBe(false);

    routed.capture(responseEvent({ object: 'chat.completion', done: true }));
    expect(routed.finalError).toBeUndefined();
    expect(routed.sawTerminalError).toBe(false);
  });

  it('merges state deltas last-write-wins, drops metadata keys, keeps null values and copies what it is given (scenario 52)', () => {
    const first = stateEvent({ a: '1', b: '"x"' });
    const tracker = track(
      first,
      responseEvent({ object: 'graph.node.start', done: false }),
      stateEvent({ b: null, c: '"3"', _pregel_metadata: '{}', _cache_hit: 'true', _node_custom_metadata: '{}', _completion_metadata: '{}' }),
      responseEvent({ object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'boom' } }),
    );
    (first.stateDelta as Record<string, string | null>).a = '"mutated later"';

    const completion = tracker.completion(completionOrigin);

    expect(completion.stateDelta).toEqual({ a: '1', b: null, c: '"3"' });
    expect(Object.prototype.hasOwnProperty.call(completion.stateDelta, 'b')).toBe(true);
    (completion.stateDelta as Record<string, string | null>).a = '"changed by a consumer"';
    expect(tracker.completion(completionOrigin).stateDelta?.a).toBe('1');
  });

  it('copies no fallback state for a stop_agent_error, terminal or not (scenario 53)', () => {
    const business = stateEvent({ business: '"state"' });
    const stop = { type: 'stop_agent_error', message: 'stopped by policy' };

    const nonTerminal = track(business, responseEvent({ object: 'graph.node.error', done: false, error: stop })).completion(completionOrigin);
    const terminal = track(business, createErrorEvent(origin, stop)).completion(completionOrigin);

    expect(nonTerminal.response?.error).toEqual(stop);
    expect(nonTerminal.stateDelta).toBeUndefined();
    expect(terminal.response?.error).toBeUndefined();
    expect(terminal.stateDelta).toBeUndefined();
  });

  it('prefers the graph.execution snapshot over fallback state, metadata dropped, its choices echoed', () => {
    const tracker = track(
      stateEvent({ note: '"from an event"' }),
      responseEvent({ object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'soft' } }),
      createEvent(origin, {
        response: { object: 'graph.execution', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'All done' } }] },
        stateDelta: { note: '"final"', _completion_metadata: '{"steps":2}' },
      }),
    );

    const completion = tracker.completion(completionOrigin);

    expect(completion.stateDelta).toEqual({ note: '"final"' });
    expect(completion.response?.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'All done' } }]);
    expect(completion.response?.error).toEqual({ type: 'flow_error', message: 'soft' });
  });

  it('drops the graph snapshot when a later complete answer of the run follows it', () => {
    const tracker = track(createEvent(origin, { response: { object: 'graph.execution', done: true }, stateDelta: { note: '"final"' } }), answerEvent('Afterwards'));

    const completion = tracker.completion(completionOrigin);

    expect(completion.stateDelta).toBeUndefined();
    expect(completion.response?.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Afterwards' } }]);
  });

  // Our outcome (tRPC counts errors from every event): a child agent's error that its parent recovered from is not the
  // run's failure, so only the root invocation's events feed both the state and the error of the completion.
  it('takes state and errors only from the root invocation', () => {
    const child: EventOrigin = { invocationId: 'child-invocation', author: 'child' };
    const tracker = track(
      stateEvent({ root_key: '"root"' }),
      stateEvent({ child_key: '"child"' }, child),
      createEvent(child, { response: { object: 'graph.execution', done: true }, stateDelta: { child_final: '"child"' } }),
      responseEvent({ object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'child failed' } }, child),
    );

    const completion = tracker.completion(completionOrigin);

    expect(completion.response?.error).toBeUndefined();
    expect(completion.stateDelta).toBeUndefined();
    expect(completion.response?.choices).toBeUndefined();
  });
});

describe('Runner with custom agents', () => {
  it('ends a successful run with exactly one completion echoing the answer', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('greeter', async function* (invocation, from) {
        yield answerEvent(`Hello, you said ${invocation.message?.content}`, from);
      }),
    });

    const events = await runAll(runner);

    expect(events).toHaveLength(2);
    const completion = completionOf(events);
    expect(completion.author).toBe('shop');
    expect(completion.invocationId).toBe(events[0]?.invocationId);
    expect(completion.response?.error).toBeUndefined();
    expect(completion.response?.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Hello, you said hi' } }]);
    expect(events.filter(isTerminalError)).toEqual([]);
  });

  it('reports a terminal error event once: the completion after it carries no error', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('failing', async function* (_invocation, from) {
        yield createEvent(from, { stateDelta: { order_status: '"pending"' } });
        yield createErrorEvent(from, { type: 'flow_error', message: 'execution failed' });
      }),
    });

    const events = await runAll(runner);

    const completion = completionOf(events);
    expect(events.filter(isTerminalError)).toEqual([events[1]]);
    expect(completion.response?.error).toBeUndefined();
    expect(completion.stateDelta).toEqual({ order_status: '"pending"' });
  });

  it('puts the error of a last non-terminal graph.node.error on the completion, the only terminal event', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('graphish', async function* (_invocation, from) {
        yield createEvent(from, { response: { object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'node failed', code: 'E1' } } });
      }),
    });

    const events = await runAll(runner);

    const completion = completionOf(events);
    expect(completion.response?.error).toEqual({ type: 'flow_error', message: 'node failed', code: 'E1' });
    expect(events.filter(isTerminalError)).toEqual([completion]);
  });

  it('keeps no fallback state for a stop_agent_error', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('stopper', async function* (_invocation, from) {
        yield createEvent(from, { stateDelta: { order_status: '"pending"' } });
        yield createErrorEvent(from, { type: 'stop_agent_error', message: 'stopped by policy' });
      }),
    });

    const completion = completionOf(await runAll(runner));

    expect(completion.response?.error).toBeUndefined();
    expect(completion.stateDelta).toBeUndefined();
  });

  it('turns an exception thrown inside the agent into a run_error event, then the completion', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('exploding', async function* (_invocation, from) {
        yield createEvent(from, { response: { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: 'Hel' } }] } });
        throw new Error('agent exploded');
      }),
    });

    const events = await runAll(runner);

    expect(events.map((event) => event.response?.object)).toEqual(['chat.completion.chunk', 'error', 'runner.completion']);
    expect(events[1]?.author).toBe('shop');
    expect(events[1]?.response?.error).toEqual({ type: 'run_error', message: 'agent exploded' });
    expect(completionOf(events).response?.error).toBeUndefined();
  });

  it('turns an agent whose runEvents throws at once into a run_error event, then the completion', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: {
        name: 'broken',
        runEvents: () => {
          throw new Error('not ready');
        },
      },
    });

    const events = await runAll(runner);

    expect(events.map((event) => event.response?.error)).toEqual([{ type: 'run_error', message: 'not ready' }, undefined]);
    completionOf(events);
  });

  it('ends an aborted run promptly with a cancelled error event and the completion, even when the agent ignores the signal', async () => {
    const controller = new AbortController();
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('stubborn', async function* (_invocation, from) {
        yield createEvent(from, { response: { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: 'Thinking' } }] } });
        await new Promise(() => {}); // never settles, never looks at the signal
      }),
    });

    const events: RunEvent[] = [];
    await within(
      (async () => {
        for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'hi', signal: controller.signal })) {
          events.push(event);
          if (events.length === 1) controller.abort(new Error('user left'));
        }
      })(),
      1_000,
      'the aborted run',
    );

    expect(events.map((event) => event.response?.object)).toEqual(['chat.completion.chunk', 'error', 'runner.completion']);
    expect(events[1]?.response?.error).toEqual({ type: 'cancelled', message: 'The run was cancelled: user left' });
    expect(completionOf(events).response?.error).toBeUndefined();
  });

  it('ends a run started with an already-aborted signal with a cancelled error event and the completion', async () => {
    const runner = new Runner({
      appName: 'shop',
      agent: agentOf('idle', async function* () {
        await new Promise(() => {});
      }),
    });

    const events = await within(runAll(runner, { signal: AbortSignal.abort(new Error('never mind')) }), 1_000, 'the pre-aborted run');

    expect(events.map((event) => event.response?.error)).toEqual([{ type: 'cancelled', message: 'The run was cancelled: never mind' }, undefined]);
    completionOf(events);
  });

  it('ends a run whose session cannot be loaded with an error event and the completion, without running the agent', async () => {
    const ran = vi.fn();
    const store: SessionStore = {
      load: vi.fn(async () => {
        throw new Error('redis down');
      }),
      append: vi.fn(async () => {}),
    };
    const runner = new Runner({
      appName: 'shop',
      sessionStore: store,
      agent: agentOf('never', async function* (_invocation, from) {
        ran();
        yield answerEvent('unreachable', from);
      }),
    });

    const events = await runAll(runner);

    expect(events.map((event) => event.response?.object)).toEqual(['error', 'runner.completion']);
    expect(events[0]?.response?.error).toEqual({ type: 'run_error', message: 'Could not load session "s1": redis down' });
    expect(store.load).toHaveBeenCalledWith('shop/u1/s1');
    expect(completionOf(events).response?.error).toBeUndefined();
    expect(ran).not.toHaveBeenCalled();
    expect(store.append).not.toHaveBeenCalled();
  });
});

describe('Runner with graphs', () => {
  it('reports a fatal local node once, on the completion, with the fatal record at step 0 (scenario 33)', async () => {
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(collector.addField(messagesStateSchema()))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode('write', () => {
        throw codedError('database write failed', 'WRITE_FATAL');
      })
      .setEntryPoint('write')
      .setFinishPoint('write')
      .compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });

    const events = await runAll(runner, { message: 'Order 42' });

    expect(events.map((event) => event.response?.object)).toEqual([
      'graph.node.start',
      'graph.node.error',
      'graph.node.custom',
      'graph.node.custom',
      'graph.pregel.step',
      'runner.completion',
    ]);
    const completion = completionOf(events);
    expect(events.filter(isTerminalError)).toEqual([completion]);
    expect(completion.response?.error).toEqual({
      type: 'flow_error',
      code: 'WRITE_FATAL',
      message: 'node write failed at step 0: database write failed',
    });
    // decisions.md point 2: unlike Go's omitempty, stepNumber 0 is written.
    expect(completion.stateDelta?.execution_errors).toMatch(/^\[\{"severity":"fatal","nodeId":"write","nodeName":"write","nodeType":"function","stepNumber":0,"timestamp":/);
    expect(executionErrorsFromStateDelta(completion.stateDelta)).toEqual([
      {
        severity: 'fatal',
        nodeId: 'write',
        nodeName: 'write',
        nodeType: 'function',
        stepNumber: 0,
        timestamp: expect.stringMatching(ISO),
        error: { type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' },
      },
    ]);
    const state = decodeStateDelta(completion.stateDelta);
    expect(Object.keys(state).sort()).toEqual(['execution_errors', 'messages', 'node_responses', 'user_input']);
    expect(state.user_input).toBe('Order 42');
  });

  it('keeps the earlier recoverable record and the business state next to the fatal one (scenario 34)', async () => {
    // decisions.md point 6: tRPC-Agent-Go's completion keeps only B's fatal record (seed-systems §8.4 #34); ours keeps
    // every record of the run and the business state reduced so far.
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(collector.addField(messagesStateSchema()).addField('order_status', {}))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode('prepare', () => ({ order_status: 'pending' }))
      .addNode('lookup', () => {
        throw markRecoverable(codedError('inventory lookup timed out', 'ORDER_INVENTORY_SOFT_TIMEOUT'));
      })
      .addNode('write', () => {
        throw codedError('database write failed', 'WRITE_FATAL');
      })
      .setEntryPoint('prepare')
      .addEdge('prepare', 'lookup')
      .addEdge('lookup', 'write')
      .setFinishPoint('write')
      .compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });

    const events = await runAll(runner, { message: 'Order 42' });

    const completion = completionOf(events);
    expect(completion.response?.error).toEqual({
      type: 'flow_error',
      code: 'WRITE_FATAL',
      message: 'node write failed at step 2: database write failed',
    });
    expect(executionErrorsFromStateDelta(completion.stateDelta)).toEqual([
      expect.objectContaining({ severity: 'recoverable', nodeId: 'lookup', stepNumber: 1, error: { type: 'flow_error', message: 'inventory lookup timed out', code: 'ORDER_INVENTORY_SOFT_TIMEOUT' } }),
      expect.objectContaining({ severity: 'fatal', nodeId: 'write', stepNumber: 2, error: { type: 'flow_error', message: 'database write failed', code: 'WRITE_FATAL' } }),
    ]);
    expect(decodeStateDelta(completion.stateDelta).order_status).toBe('pending');
  });

  it('ends an aborted graph run with one cancelled error event and the completion, even when its node ignores the signal', async () => {
    const started = deferred();
    const compiled = new StateGraph(messagesStateSchema())
      .addNode('stuck', () => {
        started.resolve();
        return new Promise(() => {});
      })
      .setEntryPoint('stuck')
      .setFinishPoint('stuck')
      .compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });
    const controller = new AbortController();

    const reading = runAll(runner, { signal: controller.signal });
    await started.promise;
    controller.abort(new Error('user left'));
    const events = await within(reading, 1_000, 'the aborted graph run');

    expect(events.map((event) => event.response?.object)).toEqual(['graph.node.start', 'error', 'runner.completion']);
    expect(events.filter(isTerminalError).map((event) => event.response?.error)).toEqual([{ type: 'cancelled', message: 'The run was cancelled: user left' }]);
    expect(completionOf(events).response?.error).toBeUndefined();
  });

  it('carries the full final graph state on a recovered run, without an error', async () => {
    const collector = new ExecutionErrorCollector();
    const compiled = new StateGraph(collector.addField(messagesStateSchema()))
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode('lookup', () => {
        throw markRecoverable(new Error('cache cold'));
      })
      .addNode('finalize', () => ({ last_response: 'Completed with fallback.' }))
      .setEntryPoint('lookup')
      .addEdge('lookup', 'finalize')
      .setFinishPoint('finalize')
      .compile();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });

    const events = await runAll(runner, { message: 'Order 42' });

    const completion = completionOf(events);
    expect(completion.response?.error).toBeUndefined();
    expect(events.filter(isTerminalError)).toEqual([]);
    expect(completion.response?.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Completed with fallback.' } }]);
    const state = decodeStateDelta(completion.stateDelta);
    expect(state.last_response).toBe('Completed with fallback.');
    expect(state.execution_errors).toEqual([expect.objectContaining({ severity: 'recoverable', nodeId: 'lookup' })]);
  });
});

describe('Runner with an LLM agent', () => {
  function llmRunner(model: ReturnType<typeof createScriptedChatClient>) {
    const agent = new AgentBuilder('assistant').chatClient(model).instructions('Be brief.').toolLogger(() => {}).build();
    return new Runner({ appName: 'support', agent });
  }

  it('emits the answer as streamed chunks and one done chat.completion', async () => {
    const events = await runAll(llmRunner(createScriptedChatClient([{ text: 'It is sunny today.', chunkSize: 6 }])));

    const objects = events.map((event) => event.response?.object);
    expect(objects.filter((object) => object === 'chat.completion.chunk').length).toBeGreaterThan(1);
    const answers = events.filter((event) => event.response?.object === 'chat.completion');
    expect(answers).toHaveLength(1);
    expect(answers[0]?.author).toBe('assistant');
    expect(answers[0]?.response).toMatchObject({ done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'It is sunny today.' }, finishReason: 'stop' }] });
    const completion = completionOf(events);
    expect(completion.response?.error).toBeUndefined();
    expect(completion.response?.choices).toEqual(answers[0]?.response?.choices);
  });

  it('turns a ChatClientError into a terminal api_error event', async () => {
    const events = await runAll(llmRunner(createScriptedChatClient([{ error: new ChatClientError('Chat API returned 401: invalid API key', { status: 401 }) }])));

    const terminal = events.filter(isTerminalError);
    expect(terminal).toHaveLength(1);
    expect(terminal[0]?.response).toMatchObject({ object: 'error', done: true, error: { type: 'api_error', message: 'Chat API returned 401: invalid API key' } });
    expect(completionOf(events).response?.error).toBeUndefined();
  });

  it('turns a StreamError into a terminal stream_error event', async () => {
    const model = createScriptedChatClient([{ text: 'Partial answ', error: new StreamError('The stream ended before a finish event', { reason: 'incomplete' }) }]);

    const events = await runAll(llmRunner(model));

    const terminal = events.filter(isTerminalError);
    expect(terminal).toHaveLength(1);
    expect(terminal[0]?.response).toMatchObject({ object: 'error', done: true, error: { type: 'stream_error', message: 'The stream ended before a finish event' } });
    expect(events.filter((event) => event.response?.object === 'chat.completion' && event.response.done)).toEqual([]);
    completionOf(events);
  });

  it('turns an abort into a cancelled error event, then the completion', async () => {
    const called = deferred();
    const model = createScriptedChatClient([
      () => {
        called.resolve();
        return { delayMs: 10_000, text: 'too late' };
      },
    ]);
    const controller = new AbortController();
    const runner = llmRunner(model);

    const reading = runAll(runner, { signal: controller.signal });
    await called.promise;
    controller.abort(new Error('user left'));
    const events = await within(reading, 1_000, 'the aborted LLM run');

    const terminal = events.filter(isTerminalError);
    expect(terminal).toHaveLength(1);
    expect(terminal[0]?.response?.error).toEqual({ type: 'cancelled', message: 'The run was cancelled: user left' });
    expect(completionOf(events).response?.error).toBeUndefined();
  });

  it('lets a second run of the same session see the first run’s messages', async () => {
    const model = createScriptedChatClient([{ text: 'Nice to meet you, Ada.' }, { text: 'Your name is Ada.' }, { text: 'I do not know.' }]);
    const runner = llmRunner(model);

    await runAll(runner, { sessionId: 'session-a', message: 'My name is Ada.' });
    await runAll(runner, { sessionId: 'session-a', message: 'What is my name?' });
    await runAll(runner, { sessionId: 'session-b', message: 'What is my name?' });

    expect(model.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    expect(model.requests[2]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is my name?' },
    ]);
  });
});
