/**
 * @internal The shapes of the A2A 0.3 objects we accept, as plain data and functions (nothing runs at import).
 * Objects are loose (unknown fields kept: peers add fields between versions); required fields, enums and literal
 * `kind`s are checked, so a malformed payload fails naming its path.
 */
import { array, boolean, byKind, firstOf, number, object, record, string, type Shape, type Walk } from './validation.js';

const metadata = { optional: record } as const;
const optionalString = { optional: string } as const;
const optionalBoolean = { optional: boolean } as const;

function strings(walk: Walk, value: unknown): unknown {
  return array(walk, value, string);
}

/** The task states of A2A 0.3. */
const TASK_STATES: readonly string[] = ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'];

const FILE_OPTIONS: readonly Shape[] = [
  { bytes: string, name: optionalString, mimeType: optionalString },
  { uri: string, name: optionalString, mimeType: optionalString },
];

function file(walk: Walk, value: unknown): unknown {
  return firstOf(walk, value, FILE_OPTIONS);
}

const PART_KINDS: Readonly<Record<string, Shape>> = {
  text: { kind: 'text', text: string, metadata },
  file: { kind: 'file', file, metadata },
  data: { kind: 'data', data: record, metadata },
};

function part(walk: Walk, value: unknown): unknown {
  return byKind(walk, value, PART_KINDS);
}

function parts(walk: Walk, value: unknown): unknown {
  return array(walk, value, part);
}

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

/** A Message. */
function message(walk: Walk, value: unknown): unknown {
  return object(walk, value, MESSAGE);
}

function messages(walk: Walk, value: unknown): unknown {
  return array(walk, value, message);
}

const STATUS: Shape = { state: TASK_STATES, message: { optional: message }, timestamp: optionalString };

function status(walk: Walk, value: unknown): unknown {
  return object(walk, value, STATUS);
}

const ARTIFACT: Shape = { artifactId: string, name: optionalString, description: optionalString, parts, metadata };

function artifact(walk: Walk, value: unknown): unknown {
  return object(walk, value, ARTIFACT);
}

function artifacts(walk: Walk, value: unknown): unknown {
  return array(walk, value, artifact);
}

const TASK: Shape = { kind: 'task', id: string, contextId: string, status, history: { optional: messages }, artifacts: { optional: artifacts }, metadata };

const STATUS_UPDATE: Shape = { kind: 'status-update', taskId: string, contextId: string, status, final: boolean, metadata };

const ARTIFACT_UPDATE: Shape = {
  kind: 'artifact-update',
  taskId: string,
  contextId: string,
  artifact,
  append: optionalBoolean,
  lastChunk: optionalBoolean,
  metadata,
};

/** A Task. */
export function task(walk: Walk, value: unknown): unknown {
  return object(walk, value, TASK);
}

const SEND_RESULTS: Readonly<Record<string, Shape>> = { task: TASK, message: MESSAGE };

/** A `message/send` result: a Task or a Message. */
export function sendResult(walk: Walk, value: unknown): unknown {
  return byKind(walk, value, SEND_RESULTS);
}

const STREAM_EVENTS: Readonly<Record<string, Shape>> = { task: TASK, message: MESSAGE, 'status-update': STATUS_UPDATE, 'artifact-update': ARTIFACT_UPDATE };

/** One streamed item: a Task, a Message, a status or an artifact update. */
export function streamEvent(walk: Walk, value: unknown): unknown {
  return byKind(walk, value, STREAM_EVENTS);
}

const CONFIGURATION: Shape = { acceptedOutputModes: { optional: strings }, historyLength: { optional: number }, blocking: optionalBoolean };

function configuration(walk: Walk, value: unknown): unknown {
  return object(walk, value, CONFIGURATION);
}

const SEND_PARAMS: Shape = { message, configuration: { optional: configuration }, metadata };

/** `message/send` params. */
export function messageSendParams(walk: Walk, value: unknown): unknown {
  return object(walk, value, SEND_PARAMS);
}

const TASK_QUERY: Shape = { id: string, historyLength: { optional: number }, metadata };

/** `{id, historyLength?}` params of tasks/get, tasks/cancel, tasks/resubscribe. */
export function taskQueryParams(walk: Walk, value: unknown): unknown {
  return object(walk, value, TASK_QUERY);
}

const CAPABILITIES: Shape = { streaming: optionalBoolean };

function capabilities(walk: Walk, value: unknown): unknown {
  return object(walk, value, CAPABILITIES);
}

const INTERFACE: Shape = { url: string, protocolBinding: string, protocolVersion: optionalString };

function supportedInterface(walk: Walk, value: unknown): unknown {
  return object(walk, value, INTERFACE);
}

function supportedInterfaces(walk: Walk, value: unknown): unknown {
  return array(walk, value, supportedInterface);
}

const AGENT_CARD: Shape = {
  name: string,
  description: optionalString,
  url: optionalString,
  protocolVersion: optionalString,
  preferredTransport: optionalString,
  version: optionalString,
  capabilities: { optional: capabilities },
  supportedInterfaces: { optional: supportedInterfaces },
};

/** An agent card (0.3 or 1.0). */
export function agentCard(walk: Walk, value: unknown): unknown {
  return object(walk, value, AGENT_CARD);
}
