// A strict consumer (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck off) of the built
// package, imported by name as a user's project would. Every `@ts-expect-error` must be an error: a wrong type that
// compiles fails this file. Compiled by test/package/consumer-types.test.ts after the build.
import { expectTypeOf } from 'vitest';
import * as z from 'zod/mini';
import {
  AgentBuilder,
  collectAgentRun,
  Command,
  completionState,
  createGraphAgent,
  createScriptedChatClient,
  defineTool,
  END,
  ExecutionErrorCollector,
  field,
  isRunnerCompletion,
  isTerminalError,
  jsonSchema,
  messagesStateSchema,
  NODE_TIMEOUT,
  reducers,
  runAgent,
  Runner,
  START,
  STATE_INVALID,
  StateGraph,
  stateSchema,
  streamAgent,
  ToolResult,
  WorkflowError,
  type AgentRunItem,
  type AgentRunResult,
  type AgentRunStream,
  type ChatMessage,
  type ExecutionError,
  type GraphOutcome,
  type ResponseError,
  type RunEvent,
  type RunEventStream,
} from 'faultline';

// ---- Graphs: a state typed by a Standard Schema (zod/mini), per-field reducers, typed updates and node ids ----
const Order = z.object({
  order_id: z.string(),
  inventory_status: z.optional(z.enum(['in_stock', 'unknown'])),
  notes: z.array(z.string()),
});
const orderState = stateSchema(Order, { notes: { reducer: reducers.append, default: () => [] } });

const orders = new StateGraph(orderState)
  .use(new ExecutionErrorCollector())
  .addNode('lookup_inventory', async (state, context) => {
    expectTypeOf(state.order_id).toEqualTypeOf<string>();
    expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
    return { inventory_status: 'in_stock', notes: [`checked ${state.order_id}`] };
  }, { timeoutMs: 2_000, fallback: { update: { inventory_status: 'unknown' }, goto: 'ask_customer' } })
  .addNode('ship', (state) => ({ notes: [`shipping ${state.order_id}`] }))
  .addNode('ask_customer', () => ({ notes: ['asked'] }))
  .addNode('check', (state) => new Command({ update: { notes: ['checked'] }, goto: state.inventory_status === 'in_stock' ? 'ship' : END }), { ends: ['ship'] })
  .addConditionalEdges('lookup_inventory', (state) => (state.inventory_status === 'in_stock' ? 'check' : 'ask_customer'))
  .setEntryPoint('lookup_inventory')
  .setFinishPoint('ship')
  .setFinishPoint('ask_customer')
  .compile();

async function graphs(): Promise<void> {
  const outcome = await orders.run({ order_id: 'A-42' });
  if (outcome.status === 'completed') {
    expectTypeOf(outcome.state.inventory_status).toEqualTypeOf<'in_stock' | 'unknown' | undefined>();
    expectTypeOf(outcome.state.notes).toEqualTypeOf<string[]>();
    expectTypeOf(outcome.state.execution_errors).toEqualTypeOf<ExecutionError[]>();
    const first = outcome.state.execution_errors[0];
    expectTypeOf(first).toEqualTypeOf<ExecutionError | undefined>(); // noUncheckedIndexedAccess
    if (first) expectTypeOf(first.error).toEqualTypeOf<ResponseError>(); // always present on a record
  } else if (outcome.status === 'failed') {
    expectTypeOf(outcome.error).toEqualTypeOf<WorkflowError>();
    expectTypeOf(outcome.error.code).toEqualTypeOf<string | undefined>();
    if (outcome.error.code === STATE_INVALID || outcome.error.code === NODE_TIMEOUT) console.log(outcome.error.problems);
  }
  expectTypeOf(outcome).toExtend<GraphOutcome<z.infer<typeof Order>>>();
  // @ts-expect-error the input is an update of the state: order_id is a string
  await orders.run({ order_id: 42 });

  const g = new StateGraph(orderState);
  // @ts-expect-error not one of the enum's values
  g.addNode('wrong_value', () => ({ inventory_status: 'sold_out' }));
  // @ts-expect-error no such field
  g.addNode('wrong_key', () => ({ inventory_stauts: 'unknown' }));
  // @ts-expect-error a fallback update is a state update
  g.addNode('wrong_fallback', () => ({}), { fallback: { update: { notes: 'one' } } });
  const two = g.addNode('a', () => ({})).addNode('b', () => undefined);
  // @ts-expect-error 'c' is no node of this graph
  two.addEdge('a', 'c');
  // @ts-expect-error nor may a router return one
  two.addConditionalEdges('a', () => 'c');
  two.addEdge(START, 'a').addConditionalEdges('a', (state) => (state.notes.length > 0 ? ['b', END] : 'b'));
  // @ts-expect-error goto is checked against the node's ends
  new StateGraph(orderState).addNode('typo', () => new Command({ goto: 'shp' }), { ends: ['ship'] });
  // A literal goto type-checks as written: alone, with an update, in a list, from an async node.
  const update = { notes: ['routed'] };
  const routes = new StateGraph(orderState).addNode('ship', () => ({})).addNode('ask', () => ({}));
  routes.addNode('one', () => new Command({ update, goto: 'ship' }), { ends: ['ship'] });
  routes.addNode('inline', () => new Command({ update: { notes: ['routed'] }, goto: 'ship' }), { ends: ['ship', 'ask'] });
  routes.addNode('bare', () => new Command({ goto: 'ask' }), { ends: ['ship', 'ask'] });
  routes.addNode('both', () => new Command({ update, goto: ['ship', 'ask'] }), { ends: ['ship', 'ask'] });
  routes.addNode('later', async () => new Command({ update, goto: 'ship' }), { ends: ['ship'] });
  routes.addNode('done', () => new Command({ update, goto: END }), { ends: ['ship'] });
  expectTypeOf(new Command({ goto: 'ship' }).goto).toEqualTypeOf<'ship' | readonly 'ship'[] | undefined>();
  // @ts-expect-error a literal goto outside the node's ends, with an update
  routes.addNode('stray', () => new Command({ update, goto: 'ask' }), { ends: ['ship'] });
  // @ts-expect-error nor in a list
  routes.addNode('strays', () => new Command({ goto: ['ship', 'shp'] }), { ends: ['ship'] });

  // Field definitions: exactly these fields; a custom reducer's update type.
  const tally = stateSchema({
    seen: field<string[], string>({ reducer: (all, one) => [...(all ?? []), one], default: () => [] }),
    total: field<number>({ default: () => 0 }),
  });
  new StateGraph(tally).addNode('count', (state) => ({ seen: 'count', total: state.total + 1 }));
  // @ts-expect-error seen takes one string per update
  new StateGraph(tally).addNode('count', () => ({ seen: ['count'] }));

  // Open (untyped) graphs keep working: any key, string ids, results checked at run time.
  const open = new StateGraph(messagesStateSchema()).use(new ExecutionErrorCollector());
  const id: string = 'dynamic';
  open.addNode(id, (state) => ({ anything: state.messages.length })).addEdge(START, id).addEdge(id, END);
}

// ---- Agents: one call, and every run returns its stream at once ----
const getWeather = defineTool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => (city === 'Atlantis' ? ToolResult.error({ type: 'DataNotFound', message: `no station in ${city}` }) : { city, celsius: 21 }),
});

async function agents(): Promise<void> {
  const model = createScriptedChatClient([{ text: 'Sunny.' }]);
  const Weather = z.object({ city: z.string(), celsius: z.number() });
  const result = await runAgent({ model, instructions: 'Use the tools.', tools: [getWeather], prompt: 'Weather in Paris?', output: Weather, maxIterations: 4 });
  expectTypeOf(result).toEqualTypeOf<AgentRunResult<{ city: string; celsius: number }>>();
  expectTypeOf(result.output).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
  // @ts-expect-error maxSteps is the AI SDK's name: here it is maxIterations
  await runAgent({ model, prompt: 'x', maxSteps: 3 });

  const stream = streamAgent({ model, prompt: 'Hi' });
  expectTypeOf(stream).toEqualTypeOf<AgentRunStream>();
  for await (const item of stream) {
    expectTypeOf(item).toEqualTypeOf<AgentRunItem>();
    if (item.type === 'error' && item.terminal) console.error(item.error);
  }

  const agent = new AgentBuilder('support').chatClient(model).tools([getWeather]).build();
  expectTypeOf(agent.run('Hi')).toEqualTypeOf<AgentRunStream>();
  const collected = await collectAgentRun(agent.run('Hi'));
  expectTypeOf(collected.text).toEqualTypeOf<string>();

  const runner = new Runner({ appName: 'shop', agent: createGraphAgent('orders', orders) });
  const events = runner.run({ userId: 'u1', sessionId: 's1', message: 'Order A-42' });
  expectTypeOf(events).toEqualTypeOf<RunEventStream>();
  for await (const event of events) {
    expectTypeOf(event).toEqualTypeOf<RunEvent>();
    if (isTerminalError(event)) expectTypeOf(event.response.error).toEqualTypeOf<ResponseError>();
    if (isRunnerCompletion(event)) {
      const state = completionState(event);
      expectTypeOf(state).toEqualTypeOf<Record<string, unknown> | undefined>();
    }
  }
  const history: ChatMessage[] = [{ role: 'user', content: 'Hi' }];
  agent.run(history, { signal: AbortSignal.timeout(1_000) });
}

void graphs;
void agents;
