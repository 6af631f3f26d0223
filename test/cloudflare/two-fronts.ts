/**
 * One Durable Object class served by three Worker scripts in workerd (miniflare): `owner` defines the class, `front1`
 * and `front2` reach the same objects through it — two isolates racing over one object, as two Cloudflare locations
 * would. `persist` keeps the objects' storage across a stop and a start (a restart).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll } from 'vitest';
import { bundle } from '../conformance/bundle.js';
import { COMPATIBILITY_DATE, ROOT, requireDist } from '../conformance/dist.js';
import { startProbe } from './harness.js';

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

/** What a test file of two-isolate objects shares: the bundled Worker, a folder for persisted storage, the probe. */
export interface TwoFrontsSuite<Summary> {
  /** The probe the objects report to (`hits` by path). */
  readonly probe: Probe;
  /** A folder for one deployment's persisted storage (the same name: the same storage, for a restart). */
  path(name: string): string;
  /**
   * Deploys the objects on the storage at `persist` (with `bindings` besides the probe's): a request through isolate
   * 1 or 2 gives the object's JSON answer.
   */
  deploy(persist: string, bindings?: Record<string, string>): Promise<{ mf: Miniflare; call(front: 1 | 2, path: string, body?: unknown): Promise<Summary>; dispose(): Promise<void> }>;
}

type Probe = Awaited<ReturnType<typeof startProbe>>;

/**
 * Registers the file's hooks (bundle `worker` once, a temporary folder, a probe; all removed after) and gives its
 * deployments: `binding`/`className` name the object, `host` the URL the fronts are called at, `method` how.
 */
export function twoFrontsSuite<Summary>(options: { worker: string; binding: string; className: string; host: string; method: 'GET' | 'POST' }): TwoFrontsSuite<Summary> {
  let script: Promise<string>;
  let dir: string;
  let probe: Probe | undefined;
  beforeAll(async () => {
    requireDist();
    script = bundle(join(ROOT, 'test/cloudflare/workers', options.worker)) as Promise<string>;
    dir = mkdtempSync(join(tmpdir(), `faultline-${options.className.toLowerCase()}-`));
    probe = await startProbe();
  });
  afterAll(async () => {
    await probe?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get probe() {
      return probe as Probe;
    },
    path: (name) => join(dir, name),
    async deploy(persist, bindings) {
      const fronts = await deployTwoFronts({ script: await script, binding: options.binding, className: options.className, persist, bindings: { ...bindings, PROBE: (probe as Probe).url } });
      const init = (body: unknown): RequestInit | undefined => (options.method === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : undefined);
      return {
        mf: fronts.mf,
        call: async (front, path, body) => (await (await fronts.fetch(front, `http://${options.host}${path}`, init(body))).json()) as Summary,
        dispose: fronts.dispose,
      };
    },
  };
}
