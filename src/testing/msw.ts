/**
 * msw, loaded once for every fault handler of `faultline/testing`: msw is an optional peer dependency, so a project
 * without it gets a `ConfigError` that names it and the install command — not Node's bare `ERR_MODULE_NOT_FOUND` from
 * a static import, which points at a file inside this package. A top-level await: this entry is for test suites, not
 * app bundles (test/package/side-effects.test.ts leaves it out for that reason), and it is ESM-only — Node's
 * require() of an ES module refuses one (`ERR_REQUIRE_ASYNC_MODULE`); CommonJS loads it with `import()`. The
 * factories are synchronous, so the only load without the await is a synchronous require of msw (`createRequire`),
 * which needs `node:module`: browsers and Workers have none, and a bundler would not see msw at all.
 */
import type * as MSW from 'msw';
import { ConfigError } from '../errors/config-error.js';

async function load(): Promise<typeof MSW> {
  try {
    return await import('msw');
  } catch (error) {
    const missing = (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' || /(Cannot find|Could not resolve|not found)[^\n]*msw/i.test(String((error as Error | null)?.message));
    throw new ConfigError(
      missing
        ? "faultline/testing needs msw 2, an optional peer dependency it does not install: run `npm install --save-dev msw@2`"
        : `faultline/testing could not load msw: ${String((error as Error | null)?.message ?? error).slice(0, 300)}`,
      { cause: error },
    );
  }
}

const msw = await load();

/** @internal msw's `http` request handlers. */
export const http = msw.http;
/** @internal msw's `HttpResponse`. */
export const HttpResponse = msw.HttpResponse;
export type { HttpHandler } from 'msw';
