// An agent's `.secrets()` travel with it: whatever wraps the agent (a runnable agent, a graph agent node, a subgraph,
// a graph agent, a Runner) and whatever serves the run to a remote party (the web-UI stream, AG-UI, the A2A handler),
// no byte that leaves holds them — streamed text split across deltas, tool-call arguments, a failure's message — and
// the Runner's own events carry no failure message holding them, though no adapter was given them again.
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder, InMemorySessionStore, type Agent } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatChunk, type ChatClient, type ChatStream } from '../../src/chat/index.js';
import { createGraphAgent, END, messagesStateSchema, START, StateGraph } from '../../src/graph/index.js';
import { secretForms } from '../../src/internal/redact.js';
import { Runner, sessionKeyOf, toRunnableAgent, type RunEventStream } from '../../src/runner/index.js';
import { defineTool, jsonSchema, ToolFailure } from '../../src/tools/index.js';
import { toAGUIResponse, toUIMessageStreamResponse } from '../../src/ui/index.js';

/** Not credential-shaped: only the agent's `secrets` can catch it. */
const SECRET = 'QwertyPlainSecret42zz';
const NEEDLES = secretForms(SECRET);

const echo = defineTool({ name: 'echo', description: 'Echo a note.', parameters: jsonSchema({ type: 'object', properties: { note: { type: 'string' } } }), execute: async () => ({ echoed: true }) });

/** A model that calls `echo` with the secret in the arguments, then answers with it split across small deltas. */
const talking = (): ChatClient => createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { note: SECRET } }] }, { text: `Done, the key is ${SECRET} as asked.`, chunkSize: 3 }], { loop: true });

/** A model whose call fails with the secret in its message (a provider quoting a tool's key back). */
const failing = (): ChatClient => ({
  name: 'failing',
  stream: () => new ReadableStream<ChatChunk>({ start: (controller) => controller.error(new Error(`upstream rejected key ${SECRET}`)) }) as ChatStream,
  complete: () => Promise.reject(new Error(`upstream rejected key ${SECRET}`)),
});

const agentOf = (model: ChatClient): Agent => new AgentBuilder('keeper').chatClient(model).tools([echo]).secrets([SECRET]).build();

/** The graph agent of a one-node graph whose node is the agent. */
function graphAgentOf(agent: Agent) {
  const graph = new StateGraph(messagesStateSchema()).addAgentNode('ask', toRunnableAgent(agent)).addEdge(START, 'ask').addEdge('ask', END).compile();
  return createGraphAgent('graph', graph);
}

/** The graph agent of a graph whose one node is a subgraph holding the agent. */
function nestedAgentOf(agent: Agent) {
  const child = new StateGraph(messagesStateSchema()).addAgentNode('ask', toRunnableAgent(agent)).addEdge(START, 'ask').addEdge('ask', END).compile();
  const parent = new StateGraph(messagesStateSchema()).addSubgraph('child', child).addEdge(START, 'child').addEdge('child', END).compile();
  return createGraphAgent('parent', parent);
}

const WRAPPERS: Array<[string, (agent: Agent) => Agent | ReturnType<typeof toRunnableAgent>]> = [
  ['the agent', (agent) => agent],
  ['toRunnableAgent(agent)', (agent) => toRunnableAgent(agent)],
  ['a graph agent with an agent node', (agent) => graphAgentOf(agent)],
  ['a graph agent with a subgraph holding it', (agent) => nestedAgentOf(agent)],
];

const MODELS: Array<[string, () => ChatClient]> = [
  ['text and tool arguments', talking],
  ['a failure', failing],
];

function runnerRun(served: ReturnType<(typeof WRAPPERS)[number][1]>): RunEventStream {
  return new Runner({ appName: 'app', agent: served }).run({ userId: 'u', sessionId: 's', message: 'Go.' });
}

function expectClean(text: string): void {
  const found = NEEDLES.filter((needle) => text.includes(needle));
  expect(found, text.slice(0, 1_500)).toEqual([]);
}

describe("an agent's secrets travel with it to every adapter that serves its run", () => {
  describe.each(MODELS)('the model: %s', (_model, model) => {
    it('agent.run served as UI and AG-UI', async () => {
      expectClean(await toUIMessageStreamResponse(agentOf(model()).run('Go.'), { expose: 'developer' }).text());
      expectClean(await toAGUIResponse(agentOf(model()).run('Go.')).text());
    });

    it.each(WRAPPERS)('%s under a Runner: the UI stream, AG-UI, and the failures of its events', async (_name, wrap) => {
      expectClean(await toUIMessageStreamResponse(runnerRun(wrap(agentOf(model()))), { expose: 'developer' }).text());
      expectClean(await toAGUIResponse(runnerRun(wrap(agentOf(model())))).text());
      const failures: unknown[] = [];
      for await (const event of runnerRun(wrap(agentOf(model())))) if (event.response?.error) failures.push(event.response.error);
      expectClean(JSON.stringify(failures));
      if (model === failing) expect(failures.length).toBeGreaterThan(0); // the sweep saw the failure it checks
    });

    it.each(WRAPPERS)('%s served by the A2A handler: message/send and message/stream', async (_name, wrap) => {
      const handler = createA2AHandler({ agent: wrap(agentOf(model())), card: { name: 'keeper' } });
      for (const method of ['message/send', 'message/stream']) {
        const body = { jsonrpc: '2.0', id: 1, method, params: { message: { kind: 'message', messageId: `m-${method}`, role: 'user', parts: [{ kind: 'text', text: 'Go.' }] } } };
        const response = await handler(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
        const text = await response.text();
        expect(response.status, text.slice(0, 300)).toBe(200);
        expectClean(text);
      }
    });
  });

  describe('a tool whose failure quotes the secret (an API refusing the key it was given)', () => {
    const leaky = defineTool({
      name: 'weather',
      description: 'Weather.',
      parameters: jsonSchema({ type: 'object', properties: {} }),
      execute: async () => {
        throw new ToolFailure('AuthenticationError', `Weather API rejected key ${SECRET}`, { context: { key: SECRET } });
      },
    });
    const build = () => {
      const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'weather', arguments: {} }] }, { text: 'Sorry, the weather service refused.' }], { loop: true });
      return { model, agent: new AgentBuilder('keeper').chatClient(model).tools([leaky]).toolLogger(false).secrets([SECRET]).build() };
    };

    it('reaches neither the model, nor the run items and events, nor the Runner events, session, UI, AG-UI or A2A', async () => {
      const { model, agent } = build();
      const items: unknown[] = [];
      const events: unknown[] = [];
      for (const name of ['tool-end', 'tool-error'] as const) agent.on(name, (payload: unknown) => events.push(payload));
      for await (const item of agent.run('Weather?')) items.push(item);
      expect(JSON.stringify(items)).toContain('Weather API rejected key'); // the failure is there, without its key
      expectClean(JSON.stringify(items));
      expectClean(JSON.stringify(events));
      expectClean(JSON.stringify(model.requests));

      for (const [name, wrap] of WRAPPERS) {
        const served = wrap(build().agent);
        const runnerEvents: unknown[] = [];
        const sessions = new InMemorySessionStore();
        for await (const event of new Runner({ appName: 'app', agent: served, sessionStore: sessions }).run({ userId: 'u', sessionId: 's', message: 'Go.' })) runnerEvents.push(event);
        expectClean(JSON.stringify(runnerEvents));
        const kept = await sessions.load(sessionKeyOf('app', 'u', 's'));
        if (!name.startsWith('a graph')) expect(kept.some((message) => message.role === 'tool'), name).toBe(true); // a graph keeps its own in state
        expectClean(JSON.stringify(kept));
        expectClean(await toUIMessageStreamResponse(runnerRun(wrap(build().agent)), { expose: 'developer' }).text());
        expectClean(await toAGUIResponse(runnerRun(wrap(build().agent))).text());
        const handler = createA2AHandler({ agent: wrap(build().agent), card: { name: 'keeper' } });
        const body = { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'Weather?' }] } } };
        expectClean(await (await handler(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))).text());
      }
    });
  });

  it("run items in process keep the model's words (the caller's own): only what leaves is cleaned", async () => {
    const items: unknown[] = [];
    for await (const item of agentOf(talking()).run('Go.')) items.push(item);
    expect(JSON.stringify(items)).toContain(SECRET); // in-process items are the caller's; only what leaves is cleaned
  });
});
