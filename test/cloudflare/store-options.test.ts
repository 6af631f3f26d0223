// The Durable Object stores' constructors check what they are given: the storage or namespace (duck-typed: the methods
// the store calls), the options object, its names and their types — a ConfigError listing every problem at once,
// never a TypeError at the first call nor a mistyped option silently left at its default.
import { describe, expect, it } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { DurableObjectCheckpointer } from '../../src/cloudflare/durable-checkpointer.js';
import { DurableObjectRunStateStore } from '../../src/cloudflare/durable-run-state-store.js';
import { DurableObjectSessionStore } from '../../src/cloudflare/durable-session-store.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { FakeNamespace, FakeStorage } from './fake-platform.js';
import { testAgent } from './node-agent.js';

/** The problems of the ConfigError `build` throws. */
function problemsOf(build: () => unknown): readonly string[] {
  try {
    build();
  } catch (error) {
    if (ConfigError.isInstance(error)) return error.problems;
    throw error;
  }
  throw new Error('no ConfigError');
}

const namespace = () => new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: { name: 'node-agent' }, namespace: 'A2A_TASKS' }));
const STORAGE = "storage must be a Durable Object's storage (state.storage) with get, put, delete, list";

describe('DurableObjectSessionStore options', () => {
  it.each<[string, () => unknown, string[]]>([
    ['null options', () => new DurableObjectSessionStore(namespace(), null as never), ['options must be an object (got null)']],
    ['options that are a string', () => new DurableObjectSessionStore(namespace(), 'tenant-a:' as never), ['options must be an object (got "tenant-a:")']],
    ['a mistyped prefix', () => new DurableObjectSessionStore(namespace(), { prefx: 'tenant-a:' } as never), ['unknown option "prefx" (did you mean prefix?)']],
    ['a prefix that is a number', () => new DurableObjectSessionStore(namespace(), { prefix: 42 } as never), ['prefix must be a string (got 42)']],
    ['no namespace', () => new DurableObjectSessionStore(undefined as never), ['namespace must be a Durable Object namespace binding with idFromName, get (got undefined)']],
    ['a namespace without get', () => new DurableObjectSessionStore({ idFromName: () => 'x' } as never), ['namespace must be a Durable Object namespace binding with idFromName, get (got one without get)']],
    ['everything at once', () => new DurableObjectSessionStore({} as never, { prefx: 'a', prefix: 1 } as never), ['namespace must be a Durable Object namespace binding with idFromName, get (got one without idFromName, get)', 'unknown option "prefx" (did you mean prefix?)', 'prefix must be a string (got 1)']],
  ])('%s is a ConfigError naming it', (_name, build, problems) => {
    expect(problemsOf(build)).toEqual(problems);
  });

  it('keeps tenants apart by prefix, and takes no options or empty ones', async () => {
    const shared = namespace();
    const a = new DurableObjectSessionStore(shared, { prefix: 'tenant-a:' });
    const b = new DurableObjectSessionStore(shared, { prefix: 'tenant-b:' });
    await a.append('s', [{ role: 'user', content: 'for a' }]);
    expect(await b.load('s')).toEqual([]);
    expect((await a.load('s')).map((message) => message.content)).toEqual(['for a']);
    expect(() => new DurableObjectSessionStore(shared)).not.toThrow();
    expect(() => new DurableObjectSessionStore(shared, {})).not.toThrow();
    expect(() => new DurableObjectSessionStore(shared, { prefix: undefined })).not.toThrow();
  });
});

describe('DurableObjectCheckpointer and DurableObjectRunStateStore storage', () => {
  it.each<[string, () => unknown, string[]]>([
    ['a checkpointer over nothing', () => new DurableObjectCheckpointer(undefined as never), [`${STORAGE} (got undefined)`]],
    ['a checkpointer over a state instead of its storage', () => new DurableObjectCheckpointer({ storage: new FakeStorage() } as never), [`${STORAGE} (got one without get, put, delete, list)`]],
    ['a checkpointer over a Map', () => new DurableObjectCheckpointer(new Map() as never), [`${STORAGE} (got one without put, list)`]],
    ['a run-state store over nothing', () => new DurableObjectRunStateStore(undefined as never), [`${STORAGE} (got undefined)`]],
    ['a run-state store with null options', () => new DurableObjectRunStateStore(new FakeStorage(), null as never), ['options must be an object (got null)']],
    ['a run-state store, everything at once', () => new DurableObjectRunStateStore('storage' as never, { ttlMs: 0, maxRecordByte: 5 } as never), [`${STORAGE} (got "storage")`, 'unknown option "maxRecordByte" (did you mean maxRecordBytes?)', 'ttlMs must be an integer > 0 (got 0)']],
  ])('%s is a ConfigError naming it', (_name, build, problems) => {
    expect(problemsOf(build)).toEqual(problems);
  });

  it('a checkpointer over nothing never reaches a call (it used to fail at get() with a TypeError)', () => {
    expect(() => new DurableObjectCheckpointer(null as never)).toThrow(/Invalid DurableObjectCheckpointer: storage must be/);
    expect(() => new DurableObjectCheckpointer(new FakeStorage())).not.toThrow();
    expect(() => new DurableObjectRunStateStore(new FakeStorage(), {})).not.toThrow();
  });
});
