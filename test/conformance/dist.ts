/** The built package, for the conformance harnesses: what ships is what must run. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const DIST = join(ROOT, 'dist');

/** Fails clearly when the package was not built. */
export function requireDist(): void {
  if (!existsSync(join(DIST, 'index.js')) || !existsSync(join(DIST, 'faultline.iife.js'))) {
    throw new Error('dist/ is missing: run npm run build first (npm test builds before running the tests)');
  }
}

/** workerd on Node 20 installs a 2026-04 build: keep the compatibility date no later than that. */
export const COMPATIBILITY_DATE = '2026-04-01';
