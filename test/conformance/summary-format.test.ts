// The per-runtime conformance summary printed at the end of `npm test`: nothing hides in it.
import { describe, expect, it } from 'vitest';
import { formatSummary } from './summary.js';

describe('conformance summary', () => {
  it('prints nothing when no harness ran', () => {
    expect(formatSummary([])).toBe('');
  });

  it('lists runtimes in a fixed order with counts, then every skip with its reason and every failure', () => {
    const table = formatSummary([
      { runtime: 'chromium-iife', what: 'IIFE in Chromium', results: [{ name: 'a', status: 'passed', ms: 1 }, { name: 'b', status: 'skipped', ms: 0, reason: 'no sockets in a page' }] },
      { runtime: 'node', what: 'Node', results: [{ name: 'a', status: 'passed', ms: 1 }, { name: 'b', status: 'failed', ms: 3, error: 'Error: boom' }] },
    ]);
    const lines = table.split('\n');
    expect(lines[1]).toMatch(/^runtime\s+passed\s+failed\s+skipped\s+what ran$/);
    expect(lines[2]).toMatch(/^node\s+1\s+1\s+0\s+Node$/);
    expect(lines[3]).toMatch(/^chromium-iife\s+1\s+0\s+1\s+IIFE in Chromium$/);
    expect(lines.slice(4)).toEqual(['  FAILED in node: b — Error: boom', '  skipped in chromium-iife: b — no sockets in a page']);
  });

  it('shows a harness that began but never reported', () => {
    expect(formatSummary([{ runtime: 'deno', what: 'Deno' }])).toMatch(/^deno\s+-\s+-\s+-\s+Deno — DID NOT REPORT \(see the failures above\)$/m);
  });
});
