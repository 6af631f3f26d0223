// The A2A client names its size limits in literals (so its bundle carries no `describeBytes`): each must say what
// `describeBytes` says of the limit it enforces, and be raised one byte past it.
import { describe, expect, it } from 'vitest';
import { createA2AClient } from '../../src/a2a/client.js';
import { MAX_CARD_BYTES } from '../../src/a2a/agent-card.js';
import { MAX_RESPONSE_BYTES } from '../../src/a2a/transport-response.js';
import { SerializeError } from '../../src/errors/serialize-error.js';
import { describeBytes } from '../../src/internal/http-body.js';

async function refusal(work: () => Promise<unknown>): Promise<SerializeError> {
  const error = await work().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SerializeError);
  return error as SerializeError;
}

describe('the A2A client names the limits it enforces', () => {
  it('an agent card one byte over MAX_CARD_BYTES', async () => {
    const body = `{"name":"${'x'.repeat(MAX_CARD_BYTES)}"}`.slice(0, MAX_CARD_BYTES + 1);
    const client = createA2AClient({ agentCardUrl: 'https://agent.test/card.json', fetch: async () => new Response(body) });
    const error = await refusal(() => client.getAgentCard());
    expect(error.message).toBe(`The agent card at https://agent.test/card.json is over the ${describeBytes(MAX_CARD_BYTES)} limit`);
  });

  it('an answer one byte over MAX_RESPONSE_BYTES', async () => {
    const body = `{"jsonrpc":"2.0","id":1,"result":"${'x'.repeat(MAX_RESPONSE_BYTES)}"}`.slice(0, MAX_RESPONSE_BYTES + 1);
    const client = createA2AClient({ url: 'https://agent.test/a2a', fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
    const error = await refusal(() => client.getTask({ id: 't' }));
    expect(error.message).toBe(`The A2A answer from https://agent.test/a2a to tasks/get is over the ${describeBytes(MAX_RESPONSE_BYTES)} limit`);
  });
});
