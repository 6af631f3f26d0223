// agent.run(input, { output: schema }) (issue 14): the final answer is asked for as JSON matching the schema, checked,
// shown to the model once when it fails (naming the fields), and a second failure ends the run with an
// OutputValidationError carrying the issues and the raw text — never a silent undefined.
import * as z from 'zod';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { createOpenAICompatibleClient, createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError, OutputValidationError } from '../../src/errors/index.js';
import { BASE_URL, chunk, completions, requestBody, sseResponse } from '../helpers/openai.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const Order = z.object({ id: z.string(), total: z.number() });
const answer = (text: string) => () => sseResponse([chunk({ content: text }, 'stop'), '[DONE]']);
const openai = () => new AgentBuilder('orders').chatClient(createOpenAICompatibleClient({ baseURL: BASE_URL, apiKey: 'sk-test-0123456789abcdef', model: 'gpt-4o', retry: false })).build();

describe('structured output', () => {
  it('asks for a JSON-schema response format and returns the validated value', async () => {
    let body: Record<string, unknown> = {};
    server.use(
      completions(async ({ request }) => {
        body = await requestBody(request);
        return sseResponse([chunk({ content: '{"id":"A-1","total":42.5}' }, 'stop'), '[DONE]']);
      }),
    );
    const result = await collectAgentRun<z.infer<typeof Order>>(await openai().run('Order A-1?', { output: Order }));
    expect(result.output).toEqual({ id: 'A-1', total: 42.5 });
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object', required: ['id', 'total'] } } });
  });

  it('a failing answer is shown to the model once, naming the field; the second answer passes', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    server.use(
      completions(
        async ({ request }) => {
          bodies.push(await requestBody(request));
          return answer('{"id":"A-1","total":"forty"}')();
        },
        async ({ request }) => {
          bodies.push(await requestBody(request));
          return answer('{"id":"A-1","total":40}')();
        },
      ),
    );
    const result = await collectAgentRun(await openai().run('Order A-1?', { output: Order }));
    expect(result.output).toEqual({ id: 'A-1', total: 40 });
    const feedback = (bodies[1]?.messages as Array<{ role: string; content: string }>).at(-1);
    expect(feedback?.role).toBe('user');
    expect(feedback?.content).toMatch(/total: .*number/i);
    expect(result.iterations).toBe(2);
  });

  it('a second failure ends the run with an OutputValidationError carrying the issues and the raw text', async () => {
    server.use(completions(answer('{"id":7}')));
    const failure = await collectAgentRun(await openai().run('Order?', { output: Order })).catch((error: unknown) => error);
    expect(OutputValidationError.isInstance(failure)).toBe(true);
    const error = failure as OutputValidationError;
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['id', 'total']);
    expect(error.text).toBe('{"id":7}');
    expect(error.kind).toBe('output_validation');
  });

  it('an answer that is not JSON: the issue says so; a fenced JSON answer is accepted', async () => {
    const model = createScriptedChatClient([{ text: 'Sure! The total is 40.' }, { text: '```json\n{"id":"A-1","total":40}\n```' }]);
    const agent = new AgentBuilder('orders').chatClient(model).build();
    const result = await collectAgentRun(await agent.run('Order?', { output: Order }));
    expect(result.output).toEqual({ id: 'A-1', total: 40 });
    expect(model.requests[1]?.messages.at(-1)?.content).toMatch(/not JSON/);
  });

  it('output must be a Standard Schema', async () => {
    const agent = new AgentBuilder('orders').chatClient(createScriptedChatClient([{ text: '{}' }])).build();
    expect(() => agent.run('x', { output: { type: 'object' } as never })).toThrow(ConfigError);
  });
});
