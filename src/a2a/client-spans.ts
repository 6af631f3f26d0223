/**
 * @internal The A2A client's spans: one `client` span per call (`a2a.method.name`, JSON-RPC method, server), its
 * `traceparent` sent with the request so the remote's spans are its children; a call that fails, or whose task ends
 * failed, rejected or canceled, fails its span with the task's error type.
 */
import { A2AAttribute, a2aSpanName, CommonAttribute, RPC_SYSTEM_JSONRPC } from '../telemetry/attributes.js';
import { NO_TELEMETRY, serverAddressOf } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import { statusResponseError } from './event-converter.js';
import type { A2AStreamEvent, SendMessageResult, Task } from './types.js';

const UNSUCCESSFUL = new Set(['failed', 'rejected', 'canceled']);

/** A span for one A2A call to `url`. */
export function a2aCallSpan(telemetry: Telemetry | undefined, operation: string, method: string, url: string): SpanHandle {
  const host = serverAddressOf(url);
  return (telemetry ?? NO_TELEMETRY).startSpan(a2aSpanName(operation), {
    kind: 'client',
    attributes: { [A2AAttribute.MethodName]: operation, [CommonAttribute.RPCSystemName]: RPC_SYSTEM_JSONRPC, [CommonAttribute.RPCMethod]: method, [CommonAttribute.ServerAddress]: host },
  });
}

/** What a result (a task, a message, a stream event) tells the call's span: a task's id and state; an unsuccessful end fails it. */
export function traceResult(span: SpanHandle, result: SendMessageResult | Task | A2AStreamEvent): void {
  const status = result.kind === 'task' || result.kind === 'status-update' ? result.status : undefined;
  if (!status) return;
  span.setAttributes({ [A2AAttribute.TaskId]: result.kind === 'task' ? result.id : result.taskId, [A2AAttribute.TaskState]: status.state });
  if (UNSUCCESSFUL.has(status.state)) {
    const error = statusResponseError(status, result.metadata) ?? { type: 'run_error', message: `the remote task ended ${status.state}` };
    span.fail(error, { type: error.type });
  }
}

/** Runs one traced call: the span ends with it, failed if it throws. */
export async function traced<T extends SendMessageResult | Task>(span: SpanHandle, call: (traceparent: string | undefined) => Promise<T>): Promise<T> {
  try {
    const result = await call(span.traceparent());
    traceResult(span, result);
    return result;
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
