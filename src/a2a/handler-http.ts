/** @internal The HTTP edges of the A2A handler: the platform's `waitUntil`, the version header, the base path. */
import type { A2AProtocolVersion } from './constants.js';

/** @internal */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** The platform's `waitUntil` (a Worker's `ctx`, a Vercel/Next.js `context`), bound, when one was passed. */
export function findWaitUntil(platform: readonly unknown[]): WaitUntil | undefined {
  for (const argument of platform) {
    const candidate = typeof argument === 'object' && argument !== null ? (argument as { waitUntil?: unknown }).waitUntil : undefined;
    if (typeof candidate === 'function') return (promise) => (candidate as WaitUntil).call(argument, promise);
  }
  return undefined;
}

/** `1`, `1.0`, `1.1` → 1.0; `0.3`, `0.3.0` → 0.3; anything else is unsupported. */
export function parseVersion(header: string): A2AProtocolVersion | undefined {
  if (/^1(\.\d+){0,2}$/.test(header)) return '1.0';
  if (/^0\.3(\.\d+)?$/.test(header)) return '0.3';
  return undefined;
}

export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
