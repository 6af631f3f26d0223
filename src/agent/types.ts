/** The vocabulary of agent runs: stream items, observability events, settings. */
import type { ChatClient, ChatMessage, FinishReason, ToolCall, ToolChoice, Usage } from '../chat/core/types.js';
import type { AgentErrorJSON } from '../errors/agent-error.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRunOutcome } from '../tools/run-tool.js';
import type { ArgumentRepair } from '../tools/tool-arguments.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';
import type { ToolLogOption } from '../tools/tool-log-option.js';
import type { ToolErrorFormat } from '../tools/serialize-tool-result.js';
import type { ToolResultJSON } from '../tools/tool-result.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import type { SessionStore } from './session-store.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import type { TraceParent } from '../telemetry/traceparent.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import type { ToolApprovals } from './approvals-brand.js';

/**
 * How a tool call ended, from the run's point of view. Synthetic answers: `aborted`, `interrupted`, `denied` (a person
 * refused it: `ToolApprovalDenied`), `expired` (nobody approved it in time: `ToolApprovalExpired`) and `unknown` (the
 * process stopped while it ran: `ToolExecutionUnknown`, it may have run).
 */
export type AgentToolOutcome = ToolRunOutcome | 'aborted' | 'interrupted' | 'denied' | 'expired' | 'unknown';

/**
 * One item of an agent run stream. Every failure is an item (or a rejection of `run()`); none is swallowed.
 *
 * Order, per model call (`iteration`): its `text-delta`, `reasoning-delta` and `tool-call` items as they stream (with
 * `retry` items while the call is retried or a fallback model takes over), then its `usage`, then its `message` (the
 * assistant message as the transcript holds it), then one `tool-result` per tool call in the order the tools END (a
 * fast failure is not held behind a slow sibling; `retry` items of the tools as they happen). The transcript — the
 * `finish` item's `messages` and what the next model call is sent — keeps the tool messages in call order. Last comes
 * exactly one `finish`, `interrupted` or terminal `error`.
 */
export type AgentRunItem =
  /** Text of the model's answer, as it streams. */
  | { type: 'text-delta'; iteration: number; delta: string }
  /** Reasoning of the model (DeepSeek), as it streams. */
  | { type: 'reasoning-delta'; iteration: number; delta: string }
  /** A complete tool call the model issued. */
  | { type: 'tool-call'; iteration: number; call: ToolCall }
  /**
   * A model call or a tool call is retried, or a fallback model takes over (`fallbackTo`) — transient news a UI can
   * show ("rate limited, retrying in 2 s"), the same as the `retry` event. `error` is plain JSON with the agent's
   * secrets removed: for a tool, what the model would have seen (`{type, message, context?, suggestion?}`).
   */
  | {
      type: 'retry';
      iteration: number;
      source: 'model' | 'tool';
      /** The attempt that failed. */
      attempt: number;
      /** The wait before the next attempt (0 for a fallback, or when the retry budget refused: `budgetExhausted`). */
      delayMs: number;
      error: Record<string, unknown>;
      /** A tool retry: the call and its tool. */
      callId?: string;
      toolName?: string;
      /** The model that takes over. */
      fallbackTo?: string;
      /** A shared retry budget refused this retry: the failure is reported instead. */
      budgetExhausted?: boolean;
    }
  /**
   * The assistant message of one model call as the transcript holds it — its text, its tool calls as the provider
   * made them, and the `reasoning` and `replay` items a provider needs back — once the call has ended.
   */
  | { type: 'message'; iteration: number; message: ChatMessage }
  /** The answer to a tool call, exactly as sent to the model (`content`), as soon as that tool ends. */
  | {
      type: 'tool-result';
      iteration: number;
      callId: string;
      toolName: string;
      outcome: AgentToolOutcome;
      ok: boolean;
      result: ToolResultJSON;
      content: string;
      attempts: number;
      durationMs: number;
      /** True when the framework answered for a call that could not finish (abort, interruption). */
      synthetic: boolean;
      /** For a thrown `ToolFailure`: whether a later call may succeed (the failure's `retryable`). */
      retryable?: boolean;
      /** For a thrown `ToolFailure`: its back-off hint (a `Retry-After`). */
      retryAfterMs?: number;
      /**
       * The real failure behind a result that is not a success (the `ToolFailure` thrown, a crash's error, the abort
       * reason), as a redacted stand-in (name, message, code, cause chain; the agent's secrets removed) — for the
       * developer's side only, never shown to the model.
       */
      cause?: unknown;
    }
  /** Token usage of one model call. */
  | { type: 'usage'; iteration: number; usage: Usage }
  /**
   * A failure. `terminal: false` — recoverable, the run goes on (a fallback model took over, a tool crashed, the
   * session could not be saved). `terminal: true` — the run ends; it is the last item.
   */
  | {
      type: 'error';
      iteration: number;
      terminal: boolean;
      error: unknown;
      /** A resume sent again: this is the first one's outcome (its error, as an `AgentError`). */
      replay?: true;
    }
  /**
   * The run stopped to ask a person: the last item. It waits on `interrupts` (one per tool call that needs an
   * approval); `agent.resume(runId, decisions)` goes on. The other calls of the round ran; the pending ones have no
   * tool message yet, and the session is appended to only when the run ends.
   */
  | {
      type: 'interrupted';
      runId: string;
      /** The model call whose tool calls wait. */
      iteration: number;
      interrupts: Interrupt[];
      /** Token usage of the run so far. */
      usage: Usage;
      /** A resume sent again: this is the first one's outcome. */
      replay?: true;
    }
  /** The normal end of a run; the last item. */
  | {
      type: 'finish';
      finishReason: FinishReason;
      iterations: number;
      usage: Usage;
      /** The final answer's text. */
      text: string;
      /** The messages this run added to the conversation (assistant and tool messages). */
      messages: ChatMessage[];
      /** With `output`: the final answer decoded and validated by its schema. */
      output?: unknown;
      /** A resume sent again: this is the first one's outcome. */
      replay?: true;
    };

/** A run: a Web `ReadableStream` of items that is also async-iterable. */
export type AgentRunStream = ReadableStream<AgentRunItem> & AsyncIterable<AgentRunItem>;

/** Options of `agent.run`. */
export interface AgentRunOptions {
  /** Keeps the conversation under this id in the agent's session store. */
  session?: string | undefined;
  /** Cancels the run promptly; the last item is then a terminal error carrying `signal.reason`. */
  signal?: AbortSignal | undefined;
  /**
   * Any Standard Schema the final answer must match (zod, valibot, `jsonSchema()`…): asked of the model as a JSON
   * response format where the API has one, checked either way. A final answer that is not JSON or fails the schema is
   * shown to the model once, naming each field; if it fails again the run ends with an `OutputValidationError`
   * (issues + raw text). The value is on the `finish` item (`output`) and on `collectAgentRun`'s result.
   */
  output?: StandardSchemaV1 | undefined;
  /**
   * The span this run's `invoke_agent` span is a child of: one of ours, or a parsed W3C `traceparent` (the Runner and
   * the A2A handler pass theirs). Only with the agent's `telemetry`. @default the active OpenTelemetry context
   */
  parentSpan?: SpanHandle | TraceParent | undefined;
  /**
   * Who the run belongs to — a user id, a session key: kept with the run if it stops to ask, and then only a resume
   * given the same `owner` may go on with it; any other (or none) is refused as a run not waiting on anything
   * (`RUN_NOT_INTERRUPTED`), its replays and its existence included. The Runner passes its session key. A run started
   * without one may be resumed by anyone holding its id.
   */
  owner?: string | undefined;
}

/** Options of `agent.resume`. */
export interface AgentResumeOptions {
  /** Cancels the resumed run; the last item is then a terminal error carrying `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** The schema the final answer must match (as `agent.run`'s `output`: a schema is not kept with the run). */
  output?: StandardSchemaV1 | undefined;
  /** The span the resumed run's `invoke_agent` span is a child of. */
  parentSpan?: SpanHandle | TraceParent | undefined;
  /** The owner the run was started with (`agent.run`'s `owner`): a resume given another, or none, is refused. */
  owner?: string | undefined;
}

/** One pending approval as the `interrupt` event names it (never its arguments). */
export interface InterruptSummary {
  id: string;
  toolCallId?: string | undefined;
  toolName?: string | undefined;
  expiresAt?: string | undefined;
}

/** Observability payloads: plain serializable objects. */
export interface AgentEvents {
  'model-request': (event: { runId: string; agent: string; iteration: number; model: string; messageCount: number; tools: string[] }) => void;
  'model-response': (event: {
    runId: string;
    agent: string;
    iteration: number;
    finishReason: FinishReason;
    toolCalls: number;
    textLength: number;
    usage?: Usage;
    durationMs: number;
  }) => void;
  'tool-start': (event: { runId: string; agent: string; iteration: number; callId: string; toolName: string; arguments: string }) => void;
  'tool-end': (event: {
    runId: string;
    agent: string;
    iteration: number;
    callId: string;
    toolName: string;
    outcome: AgentToolOutcome;
    ok: boolean;
    attempts: number;
    durationMs: number;
    result: ToolResultJSON;
  }) => void;
  'tool-error': (event: {
    runId: string;
    agent: string;
    iteration: number;
    callId: string;
    toolName: string;
    outcome: AgentToolOutcome;
    /** What the model saw. */
    error: ToolErrorInfo;
    /** The real failure, for developers (crashes, thrown failures). */
    cause?: unknown;
  }) => void;
  /**
   * A model call or a tool call is retried (or a fallback model takes over: `fallbackTo`). `error` is plain JSON with
   * the agent's secrets removed; a tool retry names its call (`callId`) and its tool (`toolName`).
   */
  retry: (event: {
    runId: string;
    agent: string;
    source: 'model' | 'tool';
    attempt: number;
    delayMs: number;
    error: unknown;
    fallbackTo?: string;
    callId?: string;
    toolName?: string;
    /** A shared retry budget refused this retry: the failure was reported instead (`delayMs` is 0). */
    budgetExhausted?: boolean;
  }) => void;
  error: (event: { runId: string; agent: string; iteration: number; terminal: boolean; error: AgentErrorJSON | Record<string, unknown> }) => void;
  /** The run stopped to ask: how many interrupts, and the first 50 (ids, tool names, expiry — never arguments). */
  interrupt: (event: { runId: string; agent: string; iteration: number; count: number; interrupts: InterruptSummary[] }) => void;
  /** A resume was accepted (`replay`: the same resume again, answered with the first one's outcome). */
  resume: (event: { runId: string; agent: string; approved: number; denied: number; expired: number; replay: boolean }) => void;
  /** A resume was refused; nothing changed. */
  'resume-refused': (event: { runId: string; agent: string; code: string }) => void;
  /**
   * An approved call was marked started, but its result was never recorded (the process stopped while it ran): it is
   * not run again, and the model is told `ToolExecutionUnknown`. Check whether its side effect happened.
   */
  'execution-unknown': (event: { runId: string; agent: string; callId: string; toolName: string }) => void;
}

/** Everything an agent is built from (see `AgentBuilder`). */
export interface AgentSettings {
  name: string;
  chatClient: ChatClient;
  instructions?: string | undefined;
  tools: readonly AnyTool[];
  maxIterations: number;
  /** Tools of one model turn running at once. */
  maxParallelToolCalls: number;
  toolChoice?: ToolChoice | undefined;
  temperature?: number | undefined;
  onToolCrash: 'result' | 'throw';
  toolErrorFormat: ToolErrorFormat;
  toolLogger?: ToolLogOption | undefined;
  secrets: readonly string[];
  repairArguments?: ArgumentRepair | undefined;
  sessionStore: SessionStore;
  /** Where spans go (`openTelemetry(otel)`); `NO_TELEMETRY` records nothing. */
  telemetry: Telemetry;
  /** Tool approvals (`toolApprovals()`): the loop asks before running a call that needs a yes. None: nobody is asked. */
  approvals?: ToolApprovals | undefined;
  /** Some tool needs approval (`needsApproval` set): with `approvals`, each round of calls goes through their gate. */
  asks: boolean;
}
