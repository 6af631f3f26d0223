// The package checks npm test ends with — publint (strict) and Are the Types Wrong (ESM-only profile) on the packed
// tarball — quiet when they pass (one line each), their whole report when one fails, so the last screen of `npm test`
// is the runtime table and the test summary, not 170 lines of resolutions we chose not to support (CommonJS, node10).
import { spawnSync } from 'node:child_process';

/** Resolution kinds the ESM-only profile does not support: attw reports them, and ignores them. */
const IGNORED = new Set(['node10', 'node16-cjs']);
/** The script-tag build is exported as a file for tools that resolve it through the package; a script has no types. */
const SCRIPTS = ['--exclude-entrypoints', './dist/faultline.iife.js'];

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', shell: process.platform === 'win32', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? 1, output: `${result.stdout ?? ''}${result.stderr ?? ''}`, stdout: result.stdout ?? '' };
}

let failed = false;

const publint = run('npx', ['--no-install', 'publint', '--strict']);
if (publint.status !== 0) {
  failed = true;
  process.stdout.write(publint.output);
} else console.log('package check: publint --strict found nothing');

const attw = run('npx', ['--no-install', 'attw', '--pack', '.', '--profile', 'esm-only', ...SCRIPTS, '--format', 'json']);
let report;
try {
  report = JSON.parse(attw.stdout.slice(attw.stdout.indexOf('{')));
} catch {
  report = undefined;
}
const problems = Object.values(report?.problems ?? {}).flat().filter((problem) => !IGNORED.has(problem.resolutionKind));
if (attw.status !== 0 || !report || problems.length > 0) {
  failed = true;
  // The human report (the JSON one holds every resolution trace).
  process.stdout.write(run('npx', ['--no-install', 'attw', '--pack', '.', '--profile', 'esm-only', ...SCRIPTS]).output);
  for (const problem of problems) console.log(`attw: ${problem.kind} at ${problem.entrypoint ?? '?'} (${problem.resolutionKind ?? 'every resolution'})`);
} else {
  const entries = Object.keys(report.analysis?.entrypoints ?? {}).length;
  console.log(`package check: attw (ESM-only profile) — ${entries} entry points resolve with types under node16 (ESM) and bundlers`);
}

process.exitCode = failed ? 1 : 0;
