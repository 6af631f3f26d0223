import type { Emitter } from 'nanoevents';
import type { ChatMessage, ToolCall, Usage } from '../chat/core/types.js';
import type { AbortSource } from '../internal/abort-source.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import type { AgentEvents, AgentRunItem, AgentSettings } from './types.js';
import type { Waker } from './waker.js';
import type { RunStateHandle } from './run-state.js';
import type { ToolApprovals } from './approvals-brand.js';

/** What one run needs. */
export interface LoopContext {
  settings: AgentSettings;
  /** The run's id (made on first read: only events and spans use it). */
  readonly runId: string;
  emitter: Emitter<AgentEvents>;
  /** The caller's new messages. */
  input: ChatMessage[];
  sessionId?: string | undefined;
  /** Who the run belongs to: kept with its record; a resume must name the same. */
  owner?: string | undefined;
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
  /** The record of a run that stopped to ask (once it did, or from the start of a resume). */
  runState?: RunStateHandle | undefined;
  /** A resume: what it checks and claims before the run goes on. */
  resume?: ResumeStart | undefined;
}

/** @internal A resume: checked and claimed before its run goes on (a refusal is thrown: the run's one terminal item). */
export interface ResumeStart {
  /** The replayed outcome of the same resume sent before, or the run to go on with. */
  claim(context: LoopContext): Promise<{ replay: AgentRunItem } | ResumedRun>;
}

/** @internal A claimed resume: where the run stopped, and the round it answers first. */
export interface ResumedRun {
  added: ChatMessage[];
  iterations: number;
  usage: Usage;
  /** Answers the stopped round (runs the approved calls once), appending its tool messages in call order. */
  answer(context: LoopContext, conversation: ChatMessage[], added: ChatMessage[], queue: AgentRunItem[]): AsyncGenerator<AgentRunItem[], { error: unknown } | undefined, undefined>;
}

/** How a round of tool calls ends: nothing (go on), a failure that ends the run, or the run stopped to ask. */
export type RoundEnd = { error: unknown } | { interrupted: AgentRunItem } | undefined;

/** @internal The machinery behind {@link ToolApprovals}: what the agent loop and `Agent` call. */
export interface ApprovalMachinery extends ToolApprovals {
  /** How long a resume's hold on its run lasts without a renewal, on a store that is not `exclusive` (ms). */
  leaseMs: number;
  /** Runs a round of tool calls, stopping the run before each call a person must approve. */
  gate(context: LoopContext, calls: readonly ToolCall[], iteration: number, conversation: ChatMessage[], added: ChatMessage[], queue: AgentRunItem[], usage: Usage, cut: boolean): AsyncGenerator<AgentRunItem[], RoundEnd, undefined>;
  /** The resume of `runId` with the given decisions, as the loop starts it (`key` is set once it claimed the run). */
  resumeStart(runId: string, given: unknown): ResumeStart & { key?: string };
  /** A resumed run's batches, with how it ended recorded for replays of the same resume. */
  recordingOutcome(batches: AsyncGenerator<AgentRunItem[], void, undefined>, context: LoopContext, start: { key?: string }): AsyncGenerator<AgentRunItem[], void, undefined>;
  /** Closes a waiting run of `agent` without running its calls; false when it was not waiting or is another owner's. */
  supersede(agent: string, runId: string, owner: string | undefined): Promise<boolean>;
}
