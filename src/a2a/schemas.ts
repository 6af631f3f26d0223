/**
 * `zod/mini` schemas of the A2A 0.3 objects we accept. Objects are loose (unknown fields kept: peers add fields
 * between versions); required fields and enums are checked, so a malformed payload fails naming its path.
 */
import * as z from 'zod/mini';

const metadata = z.optional(z.record(z.string(), z.unknown()));

export const partSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('text'), text: z.string(), metadata }),
  z.looseObject({
    kind: z.literal('file'),
    file: z.union([
      z.looseObject({ bytes: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()) }),
      z.looseObject({ uri: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()) }),
    ]),
    metadata,
  }),
  z.looseObject({ kind: z.literal('data'), data: z.record(z.string(), z.unknown()), metadata }),
]);

export const messageSchema = z.looseObject({
  kind: z.literal('message'),
  messageId: z.string(),
  role: z.enum(['user', 'agent']),
  parts: z.array(partSchema),
  taskId: z.optional(z.string()),
  contextId: z.optional(z.string()),
  metadata,
  extensions: z.optional(z.array(z.string())),
  referenceTaskIds: z.optional(z.array(z.string())),
});

export const taskStateSchema = z.enum(['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown']);

export const taskStatusSchema = z.looseObject({
  state: taskStateSchema,
  message: z.optional(messageSchema),
  timestamp: z.optional(z.string()),
});

export const artifactSchema = z.looseObject({
  artifactId: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  parts: z.array(partSchema),
  metadata,
});

export const taskSchema = z.looseObject({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: taskStatusSchema,
  history: z.optional(z.array(messageSchema)),
  artifacts: z.optional(z.array(artifactSchema)),
  metadata,
});

export const statusUpdateSchema = z.looseObject({
  kind: z.literal('status-update'),
  taskId: z.string(),
  contextId: z.string(),
  status: taskStatusSchema,
  final: z.boolean(),
  metadata,
});

export const artifactUpdateSchema = z.looseObject({
  kind: z.literal('artifact-update'),
  taskId: z.string(),
  contextId: z.string(),
  artifact: artifactSchema,
  append: z.optional(z.boolean()),
  lastChunk: z.optional(z.boolean()),
  metadata,
});

export const sendResultSchema = z.discriminatedUnion('kind', [taskSchema, messageSchema]);
export const streamEventSchema = z.discriminatedUnion('kind', [taskSchema, messageSchema, statusUpdateSchema, artifactUpdateSchema]);

export const messageSendParamsSchema = z.looseObject({
  message: messageSchema,
  configuration: z.optional(
    z.looseObject({
      acceptedOutputModes: z.optional(z.array(z.string())),
      historyLength: z.optional(z.number()),
      blocking: z.optional(z.boolean()),
    }),
  ),
  metadata,
});

export const taskQueryParamsSchema = z.looseObject({ id: z.string(), historyLength: z.optional(z.number()), metadata });

export const agentCardSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  url: z.optional(z.string()),
  protocolVersion: z.optional(z.string()),
  preferredTransport: z.optional(z.string()),
  version: z.optional(z.string()),
  capabilities: z.optional(z.looseObject({ streaming: z.optional(z.boolean()) })),
  supportedInterfaces: z.optional(
    z.array(z.looseObject({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.optional(z.string()) })),
  ),
});
