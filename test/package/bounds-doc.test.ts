import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/bounds.md is the one list of every bound: each row must name the test that proves it (a file that exists and
// names the bound's option or figure is the reviewer's job; that it exists is this test's) and an option the source
// really has, so the table cannot drift from the code unnoticed.

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'bounds.md'), 'utf8');

function sourceText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => (entry.isDirectory() ? sourceText(join(dir, entry.name)) : entry.name.endsWith('.ts') ? readFileSync(join(dir, entry.name), 'utf8') : ''))
    .join('\n');
}
const source = sourceText(join(root, 'src'));

interface Row {
  what: string;
  option: string;
  proof: string;
}
const rows: Row[] = page
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| what') && !line.startsWith('| ---'))
  .map((line) => {
    const cells = line.slice(2, -2).split(' | ');
    return { what: cells[0] ?? '', option: cells[2] ?? '', proof: cells[3] ?? '' };
  });
const ticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);

describe('docs/bounds.md', () => {
  it('has its rows in four columns', () => {
    expect(rows.length).toBeGreaterThan(40);
    for (const row of rows) expect(row.proof, row.what).not.toBe('');
  });

  it.each(rows.map((row) => [row.what, row] as const))('names a test that exists for: %s', (_what, row) => {
    const files = ticked(row.proof);
    expect(files.length, row.what).toBeGreaterThan(0);
    for (const file of files) {
      expect(file, row.what).toMatch(/^test\/.+\.test\.ts$/);
      expect(existsSync(join(root, file)), `${file} (${row.what})`).toBe(true);
    }
  });

  it.each(rows.filter((row) => row.option !== '—').map((row) => [row.what, row] as const))('names options the source has for: %s', (_what, row) => {
    for (const option of ticked(row.option)) {
      for (const part of option.split('.')) expect(source.includes(part), `${part} (${row.what})`).toBe(true);
    }
  });
});
