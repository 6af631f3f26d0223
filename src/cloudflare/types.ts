/**
 * The parts of the Cloudflare Durable Object API this folder uses, as structural types: no `cloudflare:workers`
 * import and no `@cloudflare/workers-types` dependency, so the package builds and type-checks anywhere, and the
 * platform's own `DurableObjectNamespace` / `DurableObjectState` fit them.
 */

/** A Durable Object id (`namespace.idFromName(name)`). */
export interface DurableObjectIdLike {
  toString(): string;
}

/** A stub: requests to one object. */
export interface DurableObjectStubLike {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

/**
 * A Durable Object namespace binding (`env.A2A_TASKS`), as `wrangler.toml`'s `[[durable_objects.bindings]]` gives it.
 * @example `createA2AWorker({ namespace: (env) => (env as { A2A_TASKS: DurableObjectNamespaceLike }).A2A_TASKS, card })`
 */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): DurableObjectIdLike;
  /** A random id of an object that does not exist yet (no global coordination on its first access). */
  newUniqueId(): DurableObjectIdLike;
  /** The id from its 64-digit hex form; throws for a string that is not an id of this namespace. */
  idFromString(id: string): DurableObjectIdLike;
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}

/** Options of `storage.list`. */
export interface DurableObjectListOptions {
  prefix?: string;
  start?: string;
  startAfter?: string;
  end?: string;
  limit?: number;
  reverse?: boolean;
}

/** The transactional key-value storage of one object (`state.storage`; SQLite- or KV-backed). */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  get(keys: string[]): Promise<Map<string, unknown>>;
  put(key: string, value: unknown): Promise<void>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  list(options?: DurableObjectListOptions): Promise<Map<string, unknown>>;
  deleteAll(): Promise<void>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number | Date): Promise<void>;
  deleteAlarm(): Promise<void>;
}

/** What an object's constructor receives first (`ctx` / `state`). */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
  waitUntil?(promise: Promise<unknown>): void;
}
