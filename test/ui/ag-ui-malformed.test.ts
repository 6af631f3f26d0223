// Malformed run events given to toAGUIEvents (a custom RunnableAgent, a hand-written or remote agent, a stream built
// by hand): docs/ag-ui.md promises RUN_STARTED first and, last, RUN_FINISHED or exactly one RUN_ERROR — never a thrown
// TypeError out of the iterator, never a bare RUN_ERROR from toAGUIResponse. A malformed part of an event is read as
// absent or skipped; an event the mapping cannot read at all fails the run with one typed RUN_ERROR (a StreamError,
// `malformed_chunk`: the run stream gave an item of the wrong shape), as toUIMessageStream fails it.
// First a table of named shapes, then a property (fast-check, fixed seed) over generated runs whose items are valid
// agent items or runner events with parts deleted or replaced by hostile values (wrong types, null, cycles, revoked
// proxies, throwing getters and conversions, BigInt, symbols, functions).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunnableAgent } from '../../src/runner/index.js';
import { Runner } from '../../src/runner/index.js';
import { toAGUIEvents, toAGUIResponse, type AGUIEvent } from '../../src/ui/index.js';
import { customValues, expectValidAGUI, schemaProblems, sequenceProblems } from './ag-ui/ag-ui-check.js';

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const FINISH = () => ({ type: 'finish', iteration: 1, finishReason: 'stop', iterations: 1, text: 'Hi', usage: { ...usage } });
const header = (id: string) => ({ id, invocationId: 'inv-1', author: 'assistant', timestamp: '2026-01-01T00:00:00.000Z' });
const runnerEvent = (id: string, response: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ ...header(id), response, ...extra });
const COMPLETION = () => runnerEvent('done', { object: 'runner.completion', done: true });
const assistant = (message: Record<string, unknown>, done = false) => runnerEvent('m', { object: 'chat.completion', done, choices: [{ index: 0, message: { role: 'assistant', content: '', ...message } }] });
const failedContent = JSON.stringify({ ok: false, error: { type: 'DataNotFoundError', message: 'Nothing found.' } });

/** Valid agent items: each malformed item of the property is one of these with parts broken. */
const AGENT_ITEMS: Array<() => unknown> = [
  () => ({ type: 'text-delta', iteration: 1, delta: 'Hello there ' }),
  () => ({ type: 'reasoning-delta', iteration: 1, delta: 'thinking about it ' }),
  () => ({ type: 'tool-call', iteration: 1, call: { id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' } }),
  () => ({ type: 'tool-result', iteration: 1, callId: 'call_1', toolName: 'lookup', outcome: 'success', ok: true, result: { ok: true, data: { n: 1 } }, content: '{"ok":true,"data":{"n":1}}' }),
  () => ({ type: 'tool-result', iteration: 1, callId: 'call_1', toolName: 'lookup', outcome: 'failure', ok: false, result: { ok: false, error: { type: 'DataNotFoundError', message: 'Nothing found.', suggestion: 'Ask again.' } }, content: failedContent }),
  () => ({ type: 'retry', iteration: 1, source: 'tool', attempt: 1, delayMs: 10, error: { type: 'RateLimitError', message: 'Slow down.' }, callId: 'call_1', toolName: 'lookup' }),
  () => ({ type: 'message', iteration: 1, message: { role: 'assistant', content: 'Hi' } }),
  () => ({ type: 'error', iteration: 1, terminal: false, error: new Error('a recovered failure') }),
  () => ({ type: 'text-delta', iteration: 2, delta: 'Second step ' }),
  () => ({ type: 'error', iteration: 1, terminal: true, error: new Error('the run failed') }),
  () => ({ type: 'interrupted', runId: 'run-9', interrupts: [{ id: 'i-1', kind: 'approval', reason: 'Approve?', runId: 'run-9', toolCallId: 'call_1', toolName: 'lookup', createdAt: '2026-01-01T00:00:00.000Z' }] }),
  FINISH,
];

/** Valid runner events. */
const RUNNER_EVENTS: Array<() => unknown> = [
  () => runnerEvent('c', { object: 'chat.completion.chunk', done: false, choices: [{ index: 0, delta: { reasoning: 'hmm ', content: 'Hello ' } }] }),
  () => assistant({ toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }] }),
  () => runnerEvent('t', { object: 'tool.response', done: false, choices: [{ index: 0, message: { role: 'tool', toolCallId: 'call_1', content: failedContent } }] }),
  () => assistant({ content: 'Done.' }, true),
  () => ({ ...runnerEvent('n1', { object: 'graph.node.start', done: false }), author: 'node-a' }),
  () => ({ ...runnerEvent('n2', { object: 'graph.node.complete', done: false }), author: 'node-a' }),
  () => runnerEvent('e', { object: 'error', done: true, error: { type: 'api_error', message: 'Upstream 500', code: 'upstream' } }),
  () => runnerEvent('g', { object: 'graph.execution', done: true }, { stateDelta: { execution_errors: [] } }),
  () => runnerEvent('i', { object: 'runner.completion', done: true, interrupts: [{ id: 'i-1', kind: 'input', reason: 'Which city?', runId: 'run-9' }] }),
  COMPLETION,
];

const DELETE = Symbol('delete the part');
const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const revoked = Proxy.revocable({}, {});
revoked.revoke();
const trap = new Proxy({}, { get: () => { throw new Error('getter trap'); }, ownKeys: () => { throw new Error('keys trap'); }, getPrototypeOf: () => { throw new Error('prototype trap'); } });
const unconvertible = { toString: () => { throw new Error('no toString'); }, valueOf: () => { throw new Error('no valueOf'); } };
/** What a part is replaced with (DELETE: the part is missing). */
const BAD: readonly unknown[] = [DELETE, undefined, null, 0, -1, 1.5, Number.NaN, Infinity, '', 'x', true, {}, [], [null], [1, 'x'], { a: {} }, 10n, Symbol('s'), () => 1, cyclic, revoked.proxy, trap, unconvertible];
const HOSTILE = new Set<unknown>([cyclic, revoked.proxy, trap, unconvertible]);

/** Every path to a part of `value` (plain objects and arrays, not hostile values), the value itself first. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  const found = [prefix];
  if (value === null || typeof value !== 'object' || HOSTILE.has(value) || value instanceof Error || prefix.length > 4) return found;
  for (const key of Object.keys(value)) found.push(...paths((value as Record<string, unknown>)[key], [...prefix, key]));
  return found;
}

function setAt(value: unknown, path: readonly string[], bad: unknown): unknown {
  if (path.length === 0) return bad === DELETE ? undefined : bad;
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value) as Record<string, unknown>;
  const key = path.at(-1) as string;
  if (bad === DELETE) delete parent[key];
  else parent[key] = bad;
  return value;
}

interface Mutation {
  pick: number;
  bad: number;
}

function broken(template: () => unknown, mutations: readonly Mutation[]): unknown {
  let item = template();
  for (const { pick, bad } of mutations) {
    const all = paths(item);
    item = setAt(item, all[pick % all.length] as string[], BAD[bad % BAD.length]);
  }
  return item;
}

const source = (items: readonly unknown[]) =>
  new ReadableStream<unknown>({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  }) as ReadableStream<never>;

/** The events of a run, or what iterating them threw. */
async function eventsOf(items: readonly unknown[]): Promise<{ events: AGUIEvent[]; thrown?: unknown }> {
  const events: AGUIEvent[] = [];
  try {
    for await (const event of toAGUIEvents(source(items))) events.push(event);
    return { events };
  } catch (thrown) {
    return { events, thrown };
  }
}

/** The event types toAGUIResponse sends for the same run. */
async function sentTypes(items: readonly unknown[]): Promise<string[]> {
  const body = await toAGUIResponse(source(items)).text();
  return body
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => (JSON.parse(frame.replace(/^data: /, '')) as { type: string }).type);
}

/**
 * What AG-UI promises for any run, however malformed: nothing thrown, RUN_STARTED first, exactly one end
 * (RUN_FINISHED, or the one RUN_ERROR) and it is last, every event valid against @ag-ui/core's strict schema, no
 * message or step left open at the end. (Tool-call ids are the run's own: a malformed run may answer a call it never
 * made, or make one twice; the writer does not invent or drop calls for that, so those sequence rules are not asked.)
 */
function expectWellFormed(run: { events: AGUIEvent[]; thrown?: unknown }): void {
  expect(run.thrown).toBeUndefined();
  const { events } = run;
  expect(events[0]?.type).toBe('RUN_STARTED');
  const ends = events.filter((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR');
  expect(ends).toHaveLength(1);
  expect(ends[0]).toBe(events.at(-1));
  const problems = events.flatMap((event, index) => schemaProblems(event).map((problem) => `events[${index}] ${event.type}: ${problem}`));
  problems.push(...sequenceProblems(events).filter((problem) => !/^events\[\d+\] TOOL_CALL_/.test(problem)));
  expect(problems).toEqual([]);
}

describe('toAGUIEvents on malformed run events', () => {
  it("a custom RunnableAgent's tool call without arguments: the call is written without TOOL_CALL_ARGS and the run finishes (the reviewer's repro)", async () => {
    const agent: RunnableAgent = {
      name: 'custom',
      async *runEvents(invocation) {
        const origin = { id: 'e1', invocationId: invocation.invocationId, author: 'custom', timestamp: new Date().toISOString() };
        yield { ...origin, response: { object: 'chat.completion', done: false, choices: [{ index: 0, message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'lookup' }] } }] } } as never;
        yield { ...origin, id: 'e2', response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' } }] } } as never;
      },
    };
    const runner = new Runner({ appName: 'app', agent });
    const events: AGUIEvent[] = [];
    for await (const event of toAGUIEvents(runner.run({ userId: 'u', sessionId: 's1', message: 'hi' }))) events.push(event);
    expectValidAGUI(events);
    expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_END', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'CUSTOM', 'RUN_FINISHED']);
    expect(events[1]).toMatchObject({ toolCallId: 'call_1', toolCallName: 'lookup' });
    const body = await toAGUIResponse(runner.run({ userId: 'u', sessionId: 's2', message: 'hi' })).text();
    expect(body).toContain('"type":"RUN_STARTED"');
    expect(body.trim().split('\n\n').at(-1)).toContain('"type":"RUN_FINISHED"');
  });

  const ev = (response: unknown, extra: Record<string, unknown> = {}) => ({ ...header('e'), response, ...extra });
  const completion = ev({ object: 'runner.completion', done: true });
  const CASES: Array<{ name: string; items: unknown[]; end: 'RUN_FINISHED' | 'RUN_ERROR' }> = [
    { name: 'an agent tool call without arguments', items: [{ type: 'tool-call', iteration: 1, call: { id: 'c1', name: 'lookup' } }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'an agent tool call whose arguments are an object', items: [{ type: 'tool-call', iteration: 1, call: { id: 'c1', name: 'lookup', arguments: { q: 1 } } }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'an agent tool call without its name', items: [{ type: 'tool-call', iteration: 1, call: { id: 'c1', arguments: '{}' } }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'an agent tool call whose id is a number', items: [{ type: 'tool-call', iteration: 1, call: { id: 7, name: 'lookup', arguments: '{}' } }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'an agent tool call without its call', items: [{ type: 'tool-call', iteration: 1 }, FINISH()], end: 'RUN_ERROR' },
    { name: 'a null item', items: [null, FINISH()], end: 'RUN_ERROR' },
    { name: 'an undefined item after text', items: [{ type: 'text-delta', iteration: 1, delta: 'hi ' }, undefined, FINISH()], end: 'RUN_ERROR' },
    { name: 'a revoked proxy as the first item', items: [revoked.proxy, FINISH()], end: 'RUN_ERROR' },
    { name: 'a text delta that is a number', items: [{ type: 'text-delta', iteration: 1, delta: 5 }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'a reasoning delta that is an object', items: [{ type: 'reasoning-delta', iteration: 1, delta: { a: 1 } }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'a tool result without its content or call id', items: [{ type: 'tool-result', iteration: 1, toolName: 't', ok: true, result: {} }, FINISH()], end: 'RUN_FINISHED' },
    { name: 'a failed tool result without its result', items: [{ type: 'tool-result', iteration: 1, callId: 'c', toolName: 't', ok: false, content: '{}' }, FINISH()], end: 'RUN_ERROR' },
    { name: 'a finish without usage', items: [{ type: 'finish', iteration: 1, finishReason: 'stop', iterations: 1 }], end: 'RUN_FINISHED' },
    { name: 'a finish whose usage counts are not counts', items: [{ type: 'finish', iteration: 1, finishReason: 'stop', iterations: 1, usage: { promptTokens: 'x', completionTokens: -1, totalTokens: 1.5 } }], end: 'RUN_FINISHED' },
    { name: 'a terminal error that is a revoked proxy', items: [{ type: 'error', iteration: 1, terminal: true, error: revoked.proxy }], end: 'RUN_ERROR' },
    { name: 'a runner tool call without arguments', items: [ev({ object: 'chat.completion', done: false, choices: [{ message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup' }] } }] }), completion], end: 'RUN_FINISHED' },
    { name: 'runner toolCalls: [null]', items: [ev({ object: 'chat.completion', done: false, choices: [{ message: { role: 'assistant', content: '', toolCalls: [null] } }] }), completion], end: 'RUN_ERROR' },
    { name: 'runner toolCalls that is not an array', items: [ev({ object: 'chat.completion', done: false, choices: [{ message: { role: 'assistant', content: '', toolCalls: 5 } }] }), completion], end: 'RUN_ERROR' },
    { name: 'a runner node whose author is not a string', items: [{ ...ev({ object: 'graph.node.start', done: false }), author: 5 }, completion], end: 'RUN_FINISHED' },
    { name: 'a runner error whose fields are hostile', items: [ev({ object: 'error', done: true, error: { type: unconvertible, message: trap } }), completion], end: 'RUN_ERROR' },
  ];

  for (const { name, items, end } of CASES) {
    it(`${name}: RUN_STARTED, valid events, and ${end} last`, async () => {
      const run = await eventsOf(items);
      expectWellFormed(run);
      expect(run.events.at(-1)?.type).toBe(end);
      if (end === 'RUN_ERROR') expect(customValues(run.events, 'faultline.error').filter((value) => value.scope === 'run')).toHaveLength(1);
      expect(await sentTypes(items)).toEqual(run.events.map((event) => event.type));
    });
  }

  it('an item the mapping cannot read fails the run with one typed RUN_ERROR (StreamError, kind stream), never the TypeError itself', async () => {
    const { events } = await eventsOf([{ type: 'text-delta', iteration: 1, delta: 'partial ' }, null, FINISH()]);
    expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'STEP_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'STEP_FINISHED', 'CUSTOM', 'RUN_ERROR']);
    expect(customValues(events, 'faultline.error')[0]).toMatchObject({ type: 'StreamError', kind: 'stream', scope: 'run', retryable: false });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'stream' });
    expect((events.at(-1) as { message: string }).message).toMatch(/could not be read as AG-UI events/);
  });

  it('generated malformed runs (agent items and runner events with parts missing or hostile) always end well-formed', async () => {
    const mutation = fc.record({ pick: fc.nat(), bad: fc.nat() });
    const item = (templates: number) => fc.record({ template: fc.nat({ max: templates - 1 }), mutations: fc.array(mutation, { maxLength: 2 }) });
    const spec = fc.boolean().chain((runner) => {
      const templates = runner ? RUNNER_EVENTS : AGENT_ITEMS;
      return fc.record({
        runner: fc.constant(runner),
        items: fc.array(item(templates.length), { maxLength: 5 }),
        malformed: fc.record({ template: fc.nat({ max: templates.length - 1 }), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) }),
        at: fc.nat(),
        ending: fc.constantFrom('valid', 'none', 'broken'),
        endingMutation: mutation,
      });
    });
    const seen = { finished: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(spec, async (run) => {
        const templates = run.runner ? RUNNER_EVENTS : AGENT_ITEMS;
        const items = run.items.map(({ template, mutations }) => broken(templates[template] as () => unknown, mutations));
        items.splice(run.at % (items.length + 1), 0, broken(templates[run.malformed.template] as () => unknown, run.malformed.mutations));
        const ending = run.runner ? COMPLETION : FINISH;
        if (run.ending === 'valid') items.push(ending());
        else if (run.ending === 'broken') items.push(broken(ending, [run.endingMutation]));
        if (run.runner) items.unshift(runnerEvent('first', { object: 'chat.completion.chunk', done: false, choices: [{ index: 0, delta: { content: 'Hi ' } }] }));
        const result = await eventsOf(items);
        expectWellFormed(result);
        expect(await sentTypes(items)).toEqual(result.events.map((event) => event.type));
        if (result.events.at(-1)?.type === 'RUN_FINISHED') seen.finished++;
        else seen.failed++;
      }),
      { seed: 4_242, numRuns: 400 },
    );
    expect(Math.min(seen.finished, seen.failed)).toBeGreaterThan(20);
  });
});
