// Checks for the A2A demo servers (demo/worker under workerd, demo/deno under Deno.serve): our built client, over
// real loopback HTTP, against the handler running in that runtime. Same result shape as scenarios.mjs.

import { request as httpRequest } from 'node:http';
import { equal, failureOf, items } from './asserts.mjs';

/**
 * One request to the demo with the Host and Origin a browser would send (fetch cannot set Host); status and JSON body.
 * A connection of its own (`agent: false`): workerd closes a connection whose request body was answered unread.
 */
function raw(url, method, path, headers, body) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, method, path, agent: false, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part) => (text += part));
      response.on('end', () => resolve({ status: response.statusCode, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const userMessage = (text, messageId) => ({ kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }] });

export const demoChecks = [
  {
    name: 'demo A2A: the agent card points at the server it came from',
    async run({ F, url }) {
      const card = await F.createA2AClient({ agentCardUrl: url, retry: false }).getAgentCard();
      equal([card.name, card.url, card.capabilities.streaming], ['inventory', url, true], 'name, url, streaming');
    },
  },
  {
    name: 'demo A2A: a normal message completes with the answer in an artifact',
    async run({ F, url }) {
      const task = await F.createA2AClient({ agentCardUrl: url, retry: false }).sendMessage('widgets');
      equal([task.status.state, task.artifacts[0].parts[0].text], ['completed', '42 units of widgets'], 'state and answer');
    },
  },
  {
    name: 'demo A2A: a fatal graph node is a failed task (unary) and one final failed update (streaming)',
    async run({ F, url }) {
      const client = F.createA2AClient({ agentCardUrl: url, retry: false });
      const task = await client.sendMessage('write order 1');
      equal([task.status.state, task.metadata.error_type, task.metadata.error_code], ['failed', 'flow_error', 'WRITE_FATAL'], 'failed task metadata');
      const events = await items(client.streamMessage('write order 2'));
      equal(events.map((event) => [event.kind, event.status.state, event.final ?? null]), [['task', 'submitted', null], ['status-update', 'failed', true]], 'the stream');
    },
  },
  {
    name: 'demo A2A: the remote agent decodes the failure into one terminal error event',
    async run({ F, url }) {
      const remote = F.createA2AAgent({ agentCardUrl: url, retry: false });
      const events = await items(remote.runEvents({ invocationId: 'i', appName: 'a', userId: 'u', sessionId: 's', message: { role: 'user', content: 'write order 3' }, history: [], signal: new AbortController().signal }));
      equal(events.map((event) => [F.isTerminalError(event), event.response?.error?.type, event.response?.error?.code]), [[true, 'flow_error', 'WRITE_FATAL']], 'one terminal error');
    },
  },
  {
    name: 'demo A2A: stop_agent_error is a canceled task; tasks/cancel cancels a running one',
    async run({ F, url }) {
      const client = F.createA2AClient({ agentCardUrl: url, retry: false });
      const stopped = await client.sendMessage('stop now');
      equal([stopped.status.state, stopped.metadata.error_code], ['canceled', 'OPERATOR_STOP'], 'stopped');
      const pending = await client.sendMessage({ message: userMessage('slow count', `slow-${Date.now()}`), configuration: { blocking: false } });
      const canceled = await client.cancelTask({ id: pending.id });
      equal([pending.status.state, canceled.status.state], ['submitted', 'canceled'], 'canceled while running');
    },
  },
  {
    name: 'demo A2A: a resubscriber in another request gets the final canceled update from a third request',
    async run({ F, url }) {
      const client = F.createA2AClient({ agentCardUrl: url, retry: false });
      const pending = await client.sendMessage({ message: userMessage('slow count', `slow-resubscribe-${Date.now()}`), configuration: { blocking: false } });
      const resubscribed = items(client.resubscribe({ id: pending.id }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.cancelTask({ id: pending.id });
      const events = await resubscribed;
      equal(events.at(-1)?.kind === 'status-update' ? [events.at(-1).status.state, events.at(-1).final] : events.at(-1), ['canceled', true], 'the resubscription ends with the final canceled update');
      equal((await client.getTask({ id: pending.id })).status.state, 'canceled', 'the stored task');
    },
  },
  {
    name: 'demo A2A: a page whose name was pointed at this machine (DNS rebinding) gets 421, a foreign Origin 403; loopback names pass',
    async run({ url }) {
      const { port } = new URL(url);
      const rebound = `rebind.attacker.example:${port}`;
      const getTask = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'no-such-task' } });
      const card = await raw(url, 'GET', '/.well-known/agent-card.json', { host: rebound });
      equal([card.status, card.body.error?.code, /allowedHosts/.test(card.body.error?.message)], [421, -32600, true], 'the agent card for a foreign Host');
      const rebinding = await raw(url, 'POST', '/', { host: rebound, origin: `http://${rebound}` }, getTask);
      equal([rebinding.status, rebinding.body.error?.code], [421, -32600], 'a request from the rebound page');
      const foreign = await raw(url, 'POST', '/', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, getTask);
      equal([foreign.status, /allowedOrigins/.test(foreign.body.error?.message)], [403, true], 'a foreign Origin');
      const local = await raw(url, 'GET', '/.well-known/agent-card.json', { host: `localhost:${port}` });
      equal([local.status, local.body.url], [200, `http://localhost:${port}/`], 'the card for localhost');
      const sameServer = await raw(url, 'POST', '/', { host: `LOCALHOST.:${port}`, origin: `http://127.0.0.1:${port}` }, getTask);
      equal([sameServer.status, sameServer.body.error?.code], [200, -32001], 'a page of this server under another loopback name');
    },
  },
  {
    name: 'demo A2A: protocol errors arrive as JSONRPCError, not as a crash',
    async run({ F, url }) {
      const client = F.createA2AClient({ agentCardUrl: url, retry: false });
      const error = await failureOf(client.getTask({ id: 'no-such-task' }));
      equal([F.JSONRPCError.isInstance(error), error.rpcCode], [true, -32001], 'task not found');
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":' });
      equal([response.status, (await response.json()).error.code], [200, -32700], 'parse error');
    },
  },
];

/**
 * Runs every check against a served demo and reports `{name, status, ms, error?}` each.
 * @param {any} F the SDK namespace
 * @param {string} url the demo's base URL (trailing slash)
 */
export async function runDemoChecks(F, url) {
  const results = [];
  for (const check of demoChecks) {
    const started = Date.now();
    try {
      await check.run({ F, url });
      results.push({ name: check.name, status: 'passed', ms: Date.now() - started });
    } catch (error) {
      results.push({ name: check.name, status: 'failed', ms: Date.now() - started, error: `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}` });
    }
  }
  return results;
}
