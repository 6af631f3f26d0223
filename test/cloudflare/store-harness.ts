/** test/cloudflare/workers/store-objects.mjs in workerd (miniflare, SQLite-backed storage): one call at a time. */
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { bundle } from '../conformance/bundle.js';
import { COMPATIBILITY_DATE, ROOT, requireDist } from '../conformance/dist.js';

export interface StoreCall {
  ok: boolean;
  result?: any;
  name?: string;
  code?: string;
  message?: string;
}

export async function storeObjects(): Promise<{ call: (op: string, args?: unknown, object?: string) => Promise<StoreCall>; dispose: () => Promise<void> }> {
  requireDist();
  const script = (await bundle(join(ROOT, 'test/cloudflare/workers/store-objects.mjs'))) as string;
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: { STORES: { className: 'Stores', useSQLite: true }, A2A_TASKS: { className: 'A2ATasks', useSQLite: true } },
  });
  await mf.ready;
  const call = async (op: string, args: unknown = {}, object = 'stores') => (await (await mf.dispatchFetch('http://stores/', { method: 'POST', body: JSON.stringify({ op, args, object }) })).json()) as StoreCall;
  return { call, dispose: () => mf.dispose() };
}
