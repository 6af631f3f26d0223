// The approval demo: an agent that must ask a person before it refunds, on the scripted model (offline). One refund
// is approved, one denied, one left to expire; each time it prints what the person was asked and what the model then
// saw as the tool's answer. Then a second resume of the approved run: a replay, the refund not made again.
// Run: `npm run demo:approval`.
import * as z from 'zod';
import * as F from 'faultline';

const { AgentBuilder, collectAgentRun, createScriptedChatClient, defineTool, toolApprovals } = F;
const tty = process.stdout.isTTY;
const bold = (text) => (tty ? `\x1b[1m${text}\x1b[0m` : text);
const dim = (text) => (tty ? `\x1b[2m${text}\x1b[0m` : text);

const refunded = [];
const refund = defineTool({
  name: 'refund',
  description: 'Refund an order to the customer’s card.',
  parameters: z.object({ orderId: z.string(), amount: z.number() }),
  needsApproval: true,
  approvalExpiresInMs: 200, // short, so the demo can show an expiry
  execute: ({ orderId, amount }) => {
    refunded.push(orderId); // the side effect that must happen at most once
    return { orderId, refunded: amount };
  },
});

/** One agent per scenario: the model asks for a refund, then answers from what the tool told it. */
function refundAgent(orderId, amount) {
  const model = createScriptedChatClient([
    { toolCalls: [{ id: `call_${orderId}`, name: 'refund', arguments: { orderId, amount } }] },
    (request) => ({ text: `(the model read: ${request.messages.at(-1)?.content})` }),
  ]);
  return { agent: new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals()).build(), model };
}

async function scenario(title, orderId, amount, decide) {
  console.log(bold(`\n-- ${title}`));
  const { agent, model } = refundAgent(orderId, amount);
  const first = await collectAgentRun(agent.run(`Refund order ${orderId}`));
  const [question] = first.interrupts;
  console.log(`run ${first.status}: the person is asked about ${bold(question.toolName)}(${JSON.stringify(question.args)})${question.expiresAt ? dim(` — expires ${question.expiresAt}`) : ''}`);
  const decisions = await decide(question);
  console.log(dim(`decisions sent: ${JSON.stringify(decisions)}`));
  const done = await collectAgentRun(agent.resume(first.runId, decisions));
  const seen = model.requests.at(-1)?.messages.filter((message) => message.role === 'tool').at(-1)?.content;
  console.log(`the model receives: ${seen}`);
  console.log(dim(`run ${done.status}; refunds made so far: ${JSON.stringify(refunded)}`));
  return { agent, runId: first.runId, decisions };
}

const approved = await scenario('Approved once', 'A-1', 30, (question) => [{ id: question.id, approved: true }]);
await scenario('Denied, with a reason the model is shown', 'B-2', 900, (question) => [{ id: question.id, approved: false, reason: 'Refunds over $500 need a manager.' }]);
await scenario('Left until it expired (no decision needed)', 'C-3', 45, async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return [];
});

console.log(bold('\n-- The approved resume sent again (a client retrying after a timeout)'));
const again = await collectAgentRun(approved.agent.resume(approved.runId, approved.decisions));
console.log(`run ${again.status}, replay: ${again.replay === true}; refunds made: ${JSON.stringify(refunded)} (A-1 once)`);

console.log(bold('\n-- A resume naming an interrupt the run does not wait on: refused, nothing changed'));
const { agent } = refundAgent('D-4', 12);
const waiting = await collectAgentRun(agent.run('Refund order D-4'));
try {
  await collectAgentRun(agent.resume(waiting.runId, [{ id: 'approval-unknown', approved: true }]));
} catch (error) {
  console.log(`refused with ${error.name} (${error.code}): ${error.message}`);
}
const still = await collectAgentRun(agent.resume(waiting.runId, [{ id: waiting.interrupts[0].id, approved: false }]));
console.log(dim(`the run still waited: a correct resume then ended it ${still.status}; refunds made: ${JSON.stringify(refunded)}`));
