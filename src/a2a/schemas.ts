/**
 * @internal The shapes of the A2A 0.3 objects we accept, as plain data (nothing runs at import; validation.ts's
 * `Field` says how each is read). Objects are loose (unknown fields kept: peers add fields between versions);
 * required fields, enums and literal `kind`s are checked, so a malformed payload fails naming its path.
 */
import { boolean, number, record, string, type Field, type Shape } from './validation.js';

const metadata = { optional: record } as const;
const optionalString = { optional: string } as const;
const optionalBoolean = { optional: boolean } as const;
const strings = [string] as const;

/** The task states of A2A 0.3. */
const TASK_STATES: readonly string[] = ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'];

const FILE = {
  anyOf: [
    { bytes: string, name: optionalString, mimeType: optionalString },
    { uri: string, name: optionalString, mimeType: optionalString },
  ],
} as const;

const PART = {
  kinds: {
    text: { kind: 'text', text: string, metadata },
    file: { kind: 'file', file: FILE, metadata },
    data: { kind: 'data', data: record, metadata },
  },
} as const;

const parts = [PART] as const;

const MESSAGE: Shape = {
  kind: 'message',
  messageId: string,
  role: ['user', 'agent'],
  parts,
  taskId: optionalString,
  contextId: optionalString,
  metadata,
  extensions: { optional: strings },
  referenceTaskIds: { optional: strings },
};

const STATUS: Shape = { state: TASK_STATES, message: { optional: MESSAGE }, timestamp: optionalString };

const ARTIFACT: Shape = { artifactId: string, name: optionalString, description: optionalString, parts, metadata };

const TASK: Shape = { kind: 'task', id: string, contextId: string, status: STATUS, history: { optional: [MESSAGE] }, artifacts: { optional: [ARTIFACT] }, metadata };

const STATUS_UPDATE: Shape = { kind: 'status-update', taskId: string, contextId: string, status: STATUS, final: boolean, metadata };

const ARTIFACT_UPDATE: Shape = {
  kind: 'artifact-update',
  taskId: string,
  contextId: string,
  artifact: ARTIFACT,
  append: optionalBoolean,
  lastChunk: optionalBoolean,
  metadata,
};

/** A Task. */
export const task: Field = TASK;

/** A `message/send` result: a Task or a Message. */
export const sendResult: Field = { kinds: { task: TASK, message: MESSAGE } };

/** One streamed item: a Task, a Message, a status or an artifact update. */
export const streamEvent: Field = { kinds: { task: TASK, message: MESSAGE, 'status-update': STATUS_UPDATE, 'artifact-update': ARTIFACT_UPDATE } };

const CONFIGURATION: Shape = { acceptedOutputModes: { optional: strings }, historyLength: { optional: number }, blocking: optionalBoolean };

/** `message/send` params. */
export const messageSendParams: Field = { message: MESSAGE, configuration: { optional: CONFIGURATION }, metadata };

/** `{id, historyLength?}` params of tasks/get, tasks/cancel, tasks/resubscribe. */
export const taskQueryParams: Field = { id: string, historyLength: { optional: number }, metadata };

const INTERFACE: Shape = { url: string, protocolBinding: string, protocolVersion: optionalString };

/** An agent card (0.3 or 1.0). */
export const agentCard: Field = {
  name: string,
  description: optionalString,
  url: optionalString,
  protocolVersion: optionalString,
  preferredTransport: optionalString,
  version: optionalString,
  capabilities: { optional: { streaming: optionalBoolean } },
  supportedInterfaces: { optional: [INTERFACE] },
};
