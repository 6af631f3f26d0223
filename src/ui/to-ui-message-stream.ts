import type { AgentRunItem, AgentRunStream } from '../agent/types.js';
import { isResumedRun, runSecrets } from '../internal/streams.js';
import { ConfigError } from '../errors/config-error.js';
import type { RunEvent } from '../runner/event.js';
import type { RunEventStream } from '../runner/runner.js';
import { AgentEncoder } from './agent-encoder.js';
import { RunEventEncoder } from './run-event-encoder.js';
import type { ChunkWriter } from './chunk-writer.js';
import { StreamPump, type RunEncoder } from './stream-pump.js';
import { resolveUIOptions, uiOptionProblems, type UIMessageStreamOptions } from './ui-message-stream-options.js';

/** What {@link toUIMessageStream} reads: an agent run (`agent.run`, `streamAgent`) or a Runner run (graphs included). */
export type UIMessageStreamSource = AgentRunStream | RunEventStream | ReadableStream<AgentRunItem | RunEvent> | AsyncIterable<AgentRunItem | RunEvent>;

/**
 * A run as the AI SDK UI message stream (protocol v1): the body `useChat` (`@ai-sdk/react` and its Vue, Svelte and
 * Angular twins), Cloudflare's `useAgentChat` and assistant-ui read — SSE frames `data: <json>`, ending with
 * `data: [DONE]`. Text, reasoning and tool parts as the protocol defines them; every failure also as a typed
 * `data-faultline-error` part (type, message, context, suggestion, kind, code, retryable, retryAfterMs); retries,
 * fallbacks and open circuits as transient data parts. It always ends with `finish` (reason `error` after a failure)
 * or `abort`, then `[DONE]` — whatever the run does. Every frame is redacted: the run's secrets and `secrets`,
 * credential shapes, credentials in URLs.
 *
 * The run is read only as fast as the stream is (backpressure); cancelling the stream (a browser that goes away)
 * cancels the run. Throws a `ConfigError` for an invalid run or options; everything else is in the stream.
 *
 * @param run - The stream of `agent.run(…)`, `streamAgent(…)` or `runner.run(…)`, not yet read.
 * @param options - `secrets`, `expose`, `messageId`, `onError`, `maxBufferedBytes`, `signal`, `completionState`.
 * @returns The SSE body as bytes.
 * @example
 * ```ts
 * const body = toUIMessageStream(agent.run(messages, { signal: request.signal }));
 * return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
 * ```
 */
export function toUIMessageStream(run: UIMessageStreamSource, options?: UIMessageStreamOptions): ReadableStream<Uint8Array> {
  const problems = uiOptionProblems(options);
  const readable = run instanceof ReadableStream;
  if (!readable && typeof (run as Partial<AsyncIterable<unknown>> | null)?.[Symbol.asyncIterator] !== 'function') {
    problems.unshift('run must be the stream of agent.run, streamAgent or Runner.run (a ReadableStream or an async iterable)');
  } else if (readable && run.locked) problems.unshift('run is already being read: give toUIMessageStream a stream nothing reads yet');
  if (problems.length > 0) throw ConfigError.fromProblems('toUIMessageStream', problems);
  const settings = resolveUIOptions(options, runSecrets(run), isResumedRun(run));
  return new StreamPump(run as ReadableStream<unknown> | AsyncIterable<unknown>, settings, encoderFor).stream;
}

/** The encoder for a run, from its first value: a Runner's events carry an invocation id, an agent's items a type. */
function encoderFor(first: unknown, writer: ChunkWriter): RunEncoder {
  const event = first as Partial<RunEvent> | null;
  return typeof event?.invocationId === 'string' && typeof (first as { type?: unknown }).type !== 'string' ? new RunEventEncoder(writer) : new AgentEncoder(writer);
}
