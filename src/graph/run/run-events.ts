/**
 * @internal The events a run emits about itself, as the `graph-pregel` author: the `graph.execution` snapshot at the
 * end, and on the fatal path the fallback state then the `graph.pregel.step` error. The state goes out key by key
 * (`encodeStateKeys`): each key that cannot be JSON is left out and reported as its own error event (code
 * `STATE_NOT_SERIALIZABLE`, naming the key and the path inside it), so the run does not look successful and every
 * other key — the collector's records always — still travels. Built only when the run has a listener.
 */
import { ErrorType } from '../../errors/constants.js';
import { toResponseError } from '../../errors/response-error.js';
import type { WorkflowError } from '../../errors/workflow-error.js';
import { isoTimestamp } from '../../internal/clock.js';
import { defineData } from '../../internal/json.js';
import { ObjectType } from '../../runner/constants.js';
import { createEvent, type EventOrigin } from '../../runner/event.js';
import { encodeStateKeys, type StateDelta } from '../../runner/state-delta.js';
import type { Interrupt } from '../../interrupts/interrupt.js';
import { EVENT_RESUME, FAULTLINE_INTERRUPT_COUNT, FAULTLINE_INTERRUPT_IDS, FAULTLINE_RESUME_REFUSED } from '../../telemetry/attribute-names.js';
import { traces } from '../../telemetry/no-telemetry.js';
import { COMPLETION_METADATA_KEY, FALLBACK_STATE_EVENT_TYPE, GRAPH_PREGEL_AUTHOR, InterruptEventType, NODE_CUSTOM_METADATA_KEY, PREGEL_METADATA_KEY } from '../core/constants.js';
import type { State } from '../core/state-schema.js';
import type { RunScope } from './run-scope.js';

function origin(scope: RunScope): EventOrigin {
  return { invocationId: scope.invocationId, author: GRAPH_PREGEL_AUTHOR, branch: scope.branch, requestId: scope.requestId };
}

/** The state as a delta, each key that cannot be JSON reported as its own error event; the failures' messages. */
function encodeState(scope: RunScope, state: State): { delta: StateDelta; failed: string[] } {
  const { delta, failures } = encodeStateKeys(state);
  for (const failure of failures) {
    scope.emit(createEvent(origin(scope), { response: { object: ObjectType.GraphExecution, done: false, error: toResponseError(failure, ErrorType.FlowError) } }));
  }
  return { delta, failed: failures.map((failure) => failure.message) };
}

/** @internal The fatal path's events: the fallback state (a `graph.node.custom` event), then the `graph.pregel.step` error. */
export function emitFailedRun(scope: RunScope, fallbackState: State, error: WorkflowError, step: number): void {
  if (!scope.listening) return;
  const { delta } = encodeState(scope, fallbackState);
  defineData(
    delta,
    NODE_CUSTOM_METADATA_KEY,
    JSON.stringify({ eventType: FALLBACK_STATE_EVENT_TYPE, category: 'custom', invocationId: scope.invocationId, stepNumber: step, timestamp: isoTimestamp() }),
  );
  scope.emit(createEvent(origin(scope), { response: { object: ObjectType.GraphNodeCustom, done: false }, stateDelta: delta }));
  const metadata = JSON.stringify({ stepNumber: -1, failedStep: step, timestamp: isoTimestamp() });
  scope.emit(
    createEvent(origin(scope), {
      response: { object: ObjectType.GraphPregelStep, done: false, error: toResponseError(error, ErrorType.FlowError) },
      stateDelta: { [PREGEL_METADATA_KEY]: metadata },
    }),
  );
}

/** @internal The `graph.execution` snapshot of a completed run (with `last_response` as its message, when a string). */
export function emitSnapshot(scope: RunScope, state: State, steps: number): void {
  if (!scope.listening) return;
  const { delta, failed } = encodeState(scope, state); // the snapshot goes out with every key that encodes
  defineData(delta, COMPLETION_METADATA_KEY, JSON.stringify(failed.length === 0 ? { steps, timestamp: isoTimestamp() } : { steps, timestamp: isoTimestamp(), error: failed.join('; ') }));
  const lastResponse = typeof state.last_response === 'string' ? state.last_response : undefined;
  const response = {
    object: ObjectType.GraphExecution,
    done: true,
    ...(lastResponse ? { choices: [{ index: 0, message: { role: 'assistant' as const, content: lastResponse } }] } : {}),
  };
  scope.emit(createEvent(origin(scope), { response, stateDelta: delta }));
}

/** Ids an interrupt or resume event names (the rest are counted). */
const IDS_NAMED = 50;

/** @internal Nodes stopped to ask: a `graph.interrupt` event — their ids and node ids, never what they asked. */
export function emitInterrupt(scope: RunScope, interrupts: readonly Interrupt[], step: number): void {
  if (!scope.listening) return;
  const named = interrupts.slice(0, IDS_NAMED);
  const metadata = JSON.stringify({ stepNumber: step, count: interrupts.length, interruptIds: named.map((each) => each.id), nodeIds: named.map((each) => each.nodeId), timestamp: isoTimestamp() });
  scope.emit(createEvent(origin(scope), { response: { object: InterruptEventType.Interrupt, done: false }, stateDelta: { [PREGEL_METADATA_KEY]: metadata } }));
}

/** What a resume did: the ids it decided and those that had expired, a replay, or the refusal. */
export interface ResumeReport {
  decided?: readonly string[];
  expired?: readonly string[];
  replay?: boolean;
  refused?: unknown;
}

/**
 * @internal A resume, accepted, replayed or refused: a `graph.resume` event and a span event — ids, counts and the
 * refusal's code, never a decision's value.
 */
export function emitResume(scope: RunScope, step: number, report: ResumeReport): void {
  const code = report.refused === undefined ? undefined : String((report.refused as { code?: unknown })?.code ?? 'RESUME_FAILED');
  const decided = report.decided ?? [];
  const { span } = scope;
  if (traces(span)) span.addEvent(EVENT_RESUME, { [FAULTLINE_INTERRUPT_COUNT]: decided.length, [FAULTLINE_INTERRUPT_IDS]: decided.slice(0, IDS_NAMED).join(','), [FAULTLINE_RESUME_REFUSED]: code });
  if (!scope.listening) return;
  const fields = { stepNumber: step, decidedIds: decided.slice(0, IDS_NAMED), count: decided.length, expiredIds: (report.expired ?? []).slice(0, IDS_NAMED), replay: report.replay === true, refused: code, timestamp: isoTimestamp() };
  scope.emit(createEvent(origin(scope), { response: { object: InterruptEventType.Resume, done: false }, stateDelta: { [PREGEL_METADATA_KEY]: JSON.stringify(fields) } }));
}
