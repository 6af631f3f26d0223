// One shape for every run (issue 15, "Agents"): agent.run, streamAgent, AgentRegistry.run and Runner.run all return
// their stream at once — never a promise of it — and throw only for invalid input or options. A run that cannot start
// (an aborted signal, a session store that cannot load) is the stream's one terminal error item, and nothing is sent.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AgentBuilder, AgentRegistry, collectAgentRun, runAgent, streamAgent, type AgentEvents, type AgentRunItem, type AgentRunStream } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError, SessionError } from '../../src/errors/index.js';
import { isRunnerCompletion, Runner, toRunnableAgent, type RunEvent, type RunEventStream } from '../../src/runner/index.js';

async function items(stream: AsyncIterable<AgentRunItem>): Promise<AgentRunItem[]> {
  const all: AgentRunItem[] = [];
  for await (const item of stream) all.push(item);
  return all;
}

function scripted() {
  return createScriptedChatClient([{ text: 'Hello!' }]);
}

describe('every run returns its stream at once', () => {
  it('agent.run, streamAgent, registry.run and Runner.run: a ReadableStream, not a promise, typed alike', async () => {
    const model = scripted();
    const agent = new AgentBuilder('greeter').chatClient(model).build();
    const runs: unknown[] = [
      agent.run('Hi'),
      streamAgent({ model: scripted(), prompt: 'Hi' }),
      new AgentRegistry().register(new AgentBuilder('other').chatClient(scripted()).build()).run('other', 'Hi'),
      new Runner({ appName: 'app', agent }).run({ userId: 'u', sessionId: 's', message: 'Hi' }),
    ];
    for (const run of runs) {
      expect(run).toBeInstanceOf(ReadableStream);
      expect(typeof (run as { then?: unknown }).then).toBe('undefined');
    }
    expectTypeOf(agent.run).returns.toEqualTypeOf<AgentRunStream>();
    expectTypeOf(streamAgent).returns.toEqualTypeOf<AgentRunStream>();
    expectTypeOf(new Runner({ appName: 'a', agent }).run).returns.toEqualTypeOf<RunEventStream>();
    expectTypeOf<AgentRunStream>().toExtend<ReadableStream<AgentRunItem> & AsyncIterable<AgentRunItem>>();
    expectTypeOf<RunEventStream>().toExtend<ReadableStream<RunEvent> & AsyncIterable<RunEvent>>();
    expectTypeOf(runAgent).returns.toExtend<Promise<unknown>>();
    const [first, second, third, fourth] = runs as [AgentRunStream, AgentRunStream, AgentRunStream, RunEventStream];
    for (const stream of [first, second, third]) expect((await items(stream)).at(-1)).toMatchObject({ type: 'finish', text: 'Hello!' });
    const events: RunEvent[] = [];
    for await (const event of fourth) events.push(event);
    expect(events.filter(isRunnerCompletion)).toHaveLength(1);
  });

  it('iterates directly in for await, with no await before the stream', async () => {
    const agent = new AgentBuilder('greeter').chatClient(scripted()).build();
    let text = '';
    for await (const item of agent.run('Hi')) if (item.type === 'text-delta') text += item.delta;
    expect(text).toBe('Hello!');
  });
});

describe('invalid input or options throw a ConfigError at the call, and nothing is sent', () => {
  const cases: Array<[string, (agent: ReturnType<AgentBuilder['build']>) => unknown, string]> = [
    ['empty input', (agent) => agent.run([]), 'messages must not be empty'],
    ['a message that is not one', (agent) => agent.run([{ role: 'wizard' } as never]), 'messages[0]'],
    ['an output that is not a Standard Schema', (agent) => agent.run('x', { output: { type: 'object' } as never }), 'output'],
    ['a signal that is not an AbortSignal', (agent) => agent.run('x', { signal: {} as never }), 'signal'],
    ['a session id that is not a string', (agent) => agent.run('x', { session: 42 as never }), 'session'],
  ];
  for (const [name, call, problem] of cases) {
    it(name, () => {
      const model = scripted();
      const agent = new AgentBuilder('greeter').chatClient(model).build();
      let thrown: unknown;
      try {
        call(agent);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigError.isInstance(thrown)).toBe(true);
      expect((thrown as ConfigError).problems.join(' ')).toContain(problem);
      expect(model.requests).toHaveLength(0);
    });
  }

  it('streamAgent and AgentRegistry.run throw at the call too; runAgent rejects', async () => {
    expect(() => streamAgent({ model: scripted(), prompt: '' })).toThrow(ConfigError);
    expect(() => new AgentRegistry().run('missing', 'hi')).toThrow(/Agent not found: "missing"/);
    await expect(runAgent({ model: scripted(), prompt: '' })).rejects.toThrow(ConfigError);
  });
});

describe('a run that cannot start ends with one terminal error item, and nothing is sent', () => {
  it('an already-aborted signal: its exact reason, the `error` event, no model call', async () => {
    const model = scripted();
    const agent = new AgentBuilder('greeter').chatClient(model).build();
    const seen: Parameters<AgentEvents['error']>[0][] = [];
    agent.on('error', (event) => seen.push(event));
    const reason = new Error('cancelled before start');
    const all = await items(agent.run('Hello?', { signal: AbortSignal.abort(reason) }));
    expect(all).toEqual([{ type: 'error', iteration: 0, terminal: true, error: reason }]);
    expect(seen).toMatchObject([{ terminal: true, iteration: 0, agent: 'greeter' }]);
    expect(model.requests).toHaveLength(0);
    await expect(runAgent({ model, prompt: 'Hi', signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('a session store that cannot load: a SessionError naming the session, its cause kept, nothing saved', async () => {
    const model = scripted();
    const cause = new Error('disk on fire');
    let saves = 0;
    const agent = new AgentBuilder('greeter')
      .chatClient(model)
      .sessionStore({ load: () => Promise.reject(cause), save: async () => void saves++ })
      .build();
    const all = await items(agent.run('Hello?', { session: 's1' }));
    expect(all).toHaveLength(1);
    const [only] = all;
    expect(only).toMatchObject({ type: 'error', terminal: true, iteration: 0 });
    const error = (only as Extract<AgentRunItem, { type: 'error' }>).error;
    expect(SessionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ sessionId: 's1', cause, message: 'Could not load session "s1": disk on fire' });
    expect(model.requests).toHaveLength(0);
    expect(saves).toBe(0);
    await expect(collectAgentRun(agent.run('Hello?', { session: 's1' }))).rejects.toSatisfy(SessionError.isInstance);
  });

  it('a signal aborted while the session loads: the abort reason, not a model call', async () => {
    const model = scripted();
    const controller = new AbortController();
    const reason = new Error('user left');
    const agent = new AgentBuilder('greeter')
      .chatClient(model)
      .sessionStore({
        load: async () => {
          controller.abort(reason);
          return [];
        },
        save: async () => {},
      })
      .build();
    const all = await items(agent.run('Hello?', { session: 's1', signal: controller.signal }));
    expect(all).toEqual([{ type: 'error', iteration: 0, terminal: true, error: reason }]);
    expect(model.requests).toHaveLength(0);
  });

  it('under the Runner, a run that cannot start is one terminal error event and one completion', async () => {
    const agent = new AgentBuilder('greeter').chatClient(scripted()).build();
    const reason = new Error('gone');
    const events: RunEvent[] = [];
    for await (const event of new Runner({ appName: 'app', agent: toRunnableAgent(agent) }).run({ userId: 'u', sessionId: 's', message: 'Hi', signal: AbortSignal.abort(reason) })) events.push(event);
    expect(events.filter(isRunnerCompletion)).toHaveLength(1);
    expect(events.at(-1)).toSatisfy(isRunnerCompletion);
  });
});

describe('a collected run finishes its own work before it returns', () => {
  // collectAgentRun / runAgent used to stop reading at the last item, leaving the run suspended: its listener stayed
  // on the caller's signal (one per run) and its span never ended. Every ending is checked.
  function countedSignal() {
    const controller = new AbortController();
    let live = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      live++;
      add(...args);
    }) as AbortSignal['addEventListener'];
    controller.signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => {
      live--;
      remove(...args);
    }) as AbortSignal['removeEventListener'];
    return { signal: controller.signal, live: () => live };
  }

  it('after a finish, a terminal error and a run that could not start, no listener is left on the caller’s signal', async () => {
    const ok = countedSignal();
    await expect(runAgent({ model: scripted(), prompt: 'Hi', signal: ok.signal })).resolves.toMatchObject({ text: 'Hello!' });
    expect(ok.live()).toBe(0);
    const failing = countedSignal();
    const broken = { name: 'broken', complete: () => Promise.reject(new Error('x')), stream: () => { throw new Error('cannot stream'); } };
    await expect(runAgent({ model: broken as never, prompt: 'Hi', signal: failing.signal })).rejects.toThrow('cannot stream');
    expect(failing.live()).toBe(0);
    const session = countedSignal();
    const agent = new AgentBuilder('greeter').chatClient(scripted()).sessionStore({ load: () => Promise.reject(new Error('down')), save: async () => {} }).build();
    await expect(collectAgentRun(agent.run('Hi', { session: 's', signal: session.signal }))).rejects.toSatisfy(SessionError.isInstance);
    expect(session.live()).toBe(0);
  });
});
