/** @internal What one run of a compiled graph is given: its options, checked and resolved (`compiled-graph.ts`). */
import type { RunEvent } from '../../runner/event.js';
import type { SpanHandle, Telemetry } from '../../telemetry/telemetry.js';
import type { LeaseSettings } from '../checkpoints/run-lease.js';
import type { Checkpointer } from '../core/checkpointer.js';

/** @internal */
export interface GraphRunSettings {
  signal?: AbortSignal | undefined;
  /** The run's listener; without one, no event is built. */
  emit?: ((event: RunEvent) => void) | undefined;
  invocationId: string;
  path: readonly string[];
  branch?: string | undefined;
  requestId?: string | undefined;
  /** Saves the run's checkpoints under `runId` (default: the invocation id). */
  checkpointer?: Checkpointer | undefined;
  runId?: string | undefined;
  /** Who the run belongs to: kept in its checkpoints; another's checkpoint reads as none. */
  owner?: string | undefined;
  /** How the run claims its checkpoint (see `run-lease.ts`). */
  lease: LeaseSettings;
  /** How to give the first state, said when a typed state refuses one the caller did not build (a graph agent's default). */
  stateHint?: string | undefined;
  /** A resume's decisions, as given (`undefined`: none). */
  decisions: unknown;
  telemetry: Telemetry;
  span: SpanHandle;
}
