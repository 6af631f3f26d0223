// runAgent's options: a name it does not know is a problem with a pointer to ours (habits from other SDKs), never
// silently ignored; a signal that is not an AbortSignal is a problem too. Both join the one ConfigError.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError } from '../../src/errors/index.js';

const model = createScriptedChatClient([{ text: 'ok' }]);

async function problemsOf(options: Record<string, unknown>): Promise<readonly string[]> {
  const error = await runAgent({ model, prompt: 'hi', ...options } as never).catch((failure: unknown) => failure);
  expect(ConfigError.isInstance(error)).toBe(true);
  return (error as ConfigError).problems;
}

describe('runAgent options', () => {
  it('an unknown option is a problem; a name other SDKs use points to ours', async () => {
    expect(await problemsOf({ maxSteps: 3, system: 'Be brief.', temperatur: 0.2 })).toEqual(
      expect.arrayContaining(['unknown option "maxSteps" (did you mean maxIterations?)', 'unknown option "system" (did you mean instructions?)', 'unknown option "temperatur"']),
    );
  });

  it('a prototype key is an unknown option, not a hint lookup', async () => {
    expect(await problemsOf({ constructor: 1 })).toEqual(['unknown option "constructor"']);
  });

  it('a signal that is not an AbortSignal is a problem', async () => {
    expect(await problemsOf({ signal: { aborted: 'no' } })).toContain('signal must be an AbortSignal');
  });

  it('the known options pass', async () => {
    const result = await runAgent({ model: createScriptedChatClient([{ text: 'fine' }]), prompt: 'hi', instructions: 'x', maxIterations: 2, signal: new AbortController().signal, name: 'a' });
    expect(result.text).toBe('fine');
  });
});
