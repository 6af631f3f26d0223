// The user apps the bundle benchmarks and the esbuild size budgets measure, as their source (ES modules importing
// `faultline…` specifiers): one definition, so `npm run bench` and `npm test` measure the same apps.

/**
 * An agent with one tool whose parameters are written with `zod` (or `zod/mini`, which then also passes the JSON
 * Schema), on the Chat Completions client.
 * @example `await esbuildApp(agentApp('zod'))`
 */
export const agentApp = (zod) => `
import * as z from '${zod}';
import { AgentBuilder, collectAgentRun, createOpenAICompatibleClient, defineTool } from 'faultline';
const getWeather = defineTool({
  name: 'get_weather', description: 'Weather for a city.',
  parameters: z.object({ city: z.string() }),
  ${zod === 'zod/mini' ? "jsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }," : ''}
  execute: async ({ city }) => ({ city, sky: 'sunny' }),
});
const agent = new AgentBuilder('weather')
  .chatClient(createOpenAICompatibleClient({ baseURL: 'https://api.example.com/v1', apiKey: 'sk-x', model: 'gpt-x' }))
  .instructions('Answer weather questions.').tools([getWeather]).build();
console.log((await collectAgentRun(agent.run('Weather in Paris?'))).text);`;

/**
 * A two-node graph with the execution-error collector under the Runner: the README's graph quick start.
 * @example `await esbuildApp(GRAPH_APP)`
 */
export const GRAPH_APP = `
import { ExecutionErrorCollector, messagesStateSchema, recoverableError, StateGraph } from 'faultline';
import { createGraphAgent } from 'faultline/graph';
import { completionState, isRunnerCompletion, Runner } from 'faultline/runner';
const collector = new ExecutionErrorCollector();
const orders = new StateGraph(collector.addField(messagesStateSchema()).addField('status', {}))
  .use(collector)
  .addNode('reserve', () => { throw recoverableError('Inventory service timed out.'); })
  .addNode('confirm', () => ({ status: 'confirmed without reservation' }))
  .addEdge('reserve', 'confirm').setEntryPoint('reserve').setFinishPoint('confirm').compile();
const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', orders) });
for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Order 42' })) if (isRunnerCompletion(event)) console.log(completionState(event));`;

/**
 * A streaming A2A client, ours and `@a2a-js/sdk` 1.3.0's, each as an app would write it.
 * @example `await esbuildApp(A2A_CLIENT_APPS.faultline)`
 */
export const A2A_CLIENT_APPS = {
  faultline: `import { createA2AClient } from 'faultline/a2a';
export async function follow(url, text) { const events = []; for await (const event of createA2AClient({ agentCardUrl: url }).streamMessage(text)) events.push(event); return events; }`,
  '@a2a-js/sdk': `import { ClientFactory } from '@a2a-js/sdk/client';
export async function follow(url, text) { const client = await new ClientFactory().createFromUrl(url); const events = [];
  for await (const event of client.sendMessageStream({ message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text }] } })) events.push(event); return events; }`,
};

/**
 * The apps `size-budgets.json` holds by name (`"app"`), bundled by esbuild as a user would.
 * @example `await esbuildApp(APP_SOURCES['two-node graph + collector + Runner'])`
 */
export const APP_SOURCES = {
  'agent + one zod tool': agentApp('zod'),
  'agent + one zod/mini tool': agentApp('zod/mini'),
  'two-node graph + collector + Runner': GRAPH_APP,
  'A2A client (streaming)': A2A_CLIENT_APPS.faultline,
};
