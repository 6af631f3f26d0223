/**
 * @internal The A2A client's spans: one `client` span per call (`a2a.method.name`, JSON-RPC method, server), its
 * `traceparent` sent with the request so the remote's spans are its children; a call that fails, or whose task ends
 * failed, rejected or canceled, fails its span with the task's error type.
 */
import { A2A_METHOD_NAME, A2A_TASK_ID, A2A_TASK_STATE, a2aSpanName, RPC_METHOD, RPC_SYSTEM_JSONRPC, RPC_SYSTEM_NAME, SERVER_ADDRESS } from '../telemetry/attributes.js';
import { NO_TELEMETRY, serverAddressOf } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import { FAILURE_STATES } from './constants.js';
import { statusResponseError } from './event-converter.js';
import type { A2AStreamEvent, SendMessageResult, Task } from './types.js';

/** A span for one A2A call to `url`. */
export function a2aCallSpan(telemetry: Telemetry | undefined, operation: string, method: string, url: string): SpanHandle {
  const host = serverAddressOf(url);
  return (telemetry ?? NO_TELEMETRY).startSpan(a2aSpanName(operation), {
    kind: 'client',
    attributes: { [A2A_METHOD_NAME]: operation, [RPC_SYSTEM_NAME]: RPC_SYSTEM_JSONRPC, [RPC_METHOD]: method, [SERVER_ADDRESS]: host },
  });
}

/** What a result (a task, a message, a stream event) tells the call's span: a task's id and state; an unsuccessful end fails it. */
export function traceResult(span: SpanHandle, result: SendMessageResult | Task | A2AStreamEvent): void {
  const status = result.kind === 'task' || result.kind === 'status-update' ? result.status : undefined;
  if (!status) return;
  span.setAttributes({ [A2A_TASK_ID]: result.kind === 'task' ? result.id : result.taskId, [A2A_TASK_STATE]: status.state });
  if (FAILURE_STATES.has(status.state)) {
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
