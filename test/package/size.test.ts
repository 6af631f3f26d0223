// Size budgets (min+gzip, each entry bundled with its dependencies and tree-shaken, scripts/size.mjs): over budget
// fails, and so does a recorded figure that no longer matches what ships (docs/PERFORMANCE.md's size table and size-budgets.json stay true).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript
import { measureAll, readBudgets, ROOT } from '../../scripts/size.mjs';
import { requireDist } from '../conformance/dist.js';

requireDist();

interface Measured {
  name: string;
  budget: number;
  recorded: number;
  gzip: number;
  minified: number;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('size budgets (min+gzip)', () => {
  let measured: Measured[] = [];
  beforeAll(async () => {
    measured = await measureAll();
    console.log(measured.map((entry) => `size ${entry.name}: ${kb(entry.gzip)} gzip (budget ${kb(entry.budget)})`).join('\n'));
  }, 300_000); // bundling every entry: minutes on a loaded 2-core machine

  for (const entry of readBudgets() as Measured[]) {
    it(`${entry.name} is within its budget of ${kb(entry.budget)}`, () => {
      const size = measured.find((each) => each.name === entry.name);
      expect(size?.gzip).toBeGreaterThan(0);
      expect(size?.gzip).toBeLessThanOrEqual(entry.budget);
    });
    it(`${entry.name}: the recorded figure is within 5% of what ships (else: npm run size -- --write)`, () => {
      const size = measured.find((each) => each.name === entry.name) as Measured;
      expect(Math.abs(size.gzip - entry.recorded) / entry.recorded).toBeLessThanOrEqual(0.05);
    });
  }

  it("docs/PERFORMANCE.md's size table shows each recorded figure and budget", () => {
    const text = readFileSync(join(ROOT, 'docs', 'PERFORMANCE.md'), 'utf8');
    const start = text.indexOf('\n## Sizes');
    expect(start, 'docs/PERFORMANCE.md has a "## Sizes" section').toBeGreaterThan(-1);
    const next = text.indexOf('\n## ', start + 1);
    const section = text.slice(start, next === -1 ? undefined : next);
    for (const entry of readBudgets() as Measured[]) {
      const row = section.split('\n').find((line) => line.startsWith(`| ${entry.name} |`));
      expect(row, `size table row for ${entry.name}`).toBeDefined();
      expect(row).toContain(`| ${kb(entry.recorded)} | ${kb(entry.budget)} |`);
    }
  });
});
