// Pay for what you use: tool approvals come with `toolApprovals()`, the object an agent that asks is given. An app
// whose agents ask nobody bundles none of the machinery — the gate before each call, the resume, the run records,
// the default store — under rollup and under esbuild; `agent.resume` of such an agent is a refusal of a few lines.
import { describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript
import { esbuildApp } from '../../bench/app-bundlers.mjs';
// @ts-expect-error — plain JavaScript
import { agentApp } from '../../bench/app-sources.mjs';
// @ts-expect-error — plain JavaScript
import { bundleSize } from '../../scripts/size.mjs';
import { requireDist } from '../conformance/dist.js';

requireDist();

const ASKING = `import * as z from 'zod';
import { AgentBuilder, collectAgentRun, createOpenAICompatibleClient, defineTool, toolApprovals } from 'faultline';
const refund = defineTool({ name: 'refund', description: 'Refund.', parameters: z.object({ id: z.string() }), needsApproval: true, execute: async ({ id }) => ({ id }) });
const agent = new AgentBuilder('refunds').chatClient(createOpenAICompatibleClient({ baseURL: 'https://api.example.com/v1', apiKey: 'sk-x', model: 'gpt-x' })).tools([refund]).approvals(toolApprovals()).build();
console.log((await collectAgentRun(agent.run('Refund 42'))).status);`;

const MACHINERY = /^src\/(agent\/(agent-resume|approval-gate|run-state|tool-approvals)|interrupts\/(check-decisions|in-memory-run-state-store|approval-answers|execution-unknown))\.ts$/;
// A message of each part of the machinery: the gate, the resume, the answers the model gets, the default store.
const MACHINERY_TEXT = ['could not keep its approvals', 'it already went on', 'ToolApprovalDenied', 'ToolExecutionUnknown', 'InMemoryRunStateStore options'];

describe('an agent app without approvals', { timeout: 90_000 }, () => { // each test bundles: slow on a loaded machine
  it.each([['zod'], ['zod/mini']])('(a %s tool) keeps none of the approval machinery under rollup', async (zod) => {
    const { modules } = (await bundleSize(agentApp(zod))) as { modules: string[] };
    expect(modules).toContain('src/agent/agent-loop.ts');
    expect(modules.filter((id) => MACHINERY.test(id))).toEqual([]);
  });

  it.each([['zod'], ['zod/mini']])('(a %s tool) keeps none of the approval machinery under esbuild', async (zod) => {
    const { code } = (await esbuildApp(agentApp(zod))) as { code: string };
    expect(code).toContain('none of its runs stop to ask'); // the refusal of its resume
    expect(MACHINERY_TEXT.filter((text) => code.includes(text))).toEqual([]);
  });

  it('an app that asks keeps all of it (the checks above can see the machinery)', async () => {
    const { modules } = (await bundleSize(ASKING)) as { modules: string[] };
    expect(modules.filter((id) => MACHINERY.test(id)).length).toBeGreaterThanOrEqual(6);
    const { code } = (await esbuildApp(ASKING)) as { code: string };
    expect(MACHINERY_TEXT.filter((text) => !code.includes(text))).toEqual([]);
  });
});
