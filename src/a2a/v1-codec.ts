/**
 * A2A 1.0 JSON ↔ the 0.3 shapes we work with (decisions.md point 13): `TASK_STATE_*` and `ROLE_*` enums, member-name
 * oneofs (`{text}`, `{data}`, `{raw|url, filename, mediaType}`; `{task}`, `{message}`, `{statusUpdate}`,
 * `{artifactUpdate}`), no `kind`, no `final`. Decoding is defensive: anything unexpected is passed through unchanged
 * so that validation names the path that failed.
 * @see https://a2a-protocol.org/v1.0.0/specification/
 */
import { isPlainObject } from '../internal/json.js';
import { isStreamEndState } from './constants.js';

type JSONObject = Record<string, unknown>;

const STATE_PREFIX = 'TASK_STATE_';

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`; `TASK_STATE_UNSPECIFIED` → `unknown`. */
export function stateFromV1(value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith(STATE_PREFIX)) return value;
  const name = value.slice(STATE_PREFIX.length);
  if (name === 'UNSPECIFIED') return 'unknown';
  if (name === 'CANCELLED') return 'canceled';
  return name.toLowerCase().replace(/_/g, '-');
}

/** `input-required` → `TASK_STATE_INPUT_REQUIRED`. */
export function stateToV1(state: string): string {
  return state === 'unknown' ? 'TASK_STATE_UNSPECIFIED' : `${STATE_PREFIX}${state.toUpperCase().replace(/-/g, '_')}`;
}

function roleFromV1(value: unknown): unknown {
  return value === 'ROLE_USER' ? 'user' : value === 'ROLE_AGENT' ? 'agent' : value;
}

function partFromV1(part: unknown): unknown {
  if (!isPlainObject(part) || 'kind' in part) return part;
  const metadata = isPlainObject(part.metadata) ? { metadata: part.metadata } : {};
  if (typeof part.text === 'string') return { kind: 'text', text: part.text, ...metadata };
  if (isPlainObject(part.data)) return { kind: 'data', data: part.data, ...metadata };
  const file: JSONObject | undefined = typeof part.raw === 'string' ? { bytes: part.raw } : typeof part.url === 'string' ? { uri: part.url } : undefined;
  if (!file) return part;
  if (typeof part.filename === 'string' && part.filename !== '') file.name = part.filename;
  if (typeof part.mediaType === 'string' && part.mediaType !== '') file.mimeType = part.mediaType;
  return { kind: 'file', file, ...metadata };
}

function partsFromV1(parts: unknown): unknown {
  return Array.isArray(parts) ? parts.map(partFromV1) : parts;
}

/** A 1.0 `Message` as 0.3. */
export function messageFromV1(message: unknown): unknown {
  if (!isPlainObject(message) || message.kind !== undefined) return message;
  return { ...message, kind: 'message', role: roleFromV1(message.role), parts: partsFromV1(message.parts) };
}

function statusFromV1(status: unknown): unknown {
  if (!isPlainObject(status)) return status;
  const converted: JSONObject = { ...status, state: stateFromV1(status.state) };
  if (status.message !== undefined) converted.message = messageFromV1(status.message);
  return converted;
}

function artifactFromV1(artifact: unknown): unknown {
  return isPlainObject(artifact) ? { ...artifact, parts: partsFromV1(artifact.parts) } : artifact;
}

/** A 1.0 `Task` as 0.3. */
export function taskFromV1(task: unknown): unknown {
  if (!isPlainObject(task) || task.kind !== undefined) return task;
  const converted: JSONObject = { ...task, kind: 'task', status: statusFromV1(task.status) };
  if (Array.isArray(task.history)) converted.history = task.history.map(messageFromV1);
  if (Array.isArray(task.artifacts)) converted.artifacts = task.artifacts.map(artifactFromV1);
  return converted;
}

/** A 1.0 `{task}` or `{message}` as 0.3; any other value is `other`'s (a 0.3 value, with a `kind`, is kept). */
function wrappedFromV1(value: unknown, other: (value: JSONObject) => unknown): unknown {
  if (!isPlainObject(value) || value.kind !== undefined) return value;
  if (value.task !== undefined) return taskFromV1(value.task);
  if (value.message !== undefined) return messageFromV1(value.message);
  return other(value);
}

/** A 1.0 stream response (`{task}`, `{message}`, `{statusUpdate}`, `{artifactUpdate}`) as a 0.3 stream event. */
export function streamEventFromV1(value: unknown): unknown {
  return wrappedFromV1(value, (wrapper) => {
    const { statusUpdate, artifactUpdate } = wrapper;
    if (isPlainObject(statusUpdate)) {
      const status = statusFromV1(statusUpdate.status);
      const state = isPlainObject(status) ? status.state : undefined;
      return { ...statusUpdate, kind: 'status-update', status, final: typeof state === 'string' && isStreamEndState(state) };
    }
    return isPlainObject(artifactUpdate) ? { ...artifactUpdate, kind: 'artifact-update', artifact: artifactFromV1(artifactUpdate.artifact) } : wrapper;
  });
}

/** A 1.0 `SendMessage` result (`{task}` or `{message}`, or a bare task/message) as 0.3. */
export function sendResultFromV1(value: unknown): unknown {
  return wrappedFromV1(value, (bare) => ('status' in bare ? taskFromV1(bare) : messageFromV1(bare)));
}

// ----- encoding (0.3 → 1.0), for our handler's 1.0 answers and our client's 1.0 requests -----

function withoutUndefined(object: JSONObject): JSONObject {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

function partToV1(part: JSONObject): JSONObject {
  const metadata = part.metadata;
  if (part.kind === 'text') return withoutUndefined({ text: part.text, metadata });
  if (part.kind === 'data') return withoutUndefined({ data: part.data, metadata });
  const file = isPlainObject(part.file) ? part.file : {};
  return withoutUndefined({ raw: file.bytes, url: file.uri, filename: file.name, mediaType: file.mimeType, metadata });
}

/** A 0.3 message as 1.0. */
export function messageToV1(message: JSONObject): JSONObject {
  const { kind: _kind, role, parts, ...rest } = message;
  return withoutUndefined({ ...rest, role: role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER', parts: Array.isArray(parts) ? parts.map((part) => partToV1(part as JSONObject)) : parts });
}

function statusToV1(status: JSONObject): JSONObject {
  return withoutUndefined({ ...status, state: stateToV1(String(status.state)), message: isPlainObject(status.message) ? messageToV1(status.message) : undefined });
}

function artifactToV1(artifact: JSONObject): JSONObject {
  return withoutUndefined({ ...artifact, parts: Array.isArray(artifact.parts) ? artifact.parts.map((part) => partToV1(part as JSONObject)) : artifact.parts });
}

/** A 0.3 task as 1.0 (bare, as `GetTask` returns it). */
export function taskToV1(task: JSONObject): JSONObject {
  const { kind: _kind, status, history, artifacts, ...rest } = task;
  return withoutUndefined({
    ...rest,
    status: isPlainObject(status) ? statusToV1(status) : status,
    history: Array.isArray(history) ? history.map((message) => messageToV1(message as JSONObject)) : undefined,
    artifacts: Array.isArray(artifacts) ? artifacts.map((artifact) => artifactToV1(artifact as JSONObject)) : undefined,
  });
}

/** A 0.3 stream event (or send result) wrapped as a 1.0 stream response. */
export function streamEventToV1(event: JSONObject): JSONObject {
  switch (event.kind) {
    case 'task':
      return { task: taskToV1(event) };
    case 'message':
      return { message: messageToV1(event) };
    case 'status-update': {
      const { kind: _kind, final: _final, status, ...rest } = event;
      return { statusUpdate: withoutUndefined({ ...rest, status: isPlainObject(status) ? statusToV1(status) : status }) };
    }
    case 'artifact-update': {
      const { kind: _kind, artifact, ...rest } = event;
      return { artifactUpdate: withoutUndefined({ ...rest, artifact: isPlainObject(artifact) ? artifactToV1(artifact) : artifact }) };
    }
    default:
      return event;
  }
}
