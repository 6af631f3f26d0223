// `npm run demo:mcp` (demo/mcp/main.mjs) as a user runs it, against the built package: offline (the scripted model),
// it must exit 0 in a few seconds, show the model the typed failure of each MCP tool call — the same as the tool run
// locally — and never let the planted key out, nor the internal host name reach the model or the client.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireDist } from '../conformance/dist.js';
// @ts-expect-error — plain JavaScript demo module
import { INTERNAL_HOST, PLANTED_KEY } from '../../demo/mcp/orders.mjs';

requireDist();

interface DemoRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function runDemo(): Promise<DemoRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY; // the offline path: the scripted model
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'demo', 'mcp', 'main.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`demo/mcp did not exit in 30 s:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** The tool messages the model received, in call order (the `model saw:` lines). */
function modelSaw(stdout: string): Array<{ ok: boolean; error?: { type: string; message: string; context?: Record<string, unknown>; suggestion?: string } }> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('   model saw: '))
    .map((line) => JSON.parse(line.slice('   model saw: '.length).trim()));
}

describe('the MCP demo (demo/mcp/main.mjs)', () => {
  let run: DemoRun;
  beforeAll(async () => {
    run = await runDemo();
  }, 40_000);

  it('exits 0, offline, in a few seconds, with nothing on stderr', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.ms).toBeLessThan(10_000);
    expect(run.stdout).toContain('the built-in scripted model (offline)');
    expect(run.stdout).toMatch(/== An MCP server on http:\/\/127\.0\.0\.1:\d+\/mcp \(order-desk 1\.0\.0, protocol \d{4}-\d{2}-\d{2}\) ==/);
  });

  it('shows the model one typed result per way of failing, in call order', () => {
    const results = modelSaw(run.stdout);
    expect(results.map((result) => (result.ok ? 'ok' : result.error?.type))).toEqual([
      'ok',
      'DataNotFoundError',
      'InputValidationError',
      'ToolInternalError',
      'TimeoutError',
      'ToolNotFound',
    ]);
    const [success, notFound, invalid, crash, timeout, unknown] = results;
    expect(success).toEqual({ ok: true, data: { order_id: 'A-1001', status: 'shipped', items: 2, total_eur: 59.9 } });
    expect(notFound?.error).toMatchObject({ message: 'No order A-9999 exists.', context: { order_id: 'A-9999' }, suggestion: expect.stringContaining('confirmation e-mail') });
    expect(invalid?.error?.context).toMatchObject({ issues: [{ path: 'order_id' }] });
    expect(crash?.error?.message).toBe("The tool 'refund_order' failed with an unexpected internal error.");
    expect(timeout?.error).toMatchObject({ context: { timeoutMs: 300 } });
    expect(unknown?.error?.context).toMatchObject({ requested: 'cancel_order', available: ['get_order', 'refund_order', 'track_shipment'] });
  });

  it('says each MCP failure looks to the model like the same tool run locally', () => {
    const verdicts = run.stdout.split('\n').filter((line) => line.startsWith('   as a local tool: '));
    expect(verdicts).toHaveLength(6);
    for (const verdict of verdicts) expect(verdict).toMatch(/identical ✓|the same type \(\w+\) ✓/);
    expect(verdicts.filter((verdict) => verdict.includes('identical ✓')).length).toBeGreaterThanOrEqual(5);
    expect(run.stdout).toContain('The planted key appeared nowhere');
  });

  it('gives the developer the real crash (redacted), never the model', () => {
    const crashLog = run.stdout.split('\n').find((line) => line.includes('error tool.crash'));
    expect(crashLog).toContain(`connect ECONNREFUSED ${INTERNAL_HOST}:5432`);
    expect(crashLog).toContain('[REDACTED]');
    expect(run.stdout).toMatch(/Error with its stack, at .*demo\/mcp\/orders\.mjs/);
  });

  it('never prints the planted key, and the internal host name only in the server developer log', () => {
    expect(run.stdout + run.stderr).not.toContain(PLANTED_KEY);
    expect(run.stdout + run.stderr).not.toContain(PLANTED_KEY.slice('sk-live-'.length));
    const withHost = run.stdout.split('\n').filter((line) => line.includes(INTERNAL_HOST));
    expect(withHost).toHaveLength(1);
    expect(withHost[0]).toMatch(/server \(the tool ran there\): error tool\.crash: /);
    for (const result of modelSaw(run.stdout)) expect(JSON.stringify(result)).not.toContain(INTERNAL_HOST);
  });
});
