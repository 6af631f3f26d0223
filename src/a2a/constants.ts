/** Wire strings of A2A (0.3 and 1.0) and of tRPC-Agent-Go's structured task errors (decisions.md point 3). */

/**
 * @internal The client's methods, by operation: `[A2A 0.3 name, A2A 1.0 name]`, so a client bundle holds only these
 * pairs, not both tables. A2AMethod and A2AMethodV1 spell the same names out (literals: module scope holds nothing a
 * bundler must keep); test/a2a/constants.test.ts checks they agree.
 */
export const CLIENT_METHODS = {
  SendMessage: ['message/send', 'SendMessage'],
  StreamMessage: ['message/stream', 'SendStreamingMessage'],
  GetTask: ['tasks/get', 'GetTask'],
  CancelTask: ['tasks/cancel', 'CancelTask'],
  Resubscribe: ['tasks/resubscribe', 'SubscribeToTask'],
} as const;

/**
 * JSON-RPC methods of A2A 0.3.
 * @example `{ jsonrpc: '2.0', id: 1, method: A2AMethod.SendMessage, params }`
 */
export const A2AMethod = /* @__PURE__ */ Object.freeze({
  SendMessage: 'message/send',
  StreamMessage: 'message/stream',
  GetTask: 'tasks/get',
  CancelTask: 'tasks/cancel',
  Resubscribe: 'tasks/resubscribe',
  GetExtendedCard: 'agent/getAuthenticatedExtendedCard',
} as const);

/**
 * The A2A 1.0 names of the same methods.
 * @example `A2AMethodV1.SendMessage // 'SendMessage'`
 */
export const A2AMethodV1 = /* @__PURE__ */ Object.freeze({
  SendMessage: 'SendMessage',
  StreamMessage: 'SendStreamingMessage',
  GetTask: 'GetTask',
  CancelTask: 'CancelTask',
  Resubscribe: 'SubscribeToTask',
  GetExtendedCard: 'GetExtendedAgentCard',
} as const);

/** Push-notification methods we answer with `-32003` (both versions). */
export const PUSH_NOTIFICATION_METHODS: ReadonlySet<string> = new Set([
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

/**
 * JSON-RPC and A2A error codes.
 * @example `if (JSONRPCError.isInstance(error) && error.rpcCode === A2AErrorCode.TaskNotFound) forget(taskId)`
 */
export const A2AErrorCode = /* @__PURE__ */ Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  TaskNotFound: -32001,
  TaskNotCancelable: -32002,
  PushNotificationNotSupported: -32003,
  UnsupportedOperation: -32004,
  ContentTypeNotSupported: -32005,
  InvalidAgentResponse: -32006,
  AuthenticatedExtendedCardNotConfigured: -32007,
  ExtensionSupportRequired: -32008,
  VersionNotSupported: -32009,
} as const);

/**
 * The spec's default message per code.
 * @example `A2A_ERROR_MESSAGES[A2AErrorCode.TaskNotFound] // 'Task not found'`
 */
export const A2A_ERROR_MESSAGES: Readonly<Record<number, string>> = /* @__PURE__ */ Object.freeze({
  [-32700]: 'Invalid JSON payload',
  [-32600]: 'Request payload validation error',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid parameters',
  [-32603]: 'Internal error',
  [-32001]: 'Task not found',
  [-32002]: 'Task cannot be canceled',
  [-32003]: 'Push Notification is not supported',
  [-32004]: 'This operation is not supported',
  [-32005]: 'Incompatible content types',
  [-32006]: 'Invalid agent response',
  [-32007]: 'Authenticated Extended Card is not configured',
  [-32008]: 'Extension support is required',
  [-32009]: 'This protocol version is not supported',
});

/**
 * Task states (0.3 JSON).
 * @example `if (task.status.state === TaskState.Failed) report(task.metadata)`
 */
export const TaskState = /* @__PURE__ */ Object.freeze({
  Submitted: 'submitted',
  Working: 'working',
  InputRequired: 'input-required',
  Completed: 'completed',
  Canceled: 'canceled',
  Failed: 'failed',
  Rejected: 'rejected',
  AuthRequired: 'auth-required',
  Unknown: 'unknown',
} as const);
/** One of the {@link TaskState} strings. */
export type TaskStateName = (typeof TaskState)[keyof typeof TaskState];

/**
 * States that end a task.
 * @example `TERMINAL_STATES.has(task.status.state)`
 */
export const TERMINAL_STATES: ReadonlySet<string> = new Set(['completed', 'canceled', 'failed', 'rejected']); // TaskState's values, written out so a bundle that needs only these states keeps only these strings

/** @internal States after which a stream has nothing more to say: the terminal ones, and those waiting for the user. */
export function isStreamEndState(state: string): boolean {
  return TERMINAL_STATES.has(state) || state === 'input-required' || state === 'auth-required';
}
export { ErrorMetadataKey, FAILURE_STATES } from '../errors/task-error.js';

/**
 * The agent card path of A2A 0.3 and 1.0.
 * @example `fetch(new URL(AGENT_CARD_PATH, base))`
 */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
/**
 * The agent card path of A2A 0.2 and before (still served, and tried when the new one answers 404).
 * @example `fetch(new URL(LEGACY_AGENT_CARD_PATH, base))`
 */
export const LEGACY_AGENT_CARD_PATH = '/.well-known/agent.json';

/** The protocol versions we speak. */
export type A2AProtocolVersion = '0.3' | '1.0';
/**
 * The header naming the protocol version of a request (absent means 0.3).
 * @example `headers: { [A2A_VERSION_HEADER]: '1.0' }`
 */
export const A2A_VERSION_HEADER = 'A2A-Version';

/**
 * The text of the generic answer when structured task errors are off (tRPC's).
 * @example `if (message.parts[0]?.text === GENERIC_FAILURE_TEXT) console.warn('the remote agent failed')`
 */
export const GENERIC_FAILURE_TEXT = 'An error occurred while processing your request.';

/**
 * `error_code` of a task that failed outside its agent's run (its message could not be read, an event could not be
 * encoded): the task still ends `failed`, with this code and a message naming the problem.
 * @example `if (task.metadata?.error_code === TASK_FAILED_INTERNALLY) reportServerBug(task)`
 */
export const TASK_FAILED_INTERNALLY = 'TASK_FAILED_INTERNALLY';

/**
 * The metadata key of faultline's own fields on a task's status, message and update (an `input-required` task's
 * `{ runId, interrupts, interruptCount }`).
 * @example `const waiting = task.metadata?.[FAULTLINE_METADATA_KEY]?.interrupts`
 */
export const FAULTLINE_METADATA_KEY = 'faultline';
