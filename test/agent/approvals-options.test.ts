/**
 * The options of tool approvals, checked like every other option (`ConfigError` naming each problem), on local tools
 * and MCP tools (by name or by predicate), `toolApprovals()` and what build() asks of an agent with such tools, an
 * agent without approvals, and the bounds of `InMemoryRunStateStore`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { ConfigError, ResumeError } from '../../src/errors/index.js';
import { InMemoryRunStateStore, type AgentRunState } from '../../src/interrupts/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { defineTool } from '../../src/tools/index.js';
import { fakeServer } from '../mcp/fake-server.js';

afterEach(() => vi.useRealTimers());

const base = { name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), execute: () => 'ok' };

describe('needsApproval and approvalExpiresInMs on defineTool', () => {
  it.each([
    [{ needsApproval: 'yes' }, 'needsApproval must be a boolean or a function'],
    [{ approvalExpiresInMs: 0 }, 'approvalExpiresInMs must be an integer > 0 and at most a year (got 0)'],
    [{ approvalExpiresInMs: 1.5 }, 'approvalExpiresInMs must be an integer > 0 and at most a year (got 1.5)'],
    [{ approvalExpiresInMs: 31_536_000_001 }, 'approvalExpiresInMs must be an integer > 0 and at most a year (got 31536000001)'],
  ])('refuses %j with a ConfigError naming the problem', (options, problem) => {
    const error = (() => {
      try {
        defineTool({ ...base, ...(options as object) });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).problems).toContain(problem);
  });

  it('accepts a boolean, a predicate and an expiry of up to a year', () => {
    expect(defineTool({ ...base, needsApproval: true, approvalExpiresInMs: 31_536_000_000 }).needsApproval).toBe(true);
    expect(typeof defineTool({ ...base, needsApproval: ({ amount }) => amount > 20 }).needsApproval).toBe('function');
  });

});

describe('toolApprovals: what an agent that asks is given', () => {
  const problemsOf = (build: () => unknown): readonly string[] => {
    try {
      build();
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  const get = async (): Promise<undefined> => undefined;
  it.each<[unknown]>([[{ get }], [null], ['store'], [{ get, put: async () => true }]])('refuses the store %j: not a RunStateStore', (store) => {
    expect(problemsOf(() => toolApprovals({ store: store as never }))).toEqual(['store must implement get(), put() and delete() (a RunStateStore)']);
  });

  it('refuses options it does not know, a store given in place of the options, and options that are not an object', () => {
    expect(problemsOf(() => toolApprovals({ stroe: new InMemoryRunStateStore() } as never))).toEqual(['unknown option "stroe" (did you mean store?) (toolApprovals takes { store, leaseMs })']);
    expect(problemsOf(() => toolApprovals(new InMemoryRunStateStore() as never))).toEqual(['give the store as an option: toolApprovals({ store })']);
    expect(problemsOf(() => toolApprovals('memory' as never))).toEqual(['options must be an object { store? }']);
    for (const leaseMs of [0, 9, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '30000'])
      expect(problemsOf(() => toolApprovals({ leaseMs } as never))).toEqual([expect.stringMatching(/^leaseMs must be a number of milliseconds from 10 to 2147483647 \(got /)]);
    expect(toolApprovals({ leaseMs: 10 }).store).toBeInstanceOf(InMemoryRunStateStore);
    expect(toolApprovals(undefined).store).toBeInstanceOf(InMemoryRunStateStore);
  });

  it('makes build() refuse a tool that needs approval on an agent that asks nobody, naming the tools and the fix', () => {
    const tools = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => defineTool({ ...base, name, needsApproval: name !== 'b' }));
    expect(problemsOf(() => new AgentBuilder('x').chatClient(createScriptedChatClient([])).tools([tools[0]!]).build())).toEqual([
      `tool "a" needs approval (needsApproval), but the agent asks nobody: add .approvals(toolApprovals()) — with runAgent, approvals: toolApprovals() — (import { toolApprovals } from 'faultline')`,
    ]);
    expect(problemsOf(() => new AgentBuilder('x').chatClient(createScriptedChatClient([])).tools(tools).build())).toEqual([
      `tools "a", "c", "d", "e", "f" need approval (needsApproval), but the agent asks nobody: add .approvals(toolApprovals()) — with runAgent, approvals: toolApprovals() — (import { toolApprovals } from 'faultline')`,
    ]);
    expect(() => new AgentBuilder('x').chatClient(createScriptedChatClient([])).tools([tools[1]!]).build()).not.toThrow(); // needsApproval: false
    expect(() => new AgentBuilder('x').chatClient(createScriptedChatClient([])).tools(tools).approvals(toolApprovals()).build()).not.toThrow();
  });

  it('makes build() refuse approvals that toolApprovals() did not make, a look-alike with the shared brand included', () => {
    const real = toolApprovals() as unknown as Record<string | symbol, unknown>;
    const lookAlike = { ...Object.fromEntries(Object.entries(real)), [Symbol.for('faultline.agent.ToolApprovals')]: true }; // every method, another copy's brand
    const branded = Object.fromEntries(Object.getOwnPropertySymbols(real).map((symbol) => [symbol, real[symbol]]));
    const brandOnly = { ...branded, store: new InMemoryRunStateStore() }; // this copy's brand, no machinery
    expect(Object.getOwnPropertySymbols(brandOnly)).toHaveLength(1);
    for (const fake of [{}, { store: new InMemoryRunStateStore() }, 'yes', null, lookAlike, brandOnly]) {
      expect(problemsOf(() => new AgentBuilder('x').chatClient(createScriptedChatClient([])).approvals(fake as never).build())).toEqual(['approvals must come from toolApprovals()']);
    }
  });

  it('points runAgent callers of the old runStateStore option to approvals', async () => {
    const { runAgent } = await import('../../src/agent/index.js');
    await expect(runAgent({ model: createScriptedChatClient([{ text: 'hi' }]), prompt: 'hi', runStateStore: new InMemoryRunStateStore() } as never)).rejects.toThrow(
      /unknown option "runStateStore" \(did you mean approvals: toolApprovals\(\{ store \}\)\?\)/,
    );
  });

  it('shares one store between the agents given the same approvals: one resumes what the other stopped', async () => {
    const store = new InMemoryRunStateStore();
    const approvals = toolApprovals({ store });
    expect(approvals.store).toBe(store);
    const runs: unknown[] = [];
    const refund = defineTool({ ...base, needsApproval: true, execute: ({ amount }) => void runs.push(amount) });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'refund', arguments: { amount: 30 } }] }, { text: 'done' }]);
    const asking = new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(approvals).toolLogger(false).build();
    const first = await collectAgentRun(asking.run('refund'));
    expect(first.status).toBe('interrupted');
    const resuming = new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(approvals).toolLogger(false).build();
    const done = await collectAgentRun(resuming.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    expect([done.status, done.text, runs]).toEqual(['finished', 'done', [30]]);
  });
});

describe('a resume no run waits for', () => {
  const SECRET = 'sk-planted-secret-0123456789';
  it.each([
    ['without approvals', false],
    ['with approvals', true],
  ])('%s: a secret at the end of a 200-character run id or across the cut of the decisions\' preview is in no refusal, event or error', async (_, asks) => {
    const builder = new AgentBuilder('plain').chatClient(createScriptedChatClient([{ text: 'hi' }])).secrets([SECRET]);
    const agent = (asks ? builder.approvals(toolApprovals()) : builder).build();
    const seen: unknown[] = [];
    for (const event of ['resume-refused', 'error', 'resume'] as const) agent.on(event, (payload: unknown) => seen.push(payload));
    const runId = 'r'.repeat(200 - SECRET.length) + SECRET;
    const refusals: ResumeError[] = [];
    for (const decisions of [[{ id: 'x', approved: true }], 'd'.repeat(70) + SECRET, [{ id: 'i'.repeat(70) + SECRET, approved: false, reason: SECRET }]]) {
      await collectAgentRun(agent.resume(runId, decisions as never)).catch((error: ResumeError) => refusals.push(error));
    }
    expect(refusals.map((each) => each.code)).toEqual(['RUN_NOT_INTERRUPTED', 'RUN_NOT_INTERRUPTED', 'RUN_NOT_INTERRUPTED']);
    const shown = JSON.stringify([seen, refusals.map((each) => [each.message, each.stack, each.runId, each.pendingIds])]);
    for (let length = 8; length <= SECRET.length; length++) expect(shown).not.toContain(SECRET.slice(0, length));
    expect(seen).toHaveLength(6);
  });

  it('a secret across the cut of a refused resume\'s decisions (not an array, an unknown id) is in no refusal or event of a waiting run', async () => {
    const refund = defineTool({ ...base, needsApproval: true });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'refund', arguments: { amount: 30 } }] }, { text: 'done' }]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals()).secrets([SECRET]).toolLogger(false).build();
    const first = await collectAgentRun(agent.run('refund'));
    const seen: unknown[] = [];
    agent.on('resume-refused', (payload: unknown) => seen.push(payload));
    const refusals: ResumeError[] = [];
    for (const decisions of ['d'.repeat(70) + SECRET, [{ id: 'i'.repeat(70) + SECRET, approved: true }]]) {
      await collectAgentRun(agent.resume(first.runId!, decisions as never)).catch((error: ResumeError) => refusals.push(error));
    }
    expect(refusals.map((each) => each.code)).toEqual(['RESUME_PAYLOAD_INVALID', 'INTERRUPT_NOT_FOUND']);
    const shown = JSON.stringify([seen, refusals.map((each) => [each.message, each.stack, each.runId])]);
    for (let length = 8; length <= SECRET.length; length++) expect(shown).not.toContain(SECRET.slice(0, length));
  });

  it.each([
    ['without approvals', false],
    ['with approvals', true],
  ])('%s: refused with a typed RUN_NOT_INTERRUPTED, the caller\'s run id never echoing a secret; supersedes nothing', async (_, asks) => {
    const model = createScriptedChatClient([{ text: 'hi' }]);
    const builder = new AgentBuilder('plain').chatClient(model).secrets(['sk-planted-secret-123']);
    const agent = (asks ? builder.approvals(toolApprovals()) : builder).build();
    const refused: unknown[] = [];
    const events: unknown[] = [];
    agent.on('resume-refused', (event) => refused.push(event));
    agent.on('error', (event) => events.push(event));
    const error = await collectAgentRun(agent.resume('run-sk-planted-secret-123', [{ id: 'x', approved: true }])).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ResumeError.isInstance(error)).toBe(true);
    expect((error as ResumeError).code).toBe('RUN_NOT_INTERRUPTED');
    expect((error as ResumeError).httpStatus).toBe(404);
    if (!asks) expect((error as ResumeError).message).toMatch(/agent "plain" has no tool approvals \(toolApprovals\(\)\), so none of its runs stop to ask/);
    expect(JSON.stringify([refused, events, (error as ResumeError).message, (error as ResumeError).runId])).not.toContain('sk-planted-secret-123');
    expect(events).toHaveLength(1);
    expect(refused).toEqual([{ runId: expect.any(String), agent: 'plain', code: 'RUN_NOT_INTERRUPTED' }]);
    expect(model.requests).toHaveLength(0);
    await expect(agent.supersede('run-1')).resolves.toBe(false);
  });
});

describe('MCP tools that need approval', () => {
  function client(calls: unknown[]) {
    const server = fakeServer({
      'tools/list': () => ({ tools: [{ name: 'delete_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }, { name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] }),
      'tools/call': (params: unknown) => {
        calls.push((params as { params: unknown }).params);
        return { content: [{ type: 'text', text: 'done' }] };
      },
    });
    return createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: false });
  }

  it('by name: the listed tool stops the run, the other runs', async () => {
    const calls: unknown[] = [];
    const mcp = client(calls);
    const tools = await mcp.tools({ needsApproval: ['delete_file'], approvalExpiresInMs: 60_000 });
    expect(tools.map((tool) => [tool.name, tool.needsApproval, tool.approvalExpiresInMs])).toEqual([
      ['delete_file', true, 60_000],
      ['read_file', false, 60_000],
    ]);
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path: '/a' } }, { id: 'c2', name: 'read_file', arguments: { path: '/b' } }] }, { text: 'ok' }]);
    const agent = new AgentBuilder('files').chatClient(model).tools(tools).approvals(toolApprovals()).toolLogger(false).build();
    const first = await collectAgentRun(agent.run('tidy up'));
    expect(first.status).toBe('interrupted');
    expect(first.interrupts.map((each) => each.toolName)).toEqual(['delete_file']);
    expect(calls).toEqual([expect.objectContaining({ name: 'read_file' })]);
    await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    expect(calls).toEqual([expect.objectContaining({ name: 'read_file' }), expect.objectContaining({ name: 'delete_file', arguments: { path: '/a' } })]);
    await mcp.close();
  });

  it('by predicate: gets the server name and the arguments', async () => {
    const mcp = client([]);
    const seen: unknown[] = [];
    const [remove] = await mcp.tools({ needsApproval: (name, args) => (seen.push([name, args]), args['path'] === '/etc') });
    const decide = remove!.needsApproval as (args: unknown, context: unknown) => Promise<boolean>;
    expect(await decide({ path: '/etc' }, { callId: 'c', toolName: 'delete_file' })).toBe(true);
    expect(await decide({ path: '/tmp' }, { callId: 'c', toolName: 'delete_file' })).toBe(false);
    expect(seen).toEqual([['delete_file', { path: '/etc' }], ['delete_file', { path: '/tmp' }]]);
    await expect(mcp.tools({ needsApproval: 'delete_file' as never })).rejects.toThrow(/needsApproval must be a list of tool names or a function/);
    await mcp.close();
  });
});

describe('InMemoryRunStateStore', () => {
  function record(runId: string, revision: number, status: AgentRunState['status'] = 'interrupted', padding = ''): AgentRunState {
    return { version: 1, runId, agent: 'a', revision, status, input: [{ role: 'user', content: padding }], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' };
  }

  it('writes only the next revision (compare-and-swap), copies in and out', async () => {
    const store = new InMemoryRunStateStore();
    expect(await store.put(record('r', 2))).toBe(false);
    expect(await store.put(record('r', 1))).toBe(true);
    expect(await store.put(record('r', 1))).toBe(false);
    const read = (await store.get('r'))!;
    read.status = 'ended';
    expect((await store.get('r'))!.status).toBe('interrupted');
    expect(await store.put(record('r', 2))).toBe(true);
    await store.delete('r');
    expect(await store.get('r')).toBeUndefined();
  });

  it('keeps at most maxRuns runs and maxBytes of JSON, the oldest written forgotten first', async () => {
    const store = new InMemoryRunStateStore({ maxRuns: 2, maxBytes: 5_000 });
    for (const runId of ['a', 'b', 'c']) await store.put(record(runId, 1));
    expect([await store.get('a'), (await store.get('b'))?.runId, (await store.get('c'))?.runId]).toEqual([undefined, 'b', 'c']);
    await store.put(record('big', 1, 'interrupted', 'x'.repeat(4_800)));
    expect(store.size.runs).toBe(1);
    expect(store.size.bytes).toBeGreaterThan(4_800);
  });

  it('forgets an ended run ttlMs after it ended, and keeps a waiting one', async () => {
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    const store = new InMemoryRunStateStore({ ttlMs: 1_000 });
    await store.put(record('ended', 1, 'ended'));
    await store.put(record('waiting', 1));
    vi.setSystemTime(999);
    expect(await store.get('ended')).toBeDefined();
    vi.setSystemTime(1_000);
    expect(await store.get('ended')).toBeUndefined();
    vi.setSystemTime(10_000_000);
    expect(await store.get('waiting')).toBeDefined();
  });

  it('refuses options that are not positive integers', () => {
    expect(() => new InMemoryRunStateStore({ maxRuns: 0, ttlMs: -1 })).toThrow(/maxRuns must be an integer > 0.*ttlMs must be an integer > 0/s);
  });
});
