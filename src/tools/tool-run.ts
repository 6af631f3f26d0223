/** What one tool call produced: its outcome and the record the agent loop, graph tool nodes and logs read. */
import type { ToolResult } from './tool-result.js';

/** How a call ended. */
export type ToolRunOutcome =
  | 'success'
  | 'partial'
  | 'error_result'
  | 'failure'
  | 'invalid_arguments'
  | 'timeout'
  | 'crash'
  | 'not_found'
  | 'unserializable';

/** Everything about one tool call: the result the model gets, and what developers need. */
export interface ToolRun<T = unknown> {
  toolName: string;
  callId: string;
  /**
   * What the model receives: a snapshot decoded from `content`, so nothing the tool does with its own objects later
   * can change it.
   */
  result: ToolResult<T>;
  /**
   * The exact tool-message content (structured form), serialized once when the call ended; `toolRunContent(run,
   * 'flat')` gives the flat form.
   */
  content: string;
  outcome: ToolRunOutcome;
  /** Executions made (0 when the arguments were rejected). */
  attempts: number;
  durationMs: number;
  /** The validated arguments, when they were valid. */
  arguments?: unknown;
  /** True when JSON-encoded strings were decoded to make the arguments valid. */
  argumentsCoerced?: boolean;
  /** True when the `repair` hook fixed the arguments. */
  argumentsRepaired?: boolean;
  /** The real error behind a failure (developer side only). */
  error?: unknown;
}
