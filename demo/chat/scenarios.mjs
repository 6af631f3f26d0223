// The chat demo's runs, shared by `npm run demo:chat` (with the built package) and the browser test of `useChat`
// (test/ui/browser/, with the sources): each scenario is a faultline run served as the AI SDK UI message stream.
// Every function takes the SDK namespace `F` and the `faultline/ui` namespace `UI`, so the same runs serve from dist/
// or src/. Offline: scripted models, and OpenAI-compatible clients over a fake `fetch` for provider behaviour that
// only a real stream shows (an error after text, an answer slow enough to stop).

/** The scenarios a page can ask for, with what each shows. */
export const CHAT_SCENARIOS = Object.freeze({
  success: 'reasoning, a tool call that works, and the answer',
  tools: 'seven tools failing each way at once: 404, 401, 429 retried then answered, 500, a crash, invalid arguments, a timeout',
  'provider-error': 'the provider fails mid-stream after some text',
  'max-iterations': 'a model that never stops calling tools, cut at the iteration limit',
  slow: 'a long answer streamed slowly (press stop)',
  graph: 'a graph run through the Runner: a recoverable and a fatal node',
  approval: 'a refund that waits for your Approve or Deny, then goes on',
});

/** A key that must never reach the browser: the 401 body echoes it. */
export const PLANTED_KEY = 'sk-demo-expired-PLANTED-0123456789';

const schema = (F, properties, required = Object.keys(properties)) => ({ parameters: F.jsonSchema({ type: 'object', properties, required }) });

/** A fake orders API answering by status, as a real one would over HTTP. */
function ordersAPI(status, body, headers = {}) {
  return Response.json(body, { status, headers });
}

/** The tools of the `tools` and `success` scenarios: each fails one way (or works). */
export function createChatTools(F) {
  const { defineTool, toolErrorFromResponse } = F;
  const getOrder = defineTool({
    name: 'get_order',
    description: 'Fetch an order by id.',
    ...schema(F, { order_id: { type: 'string' } }),
    execute: async ({ order_id }) => {
      const response =
        order_id === 'A-404'
          ? ordersAPI(404, { error: { message: `No order ${order_id}` } })
          : order_id === 'A-500'
            ? ordersAPI(500, { error: { message: 'The server had an error while processing your request.' } })
            : ordersAPI(200, { order_id, status: 'shipped', items: 2 });
      if (!response.ok) throw await toolErrorFromResponse(response, { service: 'Orders API' });
      return response.json();
    },
  });
  const getCustomer = defineTool({
    name: 'get_customer',
    description: 'Fetch a customer by id.',
    ...schema(F, { customer_id: { type: 'string' } }),
    execute: async () => {
      const response = ordersAPI(401, { error: { message: `Incorrect API key provided: ${PLANTED_KEY}` } });
      throw await toolErrorFromResponse(response, { service: 'Customers API', secrets: [PLANTED_KEY] });
    },
  });
  const getStock = defineTool({
    name: 'get_stock',
    description: 'Units in stock for a SKU.',
    ...schema(F, { sku: { type: 'string' } }),
    retry: { maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 400, jitter: 'none' },
    execute: async ({ sku }, { attempt }) => {
      const response = attempt === 1 ? ordersAPI(429, { error: { message: 'Too many requests' } }, { 'retry-after-ms': '150' }) : ordersAPI(200, { sku, units: 12 });
      if (!response.ok) throw await toolErrorFromResponse(response, { service: 'Stock API' });
      return response.json();
    },
  });
  const shipOrder = defineTool({
    name: 'ship_order',
    description: 'Ship an order.',
    ...schema(F, { order_id: { type: 'string' } }),
    execute: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'carrier') at db-primary.orders.internal");
    },
  });
  const refundOrder = defineTool({
    name: 'refund_order',
    description: 'Refund part of an order.',
    ...schema(F, { order_id: { type: 'string' }, amount: { type: 'number' } }),
    execute: ({ order_id, amount }) => ({ order_id, refunded: amount }),
  });
  const trackParcel = defineTool({
    name: 'track_parcel',
    description: 'Where a parcel is.',
    ...schema(F, { tracking_id: { type: 'string' } }),
    timeoutMs: 300,
    execute: () => new Promise(() => {}), // never settles: the tool's timeout answers for it
  });
  return [getOrder, getCustomer, getStock, shipOrder, refundOrder, trackParcel];
}

/**
 * The tool of the `approval` scenario: a refund a person approves first (`needsApproval`). Each run is pushed to
 * `ran`, so the test can tell a refund that ran once from one that ran twice or never.
 */
export function createRefundTool(F, ran = []) {
  return F.defineTool({
    name: 'issue_refund',
    description: 'Refund an amount on an order; a person approves each refund first.',
    ...schema(F, { order_id: { type: 'string' }, amount: { type: 'number' } }),
    needsApproval: true,
    execute: ({ order_id, amount }) => {
      ran.push({ order_id, amount });
      return { order_id, refunded: amount };
    },
  });
}

/**
 * The model of the `approval` scenario: asked a question, it calls the refund; shown the refund's answer, it says what
 * happened — the tool's result or the `ToolApprovalDenied` error the agent gave it when the person said no.
 */
function refundModel(F) {
  return F.createScriptedChatClient(
    [
      (asked) => {
        const last = asked.messages.at(-1);
        if (last?.role !== 'tool') return { text: 'A refund of 30 on order A-1 needs your approval.', toolCalls: [{ name: 'issue_refund', arguments: { order_id: 'A-1', amount: 30 } }] };
        const content = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
        return { text: content.includes('ToolApprovalDenied') ? 'I did not refund order A-1: you declined.' : 'Refunded 30 on order A-1.' };
      },
    ],
    { loop: true },
  );
}

/** The calls of the `tools` scenario, in the order the model issues them. */
export const FAILING_CALLS = Object.freeze([
  { id: 'call_404', name: 'get_order', arguments: { order_id: 'A-404' } },
  { id: 'call_401', name: 'get_customer', arguments: { customer_id: 'C-7' } },
  { id: 'call_429', name: 'get_stock', arguments: { sku: 'SKU-1' } },
  { id: 'call_500', name: 'get_order', arguments: { order_id: 'A-500' } },
  { id: 'call_crash', name: 'ship_order', arguments: { order_id: 'A-1' } },
  { id: 'call_invalid', name: 'refund_order', arguments: { order_id: 'A-1', amount: 'ten euros' } },
  { id: 'call_timeout', name: 'track_parcel', arguments: { tracking_id: 'T-1' } },
]);

/** One `chat.completion.chunk` SSE frame. */
const frame = (delta, finish = null) => `data: ${JSON.stringify({ id: 'chatcmpl-demo', object: 'chat.completion.chunk', model: 'demo', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** An OpenAI-compatible client over a fake `fetch` whose body is `frames`, one every `everyMs` (cancel stops it). */
function streamingModel(F, frames, { everyMs = 0, onCancel } = {}) {
  const encoder = new TextEncoder();
  const fetch = async (_url, init) => {
    let index = 0;
    let timer;
    const body = new ReadableStream({
      pull(controller) {
        if (index >= frames.length) return controller.close();
        return new Promise((resolve) => {
          timer = setTimeout(() => {
            controller.enqueue(encoder.encode(frames[index++]));
            resolve();
          }, index === 0 ? 0 : everyMs);
        });
      },
      cancel() {
        clearTimeout(timer);
        onCancel?.();
      },
    });
    init?.signal?.addEventListener('abort', () => clearTimeout(timer), { once: true });
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_demo' } });
  };
  return F.createOpenAICompatibleClient({ baseURL: 'https://llm.example/v1', apiKey: 'sk-demo-model-key-000000', model: 'demo', fetch, retry: { maxAttempts: 2, initialDelayMs: 20 } });
}

/** The graph of the `graph` scenario: a lookup that fails recoverably, a reservation, a write that fails for good. */
export function createOrdersGraph(F) {
  const collector = new F.ExecutionErrorCollector();
  return new F.StateGraph(F.messagesStateSchema().addField('stock'))
    .use(collector)
    .addNode('lookup', () => {
      throw F.markRecoverable(Object.assign(new Error('inventory lookup timed out'), { code: 'SOFT_TIMEOUT' }));
    })
    .addNode('reserve', () => ({ stock: 3 }))
    .addNode('write', () => {
      throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
    })
    .addEdge('lookup', 'reserve')
    .addEdge('reserve', 'write')
    .setEntryPoint('lookup')
    .setFinishPoint('write')
    .compile();
}

/**
 * The model of a scenario: scripted, or `realModel` (a client for a real endpoint) where the scenario lets the model
 * choose. `observed` collects what the test checks on the server's side (a cancelled model stream).
 */
function modelFor(F, scenario, observed, realModel) {
  const { createScriptedChatClient } = F;
  switch (scenario) {
    case 'success':
      return (
        realModel ??
        createScriptedChatClient([
          { reasoning: 'The user asks about order A-1: look it up.', toolCalls: [{ id: 'call_ok', name: 'get_order', arguments: { order_id: 'A-1' } }] },
          { text: 'Order A-1 has shipped: 2 items are on their way.' },
        ])
      );
    case 'tools':
      return realModel ?? createScriptedChatClient([{ text: 'Checking everything at once.', toolCalls: FAILING_CALLS.map((call) => ({ ...call })) }, { text: 'Stock for SKU-1 is 12. Everything else failed; see each card.' }]);
    case 'max-iterations':
      return createScriptedChatClient([{ toolCalls: [{ name: 'get_order', arguments: { order_id: 'A-1' } }] }], { loop: true });
    case 'provider-error':
      return streamingModel(F, [frame({ role: 'assistant', content: '' }), frame({ content: 'The first part of the answer' }), `data: ${JSON.stringify({ error: { message: 'The model is overloaded', type: 'server_error', code: 'overloaded' } })}\n\n`]);
    case 'slow': {
      const words = Array.from({ length: 400 }, (_, index) => frame({ content: `word${index} ` }));
      return streamingModel(F, [frame({ role: 'assistant', content: '' }), ...words, frame({}, 'stop'), 'data: [DONE]\n\n'], {
        everyMs: 25,
        onCancel: () => observed.push({ scenario, event: 'model stream cancelled' }),
      });
    }
    default:
      return undefined;
  }
}

/**
 * The `POST /api/chat` handler `useChat` talks to. `readChatRequest` reads what `useChat` posts (`{ id, messages,
 * trigger }` plus `scenario`, the page's `body` option) within its bounds — a malformed or hostile body is answered
 * with its typed 400 — and gives the history as the transcript the model saw. The first turn runs the scenario; a
 * later turn is answered by `realModel` or a scripted model that says how many messages it got, so a second turn
 * proves the history was accepted whole.
 * @param {any} F the SDK namespace
 * @param {any} UI the `faultline/ui` namespace
 * @param {{ realModel?: any, journal?: any[] }} [options] `journal` receives `{chatId, scenario, turn, ...}` entries
 */
export function createChatHandler(F, UI, { realModel, journal = [] } = {}) {
  // The `approval` scenario's agents by chat id: an agent keeps the runs that stopped to ask in memory, so the request
  // that answers must reach the agent that asked. The oldest chat goes first past 100.
  const waiting = new Map();
  const refundAgent = (model, ran) => new F.AgentBuilder('refunds-assistant').instructions('You refund orders; a person approves each refund.').chatClient(model).tools([createRefundTool(F, ran)]).approvals(F.toolApprovals()).toolLogger(false).build();
  return async (request) => {
    let chat;
    try {
      chat = await UI.readChatRequest(request);
    } catch (error) {
      if (!UI.UIMessagesError.isInstance(error)) throw error;
      journal.push({ chatId: '', scenario: '', turn: 0, rejected: { name: error.name, message: error.message } });
      return error.toResponse();
    }
    const scenario = typeof chat.extra.scenario === 'string' && chat.extra.scenario in CHAT_SCENARIOS ? chat.extra.scenario : undefined;
    if (scenario === undefined) return Response.json({ error: `unknown scenario; known: ${Object.keys(CHAT_SCENARIOS).join(', ')}` }, { status: 400 });
    if (chat.resume) {
      // The browser answered approvals (`addToolApprovalResponse`): go on with the run that asked. A chat this server
      // holds no run for gets a fresh agent, whose typed ResumeError ends the stream instead of an HTTP 500.
      const kept = waiting.get(chat.id) ?? { ran: [] };
      const entry = { chatId: chat.id, scenario, turn: 'resume', resume: chat.resume, messages: chat.messages, model: kept.model, ran: kept.ran, observed: [] };
      journal.push(entry);
      const agent = kept.agent ?? refundAgent(refundModel(F), kept.ran);
      // The run belongs to the chat that asked (`owner`): a resume naming its run id from another chat is refused.
      return UI.toUIMessageStreamResponse(agent.resume(chat.resume.runId, chat.resume.decisions, { owner: chat.id }));
    }
    const entry = { chatId: chat.id, scenario, turn: chat.messages.length > 1 ? 2 : 1, messages: chat.messages, observed: [] };
    journal.push(entry);
    if (entry.turn === 2) {
      entry.model = realModel ?? F.createScriptedChatClient([(asked) => ({ text: `Got ${asked.messages.filter((message) => message.role !== 'system').length} messages of history.` })]);
      const agent = new F.AgentBuilder('orders-assistant').chatClient(entry.model).tools(createChatTools(F)).toolLogger(false).build();
      return UI.toUIMessageStreamResponse(agent.run(chat.messages));
    }
    if (scenario === 'graph') {
      const runner = new F.Runner({ appName: 'orders', agent: F.createGraphAgent('orders', createOrdersGraph(F)) });
      return UI.toUIMessageStreamResponse(runner.run({ userId: 'demo', sessionId: chat.id, message: chat.messages[0] }));
    }
    if (scenario === 'approval') {
      const kept = { model: refundModel(F), ran: [] };
      kept.agent = refundAgent(kept.model, kept.ran);
      waiting.delete(chat.id);
      waiting.set(chat.id, kept);
      if (waiting.size > 100) waiting.delete(waiting.keys().next().value);
      Object.assign(entry, { model: kept.model, ran: kept.ran });
      return UI.toUIMessageStreamResponse(kept.agent.run(chat.messages, { owner: chat.id }));
    }
    entry.model = modelFor(F, scenario, entry.observed, realModel);
    const agent = new F.AgentBuilder('orders-assistant')
      .instructions('You help with orders. Use the tools; when a tool fails, say so plainly.')
      .chatClient(entry.model)
      .tools(createChatTools(F))
      .maxIterations(scenario === 'max-iterations' ? 2 : 5)
      .toolLogger(false)
      .build();
    return UI.toUIMessageStreamResponse(agent.run(chat.messages));
  };
}
