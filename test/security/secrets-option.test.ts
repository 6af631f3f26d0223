// Every `secrets` option — every public options type that has one, and AgentBuilder.secrets() — goes through one check
// (`secretsProblem`): a lone string (spread, it became one-letter "secrets" and redacted nothing), an entry that is not
// a string, or a secret of 1–3 characters (redaction cannot tell it from ordinary text, so it would leave unseen) is a
// ConfigError naming the entry by position and type, never quoting it; an empty string (an unset variable) is left out.
// The last case reads src/ so that a new options type with `secrets` and no row here fails this file.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createA2AClient, createA2AHandler, fetchAgentCard } from '../../src/a2a/index.js';
import { AgentBuilder, runAgent } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { createA2ADurableObject } from '../../src/cloudflare/index.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { END, START, StateGraph, messagesStateSchema } from '../../src/graph/index.js';
import { createMCPClient, createMCPHandler } from '../../src/mcp/index.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import { defineTool, jsonSchema, runTool, runToolCall, toolErrorFromFetchError, toolErrorFromResponse } from '../../src/tools/index.js';
import { toAGUIEvents, toUIMessageStream } from '../../src/ui/index.js';

const LONE = 'sk-live-9f8e7d'; // 14 characters: long enough for refusedValue to name by length, short enough to quote if a check printed it
const SHORT = 'k9Z'; // a 3-character "secret"

const tool = defineTool({ name: 'lookup', description: 'Look up.', parameters: jsonSchema({ type: 'object' }), execute: async () => ({}) });
const model = () => createScriptedChatClient([{ text: 'done' }]);
const agent = () => new AgentBuilder('a').chatClient(model()).build();
const otel = { trace: { getTracer: () => ({ startSpan: () => ({}) }), setSpan: () => ({}), setSpanContext: () => ({}) }, context: { active: () => ({}), with: () => undefined } } as never;
const noFetch = (async () => new Response('{}')) as typeof fetch;

/** [the options type, a call that takes `secrets` (and throws or rejects when they are refused)]. */
const TAKERS: Array<[string, (secrets: unknown) => unknown]> = [
  ['AgentBuilder.secrets', (secrets) => new AgentBuilder('a').chatClient(model()).secrets(secrets as never).build()],
  ['RunAgentSettings', (secrets) => runAgent({ model: model(), prompt: 'hi', secrets: secrets as never })],
  ['AGUIOptions', (secrets) => toAGUIEvents(new ReadableStream<never>(), { secrets: secrets as never })],
  ['UIMessageStreamOptions', (secrets) => toUIMessageStream(new ReadableStream<never>(), { secrets: secrets as never })],
  ['ToolsNodeOptions', (secrets) => new StateGraph(messagesStateSchema()).addToolsNode('tools', [tool], { secrets: secrets as never }).addEdge(START, 'tools').addEdge('tools', END).compile()],
  ['OpenTelemetryOptions', (secrets) => openTelemetry(otel, { secrets: secrets as never })],
  ['A2ADurableObjectOptions', (secrets) => createA2ADurableObject({ agent: agent(), card: { name: 'x' }, namespace: 'A2A', secrets: secrets as never })],
  ['FetchAgentCardOptions', (secrets) => fetchAgentCard('https://agent.example.com', { fetch: noFetch, secrets: secrets as never })],
  ['A2AClientOptions', (secrets) => createA2AClient({ url: 'https://agent.example.com/a2a', secrets: secrets as never })],
  ['A2AHandlerOptions', (secrets) => createA2AHandler({ agent: agent(), card: { name: 'x' }, secrets: secrets as never })],
  ['HTTPToolErrorOptions (toolErrorFromResponse)', (secrets) => toolErrorFromResponse(new Response('{}', { status: 500 }), { secrets: secrets as never })],
  ['HTTPToolErrorOptions (toolErrorFromFetchError)', (secrets) => toolErrorFromFetchError(new TypeError('fetch failed'), { secrets: secrets as never })],
  ['RunToolOptions (runTool)', (secrets) => runTool(tool, {}, { secrets: secrets as never })],
  ['RunToolOptions (runToolCall)', (secrets) => runToolCall([tool], { id: 'c1', name: 'lookup', arguments: '{}' }, { secrets: secrets as never })],
  ['MCPClientOptions', (secrets) => createMCPClient({ url: 'https://mcp.example.com/mcp', fetch: noFetch, secrets: secrets as never })],
  ['MCPHandlerOptions', (secrets) => createMCPHandler({ tools: [tool], serverInfo: { name: 's', version: '1' }, secrets: secrets as never })],
];

/** Options types with `secrets` that no caller can pass: internal to a module, filled from checked options. */
const INTERNAL = ['OpenAIStreamDecoderOptions'];

async function outcome(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('a secrets option', () => {
  it.each(TAKERS)('%s: a lone string, a non-string entry and a secret under 4 characters are ConfigErrors that never quote it', async (_name, take) => {
    const cases: Array<[unknown, RegExp]> = [
      [LONE, /secrets must be an array of strings \(got a string\)/],
      [[LONE, 42], /secrets\[1\] must be a string of 4 characters or more, or '' \(got 42\)/],
      [[LONE, null], /secrets\[1\] must be a string of 4 characters or more, or '' \(got null\)/],
      [[LONE, SHORT], /secrets\[1\] must be a string of 4 characters or more, or '' \(got 3 characters\)/],
      [[LONE, { toString: () => LONE }], /secrets\[1\] must be a string of 4 characters or more, or '' \(got an object\)/],
    ];
    for (const [secrets, message] of cases) {
      const error = await outcome(() => take(secrets));
      // a graph's configuration errors are its layer's (WorkflowError, at compile); every other is a ConfigError
      expect(ConfigError.isInstance(error) || (error as Error).name === 'WorkflowError', String(error)).toBe(true);
      const shown = JSON.stringify([(error as ConfigError).message, (error as ConfigError).problems, (error as ConfigError).toJSON()]);
      expect(shown).toMatch(message);
      for (const secret of [LONE, SHORT]) expect(shown).not.toContain(secret);
    }
  });

  it.each(TAKERS)('%s: an empty string (an unset variable) and real secrets are taken', async (_name, take) => {
    const error = await outcome(() => take(['', LONE]));
    expect(error instanceof Error ? error.message : '').not.toMatch(/secrets/);
  });

  it('the table above names every options type in src/ that has a secrets option', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          let current = '';
          for (const line of readFileSync(path, 'utf8').split('\n')) {
            const named = /^export (?:interface|type) (\w+)/.exec(line);
            if (named) current = named[1]!;
            if (/^\s+secrets\?:/.test(line)) found.push(current);
          }
        }
      }
    };
    walk(join(import.meta.dirname, '../../src'));
    const covered = new Set([...TAKERS.map(([name]) => name.split(' ')[0]!), ...INTERNAL]);
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter((name) => !covered.has(name))).toEqual([]);
  });
});
