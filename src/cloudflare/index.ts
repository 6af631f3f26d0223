export { createA2ADurableObject, type A2ADurableObject, type A2ADurableObjectClass } from './a2a-object.js';
export { createA2AWorker, type A2AWorker } from './a2a-worker.js';
export { DurableObjectCheckpointer, type DurableObjectCheckpointerOptions } from './durable-checkpointer.js';
export { DurableObjectRunStateStore, type DurableObjectRunStateStoreOptions } from './durable-run-state-store.js';
export { DurableObjectSessionStore, type DurableObjectSessionStoreOptions } from './durable-session-store.js';
export type { A2ADurableObjectOptions, A2AObjectContext, A2AWorkerOptions, NamespaceOption } from './options.js';
export { TASK_ABANDONED } from './task-recovery.js';
export type {
  DurableObjectIdLike,
  DurableObjectListOptions,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
} from './types.js';
