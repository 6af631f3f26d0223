/**
 * One Durable Object class served by three Worker scripts in workerd (miniflare): `owner` defines the class, `front1`
 * and `front2` reach the same objects through it — two isolates racing over one object, as two Cloudflare locations
 * would. `persist` keeps the objects' storage across a stop and a start (a restart).
 */
import { Miniflare } from 'miniflare';
import { COMPATIBILITY_DATE } from '../conformance/dist.js';

/** The deployment: a request through isolate 1 or 2, and the miniflare instance. */
export interface TwoFronts {
  mf: Miniflare;
  fetch(front: 1 | 2, url: string, init?: RequestInit): Promise<Response>;
  dispose(): Promise<void>;
}

export async function deployTwoFronts(options: { script: string; binding: string; className: string; persist: string; bindings?: Record<string, string> }): Promise<TwoFronts> {
  const { script, binding, className, persist } = options;
  const objects = (own: boolean) => ({ [binding]: own ? { className, useSQLite: true } : { className, scriptName: 'owner', useSQLite: true } });
  const common = { modules: true, script, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: [] as string[], bindings: options.bindings ?? {} };
  const mf = new Miniflare({
    durableObjectsPersist: persist,
    workers: [
      { ...common, name: 'owner', durableObjects: objects(true) },
      { ...common, name: 'front1', durableObjects: objects(false) },
      { ...common, name: 'front2', durableObjects: objects(false) },
    ],
  });
  await mf.ready;
  const fronts = { 1: await mf.getWorker('front1'), 2: await mf.getWorker('front2') } as unknown as Record<1 | 2, { fetch(url: string, init?: RequestInit): Promise<Response> }>;
  return { mf, fetch: (front, url, init) => fronts[front].fetch(url, init), dispose: () => mf.dispose() };
}
