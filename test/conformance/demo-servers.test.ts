// The A2A demo servers in their own runtimes: demo/worker (workerd through miniflare, wrangler.toml's settings, no
// nodejs_compat) and demo/deno (Deno.serve, loopback network permission only), each checked over real loopback HTTP
// by the built client.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript
import { readWranglerConfig, startWorkerDemo } from '../../demo/worker/dev.mjs';
// @ts-expect-error — plain JavaScript
import { demoChecks, runDemoChecks } from './a2a-demo-checks.mjs';
import { COMPATIBILITY_DATE, DIST, ROOT, requireDist } from './dist.js';
import { begin, report, type ScenarioResult } from './report.js';

requireDist();
begin('workerd-demo-worker', 'demo/worker in workerd (miniflare, wrangler.toml settings), checked over loopback HTTP');
begin('deno-demo-deno', 'demo/deno under Deno.serve (--allow-net=127.0.0.1), checked over loopback HTTP');
const F = await import(`${DIST}/index.js`);
const checks = demoChecks as Array<{ name: string }>;

function expectPassed(results: ScenarioResult[], name: string): void {
  const result = results.find((each) => each.name === name);
  expect(result?.status === 'failed' ? result.error : result?.status).toBe('passed');
}

describe('demo/worker: the A2A deployment on Durable Objects (workerd)', () => {
  let results: ScenarioResult[] = [];
  let server: { url: string; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const started = (await startWorkerDemo({ port: 0 })) as { url: string; close: () => Promise<void> };
    server = started;
    results = await runDemoChecks(F, started.url);
    report('workerd-demo-worker', results);
  }, 120_000);
  afterAll(async () => server?.close());

  it('wrangler.toml asks for no nodejs_compat and a date the installed workerd supports, and binds the Durable Object class with SQLite storage', () => {
    const config = readWranglerConfig();
    expect(config.main).toBe('worker.js');
    expect(config.durableObjects).toEqual([{ name: 'A2A_TASKS', className: 'A2ATasks', useSQLite: true }]);
    expect(config.compatibilityFlags.filter((flag: string) => flag.includes('nodejs'))).toEqual([]);
    expect(config.compatibilityDate <= COMPATIBILITY_DATE).toBe(true);
  });
  for (const check of checks) it(check.name, () => expectPassed(results, check.name));
});

/** Starts demo/deno/main.js on a free port with only loopback network permission; resolves its URL. */
function startDenoDemo(): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(join(ROOT, 'node_modules', '.bin', 'deno'), ['run', '--no-prompt', '--allow-net=127.0.0.1', 'demo/deno/main.js', '0'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo/deno did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`demo/deno exited with ${code}:\n${output}`));
    });
  });
}

describe('demo/deno: the A2A handler under Deno.serve', () => {
  let results: ScenarioResult[] = [];
  let demo: Awaited<ReturnType<typeof startDenoDemo>> | undefined;
  beforeAll(async () => {
    demo = await startDenoDemo();
    results = await runDemoChecks(F, demo.url);
    report('deno-demo-deno', results);
  }, 120_000);
  afterAll(() => {
    demo?.child.kill('SIGTERM');
  });

  for (const check of checks) it(check.name, () => expectPassed(results, check.name));
  it('needed no permission beyond loopback network access (no prompt, no denial)', () => {
    expect(demo?.output()).not.toMatch(/PermissionDenied|NotCapable|requires .* access/i);
  });
});
