/**
 * A2A 0.3 protocol objects (JSON field names as on the wire). A2A 1.0 payloads are decoded into these same types.
 * @see https://a2a-protocol.org/v0.3.0/specification/
 */

/** Free-form metadata. */
export type A2AMetadata = Record<string, unknown>;

/** A text part. */
export interface TextPart {
  kind: 'text';
  text: string;
  metadata?: A2AMetadata;
}

/** A file part: inline base64 `bytes` or a `uri`. */
export interface FilePart {
  kind: 'file';
  file: { name?: string; mimeType?: string; bytes: string } | { name?: string; mimeType?: string; uri: string };
  metadata?: A2AMetadata;
}

/** A structured data part. */
export interface DataPart {
  kind: 'data';
  data: Record<string, unknown>;
  metadata?: A2AMetadata;
}

/** A piece of message or artifact content. */
export type Part = TextPart | FilePart | DataPart;

/** A message between user and agent. */
export interface A2AMessage {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: Part[];
  taskId?: string;
  contextId?: string;
  metadata?: A2AMetadata;
  extensions?: string[];
  referenceTaskIds?: string[];
}

/** A task's state, with an optional agent message. */
export interface TaskStatus {
  state: string;
  message?: A2AMessage;
  /** ISO-8601. */
  timestamp?: string;
}

/** An output of a task. */
export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: A2AMetadata;
  extensions?: string[];
}

/** A unit of work and its state. */
export interface Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: TaskStatus;
  history?: A2AMessage[];
  artifacts?: Artifact[];
  metadata?: A2AMetadata;
}

/** A streamed change of a task's state; `final` marks the end of the stream. */
export interface TaskStatusUpdateEvent {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: TaskStatus;
  final: boolean;
  metadata?: A2AMetadata;
}

/** A streamed (piece of an) artifact; `lastChunk` marks its end. */
export interface TaskArtifactUpdateEvent {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: A2AMetadata;
}

/** What `message/send` returns. */
export type SendMessageResult = Task | A2AMessage;
/** One item of `message/stream` or `tasks/resubscribe`. */
export type A2AStreamEvent = A2AMessage | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

/** Params of `message/send` and `message/stream`. */
export interface MessageSendParams {
  message: A2AMessage;
  configuration?: {
    acceptedOutputModes?: string[];
    historyLength?: number;
    blocking?: boolean;
    pushNotificationConfig?: unknown;
  };
  metadata?: A2AMetadata;
}

/** A skill an agent card advertises. */
export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

/** An agent card (0.3 fields, plus 1.0's `supportedInterfaces` when present). */
export interface AgentCard {
  protocolVersion?: string;
  name: string;
  description: string;
  url: string;
  preferredTransport?: string;
  additionalInterfaces?: Array<{ url: string; transport: string }>;
  supportedInterfaces?: Array<{ url: string; protocolBinding: string; protocolVersion?: string; tenant?: string }>;
  version: string;
  capabilities: { streaming?: boolean; pushNotifications?: boolean; stateTransitionHistory?: boolean; extensions?: unknown[] };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkill[];
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  supportsAuthenticatedExtendedCard?: boolean;
  [extra: string]: unknown;
}

/** A JSON-RPC 2.0 error object. */
export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC 2.0 request. */
export interface JSONRPCRequest {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: unknown;
}

/** A JSON-RPC 2.0 response. */
export type JSONRPCResponse =
  | { jsonrpc: '2.0'; id: string | number | null; result: unknown }
  | { jsonrpc: '2.0'; id: string | number | null; error: JSONRPCErrorObject };
