// Conformance in Deno: spawns `deno test` (the deno npm package's binary) on test/conformance/deno/, against the
// loopback fault server, and reads its per-test results.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireDist } from './dist.js';
// @ts-expect-error — plain JavaScript
import { startFaultServer } from './fault-server.mjs';
import { begin, report, type ScenarioResult } from './report.js';
// @ts-expect-error — plain JavaScript shared by every runtime
import { scenarios } from './scenarios.mjs';

requireDist();
begin('deno', 'Deno: deno test, --allow-net to the loopback fault server only, the ESM build');
const DENO = join(ROOT, 'node_modules', '.bin', 'deno');

function runDeno(faultURL: string): Promise<{ code: number; output: string }> {
  const port = new URL(faultURL).port;
  const args = ['test', '--no-check', `--allow-net=127.0.0.1:${port}`, '--allow-env=FAULTLINE_FAULT_URL', 'test/conformance/deno/conformance_test.js'];
  return new Promise((resolve) => {
    execFile(DENO, args, { cwd: ROOT, env: { ...process.env, FAULTLINE_FAULT_URL: faultURL, NO_COLOR: '1' }, timeout: 240_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` });
    });
  });
}

/** `<name> ... ok (12ms)` / `... FAILED` / `... ignored` lines of `deno test`. */
function parse(output: string): ScenarioResult[] {
  return (scenarios as Array<{ name: string; skip?: Record<string, string> }>).map((scenario) => {
    const reason = scenario.skip?.deno;
    const name = reason ? `${scenario.name} (skipped: ${reason})` : scenario.name;
    const line = output.split('\n').find((each) => each.startsWith(`${name} ...`));
    const status = line?.includes('... ok') ? 'passed' : line?.includes('... ignored') ? 'skipped' : 'failed';
    const detail = status === 'failed' ? (output.split(`${name} => `)[1]?.split('\n').slice(0, 6).join(' ') ?? line ?? 'not run') : undefined;
    return { name: scenario.name, status, ms: Number(/\((\d+)ms\)/.exec(line ?? '')?.[1] ?? 0), ...(detail ? { error: detail } : {}), ...(reason ? { reason } : {}) };
  });
}

describe('conformance: Deno (dist, deno test, loopback fault server)', () => {
  let results: ScenarioResult[] = [];
  let server: { url: string; close: () => Promise<void> };
  let run: { code: number; output: string };
  beforeAll(async () => {
    server = await startFaultServer();
    run = await runDeno(server.url);
    results = parse(run.output);
    report('deno', results);
  }, 300_000);
  afterAll(async () => server?.close());

  it('runs deno test without --allow-all and it exits cleanly', () => {
    expect(run.output).toMatch(/ok \| \d+ passed/);
    expect(run.code).toBe(0);
  });

  for (const scenario of scenarios as Array<{ name: string }>) {
    it(scenario.name, () => {
      const result = results.find((each) => each.name === scenario.name);
      expect(result?.status === 'failed' ? result.error : result?.status).toMatch(/^(passed|skipped)$/);
    });
  }
});
