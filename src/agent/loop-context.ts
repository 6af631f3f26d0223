import type { Emitter } from 'nanoevents';
import type { ChatMessage } from '../chat/core/types.js';
import type { AbortSource } from '../internal/abort-source.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import type { AgentEvents, AgentRunItem, AgentSettings } from './types.js';
import type { Waker } from './waker.js';

/** What one run needs. */
export interface LoopContext {
  settings: AgentSettings;
  /** The run's id (made on first read: only events and spans use it). */
  readonly runId: string;
  emitter: Emitter<AgentEvents>;
  /** The caller's new messages. */
  input: ChatMessage[];
  sessionId?: string | undefined;
  /** Aborts the run: the caller's signal, or the stream being cancelled (its `signal` is made only when read). */
  abort: AbortSource;
  /** Items produced by callbacks (retries, fallbacks, listener failures), delivered with the next batch. */
  queue: AgentRunItem[];
  /** Woken when a retry or a fallback queued its item, so a waiting loop delivers it at once. */
  waker: Waker;
  /** The schema the final answer must match. */
  output?: StandardSchemaV1 | undefined;
  /** The run's `invoke_agent` span: each model call's `chat` span and each tool's span are its children. */
  span: SpanHandle;
  /** Called once when the run is over, however it ends (finished, failed, cancelled). */
  close: () => void;
}
