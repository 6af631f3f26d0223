// Property test (fast-check, fixed seed) over generated runs on the scripted model, as an agent run and under the
// runner: random reasoning and text, tool calls with random outcomes (success, 404, 429, 500, a crash, invalid
// arguments, a timeout), provider failures after some output, aborts at random points, a secret planted everywhere.
// Every event validates against @ag-ui/core's schema for its type (made strict), the sequence follows AG-UI's rules,
// the run ends exactly once — RUN_ERROR (one, last) for a failed run, RUN_FINISHED with the outcome cancelled for an
// aborted one, RUN_FINISHED otherwise — and the secret is in no event.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder } from '../../../src/agent/index.js';
import { createScriptedChatClient, type ScriptedAnswer } from '../../../src/chat/index.js';
import { ChatClientError, StreamError } from '../../../src/errors/index.js';
import { Runner } from '../../../src/runner/index.js';
import { APIFailure, DataNotFoundError, defineTool, RateLimitError } from '../../../src/tools/index.js';
import { toAGUIEvents, type AGUIEvent } from '../../../src/ui/history-exports.js';
import { expectValidAGUI } from './ag-ui-check.js';

const SECRET = 'planted-SECRET-77c1e0aa';
const input = z.object({ note: z.string() });
const TOOLS = [
  defineTool({ name: 'ok', description: 'ok', parameters: input, execute: ({ note }) => ({ echo: note }) }),
  defineTool({ name: 'not_found', description: '404', parameters: input, execute: ({ note }) => { throw new DataNotFoundError(`Nothing for ${note}.`); } }),
  defineTool({ name: 'rate', description: '429', parameters: input, execute: () => { throw new RateLimitError('Rate limited.', { retryAfterMs: 1 }); } }),
  defineTool({ name: 'api', description: '500', parameters: input, execute: () => { throw new APIFailure(`Upstream 500 (${SECRET}).`); } }),
  defineTool({ name: 'crash', description: 'crash', parameters: input, execute: () => { throw new TypeError(`boom ${SECRET}`); } }),
  defineTool({ name: 'invalid', description: 'invalid', parameters: z.object({ count: z.number() }), execute: () => 1 }),
  defineTool({ name: 'timeout', description: 'times out', parameters: input, timeoutMs: 3, execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })) }),
];

const text = fc.string({ maxLength: 12 }).map((value) => (value === '' ? undefined : `${value} ${SECRET}`));
const failure = fc.constantFrom<unknown>(
  new ChatClientError(`Chat API returned 503 (${SECRET})`, { status: 503, retryable: true }),
  new StreamError('The model stream broke', { reason: 'provider_error', afterOutput: true }),
);
const turn: fc.Arbitrary<ScriptedAnswer> = fc.record(
  {
    reasoning: text,
    text,
    toolCalls: fc.array(fc.constantFrom(...TOOLS.map((tool) => tool.name)), { maxLength: 3 }).map((names) => names.map((name) => ({ name, arguments: name === 'invalid' ? '{"count":"x"}' : { note: SECRET } }))),
    chunkSize: fc.integer({ min: 1, max: 8 }),
  },
  { requiredKeys: ['toolCalls', 'chunkSize'] },
);
const spec = fc.record({
  turns: fc.array(turn, { minLength: 1, maxLength: 3 }),
  error: fc.option(failure, { nil: undefined }),
  abortAt: fc.option(fc.integer({ min: 0, max: 25 }), { nil: undefined }),
  maxIterations: fc.integer({ min: 1, max: 4 }),
  runner: fc.boolean(),
});

type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

async function eventsOf(run: Spec): Promise<{ events: AGUIEvent[]; aborted: boolean }> {
  const turns = run.turns.map((answer) => ({ ...answer }));
  if (run.error !== undefined) turns[turns.length - 1] = { ...turns[turns.length - 1], toolCalls: [], error: run.error };
  turns.push({ text: 'Done.', chunkSize: 8 });
  const agent = new AgentBuilder('gen').chatClient(createScriptedChatClient(turns, { loop: true })).tools(TOOLS).maxIterations(run.maxIterations).secrets([SECRET]).toolLogger(() => {}).build();
  const controller = new AbortController();
  const source = run.runner ? new Runner({ appName: 'gen', agent }).run({ userId: 'u', sessionId: 's', message: `go ${SECRET}` }) : agent.run(`go ${SECRET}`);
  const events: AGUIEvent[] = [];
  let aborted = false;
  for await (const event of toAGUIEvents(source, { secrets: [SECRET], signal: controller.signal })) {
    events.push(event);
    if (events.length === run.abortAt && !aborted && events.at(-1)?.type !== 'RUN_FINISHED' && events.at(-1)?.type !== 'RUN_ERROR') {
      aborted = true;
      controller.abort(new Error('stop'));
    }
  }
  return { events, aborted };
}

describe('generated runs as AG-UI events', () => {
  it('every event valid, the sequence valid, exactly one end that says how the run ended, no secret anywhere', async () => {
    const seen = { finished: 0, failed: 0, cancelled: 0 };
    await fc.assert(
      fc.asyncProperty(spec, async (run) => {
        const { events, aborted } = await eventsOf(run);
        expectValidAGUI(events);
        const last = events.at(-1);
        expect(events.filter((event) => event.type === 'RUN_ERROR' || event.type === 'RUN_FINISHED')).toHaveLength(1);
        // An abort that comes after the run's end was already written (in the batch being read) leaves that end.
        if (last?.type === 'RUN_FINISHED' && last.outcome?.type === 'cancelled') {
          expect(aborted).toBe(true);
          seen.cancelled++;
        } else if (last?.type === 'RUN_ERROR') {
          expect(run.error).toBeDefined();
          // an agent run's code is the error's kind; a runner run's its ResponseError type
          const kind = (run.error as { kind: string }).kind;
          expect(last.code).toBe(run.runner ? { chat_client: 'api_error', stream: 'stream_error' }[kind] : kind);
          seen.failed++;
        } else {
          expect(last?.type).toBe('RUN_FINISHED');
          seen.finished++;
        }
        expect(JSON.stringify(events)).not.toContain(SECRET);
        // nor in what a UI shows: each message's deltas joined (the text streams a few characters per delta)
        const shown = new Map<string, string>();
        for (const event of events) if (event.type === 'TEXT_MESSAGE_CONTENT' || event.type === 'REASONING_MESSAGE_CONTENT') shown.set(event.messageId, (shown.get(event.messageId) ?? '') + event.delta);
        for (const text of shown.values()) expect(text).not.toContain(SECRET);
      }),
      { seed: 2_031, numRuns: 120 },
    );
    expect(Math.min(seen.finished, seen.failed, seen.cancelled)).toBeGreaterThan(5);
  });
});
