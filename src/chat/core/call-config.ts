/** The settings one model call runs with, fixed when its client is made. */
import type { ResolvedRetryOptions, RetryGuard } from '../../internal/retry.js';

/**
 * Time limits of a model call, in ms; `Infinity` disables one. Only progress counts: an SSE event of the stream.
 * Keep-alive comments, blank lines and a line that never ends are bytes, not events, so a provider that sends only
 * those still times out. The error says which limit fired (`ChatClientError.timeout`).
 * @example `createOpenAICompatibleClient({ ...options, timeouts: { firstChunkMs: 30_000, idleMs: 15_000 } })`
 */
export interface ChatTimeouts {
  /** The whole call, retries and back-off waits included (`timeout: 'total'`, not retried). @default 600000 */
  totalMs?: number | undefined;
  /**
   * Per attempt, from sending the request to the first SSE event of its answer; for `complete()` (and a JSON answer to
   * a stream), to the end of the whole answer (`timeout: 'first_chunk'`, retried before any output). @default 120000
   */
  firstChunkMs?: number | undefined;
  /** Between two SSE events of a streamed answer (`timeout: 'idle'`, not retried). @default 60000 */
  idleMs?: number | undefined;
}

export interface CallConfig {
  url: string;
  label: string;
  model: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retry: ResolvedRetryOptions;
  timeouts: Required<ChatTimeouts>;
  secrets: readonly string[];
  maxLineLength?: number | undefined;
  createId: () => string;
  /** The shared circuit breaker / retry budget of the client, if it was given any. */
  guard?: RetryGuard | undefined;
}
