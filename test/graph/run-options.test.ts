// A graph run's input and options are checked before any node runs: a string input became the state {0:'h',1:'e',…},
// null options or a signal that is not one threw a bare TypeError from inside the run, an option name with a typo was
// ignored. Each is a ConfigError (the run's promise rejects) naming the problem and, for a typo, the option meant.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { InMemoryCheckpointer, StateGraph, messagesStateSchema } from '../../src/graph/index.js';

const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({})).setEntryPoint('a').setFinishPoint('a').compile();

async function problemsOf(outcome: Promise<unknown>): Promise<readonly string[]> {
  const error = await outcome.catch((caught: unknown) => caught);
  expect(ConfigError.isInstance(error), String(error)).toBe(true);
  return (error as ConfigError).problems;
}

describe('a graph run given bad input or options', () => {
  it.each([
    ['a string input', () => graph.run('hello' as never), 'the input must be an object: an update of the state (got "hello")'],
    ['an array input', () => graph.run([7, 8] as never), 'the input must be an object: an update of the state (got an object)'],
    ['a number input', () => graph.run(42 as never), 'the input must be an object: an update of the state (got 42)'],
    ['null options', () => graph.run({}, null as never), 'options must be an object (got null)'],
    ['a signal that is not one', () => graph.run({}, { signal: 'x' } as never), 'signal must be an AbortSignal (got "x")'],
    ['an invocationId that is a number (a bare TypeError before)', () => graph.run({}, { invocationId: 5 } as never), 'invocationId must be a string (got 5)'],
    ['an invocationId that is an object, with a checkpointer', () => graph.run({}, { invocationId: {}, checkpointer: new InMemoryCheckpointer() } as never), 'invocationId must be a string (got an object)'],
    ['a branch that is not a string', () => graph.run({}, { branch: 7 } as never), 'branch must be a string (got 7)'],
    ['a path that is not a list of strings', () => graph.run({}, { path: 'a.b' } as never), 'path must be an array of strings (got "a.b")'],
    ['an onEvent that is not a function', () => graph.run({}, { onEvent: 5 } as never), 'onEvent must be a function'],
    ['a mistyped option', () => graph.run({}, { invocationid: 'i1' } as never), 'unknown option "invocationid" (did you mean invocationId?)'],
    ['decisions given to run()', () => graph.run({}, { decisions: [] } as never), 'unknown option "decisions"'],
    ['a mistyped resume option', () => graph.resume('r1', { checkpointer: new InMemoryCheckpointer(), decison: [] } as never), 'unknown option "decison" (did you mean decisions?)'],
  ])('%s is refused', async (_name, run, problem) => {
    expect(await problemsOf(run())).toContain(problem);
  });

  it('a valid run still completes', async () => {
    expect((await graph.run({ messages: [] })).status).toBe('completed');
  });
});
