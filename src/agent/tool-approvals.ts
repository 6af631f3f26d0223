/**
 * Tool approvals, as an agent is given them (`AgentBuilder.approvals(toolApprovals())`): the gate that stops a run
 * before a call a person must approve, the resume that goes on with their decisions, closing a stopped run, and the
 * store that keeps runs while they wait. An agent is handed all of it in this one object, so an app whose agents ask
 * nobody bundles none of it (about 5 KiB min+gzip: test/package/no-approvals-bundles.test.ts).
 */
import { ConfigError } from '../errors/config-error.js';
import { MAX_TIMER_MS } from '../internal/delay.js';
import { isPlainObject, preview } from '../internal/json.js';
import { InMemoryRunStateStore } from '../interrupts/in-memory-run-state-store.js';
import type { RunStateStore } from '../interrupts/run-state-store.js';
import { recordingOutcome, resumeStart } from './agent-resume.js';
import { APPROVALS_BRAND, type ToolApprovals } from './approvals-brand.js';
import type { ApprovalMachinery } from './loop-context.js';
import { gatedTools } from './approval-gate.js';
import { DEFAULT_RUN_LEASE_MS, supersedeRun } from './run-state.js';
import { unknownOptionProblems } from '../internal/option-names.js';

/**
 * Options of {@link toolApprovals}.
 * @example `const options: ToolApprovalsOptions = { store: new InMemoryRunStateStore({ maxRuns: 100 }) };`
 */
export interface ToolApprovalsOptions {
  /**
   * Where runs that stopped to ask are kept until they are resumed: any store with a compare-and-swap `put` (see
   * `RunStateStore`) — a `DurableObjectRunStateStore`, or your database — so the decisions may arrive after a restart or
   * at another process, and each approved call still runs once.
   * @default a new `InMemoryRunStateStore` (1,000 runs, 16 MiB, an ended run kept 1 hour; lost with the process)
   */
  store?: RunStateStore | undefined;
  /**
   * On a store that is not `exclusive` (several processes write it): how long a resume holds its run without a
   * renewal, in ms. The resume renews it a third of the way through while it runs; the same resume sent to another
   * process meanwhile waits for its outcome, and takes the run over only once the hold lapsed (its process died).
   * @default 30_000
   */
  leaseMs?: number | undefined;
}

/**
 * Lets an agent ask a person before a tool call runs: give it to `AgentBuilder.approvals()` (or `runAgent`'s
 * `approvals`). Then a call of a tool with `needsApproval` stops the run with an `interrupted` item, and
 * `agent.resume(runId, decisions)` goes on with the person's decisions. An agent with such a tool and without
 * approvals is refused by `build()` (a call that needs a yes never runs unasked). Agents given the same object share
 * its store.
 *
 * @param options - `store`: where waiting runs are kept (default: a new bounded in-memory store); `leaseMs`: how long a
 *   resume holds its run on a store several processes write (default 30 s, renewed while it runs).
 * @returns The approvals to give to one agent or several.
 * @throws ConfigError when `store` is not a `RunStateStore` (no `get`, `put` or `delete`).
 * @example
 * ```ts
 * const agent = new AgentBuilder('refunds')
 *   .chatClient(model)
 *   .tools([refund]) // defineTool({ …, needsApproval: true })
 *   .approvals(toolApprovals({ store: new DurableObjectRunStateStore(state.storage) }))
 *   .build();
 * ```
 */
export function toolApprovals(options: ToolApprovalsOptions = {}): ToolApprovals {
  const settings: unknown = options ?? {};
  const problems: string[] = [];
  if (isStore(settings)) problems.push('give the store as an option: toolApprovals({ store })');
  else if (!isPlainObject(settings)) problems.push('options must be an object { store? }');
  else {
    problems.push(...unknownOptionProblems(settings, ['store', 'leaseMs']).map((problem) => `${problem} (toolApprovals takes { store, leaseMs })`));
    if (settings['store'] !== undefined && !isStore(settings['store'])) problems.push('store must implement get(), put() and delete() (a RunStateStore)');
    const lease = settings['leaseMs'];
    if (lease !== undefined && !(typeof lease === 'number' && Number.isFinite(lease) && lease >= 10 && lease <= MAX_TIMER_MS)) problems.push(`leaseMs must be a number of milliseconds from 10 to ${MAX_TIMER_MS} (got ${preview(lease, 40)})`);
  }
  if (problems.length > 0) throw ConfigError.fromProblems('toolApprovals', problems);
  const given = (settings as ToolApprovalsOptions).store;
  const store = (given as RunStateStore | undefined) ?? new InMemoryRunStateStore();
  const machinery: ApprovalMachinery = {
    [APPROVALS_BRAND]: true,
    store,
    leaseMs: (settings as ToolApprovalsOptions).leaseMs ?? DEFAULT_RUN_LEASE_MS,
    gate: gatedTools,
    resumeStart,
    recordingOutcome,
    supersede: (agent, runId, owner) => supersedeRun(store, agent, runId, owner),
  };
  return Object.freeze(machinery);
}

function isStore(value: unknown): value is RunStateStore {
  const candidate = value as Partial<RunStateStore> | null | undefined;
  return typeof candidate?.get === 'function' && typeof candidate.put === 'function' && typeof candidate.delete === 'function';
}
