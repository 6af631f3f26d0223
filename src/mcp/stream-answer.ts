/**
 * @internal A request answered by an SSE stream: its events read until the response to the request, server
 * messages on the way routed to the client, and a stream that ends (or drops) before the response resumed with
 * `Last-Event-ID` (after the server's `retry:` wait, at most 5 s) — `maxResumes` counts resumptions in a row that bring
 * nothing new, since a server may close its stream after every event (SEP-1699 polling); the request's own time
 * limit bounds the whole. Without event ids, or when the server cannot resume, a typed protocol error.
 */
import type { Attempt } from '../internal/attempt.js';
import { delay } from '../internal/delay.js';
import { readBodyUntil } from '../internal/http-body.js';
import { httpFailure, parseMessages, protocolError, resultOf, type AnswerContext, type ServerMessage } from './client-messages.js';
import { isEventStream, readSSE, type StreamBounds } from './sse-reader.js';

type Found = Extract<ServerMessage, { kind: 'response' }>;

/** @internal What a stream answer needs of its transport (the bound, its error and the wait: `StreamBounds`). */
export interface StreamAnswerHost extends StreamBounds {
  /** Who answers: the transport's answer context. */
  answer: AnswerContext;
  /** A GET of the stream (with the session, protocol version and the user's headers), resuming after `lastEventId`. */
  get: (lastEventId: string, signal: AbortSignal) => Promise<Response>;
  maxResumes: number;
  /** Hands server messages on; returns the response to this request, if one is among them. */
  route: (messages: readonly ServerMessage[]) => Found | undefined;
}

const LONGEST_RESUME_WAIT_MS = 5_000;

export async function readStreamAnswer(host: StreamAnswerHost, first: Response, attempt: Attempt, method: string, id: number): Promise<unknown> {
  const ctx = host.answer;
  let response = first;
  let lastEventId: string | undefined;
  let retryMs = 1_000;
  for (let resumes = 0; ; ) {
    const before = lastEventId;
    const found = await events(host, response, attempt, method, (event) => (lastEventId = event ?? lastEventId), (ms) => (retryMs = ms));
    resumes = lastEventId !== before ? 1 : resumes + 1;
    if (found !== undefined) return resultOf(ctx, found, method, response.status, true);
    if (lastEventId === undefined) {
      throw protocolError(ctx, `its stream ended before the response to ${method}, and it gave no event ids to resume from`, undefined, method);
    }
    if (resumes > host.maxResumes) {
      throw protocolError(ctx, `its stream ended before the response to ${method}, ${resumes} times in a row with nothing new`, undefined, method);
    }
    await attempt.race(delay(Math.min(retryMs, LONGEST_RESUME_WAIT_MS), attempt.signal));
    response = await attempt.race(host.get(lastEventId, attempt.signal));
    if (!response.ok || !isEventStream(response)) {
      const body = await attempt.race(readBodyUntil(response, attempt.signal));
      const why = response.ok ? 'it did not answer with a stream' : httpFailure(ctx, response, body, method, id).message;
      throw protocolError(ctx, `its stream ended before the response to ${method} and could not be resumed: ${why}`, undefined, method);
    }
  }
}

/** Reads one SSE answer until the response (returned) or its end or drop (undefined: resumable). */
async function events(
  host: StreamAnswerHost,
  response: Response,
  attempt: Attempt,
  method: string,
  onId: (id: string | undefined) => void,
  onRetry: (ms: number) => void,
): Promise<Found | undefined> {
  const body = response.body; // readSSE cancels it when the attempt aborts, whatever the fetch does with its signal
  if (!body) return undefined;
  let found: Found | undefined;
  await readSSE(body, {
    ...host, // the bound, its error and the wait
    onRetry,
    race: (promise) => attempt.race(promise),
    signal: attempt.signal,
    onEvent: (event) => {
      onId(event.id === '' ? undefined : event.id);
      if (event.data === '' || event.type !== 'message') return false; // a priming event, or not a JSON-RPC one
      found = host.route(parseMessages(host.answer, event.data, `an event of its stream answering ${method}`));
      return found !== undefined;
    },
  });
  return found;
}
