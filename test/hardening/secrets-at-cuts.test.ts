// A configured secret placed where an excerpt cuts the text that quotes it — the end of a model's made-up tool name,
// the 200th character of a body that is not JSON, past the bound of a crash message or of a tool's arguments, a JSON
// key of a final answer that fails its schema — reaches no error, event, log or item field a person or a remote party
// reads, not even its first characters (nor its last ones, where V8 opens the excerpt of a JSON.parse error). The
// excerpt helpers' own property test is test/internal/redact-cut.property.test.ts.
import { describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun, runAgent } from '../../src/agent/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, createScriptedChatClient } from '../../src/chat/index.js';
import { defineTool, jsonSchema, runTool, runToolCall } from '../../src/tools/index.js';

const SECRET = 'SuperSecretValue_abcdefghij0123456789';

/** Every field of `value` as text, errors with their message, stack and cause. */
function shown(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item instanceof Error ? { ...item, message: item.message, stack: item.stack, cause: item.cause } : item));
}

/** No 8 characters of the secret in a row: not its start before a cut, not its end where V8's parse excerpt opens. */
function expectNoPiece(value: unknown): void {
  const text = shown(value);
  for (let at = 0; at + 8 <= SECRET.length; at++) expect(text, `the secret's characters ${at}–${at + 7}`).not.toContain(SECRET.slice(at, at + 8));
}

const lookup = defineTool({ name: 'lookup', description: 'Look up.', parameters: jsonSchema<{ id: string }>({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }), execute: async () => ({}) });

describe('a secret at the cut of an excerpt', () => {
  it.each([
    ['Chat Completions', createOpenAICompatibleClient],
    ['Anthropic', createAnthropicClient],
    ['Responses', createOpenAIResponsesClient],
  ] as const)('%s: a 2xx body that is not JSON, the key across its 200th character, at its start or just before a bad token (the parse error quotes it)', async (_name, make) => {
    for (const body of [`proxy says: ${'p'.repeat(200 - 12 - 20)}${SECRET} and more`, `${SECRET} and more`, `{"echo":["${SECRET}",oops]}`]) {
      const client = make({ baseURL: 'https://api.example/v1', apiKey: SECRET, model: 'm', ...((make === createAnthropicClient ? { maxTokens: 10 } : {}) as { maxTokens: number }), retry: false, fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
      const error = await client.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
      expect((error as Error).message).toMatch(/not JSON/);
      expectNoPiece(error);
    }
  });

  it('a made-up tool name past the shown length, and a crash message past its bound: name, content, log, error', async () => {
    const logs: unknown[] = [];
    const unknown = await runToolCall([lookup], { id: 'c1', name: `${'x'.repeat(70)}${SECRET}`, arguments: '{}' }, { secrets: [SECRET], logger: (record) => logs.push(record) });
    const crashing = defineTool({ name: 'crash', description: 'Crash.', parameters: jsonSchema({ type: 'object' }), execute: async () => Promise.reject(new Error(`${'z'.repeat(9_990)}${SECRET}`)) });
    const crashed = await runTool(crashing, '{}', { secrets: [SECRET], logger: (record) => logs.push(record) });
    const thrown = await runTool(crashing, '{}', { secrets: [SECRET], logger: false, onToolCrash: 'throw' }).catch((caught: unknown) => caught);
    expect([unknown.result.ok, crashed.result.ok, logs.length > 0, thrown instanceof Error]).toEqual([false, false, true, true]);
    expectNoPiece([unknown.toolName, unknown.content, crashed.content, logs, thrown]);
  });

  it('a made-up tool name in an agent run: the log, the events, the errors and the results', async () => {
    const logs: unknown[] = [];
    const events: unknown[] = [];
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: `${'x'.repeat(70)}${SECRET}`, arguments: '{}' }] }, { text: 'done' }]);
    const agent = new AgentBuilder('a').chatClient(model).tools([lookup]).secrets([SECRET]).toolLogger((record) => logs.push(record)).build();
    for (const name of ['tool-start', 'tool-end', 'tool-error', 'error'] as const) agent.on(name, (event: unknown) => events.push(event));
    const run = await collectAgentRun(agent.run('go'));
    expect(run.finishReason).toBe('stop');
    expectNoPiece([logs, events, run.errors, run.toolResults.map((result) => result.toolName)]);
  });

  it('a final answer failing its schema by a key that holds the secret: the thrown error, its issues and its event', async () => {
    const schema = jsonSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
    const answer = JSON.stringify({ a: 'ok', [`${'k'.repeat(30)}${SECRET}${'k'.repeat(600)}`]: 1 });
    const error = await runAgent({ model: createScriptedChatClient([{ text: answer }, { text: answer }]), prompt: 'hi', output: schema, secrets: [SECRET] }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('OutputValidationError');
    expectNoPiece(error);
  });
});
