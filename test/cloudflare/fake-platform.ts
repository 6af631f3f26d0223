/**
 * Durable Objects in Node, for fast unit and property tests of the storage and routing layer (workerd runs the same
 * code in the miniflare tests): a storage that enforces the platform's limits on every call — 128 keys a call,
 * 2 KiB keys, 128 KiB values (the KV backend's, the stricter) — clones values in and out, and can be made to fail;
 * a namespace that creates one object per name and hands out stubs that call its `fetch`.
 */
import type { DurableObjectListOptions, DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStorageLike } from '../../src/cloudflare/types.js';

const MAX_KEYS = 128;
const MAX_KEY_BYTES = 2048;
const MAX_VALUE_BYTES = 128 * 1024 + 32;

function size(value: unknown): number {
  return new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value) ?? '').byteLength;
}

export class FakeStorage implements DurableObjectStorageLike {
  readonly data = new Map<string, unknown>();
  alarm: number | null = null;
  /** Every call made, for assertions ("put", "get", …). */
  readonly calls: string[] = [];
  /** Throws from the calls whose name matches. */
  failOn: RegExp | undefined;
  /** Throws from the calls that touch a key that matches. */
  failKeys: RegExp | undefined;
  /** The most keys with this prefix held at once (updated on every write). */
  readonly peak = { prefix: 'a2a:chunk:', keys: 0 };

  private check(name: string, keys: readonly string[]): void {
    this.calls.push(name);
    if (this.failOn?.test(name)) throw new Error(`storage ${name} failed (injected)`);
    if (this.failKeys && keys.some((key) => this.failKeys?.test(key))) throw new Error(`storage ${name} of ${keys.find((key) => this.failKeys?.test(key))} failed (injected)`);
    if (keys.length > MAX_KEYS) throw new RangeError(`${name}: ${keys.length} keys in one call (at most ${MAX_KEYS})`);
    for (const key of keys) if (size(key) > MAX_KEY_BYTES) throw new RangeError(`${name}: key of ${size(key)} bytes`);
  }

  async get(key: string | string[]): Promise<any> {
    if (Array.isArray(key)) {
      this.check('get', key);
      return new Map(key.filter((each) => this.data.has(each)).map((each) => [each, structuredClone(this.data.get(each))]));
    }
    this.check('get', [key]);
    return structuredClone(this.data.get(key));
  }

  async put(key: string | Record<string, unknown>, value?: unknown): Promise<void> {
    const entries = typeof key === 'string' ? { [key]: value } : key;
    this.check('put', Object.keys(entries));
    for (const [name, each] of Object.entries(entries)) if (size(each) > MAX_VALUE_BYTES) throw new RangeError(`put: value of ${size(each)} bytes under ${name}`);
    for (const [name, each] of Object.entries(entries)) this.data.set(name, structuredClone(each));
    this.peak.keys = Math.max(this.peak.keys, [...this.data.keys()].filter((name) => name.startsWith(this.peak.prefix)).length);
  }

  async delete(key: string | string[]): Promise<any> {
    const keys = Array.isArray(key) ? key : [key];
    this.check('delete', keys);
    let count = 0;
    for (const each of keys) if (this.data.delete(each)) count++;
    return Array.isArray(key) ? count : count > 0;
  }

  async list(options: DurableObjectListOptions = {}): Promise<Map<string, unknown>> {
    this.check('list', []);
    const { prefix = '', start, startAfter, end } = options;
    const keys = [...this.data.keys()].filter((key) => key.startsWith(prefix) && (start === undefined || key >= start) && (startAfter === undefined || key > startAfter) && (end === undefined || key < end)).sort();
    return new Map(keys.slice(0, options.limit ?? Infinity).map((key) => [key, structuredClone(this.data.get(key))]));
  }

  async deleteAll(): Promise<void> {
    this.check('deleteAll', []);
    this.data.clear();
  }

  async getAlarm(): Promise<number | null> {
    return this.alarm;
  }

  async setAlarm(time: number | Date): Promise<void> {
    this.check('setAlarm', []);
    this.alarm = typeof time === 'number' ? time : time.getTime();
  }

  async deleteAlarm(): Promise<void> {
    this.alarm = null;
  }
}

/** A state over `storage` (the object class does not use `blockConcurrencyWhile`: this one just runs the callback). */
export function fakeState(storage: FakeStorage): DurableObjectStateLike {
  return { storage, blockConcurrencyWhile: (callback) => callback() };
}

type ObjectClass = new (state: DurableObjectStateLike, env: unknown) => { fetch(request: Request): Promise<Response>; alarm(): Promise<void> };

/** A namespace of `Class` objects, one per name, each with its own fake storage (kept across `restart()`). */
export class FakeNamespace implements DurableObjectNamespaceLike {
  readonly storages = new Map<string, FakeStorage>();
  readonly objects = new Map<string, InstanceType<ObjectClass>>();
  env: Record<string, unknown> = {};
  /** Makes `stub.fetch` reject (an unreachable object). */
  unreachable = false;
  /** `failOn` of each storage created from now on, by object name. */
  failOn: ((name: string) => RegExp | undefined) | undefined;

  constructor(private readonly Class: ObjectClass, binding = 'A2A_TASKS') {
    this.env[binding] = this;
  }

  private unique = 0;

  idFromName(name: string) {
    return { toString: () => name };
  }

  newUniqueId() {
    const hex = (++this.unique).toString(16).padStart(64, '0');
    return { toString: () => hex };
  }

  idFromString(id: string) {
    if (!/^[0-9a-f]{64}$/.test(id) || BigInt(`0x${id}`) > BigInt(this.unique)) throw new TypeError('Invalid Durable Object ID: not an id of this namespace');
    return { toString: () => id };
  }

  get(id: { toString(): string }) {
    const name = id.toString();
    return {
      fetch: async (input: Request | string, init?: RequestInit): Promise<Response> => {
        if (this.unreachable) throw new Error('Network connection lost.');
        return this.object(name).fetch(new Request(input, init));
      },
    };
  }

  /** The object named `name`, created on first use (its constructor runs then). */
  object(name: string): InstanceType<ObjectClass> {
    let object = this.objects.get(name);
    if (!object) {
      let storage = this.storages.get(name);
      if (!storage) {
        storage = new FakeStorage();
        storage.failOn = this.failOn?.(name);
        this.storages.set(name, storage);
      }
      object = new this.Class(fakeState(storage), this.env);
      this.objects.set(name, object);
    }
    return object;
  }

  /**
   * Every object's memory is lost (a restart, an eviction, a deploy); storage stays. Each new instance gets its own
   * storage object over the same data, as on the platform (a view of the last: what a test set on either applies).
   */
  restart(): void {
    this.objects.clear();
    for (const [name, storage] of this.storages) this.storages.set(name, new Proxy(storage, {}));
  }
}
