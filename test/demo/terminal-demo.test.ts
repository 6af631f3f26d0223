// The README's first command runs the terminal demo offline: it must end cleanly, print each developer-side line under
// the call it belongs to, and show every developer log record it announces.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireDist } from '../conformance/dist.js';

requireDist();

const root = join(import.meta.dirname, '..', '..');
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OPENAI|ANTHROPIC)_/.test(key)));
const output = execFileSync(process.execPath, [join(root, 'demo', 'terminal.mjs')], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
const lines = output.split('\n');

describe('npm run demo (offline, on the scripted model)', () => {
  it('prints the real crash under the call that crashed, and nowhere else', () => {
    const crashes = lines.flatMap((line, index) => (line.includes('the developer sees the real crash') ? [index] : []));
    expect(crashes.length).toBeGreaterThan(0);
    for (const index of crashes) {
      // The call's result header, then what the model receives, then the developer's line.
      expect(lines[index - 2]).toMatch(/^call_\S+ \S+ → crash after \d+ attempt/);
      expect(lines[index - 1]).toContain('"type":"ToolInternalError"');
    }
  });

  it('shows every developer log record it counts', () => {
    const header = lines.findIndex((line) => line.includes("== The developer's layer:"));
    const count = Number(/(\d+) tool log records/.exec(lines[header] ?? '')?.[1]);
    expect(count).toBeGreaterThan(0);
    const records = lines.slice(header + 1).filter((line) => /^(debug|info|warn|error)\s+tool\./.test(line));
    expect(records).toHaveLength(count);
    expect(records.some((line) => line.startsWith('error tool.crash'))).toBe(true);
  });
});
