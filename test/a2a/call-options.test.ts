// A call's options are checked before the call starts, as the MCP client's are: `null` options or a signal that is not
// an AbortSignal get a ConfigError from every method of the A2A client — unary or streamed — with nothing fetched
// (a bare TypeError from deep inside before) and nothing left rejecting unhandled.
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AClient, type A2AClient } from '../../src/a2a/index.js';
import { ConfigError } from '../../src/errors/index.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

/** Every method of the client, called with `options`, as one settled outcome each. */
function everyCall(client: A2AClient, options: unknown): Array<Promise<unknown>> {
  const given = options as never;
  const drained = (stream: AsyncIterable<unknown>) =>
    (async () => {
      for await (const _event of stream) return undefined;
      return undefined;
    })();
  return [
    client.getAgentCard(given),
    client.sendMessage('hi', given),
    client.getTask({ id: 't-1' }, given),
    client.cancelTask({ id: 't-1' }, given),
    drained(client.streamMessage('hi', given)),
    drained(client.resubscribe({ id: 't-1' }, given)),
  ];
}

describe('A2A call options', () => {
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it.each([
    ['null options', null],
    ['a string signal', { signal: 'x' }],
    ['an object signal', { signal: {} }],
    ['options that are a string', 'fast'],
  ])('%s: every call refuses them with a ConfigError, nothing fetched, nothing left unhandled', async (_name, options) => {
    process.on('unhandledRejection', onUnhandled);
    unhandled.length = 0;
    let fetched = 0;
    const client = createA2AClient({ url: 'http://127.0.0.1:9/a2a', retry: false, fetch: async () => (fetched++, new Response('{}', { status: 500 })) });
    for (const call of everyCall(client, options)) {
      const error = await call.catch((caught: unknown) => caught);
      expect(ConfigError.isInstance(error), String(error)).toBe(true);
      expect((error as ConfigError).problems).toEqual(['options must be an object, its signal an AbortSignal']);
    }
    expect(fetched).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it('options made by a class are accepted as before (only their signal is checked)', async () => {
    class CallOptions {
      constructor(readonly signal: AbortSignal) {}
    }
    let fetched = 0;
    const client = createA2AClient({ url: 'http://127.0.0.1:9/a2a', retry: false, fetch: async () => (fetched++, new Response('{}', { status: 500 })) });
    await expect(client.getTask({ id: 't-1' }, new CallOptions(new AbortController().signal))).rejects.toThrow(/500/);
    expect(fetched).toBe(1);
  });

  it('undefined options and a real signal are accepted', async () => {
    let fetched = 0;
    const client = createA2AClient({ url: 'http://127.0.0.1:9/a2a', retry: false, fetch: async () => (fetched++, new Response('{}', { status: 500 })) });
    await expect(client.getTask({ id: 't-1' })).rejects.toThrow(/500/);
    await expect(client.getTask({ id: 't-1' }, { signal: new AbortController().signal })).rejects.toThrow(/500/);
    expect(fetched).toBe(2);
  });
});

describe('a discovery shared by concurrent calls', () => {
  const CARD = { name: 'shared', url: 'http://127.0.0.1:9/a2a', version: '1', protocolVersion: '0.3', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] };
  /** A client whose card endpoint answers only when `answer()` is called; its fetches counted. */
  function slowCard() {
    let answer!: () => void;
    const ready = new Promise<void>((resolve) => (answer = resolve));
    const fetched: string[] = [];
    const fetch = async (input: RequestInfo | URL) => {
      fetched.push(String(input));
      await ready;
      return Response.json(CARD);
    };
    return { client: createA2AClient({ agentCardUrl: 'http://127.0.0.1:9', fetch, retry: false }), answer, fetched };
  }

  it("one caller's abort fails that caller only, with its own reason; the others get the card from the one fetch", async () => {
    const { client, answer, fetched } = slowCard();
    const first = new AbortController();
    const a = client.getAgentCard({ signal: first.signal });
    const b = client.getAgentCard();
    first.abort(new Error('A gave up'));
    await expect(a).rejects.toThrow('A gave up');
    answer();
    await expect(b).resolves.toMatchObject({ name: 'shared' });
    expect(fetched).toHaveLength(1);
  });

  it("a later caller's signal ends its own wait, though the discovery it joined goes on", async () => {
    const { client, answer } = slowCard();
    const a = client.getAgentCard();
    const started = Date.now();
    await expect(client.getAgentCard({ signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2_000);
    answer();
    await expect(a).resolves.toMatchObject({ name: 'shared' });
  });
});
