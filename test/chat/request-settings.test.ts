// A chat request's settings are checked on every wire before anything is sent: a wrong kind of value was sent as
// given (`temperature: 'hot'`; `NaN` became `null`), dropped by one wire and kept by another (`toolChoice: 'always'`),
// or threw a TypeError inside an encoder (`responseFormat: 5`, `signal: {}`). Each is a ConfigError naming it.
import { describe, expect, it } from 'vitest';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { ConfigError } from '../../src/errors/index.js';

let sent = 0;
const fetch = async () => {
  sent++;
  return new Response('{}');
};
const base = { baseURL: 'https://api.example.com/v1', apiKey: 'k', model: 'm', retry: false as const, fetch };
const CLIENTS: Array<[string, ChatClient]> = [
  ['Chat Completions', createOpenAICompatibleClient(base)],
  ['Anthropic', createAnthropicClient({ ...base, maxTokens: 10 })],
  ['Responses', createOpenAIResponsesClient(base)],
];

const CASES: Array<[string, Record<string, unknown>, string]> = [
  ['temperature: "hot"', { temperature: 'hot' }, 'temperature must be a finite number ≥ 0 (got "hot")'],
  ['temperature: NaN', { temperature: Number.NaN }, 'temperature must be a finite number ≥ 0 (got NaN)'],
  ['maxTokens: -1', { maxTokens: -1 }, 'maxTokens must be an integer ≥ 1 (got -1)'],
  ['toolChoice: "always"', { toolChoice: 'always' }, `toolChoice must be 'auto', 'none', 'required' or { name } (got "always")`],
  ['parallelToolCalls: "yes"', { parallelToolCalls: 'yes' }, 'parallelToolCalls must be a boolean (got "yes")'],
  ['responseFormat: 5', { responseFormat: 5 }, 'responseFormat must be { name, schema } (a JSON Schema object)'],
  ['signal: {}', { signal: {} }, 'signal must be an AbortSignal (got an object)'],
  ['onRetry: 5', { onRetry: 5 }, 'onRetry must be a function'],
];

describe('a chat request with a setting of the wrong kind', () => {
  for (const [wire, client] of CLIENTS) {
    it.each(CASES)(`${wire}: %s is refused before anything is sent`, async (_name, setting, problem) => {
      sent = 0;
      for (const call of [() => client.complete({ messages: [{ role: 'user', content: 'hi' }], ...setting } as never), async () => {
        for await (const _chunk of client.stream({ messages: [{ role: 'user', content: 'hi' }], ...setting } as never)) {
          // nothing arrives
        }
      }]) {
        const error = await call().catch((caught: unknown) => caught);
        expect(ConfigError.isInstance(error), String(error)).toBe(true);
        expect((error as ConfigError).problems).toContain(problem);
      }
      expect(sent).toBe(0);
    });
  }
});
