/**
 * The data parts faultline adds to the AI SDK UI message stream: plain JSON, redacted and bounded, written out as
 * `data-faultline-*` chunks. Structural types of our own, so an app types its messages without this package
 * depending on `ai`: `useChat<UIMessage<FaultlineMessageMetadata, FaultlineDataParts>>()`.
 */
import type { ReplayItem } from '../chat/core/types.js';
import type { InterruptSummary } from '../runner/interrupt-summary.js';

/**
 * A question a stopped run waits on (kept, id: the interrupt's id): an approval of a tool call (its part is in state
 * `approval-requested`) or a graph node's question. Ids, kind, tool or node, `reason`, `expiresAt`, `responseSchema`
 * and what a node showed (`value`) — never the call's arguments. `runId` is the run to resume.
 * @example `{ id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_1', toolName: 'refund', reason: 'Refunds need a yes' }`
 */
export type FaultlineInterruptData = InterruptSummary;

/** Where a failure happened: one tool call, the whole run, a model call the run recovered from, a graph record. */
export type FaultlineErrorScope = 'tool' | 'run' | 'model' | 'record';

/**
 * A failure as a browser may see it: the model-facing envelope (`type`, `message`, `context`, `suggestion` — for a
 * tool, exactly what the model read) plus what a UI needs to act on it. Plain JSON, redacted (secrets, credential
 * shapes, URL credentials), bounded, never a stack.
 *
 * @example
 * ```ts
 * const error: FaultlineErrorData = {
 *   type: 'RateLimitError', message: 'The Weather API rate limit was reached (429 Too Many Requests).',
 *   suggestion: 'Wait at least 2 seconds before calling this tool again, and make fewer calls.',
 *   kind: 'tool', code: 'failure', retryable: true, retryAfterMs: 2000, scope: 'tool', toolCallId: 'call_1', toolName: 'get_weather',
 * };
 * ```
 */
export type FaultlineErrorData = {
  /** A category: the tool failure's type (`DataNotFoundError`, `RateLimitError`…) or the error's name (`ChatClientError`). */
  type: string;
  /** What went wrong, in words a user (or the model) can act on. */
  message: string;
  /** The input or operation concerned, as the model saw it (tools). */
  context?: Record<string, unknown>;
  /** How to recover. */
  suggestion?: string;
  /** faultline's error kind (`tool`, `chat_client`, `stream`, `workflow`, `circuit_open`, `other`…). */
  kind: string;
  /** A stable machine code: a tool call's outcome (`failure`, `timeout`, `crash`, `invalid_arguments`…), an error's `code`. */
  code?: string;
  /** Whether trying again later may succeed. */
  retryable: boolean;
  /** When to try again, in ms, when the service said. */
  retryAfterMs?: number;
  scope: FaultlineErrorScope;
  toolCallId?: string;
  toolName?: string;
  /** With `expose: 'developer'` only: the underlying error described (name, message, code, its cause chain), redacted, no stack. */
  cause?: unknown;
};

/**
 * A retry in progress (transient: seen by `useChat`'s `onData`, not kept in the message).
 * @example `{ source: 'tool', attempt: 1, delayMs: 2000, toolCallId: 'call_1', toolName: 'get_weather', error }`
 */
export type FaultlineRetryData = {
  source: 'model' | 'tool';
  /** The attempt that failed. */
  attempt: number;
  /** The wait before the next attempt. */
  delayMs: number;
  toolCallId?: string;
  toolName?: string;
  error: FaultlineErrorData;
  /** A shared retry budget refused this retry: the failure is reported instead. */
  budgetExhausted?: boolean;
};

/**
 * A fallback model takes over (transient).
 * @example `{ to: 'anthropic:claude-sonnet', error }`
 */
export type FaultlineFallbackData = {
  /** The model that takes over. */
  to: string;
  /** Why the previous one was left. */
  error: FaultlineErrorData;
};

/**
 * A call was not made because a circuit breaker is open (transient).
 * @example `{ source: 'tool', state: 'open', retryAfterMs: 15000, toolCallId: 'call_1', toolName: 'get_weather' }`
 */
export type FaultlineCircuitData = {
  source: 'model' | 'tool';
  state: 'open' | 'half_open';
  /** Time until the circuit lets a probe through. */
  retryAfterMs: number;
  toolCallId?: string;
  toolName?: string;
  /** With `expose: 'developer'` only: the dependency whose circuit is open (its URL as shown: credentials masked). */
  dependency?: string;
};

/**
 * A graph's execution-error record (kept in the message): where it happened and the failure, `scope: 'record'`.
 * @example `{ severity: 'recoverable', nodeId: 'inventory', stepNumber: 1, timestamp: '…', type: 'flow_error', message: 'inventory timed out', code: 'INVENTORY_TIMEOUT', kind: 'workflow', retryable: false, scope: 'record' }`
 */
export type FaultlineRecordData = FaultlineErrorData & {
  severity: 'recoverable' | 'fatal';
  nodeId?: string;
  nodeName?: string;
  nodeType?: string;
  stepNumber: number;
  /** ISO-8601. */
  timestamp: string;
  /** The agent-node ids from the outermost graph down, for a record from a subgraph. */
  path?: string[];
};

/**
 * The runner's completion (kept): how the run ended, the codes of its failures, and its state only when
 * `completionState` allows.
 * @example `{ status: 'failed', error, records: { recoverable: 1, fatal: 1 }, codes: ['INVENTORY_TIMEOUT', 'WRITE_FATAL'] }`
 */
export type FaultlineCompletionData = {
  /** `interrupted`: the run stopped to ask (not a failure); resume it with a decision per interrupt. */
  status: 'completed' | 'failed' | 'cancelled' | 'interrupted';
  /** The failure that ended the run. */
  error?: FaultlineErrorData;
  /** How many execution-error records the run kept, by severity. */
  records: { recoverable: number; fatal: number };
  /** The distinct error codes seen (records, the run's failure), at most 50. */
  codes: string[];
  /** The final (or fallback) business state, decoded — only with the `completionState` option. */
  state?: Record<string, unknown>;
  /** What an interrupted run waits on (at most 50 named). */
  interrupts?: FaultlineInterruptData[];
  /** How many interrupts it waits on, named or not. */
  interruptCount?: number;
};

/**
 * Every faultline data part by name (without the `data-` prefix), for `UIMessage<…, FaultlineDataParts>`.
 * @example `const { messages } = useChat<UIMessage<FaultlineMessageMetadata, FaultlineDataParts>>();`
 */
export type FaultlineDataParts = {
  'faultline-error': FaultlineErrorData;
  'faultline-retry': FaultlineRetryData;
  'faultline-fallback': FaultlineFallbackData;
  'faultline-circuit': FaultlineCircuitData;
  'faultline-record': FaultlineRecordData;
  'faultline-completion': FaultlineCompletionData;
  'faultline-interrupt': FaultlineInterruptData;
};

/**
 * The message metadata faultline sets on `finish`: its own finish reason (`max_iterations`, `refusal`… where the
 * protocol has only a few values), the model calls made, the tokens used.
 * @example `message.metadata?.faultline?.finishReason === 'max_iterations'`
 */
export type FaultlineMessageMetadata = {
  faultline?: {
    finishReason: string;
    /** A run that stopped to ask (`finishReason: 'interrupted'`): the run id a resume names (read it only then). */
    runId?: string;
    /**
     * How many interrupts the run waits on: 0 unless it stopped to ask. Every finish sets it, so a message a resume
     * continues (its metadata merged by `useChat`) shows the last finish's count.
     */
    interrupts?: number;
    iterations?: number;
    usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
  };
};

/**
 * What a reasoning part's `providerMetadata.faultline` carries at the end of a model call: the items the provider
 * needs back verbatim (Anthropic thinking blocks with their signature, Responses reasoning items). The reasoning
 * text is the text of that call's reasoning parts.
 * @example `(part.providerMetadata?.faultline as FaultlineReasoningMetadata | undefined)?.replay`
 */
export type FaultlineReasoningMetadata = { replay?: ReplayItem[] };
