// Property (fixed seeds): runs generated from the scripted model — random text and reasoning, tool calls failing every
// way (ok, 404, 401, 429 with Retry-After and a retry, 500, a crash, invalid arguments, a timeout), provider failures
// before and during the answer, an abort or a reader that goes away at any point — always give a stream whose every
// frame `ai`'s `uiMessageChunkSchema` accepts, with unique ids, closed parts, answered tool calls, one ending
// (`finish` or `abort`) then `[DONE]`, and a message `readUIMessageStream` leaves with no part spinning and every
// tool call in the state its outcome says.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder } from '../../../src/agent/index.js';
import { createScriptedChatClient, type ScriptedAnswer } from '../../../src/chat/index.js';
import { ChatClientError } from '../../../src/errors/index.js';
import { defineTool, RateLimitError, toolErrorFromResponse } from '../../../src/tools/index.js';
import { faultlineErrors, toUIMessageStream } from '../../../src/ui/index.js';
import { messageOf, readBody, schemaProblems, structureProblems } from './ui-stream.js';

const OUTCOMES = ['ok', '404', '401', '429', '429-then-ok', '500', 'crash', 'invalid', 'timeout'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** The code and state each outcome leaves on its tool part. */
const EXPECTED: Record<Outcome, { state: string; code?: string; type?: string }> = {
  ok: { state: 'output-available' },
  '429-then-ok': { state: 'output-available' },
  '404': { state: 'output-error', code: 'failure', type: 'DataNotFoundError' },
  '401': { state: 'output-error', code: 'failure', type: 'AuthenticationError' },
  '429': { state: 'output-error', code: 'failure', type: 'RateLimitError' },
  '500': { state: 'output-error', code: 'failure', type: 'APIFailure' },
  crash: { state: 'output-error', code: 'crash', type: 'ToolInternalError' },
  invalid: { state: 'output-error', code: 'invalid_arguments', type: 'InputValidationError' },
  timeout: { state: 'output-error', code: 'timeout', type: 'TimeoutError' },
};

const attempts = new Map<string, number>();
const act = defineTool({
  name: 'act',
  description: 'Does what its outcome says.',
  parameters: z.object({ outcome: z.enum(OUTCOMES), key: z.string() }),
  timeoutMs: 15,
  retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 },
  execute: async ({ outcome, key }) => {
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    switch (outcome) {
      case 'ok':
        return { done: key };
      case '429-then-ok':
        if (attempt === 1) throw new RateLimitError('Slow down.', { retryAfterMs: 1 });
        return { done: key, attempt };
      case '429':
        throw await toolErrorFromResponse(new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after-ms': '1' } }), { service: 'Act' });
      case '404':
      case '401':
      case '500':
        throw await toolErrorFromResponse(new Response('{"error":{"message":"nope"}}', { status: Number(outcome) }), { service: 'Act' });
      case 'crash':
        throw new Error(`crashed on ${key}`);
      case 'timeout':
        return new Promise(() => {});
      default:
        return 'unreachable';
    }
  },
});

const text = fc.string({ maxLength: 40, unit: fc.constantFrom('a', 'b', ' ', 'é', '🥐', '\n', 'k', 'e', 'y', '=', ':') });
const call = fc.record({ outcome: fc.constantFrom(...OUTCOMES) });
const toolTurn = fc.record({ reasoning: fc.option(text, { nil: undefined }), text: fc.option(text, { nil: undefined }), calls: fc.array(call, { minLength: 1, maxLength: 3 }) });
const ending = fc.oneof(
  fc.record({ kind: fc.constant('answer' as const), reasoning: fc.option(text, { nil: undefined }), text }),
  fc.record({ kind: fc.constant('fail-before' as const) }),
  fc.record({ kind: fc.constant('fail-during' as const), text: text.filter((value) => value !== '') }),
);
const run = fc.record({
  turns: fc.array(toolTurn, { maxLength: 3 }),
  ending,
  stop: fc.oneof(fc.constant(undefined), fc.record({ how: fc.constantFrom('abort' as const, 'cancel' as const), afterFrames: fc.integer({ min: 1, max: 40 }) })),
  chunkSize: fc.integer({ min: 1, max: 12 }),
});
type Run = typeof run extends fc.Arbitrary<infer T> ? T : never;

function script(spec: Run): ScriptedAnswer[] {
  let counter = 0;
  const turns: ScriptedAnswer[] = spec.turns.map((turn) => ({
    ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
    ...(turn.text ? { text: turn.text } : {}),
    chunkSize: spec.chunkSize,
    toolCalls: turn.calls.map(({ outcome }) => {
      const id = `call_${++counter}`;
      return { id, name: 'act', arguments: outcome === 'invalid' ? '{"outcome": ' : { outcome, key: id } };
    }),
  }));
  const { ending } = spec;
  if (ending.kind === 'answer') turns.push({ text: ending.text, chunkSize: spec.chunkSize, ...(ending.reasoning ? { reasoning: ending.reasoning } : {}) });
  else turns.push({ error: new ChatClientError('Provider 503', { status: 503 }), ...(ending.kind === 'fail-during' ? { text: ending.text, chunkSize: spec.chunkSize } : {}) });
  return turns;
}

/** Reads `body` up to `frames` frames, then aborts (`controller`) or cancels; the text read so far. */
async function readStopping(body: ReadableStream<Uint8Array>, stop: NonNullable<Run['stop']>, controller: AbortController): Promise<{ text: string; cancelled: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, cancelled: false };
    text += decoder.decode(value, { stream: true });
    if (text.split('\n\n').length - 1 >= stop.afterFrames) {
      if (stop.how === 'cancel') {
        await reader.cancel(new Error('the browser went away'));
        return { text, cancelled: true };
      }
      controller.abort(new Error('stop pressed'));
      stop.afterFrames = Number.POSITIVE_INFINITY;
    }
  }
}

describe('every generated run gives a valid, well-ended UI message stream', () => {
  it('frames, structure and the replayed message (property, fixed seed)', async () => {
    await fc.assert(
      fc.asyncProperty(run, async (spec) => {
        attempts.clear();
        const controller = new AbortController();
        const agent = new AgentBuilder('property').chatClient(createScriptedChatClient(script(spec))).tools([act]).toolLogger(false).maxIterations(10).build();
        const stream = toUIMessageStream(agent.run('Go.', { signal: controller.signal }), { signal: controller.signal });
        if (spec.stop?.how === 'cancel') {
          const { text } = await readStopping(stream, { ...spec.stop }, controller);
          const frames = text.split('\n\n').filter((frame) => frame.startsWith('data: {'));
          const chunks = frames.map((frame) => JSON.parse(frame.slice(6)) as unknown);
          expect(await schemaProblems(chunks)).toEqual([]);
          return;
        }
        const text = spec.stop ? (await readStopping(stream, { ...spec.stop }, controller)).text : await new Response(stream).text();
        const body = await readBody(new Response(text).body as ReadableStream<Uint8Array>);
        expect(await schemaProblems(body.chunks)).toEqual([]);
        expect(structureProblems(body)).toEqual([]);
        const { message } = await messageOf(body.chunks);
        const spinning = (message?.parts ?? []).filter((part) => 'state' in part && ['streaming', 'input-streaming', 'input-available'].includes(String(part.state)));
        expect(spinning).toEqual([]);
        const last = body.chunks.at(-1);
        if (last?.type === 'abort') return; // stopped: the parts so far are closed, nothing else is promised
        // Not stopped: every tool call in the state its outcome says, its failure typed; the ending the script says.
        const calls = spec.turns.flatMap((turn) => turn.calls);
        const parts = (message?.parts ?? []).filter((part) => part.type === 'tool-act') as unknown as Array<{ toolCallId: string; state: string }>;
        expect(parts.map((part) => part.state)).toEqual(calls.map(({ outcome }) => EXPECTED[outcome].state));
        // Failures come as their tools end: matched to their calls by id.
        const errors = new Map(faultlineErrors(message).filter((error) => error.scope === 'tool').map((error) => [error.toolCallId, [error.code, error.type]]));
        const expectedErrors = new Map(parts.flatMap((part, index) => (EXPECTED[calls[index]!.outcome].code ? [[part.toolCallId, [EXPECTED[calls[index]!.outcome].code, EXPECTED[calls[index]!.outcome].type]]] : [])));
        expect(errors).toEqual(expectedErrors);
        if (spec.ending.kind === 'answer') {
          expect(last).toMatchObject({ type: 'finish', finishReason: 'stop' });
          const answer = (message?.parts ?? []).filter((part) => part.type === 'text').at(-1) as { text: string } | undefined;
          expect(answer?.text ?? '').toBe(spec.ending.text);
        } else {
          expect(last).toMatchObject({ type: 'finish', finishReason: 'error' });
          expect(faultlineErrors(message).at(-1)).toMatchObject({ scope: 'run', type: 'ChatClientError', message: 'Provider 503' });
        }
      }),
      { seed: 2_028, numRuns: 80 },
    );
  }, 120_000);
});
