/**
 * runToolCall walks its tool set once (toolSetOnce, src/tools/tool-call-name.ts): a one-shot iterable — a generator,
 * `map.values()` — is checked, searched and listed as the same tools. Before, the check used up the iterable and the
 * lookup found nothing: the model was told the tool does not exist and that "No tools are available".
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool, runToolCall, type AnyTool } from '../../src/tools/index.js';

const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: z.object({ message: z.string() }), execute: ({ message }) => message });
const ping = defineTool({ name: 'ping', description: 'Ping.', parameters: z.object({}), execute: () => 'pong' });
const call = { id: 'c1', name: 'echo', arguments: '{"message":"hi"}' };

/** A generator of `tools` that counts how many times it was started. */
function counted(tools: AnyTool[]): { iterable: Iterable<AnyTool>; walks: () => number } {
  let walks = 0;
  function* each(): Generator<AnyTool> {
    walks++;
    yield* tools;
  }
  return { iterable: each(), walks: () => walks };
}

describe('runToolCall with a one-shot iterable of tools', () => {
  it('a generator: found and run, walked once', async () => {
    const tools = counted([ping, echo]);
    const run = await runToolCall(tools.iterable, call, { logger: false });
    expect(run.outcome).toBe('success');
    expect(run.content).toContain('hi');
    expect(tools.walks()).toBe(1);
  });

  it('map.values()', async () => {
    const run = await runToolCall(new Map([['echo', echo]]).values(), call, { logger: false });
    expect(run.outcome).toBe('success');
  });

  it('an unknown name: the ToolNotFound lists the tools the generator yielded', async () => {
    const run = await runToolCall(counted([ping, echo]).iterable, { id: 'c2', name: 'ecko', arguments: '{}' }, { logger: false });
    expect(run.outcome).toBe('not_found');
    expect(run.content).toContain('Available tools: ping, echo.');
    expect(run.content).toContain("Did you mean 'echo'?");
    expect(run.content).not.toContain('No tools are available');
  });

  it('a generator with an entry that is not a tool: still a ConfigError naming it', async () => {
    function* bad(): Generator<unknown> {
      yield echo;
      yield { name: 'fake' };
    }
    const error = await runToolCall(bad() as Iterable<AnyTool>, call, { logger: false }).catch((thrown: unknown) => thrown);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('tools[1] is an object');
  });

  it('arrays and Maps are used as they are', async () => {
    expect((await runToolCall([echo], call, { logger: false })).outcome).toBe('success');
    expect((await runToolCall(new Map([['echo', echo]]), call, { logger: false })).outcome).toBe('success');
  });
});
