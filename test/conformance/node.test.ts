// Conformance in Node: the built package, msw intercepting in process with the handlers of faultline/testing.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, requireDist } from './dist.js';
import { begin, report, type ScenarioResult } from './report.js';
// @ts-expect-error — plain JavaScript shared by every runtime
import { runScenarios, scenarios } from './scenarios.mjs';

requireDist();
begin('node', 'Node 20: vitest, msw in process, the ESM build');
const F = await import(`${DIST}/index.js`);
const UI = await import(`${DIST}/ui/index.js`);
const testing = await import(`${DIST}/testing/index.js`);
const BASE = 'https://faults.conformance.test';
const server = setupServer(
  ...testing.chatFaultHandlers({ baseURL: `${BASE}/chat` }),
  ...testing.mcpFaultHandlers({ baseURL: `${BASE}/mcp` }),
  ...testing.anthropicFaultHandlers({ baseURL: `${BASE}/anthropic` }),
);

describe('conformance: Node (dist, msw in process)', () => {
  let results: ScenarioResult[] = [];
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    results = await runScenarios(F, BASE, 'node', UI);
    report('node', results);
  });
  afterAll(() => server.close());

  for (const scenario of scenarios as Array<{ name: string }>) {
    it(scenario.name, () => {
      const result = results.find((each) => each.name === scenario.name);
      expect(result?.status === 'failed' ? result.error : result?.status).toBe('passed');
    });
  }
});
