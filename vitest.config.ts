import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/conformance/summary.ts'],
    environment: 'node',
    testTimeout: 20_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
