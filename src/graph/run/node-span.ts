/**
 * @internal Spans of a graph: one `invoke_workflow` span per run, one `graph.node <id>` span per node step (its
 * retries as events). A node that failed — recovered by the collector or not — fails its span, with the record's
 * severity as `faultline.execution_error.severity`; a fatal failure or an abort fails the run's span too.
 */
import {
  ERROR_TYPE,
  EVENT_INTERRUPT,
  EVENT_RETRY,
  FAULTLINE_EXECUTION_ERROR_SEVERITY,
  FAULTLINE_GRAPH_NODE_ID,
  FAULTLINE_GRAPH_NODE_TYPE,
  FAULTLINE_GRAPH_STEP,
  FAULTLINE_INTERRUPT_COUNT,
  FAULTLINE_INTERRUPT_IDS,
  FAULTLINE_RETRY_ATTEMPT,
  FAULTLINE_RETRY_DELAY_MS,
  GEN_AI_CONVERSATION_ID,
  GEN_AI_OPERATION_INVOKE_WORKFLOW,
  GEN_AI_OPERATION_NAME,
  GEN_AI_WORKFLOW_NAME,
} from '../../telemetry/attribute-names.js';
import { graphNodeSpanName, workflowSpanName } from '../../telemetry/span-names.js';
import { errorTypeOf } from '../../telemetry/error-type.js';
import { NO_SPAN, traces } from '../../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../../telemetry/telemetry.js';
import type { TraceParent } from '../../telemetry/traceparent.js';
import type { CompiledNode } from '../core/graph-description.js';
import type { GraphOutcome } from '../core/runnable-graph.js';

/** The run's span. */
export function graphRunSpan(telemetry: Telemetry | undefined, name: string | undefined, parent: SpanHandle | TraceParent | undefined, runId: string): SpanHandle {
  if (!traces(telemetry)) return NO_SPAN;
  return telemetry.startSpan(workflowSpanName(name ?? 'graph'), {
    parent,
    attributes: { [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_INVOKE_WORKFLOW, [GEN_AI_WORKFLOW_NAME]: name, [GEN_AI_CONVERSATION_ID]: runId },
  });
}

/** Ends the run's span with its outcome (an interrupted run is not a failed one: an event, ids and count only). */
export function endGraphRunSpan(span: SpanHandle, outcome: GraphOutcome): void {
  if (!traces(span)) return;
  span.setAttributes({ [FAULTLINE_GRAPH_STEP]: outcome.steps });
  if (outcome.status === 'failed') span.fail(outcome.error);
  else if (outcome.status === 'aborted') span.fail(outcome.reason);
  else if (outcome.status === 'interrupted') {
    span.addEvent(EVENT_INTERRUPT, { [FAULTLINE_INTERRUPT_COUNT]: outcome.interrupts.length, [FAULTLINE_INTERRUPT_IDS]: outcome.interrupts.map((each) => each.id).join(',') });
  }
  span.end();
}

/** A node that stopped to ask: an event on its span, which ends without an error status. */
export function traceNodeInterrupt(span: SpanHandle, attempts: number): void {
  span.addEvent(EVENT_INTERRUPT);
  endNodeSpan(span, attempts, undefined);
}

/** One node step's span, a child of the run's (asked for only when the run is traced: see `RunScope.traced`). */
export function nodeSpan(telemetry: Telemetry, parent: SpanHandle | undefined, node: CompiledNode, step: number): SpanHandle {
  return telemetry.startSpan(graphNodeSpanName(node.id), {
    parent,
    attributes: { [FAULTLINE_GRAPH_NODE_ID]: node.id, [FAULTLINE_GRAPH_NODE_TYPE]: node.type, [FAULTLINE_GRAPH_STEP]: step },
  });
}

/** A retry of the node, as an event of its span. */
export function traceNodeRetry(span: SpanHandle, attempt: number, delayMs: number, error: unknown): void {
  if (!traces(span)) return;
  span.addEvent(EVENT_RETRY, { [FAULTLINE_RETRY_ATTEMPT]: attempt + 1, [FAULTLINE_RETRY_DELAY_MS]: delayMs, [ERROR_TYPE]: errorTypeOf(error) });
}

/** Ends a node's span: `failure` is its error when it failed, `recovered` whether the collector recovered it. */
export function endNodeSpan(span: SpanHandle, attempts: number, failure: { error: unknown; recovered: boolean } | undefined): void {
  span.setAttributes({ 'faultline.graph.node.attempts': attempts });
  if (failure) {
    span.setAttributes({ [FAULTLINE_EXECUTION_ERROR_SEVERITY]: failure.recovered ? 'recoverable' : 'fatal' });
    span.fail(failure.error);
  }
  span.end();
}
