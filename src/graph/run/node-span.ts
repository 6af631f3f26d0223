/**
 * @internal Spans of a graph: one `invoke_workflow` span per run, one `graph.node <id>` span per node step (its
 * retries as events). A node that failed — recovered by the collector or not — fails its span, with the record's
 * severity as `faultline.execution_error.severity`; a fatal failure or an abort fails the run's span too.
 */
import { CommonAttribute, FaultlineAttribute, GenAIAttribute, GenAIOperation, graphNodeSpanName, TelemetryEvent, workflowSpanName } from '../../telemetry/attributes.js';
import { errorTypeOf } from '../../telemetry/error-type.js';
import { NO_TELEMETRY } from '../../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../../telemetry/telemetry.js';
import type { TraceParent } from '../../telemetry/traceparent.js';
import type { CompiledNode } from '../core/graph-description.js';
import type { GraphOutcome } from '../core/runnable-graph.js';

/** The run's span. */
export function graphRunSpan(telemetry: Telemetry | undefined, name: string | undefined, parent: SpanHandle | TraceParent | undefined, runId: string): SpanHandle {
  return (telemetry ?? NO_TELEMETRY).startSpan(workflowSpanName(name ?? 'graph'), {
    parent,
    attributes: { [GenAIAttribute.OperationName]: GenAIOperation.InvokeWorkflow, [GenAIAttribute.WorkflowName]: name, [GenAIAttribute.ConversationId]: runId },
  });
}

/** Ends the run's span with its outcome (an interrupted run is not a failed one: an event, ids and count only). */
export function endGraphRunSpan(span: SpanHandle, outcome: GraphOutcome): void {
  span.setAttributes({ [FaultlineAttribute.GraphStep]: outcome.steps });
  if (outcome.status === 'failed') span.fail(outcome.error);
  else if (outcome.status === 'aborted') span.fail(outcome.reason);
  else if (outcome.status === 'interrupted') {
    span.addEvent(TelemetryEvent.Interrupt, { [FaultlineAttribute.InterruptCount]: outcome.interrupts.length, [FaultlineAttribute.InterruptIds]: outcome.interrupts.map((each) => each.id).join(',') });
  }
  span.end();
}

/** A node that stopped to ask: an event on its span, which ends without an error status. */
export function traceNodeInterrupt(span: SpanHandle, attempts: number): void {
  span.addEvent(TelemetryEvent.Interrupt);
  endNodeSpan(span, attempts, undefined);
}

/** One node step's span, a child of the run's. */
export function nodeSpan(telemetry: Telemetry, parent: SpanHandle | undefined, node: CompiledNode, step: number): SpanHandle {
  return telemetry.startSpan(graphNodeSpanName(node.id), {
    parent,
    attributes: { [FaultlineAttribute.GraphNodeId]: node.id, [FaultlineAttribute.GraphNodeType]: node.type, [FaultlineAttribute.GraphStep]: step },
  });
}

/** A retry of the node, as an event of its span. */
export function traceNodeRetry(span: SpanHandle, attempt: number, delayMs: number, error: unknown): void {
  span.addEvent(TelemetryEvent.Retry, { [FaultlineAttribute.RetryAttempt]: attempt + 1, [FaultlineAttribute.RetryDelayMs]: delayMs, [CommonAttribute.ErrorType]: errorTypeOf(error) });
}

/** Ends a node's span: `failure` is its error when it failed, `recovered` whether the collector recovered it. */
export function endNodeSpan(span: SpanHandle, attempts: number, failure: { error: unknown; recovered: boolean } | undefined): void {
  span.setAttributes({ 'faultline.graph.node.attempts': attempts });
  if (failure) {
    span.setAttributes({ [FaultlineAttribute.ExecutionErrorSeverity]: failure.recovered ? 'recoverable' : 'fatal' });
    span.fail(failure.error);
  }
  span.end();
}
