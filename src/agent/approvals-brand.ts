/**
 * @internal What `toolApprovals()` makes, and its brand — in a module of its own, so the builder and the agent can
 * check it without importing the approval machinery (which comes only with the object; its methods are
 * `ApprovalMachinery`, loop-context.ts).
 */
import type { RunStateStore } from '../interrupts/run-state-store.js';

/** The brand `isToolApprovals` checks (`Symbol.for`: it holds across copies of the package). */
export const APPROVALS_BRAND: unique symbol = Symbol.for('faultline.agent.ToolApprovals') as never;

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

/** True for what `toolApprovals()` returned (from any copy of the package). */
export function isToolApprovals(value: unknown): value is ToolApprovals {
  return typeof value === 'object' && value !== null && (value as { [APPROVALS_BRAND]?: unknown })[APPROVALS_BRAND] === true;
}
