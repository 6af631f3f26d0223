// npm run demo:approval runs offline: an approval, a denial and an expiry, each with what the model then saw; a resume
// sent twice runs the refund once; a wrong resume is refused with a typed error and the run still waits.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireDist } from '../conformance/dist.js';

requireDist();

const root = join(import.meta.dirname, '..', '..');
const output = execFileSync(process.execPath, [join(root, 'demo', 'approval', 'main.mjs')], { cwd: root, encoding: 'utf8', timeout: 60_000 });
const received = output.split('\n').filter((line) => line.startsWith('the model receives: ')).map((line) => JSON.parse(line.slice('the model receives: '.length)));

describe('npm run demo:approval', () => {
  it('shows the model a success, a structured denial with the reason, and a structured expiry', () => {
    expect(received).toHaveLength(3);
    expect(received[0]).toEqual({ ok: true, data: { orderId: 'A-1', refunded: 30 } });
    expect(received[1].error).toMatchObject({ type: 'ToolApprovalDenied', context: { reason: 'Refunds over $500 need a manager.' } });
    expect(received[1].error.suggestion).toMatch(/Do not call it again with the same arguments/);
    expect(received[2].error).toMatchObject({ type: 'ToolApprovalExpired' });
  });

  it('replays a resume sent twice without a second refund, and refuses a wrong one with a typed error', () => {
    expect(output).toContain('run finished, replay: true; refunds made: ["A-1"] (A-1 once)');
    expect(output).toMatch(/refused with InterruptNotFoundError \(INTERRUPT_NOT_FOUND\): .*it waits on approval-/);
    expect(output).toContain('a correct resume then ended it finished; refunds made: ["A-1"]');
  });
});
