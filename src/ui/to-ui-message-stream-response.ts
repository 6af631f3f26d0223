import { toUIMessageStream, type UIMessageStreamSource } from './to-ui-message-stream.js';
import { UI_MESSAGE_STREAM_HEADERS } from './ui-message-stream-headers.js';
import { uiOptionProblems, type UIMessageStreamOptions } from './ui-message-stream-options.js';
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';

/** Options of {@link toUIMessageStreamResponse}: the stream's, plus the response's status and extra headers. */
export interface UIMessageStreamResponseOptions extends UIMessageStreamOptions {
  /** @default 200 */
  status?: number | undefined;
  /** Added to the stream's headers (`content-type: text/event-stream`, `x-vercel-ai-ui-message-stream: v1`, …). */
  headers?: ConstructorParameters<typeof Headers>[0] | undefined; // not HeadersInit: Node's types have no such name
}

/**
 * A fetch handler's answer to `useChat`: {@link toUIMessageStream}'s body with the protocol's headers
 * (`content-type: text/event-stream`, `x-vercel-ai-ui-message-stream: v1`, `cache-control: no-cache`,
 * `x-accel-buffering: no`). Works as is in Workers, Deno, Bun, Next.js route handlers, and under Node with
 * `toNodeListener`.
 *
 * @param run - The stream of `agent.run(…)`, `streamAgent(…)` or `runner.run(…)`, not yet read.
 * @param options - The stream's options, plus `status` and `headers`.
 * @returns The streaming `Response`.
 * @example
 * ```ts
 * export async function POST(request: Request): Promise<Response> {
 *   const { messages } = await request.json();
 *   return toUIMessageStreamResponse(agent.run(fromUIMessages(messages), { signal: request.signal }));
 * }
 * ```
 */
export function toUIMessageStreamResponse(run: UIMessageStreamSource, options?: UIMessageStreamResponseOptions): Response {
  const problems = uiOptionProblems(options, ['status', 'headers']);
  const { status, headers, ...streamOptions }: UIMessageStreamResponseOptions = isPlainObject(options) ? options : {};
  if (status !== undefined && !(typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599)) problems.push(`status must be an HTTP status from 200 to 599 (got ${refusedValue(status)})`);
  const merged = new Headers(UI_MESSAGE_STREAM_HEADERS);
  try {
    if (headers !== undefined) new Headers(headers).forEach((value, name) => merged.set(name, value));
  } catch (error) {
    // The platform's message is not quoted: it may quote a header's value.
    problems.push(`headers must be valid HTTP headers: a Headers, [name, value] pairs or an object of strings (the platform refused them with a ${error instanceof Error ? error.name : typeof error})`);
  }
  if (problems.length > 0) throw ConfigError.fromProblems('toUIMessageStreamResponse', problems);
  return new Response(toUIMessageStream(run, streamOptions), { status: status ?? 200, headers: merged });
}
