// The Chat Completions encoder writes an agent's tools once per definition and splices them into the body (issue 17).
// The fast path must give byte for byte the body of the general path (one JSON.stringify of the whole body, the
// encoder as it was), for any request, extra fields reusing any body name included.
import fc from 'fast-check';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { chatToolDefinitions, isSealedToolDefinition, sealedToolDefinitions } from '../../src/chat/core/tool-definitions.js';
import type { ChatMessage, ChatRequest, ChatToolDefinition } from '../../src/chat/core/types.js';
import { encodeRequest } from '../../src/chat/openai/openai-wire.js';
import { defineTool } from '../../src/tools/define-tool.js';

/** The encoder before the splice: one object, one JSON.stringify. */
function reference(request: ChatRequest, model: string, stream: boolean, extra: { includeUsage: boolean; body?: Record<string, unknown> }): string {
  const encodeMessage = (message: ChatMessage): Record<string, unknown> => {
    const encoded: Record<string, unknown> = { role: message.role, content: message.content };
    if (message.name !== undefined) encoded.name = message.name;
    if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      encoded.tool_calls = message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
    }
    if (message.role === 'tool') encoded.tool_call_id = message.toolCallId;
    return encoded;
  };
  const body: Record<string, unknown> = { ...extra.body, model, messages: request.messages.map(encodeMessage), stream };
  if (stream && extra.includeUsage) body.stream_options = { include_usage: true };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice !== undefined) body.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', function: { name: request.toolChoice.name } };
  if (request.responseFormat !== undefined) body.response_format = { type: 'json_schema', json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: false } };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  return JSON.stringify(body);
}

const tools = [
  defineTool({ name: 'get_weather', description: 'Weather for a city.', parameters: z.object({ city: z.string(), days: z.number().optional() }), execute: () => 1 }),
  defineTool({ name: 'search', description: 'Search "quoted" \u2028 text.', parameters: z.object({ q: z.string(), tags: z.array(z.string()) }), execute: () => 1 }),
];
const sealed = sealedToolDefinitions(tools);
const plain = chatToolDefinitions(tools);
const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user') as fc.Arbitrary<'system' | 'user'>, content: text }),
  fc.record({ role: fc.constant('assistant' as const), content: fc.option(text, { nil: null }), toolCalls: fc.array(fc.record({ id: text, name: text, arguments: text }), { maxLength: 2 }) }),
  fc.record({ role: fc.constant('tool' as const), content: text, toolCallId: text.map((id) => `id${id}`) }),
);
const BODY_NAMES = ['tools', 'parallel_tool_calls', 'tool_choice', 'response_format', 'temperature', 'max_tokens', 'model', 'messages', 'stream', 'stream_options', 'seed', 'user'];

describe('encodeRequest: the spliced tools give the body of one JSON.stringify', () => {
  it('for any messages, tools (sealed or not), options and extra fields', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<readonly ChatToolDefinition[] | undefined>(undefined, [], sealed, plain, [sealed[1] as ChatToolDefinition], [plain[0] as ChatToolDefinition, sealed[1] as ChatToolDefinition]),
        fc.record(
          {
            parallelToolCalls: fc.boolean(),
            toolChoice: fc.oneof(fc.constantFrom('auto', 'none', 'required'), fc.record({ name: text })),
            responseFormat: fc.record({ name: text, schema: fc.constant({ type: 'object' }) }),
            temperature: fc.double({ min: 0, max: 2, noNaN: true }),
            maxTokens: fc.integer({ min: 1, max: 4096 }),
          },
          { requiredKeys: [] },
        ),
        fc.option(fc.dictionary(fc.constantFrom(...BODY_NAMES), fc.oneof(fc.integer(), text, fc.constant(null)), { maxKeys: 3 }), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        (messages, toolList, options, body, stream, includeUsage) => {
          const request = { messages, ...(toolList ? { tools: toolList } : {}), ...options } as ChatRequest;
          const extra = { includeUsage, ...(body ? { body } : {}) };
          expect(encodeRequest(request, 'gpt-test', stream, extra)).toBe(reference(request, 'gpt-test', stream, extra));
        },
      ),
      { seed: 17, numRuns: 400 },
    );
  });

  it('an extra field named toJSON takes the general path (the body is what it says)', () => {
    const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], tools: sealed };
    const body = { toJSON: () => ({ replaced: true }) };
    expect(encodeRequest(request, 'm', true, { includeUsage: false, body })).toBe('{"replaced":true}');
  });

  it('seals definitions deep: frozen schemas, and a schema that is not plain data is never cached', () => {
    for (const definition of sealed) {
      expect(Object.isFrozen(definition)).toBe(true);
      expect(Object.isFrozen(definition.parameters)).toBe(true);
      expect(isSealedToolDefinition(definition)).toBe(true);
    }
    expect(plain.some(isSealedToolDefinition)).toBe(false);
    const odd = defineTool({ name: 'odd', description: 'x', parameters: z.object({}), jsonSchema: { type: 'object', properties: {}, examples: [new Date(0)] } as never, execute: () => 1 });
    const [definition] = sealedToolDefinitions([odd]);
    expect(isSealedToolDefinition(definition as ChatToolDefinition)).toBe(false);
    // The agent's copy is its own: the tool's schema is not frozen by it.
    expect(Object.isFrozen(tools[0]?.jsonSchema)).toBe(false);
  });
});
