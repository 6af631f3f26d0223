/**
 * Vitest global setup: clears the previous conformance reports before the run and prints the per-runtime summary
 * (passed / failed / skipped with reasons) after it, from what each harness wrote (see report.ts).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, type RuntimeReport } from './report.js';

const reports = () => (existsSync(ARTIFACTS) ? readdirSync(ARTIFACTS).filter((name) => /^conformance-.+\.json$/.test(name)) : []);

export function setup(): () => void {
  for (const name of reports()) rmSync(join(ARTIFACTS, name));
  return () => {
    const table = formatSummary(reports().map((name) => JSON.parse(readFileSync(join(ARTIFACTS, name), 'utf8')) as RuntimeReport));
    if (table !== '') console.log(`\n${table}\n`);
  };
}

const ORDER = ['node', 'deno', 'workerd', 'chromium-esm', 'chromium-iife', 'workerd-demo-worker', 'deno-demo-deno'];

/** The summary table; '' when no conformance harness ran. */
export function formatSummary(runtimes: readonly RuntimeReport[]): string {
  if (runtimes.length === 0) return '';
  const rank = (runtime: string) => (ORDER.indexOf(runtime) + ORDER.length + 1) % (ORDER.length + 1); // unknown ones last
  const ordered = [...runtimes].sort((a, b) => rank(a.runtime) - rank(b.runtime) || a.runtime.localeCompare(b.runtime));
  const rows = ordered.map((each) => {
    const results = each.results;
    if (!results) return [each.runtime, '-', '-', '-', `${each.what} — DID NOT REPORT (see the failures above)`];
    const count = (status: string) => String(results.filter((result) => result.status === status).length);
    return [each.runtime, count('passed'), count('failed'), count('skipped'), each.what];
  });
  const header = ['runtime', 'passed', 'failed', 'skipped', 'what ran'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number))).join('  ');
  const notes = ordered.flatMap((each) => [
    ...(each.results ?? []).filter((result) => result.status === 'skipped').map((result) => `  skipped in ${each.runtime}: ${result.name} — ${result.reason}`),
    ...(each.results ?? []).filter((result) => result.status === 'failed').map((result) => `  FAILED in ${each.runtime}: ${result.name} — ${result.error}`),
  ]);
  return ['Conformance summary (the built dist/ in each runtime)', line(header), ...rows.map(line), ...notes].join('\n');
}
