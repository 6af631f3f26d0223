/**
 * Per-runtime conformance results: each harness announces itself (`begin`) when it loads and reports its results
 * (`report`) when they are in; both are kept under test/artifacts/ and printed as one table at the end of the run
 * (test/conformance/summary.ts). A harness that began and never reported shows up as such, never silently.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ScenarioResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
  reason?: string;
}

/** What a harness wrote: `results` is absent until it reported. */
export interface RuntimeReport {
  runtime: string;
  what: string;
  results?: ScenarioResult[];
}

export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

const file = (runtime: string) => join(ARTIFACTS, `conformance-${runtime}.json`);
const described = new Map<string, string>();

/** Announces a harness: `what` says what exactly runs where (shown in the summary). */
export function begin(runtime: string, what: string): void {
  described.set(runtime, what);
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(file(runtime), JSON.stringify({ runtime, what } satisfies RuntimeReport, null, 2));
}

/** Writes the results and prints `conformance <runtime>: N passed, M failed, K skipped (reasons)`. */
export function report(runtime: string, results: readonly ScenarioResult[]): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(file(runtime), JSON.stringify({ runtime, what: described.get(runtime) ?? runtime, results: [...results] } satisfies RuntimeReport, null, 2));
  const line = summaryLine(runtime, results);
  const failed = results.filter((result) => result.status === 'failed').map((result) => `${result.name}: ${result.error}`);
  console.log([line, ...failed.map((failure) => `  FAILED ${failure}`)].join('\n'));
  return line;
}

export function summaryLine(runtime: string, results: readonly ScenarioResult[]): string {
  const count = (status: ScenarioResult['status']) => results.filter((result) => result.status === status).length;
  const skipped = results.filter((result) => result.status === 'skipped').map((result) => `${result.name}: ${result.reason}`);
  return `conformance ${runtime}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}`;
}
