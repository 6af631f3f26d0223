/** Per-runtime conformance results: printed as a summary line and kept under test/artifacts/ for the final table. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ScenarioResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
  reason?: string;
}

export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

/** Writes the results and prints `conformance <runtime>: N passed, M failed, K skipped (reasons)`. */
export function report(runtime: string, results: readonly ScenarioResult[]): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `conformance-${runtime}.json`), JSON.stringify({ runtime, results }, null, 2));
  const count = (status: ScenarioResult['status']) => results.filter((result) => result.status === status).length;
  const skipped = results.filter((result) => result.status === 'skipped').map((result) => `${result.name}: ${result.reason}`);
  const failed = results.filter((result) => result.status === 'failed').map((result) => `${result.name}: ${result.error}`);
  const line = `conformance ${runtime}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped${skipped.length > 0 ? ` (${skipped.join('; ')})` : ''}`;
  console.log([line, ...failed.map((failure) => `  FAILED ${failure}`)].join('\n'));
  return line;
}
