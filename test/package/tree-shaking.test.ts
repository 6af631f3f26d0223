// What an app bundler keeps from the built package (scripts/size.mjs bundles with rollup, tree-shaken): importing a
// layer pulls in that layer and the shared internals, never the layers above it or a schema library it does not use.
// dist/ ships shared chunks, so what is kept is named by its source module (src/…), traced through dist's source maps.
// Apps also bundle with esbuild (and Vite), which drop a shared chunk's code statement by statement and prove less than
// rollup does (test/package/side-effects.test.ts): an app importing one export must keep the same code under both
// (test/package/export-bundles/).
import { describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript
import { esbuildApp } from '../../bench/app-bundlers.mjs';
// @ts-expect-error — plain JavaScript
import { bundleSize } from '../../scripts/size.mjs';
import { requireDist } from '../conformance/dist.js';

requireDist();

async function kept(code: string): Promise<{ modules: string[]; gzip: number }> {
  return (await bundleSize(code)) as { modules: string[]; gzip: number };
}

const layer = (modules: string[], name: string) => modules.filter((id) => id.startsWith(`src/${name}/`));
const zod = (modules: string[]) => modules.filter((id) => id.includes('node_modules/zod/'));

describe('tree-shaking the built package', { timeout: 90_000 }, () => { // each test bundles: slow on a loaded machine
  it('importing nothing but the package keeps no code (no module has side effects)', async () => {
    const { modules } = await kept("import 'faultline';");
    expect(modules).toEqual([]);
  });

  it.each([
    ['all of faultline/errors', "export * from 'faultline/errors';"],
    ['one error class from the root entry', "export { AgentError, ChatClientError, toResponseError } from 'faultline';"],
  ])('%s pulls in no chat, tool, agent, graph, runner or A2A code and no zod', async (_title, code) => {
    const { modules } = await kept(code);
    expect(layer(modules, 'errors').length).toBeGreaterThan(0);
    for (const name of ['chat', 'tools', 'agent', 'graph', 'runner', 'a2a', 'cloudflare', 'testing']) expect(layer(modules, name), name).toEqual([]);
    expect(zod(modules)).toEqual([]);
    expect(modules.filter((id) => id.includes('node_modules'))).toEqual([]);
    expect(modules.every((id) => /^src\/(errors|internal)\//.test(id))).toBe(true);
  });

  it('faultline/tools pulls in no chat, agent, graph, runner or A2A code and no zod (Standard Schema only)', async () => {
    const { modules } = await kept("export * from 'faultline/tools';");
    for (const name of ['chat', 'agent', 'graph', 'runner', 'a2a']) expect(layer(modules, name), name).toEqual([]);
    expect(zod(modules)).toEqual([]);
  });

  it('faultline/chat pulls in no tool, agent, graph, runner or A2A code and no zod', async () => {
    const { modules } = await kept("export * from 'faultline/chat';");
    for (const name of ['tools', 'agent', 'graph', 'runner', 'a2a']) expect(layer(modules, name), name).toEqual([]);
    expect(zod(modules)).toEqual([]);
  });

  it('the A2A client pulls in no graph, agent, runner or chat code and no A2A server code', async () => {
    const { modules } = await kept("export { createA2AClient } from 'faultline/a2a';");
    for (const name of ['graph', 'agent', 'runner', 'chat']) expect(layer(modules, name), name).toEqual([]);
    expect(modules.filter((id) => /src\/a2a\/(handler|handler-front|task-operations|task-execution|task-store|server-payloads)\.ts$/.test(id))).toEqual([]);
  });

  it('the A2A client without telemetry keeps no tracing: the spans are reached through the telemetry object only', async () => {
    const { modules } = await kept("import { createA2AClient } from 'faultline/a2a'; export const client = createA2AClient({ url: 'https://agent.example/a2a' });");
    expect(modules.filter((id) => /src\/(telemetry\/(a2a-client-tracing|otel-span-handle|open-telemetry|attributes)|errors\/task-error|a2a\/event-converter)\.ts$/.test(id))).toEqual([]);
    expect(modules.some((id) => id === 'src/a2a/client.ts')).toBe(true);
  });

  // faultline/cloudflare is the one entry that may use Workers-only APIs (Durable Objects): no other entry, and no
  // part of the root entry, may pull any of it in.
  it.each([
    ['the root entry, whole', "export * from 'faultline';"],
    ['faultline/a2a, whole (the A2A server included)', "export * from 'faultline/a2a';"],
    ['faultline/graph, whole (checkpoints included)', "export * from 'faultline/graph';"],
    ['faultline/agent and faultline/runner', "export * from 'faultline/agent'; export * from 'faultline/runner';"],
    ['faultline/testing', "export * from 'faultline/testing';"],
  ])('%s pulls in no faultline/cloudflare code', async (_title, code) => {
    const { modules } = await kept(code);
    expect(modules.length).toBeGreaterThan(0);
    expect(layer(modules, 'cloudflare')).toEqual([]);
  });

  it('faultline/cloudflare keeps the A2A server and the graph checkpoint types only as it needs them, and no A2A client', async () => {
    const { modules } = await kept("export * from 'faultline/cloudflare';");
    expect(layer(modules, 'cloudflare').length).toBeGreaterThan(5);
    expect(modules.filter((id) => /src\/a2a\/(client|transport|a2a-agent)\.ts$/.test(id))).toEqual([]);
  });
});

const markers = (code: string) => [...code.matchAll(/Symbol\.for\(["'`]([^"'`]+)["'`]\)/g)].map((match) => match[1] as string).sort();

describe('tree-shaking the built package with esbuild (--minify, browser)', () => {
  it('the A2A client keeps only the error classes it constructs, no telemetry table and no event converter', async () => {
    const { code } = (await esbuildApp("import { createA2AClient } from 'faultline/a2a'; console.log(createA2AClient);")) as { code: string };
    expect(code).toContain('faultline.error.A2ATransportError');
    const unused = ['ToolFailure', 'ToolResult', 'WorkflowError', 'MCPError', 'ResumeError', 'InterruptNotFoundError', 'ChatClientError', 'AgentNotFoundError', 'OutputValidationError', 'SessionError', 'ToolError', 'CircuitOpenError'];
    expect(markers(code).filter((marker) => unused.some((name) => marker.endsWith(`.${name}`)))).toEqual([]);
    expect(code).not.toMatch(/gen_ai\.operation\.name|faultline\.tool\.outcome/); // telemetry/attributes tables
    expect(code).not.toContain('defaultA2AEventConverter');
  });
});
