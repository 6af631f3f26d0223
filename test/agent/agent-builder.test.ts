import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Agent, AgentBuilder, AgentRegistry, collectAgentRun, DEFAULT_MAX_ITERATIONS } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { AgentNotFoundError, ConfigError } from '../../src/errors/index.js';
import { defineTool } from '../../src/tools/index.js';

const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ message: z.string() }), execute: ({ message }) => message });

function configError(build: () => unknown): ConfigError {
  try {
    build();
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('AgentBuilder', () => {
  it('item 96: a missing chat client is a ConfigError that says so', () => {
    const error = configError(() => new AgentBuilder('a').build());
    expect(error.problems).toEqual(['chat client is required: call .chatClient(client)']);
    expect(error.message).toBe('Invalid agent "a": chat client is required: call .chatClient(client)');
  });

  it('reports every problem together: no client, duplicate tools, bad limits, foreign tools', () => {
    const error = configError(() =>
      new AgentBuilder('')
        .tools([echo, echo, { name: 'fake' } as never])
        .maxIterations(0)
        .build(),
    );
    expect(error.problems).toEqual([
      'name must be a non-empty string',
      'chat client is required: call .chatClient(client)',
      'maxIterations must be an integer ≥ 1 (got 0)',
      'tools[2] is not a tool made by defineTool()',
      'duplicate tool name "echo" (2 tools share it)',
    ]);
  });

  it('builds an agent with sane defaults', () => {
    const agent = new AgentBuilder('helper').chatClient(createScriptedChatClient([])).tools([echo]).build();
    expect(agent).toBeInstanceOf(Agent);
    expect(agent.name).toBe('helper');
    expect(agent.settings.maxIterations).toBe(DEFAULT_MAX_ITERATIONS);
    expect(agent.settings.onToolCrash).toBe('result');
    expect(agent.settings.toolErrorFormat).toBe('structured');
    expect(JSON.parse(JSON.stringify(agent))).toEqual({ name: 'helper', tools: ['echo'], model: 'scripted' });
  });

  it('keeps secrets out of the agent JSON', () => {
    const agent = new AgentBuilder('helper').chatClient(createScriptedChatClient([])).secrets(['sk-very-secret-value']).build();
    expect(JSON.stringify(agent)).not.toContain('sk-very-secret-value');
  });

  it('sends RAF flat tool errors when asked', async () => {
    const model = createScriptedChatClient([{ toolCalls: [{ name: 'echo', arguments: '{}' }] }, { text: 'done' }]);
    const agent = new AgentBuilder('flat').chatClient(model).tools([echo]).toolErrorFormat('flat').toolLogger(() => {}).build();
    const result = await collectAgentRun(await agent.run('hi'));
    expect(result.toolResults[0]?.content).toMatch(/^\{"ok":false,"error":"Tool 'echo' was called with invalid arguments: message: /);
  });
});

describe('AgentRegistry', () => {
  const make = (name: string) => new AgentBuilder(name).chatClient(createScriptedChatClient([{ text: `I am ${name}` }])).build();

  it('item 97: an unknown id is an AgentNotFoundError naming the id and the registered ids', async () => {
    const registry = new AgentRegistry().register(make('planner')).register(make('writer'));
    expect(() => registry.get('missing')).toThrow(AgentNotFoundError);
    expect(() => registry.run('missing', 'hi')).toThrow(expect.objectContaining({
      name: 'AgentNotFoundError',
      agentId: 'missing',
      availableIds: ['planner', 'writer'],
      message: 'Agent not found: "missing". Registered agents: "planner", "writer".',
    }));
  });

  it('runs a registered agent by id', async () => {
    const registry = new AgentRegistry().register(make('planner'));
    expect((await collectAgentRun(await registry.run('planner', 'hi'))).text).toBe('I am planner');
    expect(registry.ids).toEqual(['planner']);
    expect(registry.has('planner')).toBe(true);
  });

  it('refuses two agents with one id, and things that are not agents', () => {
    const registry = new AgentRegistry().register(make('planner'));
    expect(() => registry.register(make('planner'))).toThrow(/already registered/);
    expect(() => registry.register({} as never)).toThrow(ConfigError);
  });
});
