/**
 * @internal What `toolApprovals()` makes, and its brand — in a module of its own, so the builder and the agent can
 * check it without importing the approval machinery (which comes only with the object; its methods are
 * `ApprovalMachinery`, loop-context.ts).
 */
import type { RunStateStore } from '../interrupts/run-state-store.js';

/**
 * The brand `isToolApprovals` checks. Per copy of the package (not `Symbol.for`): the agent calls the object's machinery,
 * so approvals made by another copy — another version — are refused at `build()`, never run against this loop.
 */
export const APPROVALS_BRAND: unique symbol = Symbol('faultline.agent.ToolApprovals') as never;

/**
 * Tool approvals for an agent, made by `toolApprovals()`: hand it to `AgentBuilder.approvals()`.
 * @example `new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals()).build()`
 */
export interface ToolApprovals {
  /** Where runs that stopped to ask are kept. */
  readonly store: RunStateStore;
  /** @internal */
  readonly [APPROVALS_BRAND]: true;
}

/** True for what this copy's `toolApprovals()` returned: the brand, and the machinery the agent calls. */
export function isToolApprovals(value: unknown): value is ToolApprovals {
  if (typeof value !== 'object' || value === null || (value as { [APPROVALS_BRAND]?: unknown })[APPROVALS_BRAND] !== true) return false;
  const parts = value as Record<string, unknown>;
  return ['gate', 'resumeStart', 'recordingOutcome', 'supersede'].every((name) => typeof parts[name] === 'function');
}
