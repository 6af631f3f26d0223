// docs/cloudflare.md: an agent factory that throws is told to new tasks' callers by its kind only, logged, and retried
// on the next request — a failed setup is not kept for the life of the object's instance (a binding not ready yet, a
// flaky read of env would otherwise refuse every message until the platform evicts the object).
import { expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { FakeNamespace } from './fake-platform.js';
import { testAgent } from './node-agent.js';

it('builds the agent again on the next request after its factory threw, and keeps it once built', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  let calls = 0;
  const namespace = new FakeNamespace(
    createA2ADurableObject({
      agent: () => {
        if (++calls === 1) throw new TypeError('binding not ready');
        return testAgent;
      },
      card: { name: 'node-agent' },
      namespace: 'A2A_TASKS',
    }),
  );
  const send = async (hex: string, id: number) =>
    (await (
      await namespace.object(hex).fetch(
        new Request('https://faultline.internal/faultline/a2a', {
          method: 'POST',
          body: JSON.stringify({ operation: 'SendMessage', id, version: '0.3', method: 'message/send', userId: 'u', taskId: `task-${hex}`, params: { message: { kind: 'message', messageId: `m${id}`, role: 'user', parts: [{ kind: 'text', text: 'hello' }] } } }),
        }),
      )
    ).json()) as { result?: { status: { state: string } }; error?: { message: string } };
  try {
    const hex = namespace.newUniqueId().toString();
    expect((await send(hex, 1)).error?.message).toMatch(/could not be set up \(TypeError\)/);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/could not be set up: binding not ready/));
    expect((await send(hex, 2)).result?.status.state).toBe('completed');
    expect(calls).toBe(2);
    await send(hex, 3); // a message on a task that exists: refused, the agent not built again
    expect(calls).toBe(2);
  } finally {
    error.mockRestore();
  }
});
