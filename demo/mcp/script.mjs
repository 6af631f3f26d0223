// What the agent of the MCP demo is asked, and the scripted model (offline) that answers it: one tool call per turn,
// each failing in its own way, then a summary. A real endpoint is used instead when OPENAI_API_KEY is set.

export const MCP_DEMO_QUESTION =
  'Customer ticket: look up orders A-1001 and A-9999 with get_order, refund A-1001 (damaged), and track the shipment of A-1001. ' +
  'Call each tool once, then summarise what worked and what failed.';

/** The calls the scripted model makes, with what each one shows. */
export const SCRIPTED_CALLS = [
  { name: 'get_order', arguments: { order_id: 'A-1001' }, shows: 'a tool that succeeds' },
  { name: 'get_order', arguments: { order_id: 'A-9999' }, shows: 'a structured failure the tool throws (DataNotFoundError)' },
  { name: 'get_order', arguments: { order_id: 1001 }, shows: "arguments the server's schema refuses" },
  { name: 'refund_order', arguments: { order_id: 'A-1001', reason: 'damaged' }, shows: 'a crash (internal host and API key in the message)' },
  { name: 'track_shipment', arguments: { order_id: 'A-1001' }, shows: 'a tool that hangs past its 300 ms timeout' },
  { name: 'cancel_order', arguments: { order_id: 'A-1001' }, shows: "a tool the server does not have (answered from the server's tool list)" },
];

/** @param {typeof import('faultline')} F the SDK namespace */
export function createScriptedOrderModel(F) {
  return F.createScriptedChatClient(
    [
      ...SCRIPTED_CALLS.map((call, index) => ({
        text: index === 0 ? 'Let me check the orders.' : undefined,
        toolCalls: [{ name: call.name, arguments: call.arguments }],
        usage: { promptTokens: 150 + 60 * index, completionTokens: 20, totalTokens: 170 + 60 * index },
      })),
      {
        text: 'A-1001 has shipped (2 items, 59.90 €). A-9999 does not exist: please ask for the id on the confirmation e-mail. The refund failed on the server side, and tracking timed out; I will retry later.',
        usage: { promptTokens: 600, completionTokens: 45, totalTokens: 645 },
      },
    ],
    { name: 'scripted-model' },
  );
}
