/**
 * @internal The A2A client's spans, reached only through the telemetry object (`Telemetry.a2aClient`, set
 * by `openTelemetry`): an app that passes no telemetry bundles none of this. One `client` span per call
 * (`a2a.method.name`, JSON-RPC method, server), its `traceparent` sent with the request so the remote's spans are its
 * children; a result (a task, a message, a stream event) sets the task's id and state, and a task that ends failed,
 * rejected or canceled fails the span with the task's error type.
 */
import { FAILURE_STATES, taskFailure } from '../errors/task-error.js';
import { read } from '../internal/error-chain.js';
import { A2A_METHOD_NAME, A2A_TASK_ID, A2A_TASK_STATE, RPC_METHOD, RPC_SYSTEM_JSONRPC, RPC_SYSTEM_NAME, SERVER_ADDRESS } from './attribute-names.js';
import { a2aSpanName } from './span-names.js';
import { serverAddressOf } from './no-telemetry.js';
import type { A2AClientTracing, SpanHandle, Telemetry } from './telemetry.js';

/**
 * The A2A client tracing of `telemetry` (what `openTelemetry` puts on its telemetry as `a2aClient`).
 * @example `const span = a2aClientTracing(telemetry).start('SendMessage', 'message/send', 'https://agent.example/a2a')`
 */
export function a2aClientTracing(telemetry: Pick<Telemetry, 'startSpan'>): A2AClientTracing {
  return {
    start: (operation, method, url) =>
      telemetry.startSpan(a2aSpanName(operation), {
        kind: 'client',
        attributes: { [A2A_METHOD_NAME]: operation, [RPC_SYSTEM_NAME]: RPC_SYSTEM_JSONRPC, [RPC_METHOD]: method, [SERVER_ADDRESS]: serverAddressOf(url) },
      }),
    result: traceResult,
  };
}

/** What a result tells the call's span: a task's id and state; an unsuccessful end fails it. */
function traceResult(span: SpanHandle, result: unknown): void {
  const kind = read(result, 'kind');
  const status = kind === 'task' || kind === 'status-update' ? (read(result, 'status') as Parameters<typeof taskFailure>[0] | undefined) : undefined;
  if (!status) return;
  span.setAttributes({ [A2A_TASK_ID]: read(result, kind === 'task' ? 'id' : 'taskId') as string, [A2A_TASK_STATE]: status.state });
  if (FAILURE_STATES.has(status.state)) {
    const error = taskFailure(status, read(result, 'metadata') as Record<string, unknown> | undefined);
    span.fail(error, { type: error.type });
  }
}
