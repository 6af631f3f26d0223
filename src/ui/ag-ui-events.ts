/**
 * The AG-UI events faultline writes (AG-UI protocol 1.0, `@ag-ui/core`'s `EventSchemas`), written here as plain
 * structural types so nothing of `@ag-ui/core` is needed at run time.
 */
import type { FaultlineErrorData } from './data-parts.js';

/** Token counts of a run, AG-UI's accounting (`inputTokens` and `outputTokens` are totals; the rest parts of them). */
export interface AGUITokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/**
 * What faultline puts in a `CUSTOM` event named `faultline.error` (`faultline.record` adds the record's place): the
 * model-facing envelope `{type, message, context?, suggestion?}` and what a UI needs to act on it — `kind` (a
 * framework error's kind, `tool` for a tool's failure, a runner failure's `ResponseError` type), `code?` (a tool
 * call's outcome, an error's code), `retryable`, `retryAfterMs?`, `scope` (`tool`, `model`, `run`, `record`) and the
 * tool call it concerns — the `data-faultline-error` part's data without its developer-only `cause`. Redacted,
 * bounded, never a stack.
 */
export type AGUIErrorValue = Omit<FaultlineErrorData, 'cause'>;

/**
 * One question a run that stopped waits on, as AG-UI 1.0's `RunFinishedInterruptOutcome` names it: `reason` is the
 * interrupt's kind (`approval`, `input`), `message` why it asks, `metadata.faultline` the rest faultline knows (run,
 * tool, node) — never the tool call's arguments.
 */
export interface AGUIInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
}

/** One AG-UI event as faultline writes it. */
export type AGUIEvent =
  | { type: 'RUN_STARTED'; threadId: string; runId: string; protocolVersion: '1.0' }
  | {
      type: 'RUN_FINISHED';
      threadId: string;
      runId: string;
      /** `{finishReason, iterations, output?}` of an agent run; `{status}` of a runner run. */
      result?: unknown;
      /**
       * Absent: the run completed. `cancelled`: it was stopped (aborted) and did not fail. `interrupt`: it stopped to
       * ask — what it waits on (a new run whose resume entries answer them continues it).
       */
      outcome?: { type: 'cancelled' } | { type: 'interrupt'; interrupts: AGUIInterrupt[] };
      usage?: AGUITokenUsage[];
    }
  | { type: 'RUN_ERROR'; message: string; code: string }
  | { type: 'STEP_STARTED' | 'STEP_FINISHED'; stepName: string }
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
  | { type: 'TEXT_MESSAGE_CONTENT' | 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TEXT_MESSAGE_END' | 'REASONING_START' | 'REASONING_MESSAGE_END' | 'REASONING_END'; messageId: string }
  | { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning' }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
  | { type: 'TOOL_CALL_END'; toolCallId: string }
  | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' }
  | { type: 'CUSTOM'; name: string; value: unknown };

/** Options of `toAGUIEvents` and `toAGUIResponse`. */
export interface AGUIOptions {
  /** The conversation the run belongs to (`RUN_STARTED.threadId`). @default a new `thread-<uuid>` */
  threadId?: string | undefined;
  /** The run's id. @default a runner run's invocation id, else a new `run-<uuid>` */
  runId?: string | undefined;
  /** Strings removed from every event, in every form (on top of credential shapes, masked always). */
  secrets?: readonly string[] | undefined;
  /** Stops the run: the events then end with `RUN_FINISHED` whose outcome is `cancelled`. */
  signal?: AbortSignal | undefined;
  /** The state key of a graph's execution-error records (see `ExecutionErrorCollector`). @default 'execution_errors' */
  executionErrorsKey?: string | undefined;
}
