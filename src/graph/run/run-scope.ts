import type { RunEvent } from '../../runner/event.js';
import type { SpanHandle, Telemetry } from '../../telemetry/telemetry.js';
import type { GraphParts } from '../core/graph-description.js';
import type { CheckpointHooks } from '../core/node-context.js';

/** @internal What a node runner needs from its run. */
export interface RunScope {
  parts: Readonly<GraphParts>;
  /** The caller's signal, if any. */
  signal: AbortSignal | undefined;
  /** The never-firing signal of a run without a caller's, once a node asked for it. */
  idleSignal: AbortSignal | undefined;
  /** The signal node contexts carry: the caller's, or one that never fires, made on first use. */
  nodeSignal(): AbortSignal;
  /** That signal when it is there already; else `undefined`. */
  signalNow(): AbortSignal | undefined;
  invocationId: string;
  path: readonly string[];
  branch?: string | undefined;
  requestId?: string | undefined;
  /** Set when the run is checkpointed (the executor updates `resuming` between steps). */
  checkpoint?: CheckpointHooks | undefined;
  emit(event: RunEvent): void;
  /** Where node spans go, and the run's span they are children of. */
  telemetry: Telemetry;
  span?: SpanHandle | undefined;
  /** True when the run has a listener: without one, no event is built (nobody could see it). */
  listening: boolean;
  /** True when the run records spans (its telemetry is not `NO_TELEMETRY`): without, no node span is started. */
  traced: boolean;
}

/**
 * @internal The signal node contexts carry: the caller's; without one, one that never fires, made only when a node
 * asks (an `AbortController` costs more than a whole step of a small graph). Shared functions, not closures of each
 * run: optimized code that calls a run's own closure is thrown away when a full GC collects the run.
 */
export function scopeNodeSignal(this: RunScope): AbortSignal {
  return this.signal ?? (this.idleSignal ??= new AbortController().signal);
}

/** @internal That signal when it is there already; else `undefined`. */
export function scopeSignalNow(this: RunScope): AbortSignal | undefined {
  return this.signal ?? this.idleSignal;
}
