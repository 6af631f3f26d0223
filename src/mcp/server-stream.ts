/**
 * @internal The server's own stream (Streamable HTTP's GET): opened after the handshake when the client `listen`s,
 * read until the client closes, reconnected with `Last-Event-ID` after a drop (backing off) or a silence longer than
 * its idle limit (a connection that died without closing delivers nothing, and says nothing), given up on a server
 * that offers none (405, or anything but an SSE answer) or after ten failures in a row.
 */
import { AbortRace, delay, linkedController, startTimer } from '../internal/delay.js';
import { messageOf } from '../internal/error-chain.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { isEventStream, readSSE, type StreamBounds } from './sse-reader.js';

/**
 * @internal What the stream needs of its transport (the bound, the error for an event over it — said in a warning —
 * and the wait while answers to the server's own requests pile up: `StreamBounds`).
 */
export interface ServerStreamHost extends StreamBounds {
  /** A GET of the stream (with the session, protocol version and the user's headers), resuming after `lastEventId`. */
  get: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;
  /** The session a GET made now carries (none before a handshake, or while a new one replaces a forgotten session). */
  session: () => string | undefined;
  /** One event's data: a JSON-RPC text to route. Throwing skips that event only (with a warning). */
  deliver: (data: string) => void;
  /** Tells the developer the stream was given up on (never silent). */
  onWarning: (message: string) => void;
  /**
   * Longest wait for the GET's answer and then for each next byte (an event or a keep-alive comment: here a quiet
   * server is not a stalled one) before the connection is dropped and opened again (`timeouts.listenIdleMs`).
   */
  listenIdleMs: number;
}

const MAX_FAILURES = 10;
/** The shortest wait before reconnecting, whatever the server's `retry:` says (0 would spin). */
const SHORTEST_WAIT_MS = 250;
const LONGEST_WAIT_MS = 30_000;

/**
 * One reconnect policy: a stream that delivered events, or stayed open but silent past the idle limit (cut then),
 * resets the failure count; a GET unanswered within that limit, a stream that ends having
 * delivered nothing, a dropped connection, or a transient answer (408, 429, 5xx: their `Retry-After` honoured) is a
 * failure, waited out with backoff (never under 250 ms); any other answer (405: the server offers no stream; 404: the
 * session is gone, the next handshake listens again; not an event stream) stops listening, and says why. A 404 about a
 * session that a new handshake has since replaced (the GET went out before it) is no reason to stop: the stream is
 * opened again with the new session — the new handshake found this loop alive, so it listens through it — or, while
 * that handshake is still under way, left to it.
 */
export async function listenToServer(host: ServerStreamHost, signal: AbortSignal): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs = 1_000;
  let failures = 0;
  let session = host.session();
  while (!signal.aborted) {
    let hint: number | undefined;
    const carried = host.session();
    // Event ids belong to one session's stream: a new session's stream is read from its start.
    if (carried !== session) [session, lastEventId, failures] = [carried, undefined, 0];
    // One connection's scope: the client's close, and the idle limit — armed for the GET and re-armed before each
    // read, never while the client holds reading back for its own answers (`pause`: a wait of ours, not the server's
    // silence). Every wait is raced, so a fetch that ignores its signal cannot hold the loop or the timer.
    const { controller, dispose } = linkedController(signal);
    const racer = new AbortRace(controller.signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let paused: Promise<void> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = startTimer(() => controller.abort(), host.listenIdleMs);
    };
    try {
      arm();
      const response = await racer.race(host.get(lastEventId, controller.signal));
      if (!response.ok || !isEventStream(response) || !response.body) {
        response.body?.cancel().catch(() => {});
        const transient = response.status === 408 || response.status === 429 || response.status >= 500;
        if (response.status === 404 && carried !== host.session()) {
          // about a session since replaced: the stream is opened with the new one (a handshake under way listens itself)
          if (host.session() === undefined) return;
          hint = SHORTEST_WAIT_MS;
        } else if (!transient) {
          host.onWarning(`its own stream (listen) stopped: GET answered ${response.status}${response.ok ? ' without an event stream' : ''}`);
          return;
        } else {
          hint = parseRetryAfter(response.headers);
          failures++;
        }
      } else {
        let delivered = 0;
        try {
          await readSSE(response.body, {
            ...host, // the bound and its error
            onRetry: (ms) => (retryMs = ms),
            pause: () => (paused = host.pause?.()),
            race: (promise) => (promise === paused ? clearTimeout(timer) : arm(), racer.race(promise)),
            signal: controller.signal,
            onEvent: (event) => {
              if (event.id !== undefined && event.id !== '') lastEventId = event.id;
              if (event.data === '' || event.type !== 'message') return false;
              delivered++;
              try {
                host.deliver(event.data);
              } catch (error) {
                // one malformed event of the server's own stream is skipped, and said: the stream goes on
                host.onWarning(`its own stream (listen) skipped an event: ${messageOf(error)}`);
              }
              return false;
            },
          });
        } catch (error) {
          if (signal.aborted) return;
          // A silence past the idle limit is no failure (it took that long): the next connection picks up at Last-Event-ID.
          if (controller.signal.aborted) delivered = 1;
          else host.onWarning(`its own stream (listen) was cut: ${messageOf(error)}`); // a bound it broke (maxResponseBytes)
        }
        failures = delivered > 0 ? 0 : failures + 1;
      }
    } catch {
      if (signal.aborted) return;
      failures++;
    } finally {
      clearTimeout(timer);
      racer.dispose();
      dispose();
    }
    if (failures >= MAX_FAILURES) {
      host.onWarning(`its own stream (listen) stopped after ${failures} failed reconnections in a row`);
      return;
    }
    const wait = hint ?? Math.min(Math.max(retryMs, SHORTEST_WAIT_MS) * 2 ** failures, LONGEST_WAIT_MS);
    await delay(Math.max(wait, SHORTEST_WAIT_MS), signal).catch(() => {});
  }
}
