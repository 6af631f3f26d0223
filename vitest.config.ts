import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/conformance/summary.ts'],
    environment: 'node',
    testTimeout: 20_000,
    restoreMocks: true,
    unstubGlobals: true,
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine, yet many files mostly wait on a
    // child runtime (Chromium, Deno, workerd, npm): one worker more than cores keeps both cores busy.
    maxWorkers: availableParallelism() + 1,
  },
});
