// A session key over 512 characters names its object by a hash. A well-formed one keeps the hash every earlier
// version gave it (SHA-256 over the key's UTF-8), so a conversation written before an upgrade is found after it, with
// `%` or `#` in the key too; a key with a lone surrogate is hashed over its escaped text, named `sha256u:` apart.
import { describe, expect, it } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { callSessionObject, DurableObjectSessionStore } from '../../src/cloudflare/durable-session-store.js';
import { FakeNamespace } from './fake-platform.js';
import { testAgent } from './node-agent.js';

/** The object name earlier versions gave a long session key. */
async function previousObjectName(prefix: string, sessionId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sessionId)));
  return `${prefix}sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

const namespaceOf = () => new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: { name: 'node-agent' }, namespace: 'A2A_TASKS' }));

describe('long session keys', () => {
  it.each([
    ['a URL-encoded key with %', `tenant-7/user/${'https%3A%2F%2Fshop.example%2Fcart%3Fid%3D'.repeat(20)}`],
    ['a key with #', `tenant-7/user/${'thread#'.repeat(100)}`],
    ['a plain key', `tenant-7/user/${'thread-'.repeat(100)}`],
  ])('%s written by an earlier version still finds its conversation', async (_name, key) => {
    expect(key.length).toBeGreaterThan(512);
    const namespace = namespaceOf();
    await callSessionObject(namespace, namespace.idFromName(await previousObjectName('session:', key)), { op: 'append', messages: [{ role: 'user', content: 'my order is 1234' }] });
    expect(await new DurableObjectSessionStore(namespace).load(key)).toEqual([{ role: 'user', content: 'my order is 1234' }]);
  });

  it('keys with lone surrogates stay apart from each other and from the key with U+FFFD', async () => {
    const namespace = namespaceOf();
    const store = new DurableObjectSessionStore(namespace);
    const base = 'thread-'.repeat(100);
    const keys = [`${base}\ud800`, `${base}\udc00`, `${base}\ufffd`, `${base}%uD800`];
    for (const key of keys) await store.append(key, [{ role: 'user', content: key }]);
    for (const key of keys) expect(await store.load(key)).toEqual([{ role: 'user', content: key }]);
  });
});
