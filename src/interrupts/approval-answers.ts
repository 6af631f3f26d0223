import { preview } from '../internal/json.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';

/**
 * The `error.type` the model sees for a call a person refused.
 * @example `if (result.error?.type === APPROVAL_DENIED_TYPE) showDenied();`
 */
export const APPROVAL_DENIED_TYPE = 'ToolApprovalDenied';
/**
 * The `error.type` the model sees for a call nobody approved in time.
 * @example `if (result.error?.type === APPROVAL_EXPIRED_TYPE) showExpired();`
 */
export const APPROVAL_EXPIRED_TYPE = 'ToolApprovalExpired';

/**
 * What the model is told when a person refused a call: a structured tool error like every other failure, with the
 * person's reason, and a suggestion that keeps the model from repeating the call unchanged or reporting it as done.
 * @example `approvalDenied('refund', 'Refunds over $20 need a manager.').type // 'ToolApprovalDenied'`
 */
export function approvalDenied(toolName: string, reason?: string): ToolErrorInfo {
  const shown = preview(toolName, 80);
  return {
    type: APPROVAL_DENIED_TYPE,
    message: reason === undefined ? `The user did not approve this call of ${shown}; it was not run.` : `The user did not approve this call of ${shown}; it was not run. Their reason: ${reason}`,
    context: reason === undefined ? { tool: toolName } : { tool: toolName, reason },
    suggestion: 'Do not call it again with the same arguments; tell the user the action was not taken, or ask what they want instead.',
  };
}

/**
 * What the model is told when nobody decided on a call before its approval expired.
 * @example `approvalExpired('refund', '2026-12-05T11:00:00.000Z').type // 'ToolApprovalExpired'`
 */
export function approvalExpired(toolName: string, expiresAt: string | undefined): ToolErrorInfo {
  const shown = preview(toolName, 80);
  return {
    type: APPROVAL_EXPIRED_TYPE,
    message: `Nobody approved this call of ${shown} in time${expiresAt === undefined ? '' : ` (the approval expired at ${expiresAt})`}; it was not run.`,
    context: expiresAt === undefined ? { tool: toolName } : { tool: toolName, expiresAt },
    suggestion: 'Tell the user the action was not taken because it was not approved in time; call it again only if the user asks for it again.',
  };
}

/**
 * The `error.type` the model sees for a call whose approval was still pending when the user sent a new message.
 * @example `if (result.error?.type === APPROVAL_SUPERSEDED_TYPE) showSkipped();`
 */
export const APPROVAL_SUPERSEDED_TYPE = 'ToolApprovalSuperseded';

/**
 * What the model is told about a call still waiting for approval when the user moved on (sent a new message instead
 * of deciding): it was not run, and its run can no longer be resumed, so the model must not report it as done.
 * @example `approvalSuperseded('refund').type // 'ToolApprovalSuperseded'`
 */
export function approvalSuperseded(toolName: string): ToolErrorInfo {
  return {
    type: APPROVAL_SUPERSEDED_TYPE,
    message: `The user sent a new message instead of deciding on this call of ${preview(toolName, 80)}; it was not run.`,
    context: { tool: toolName },
    suggestion: 'Do not assume it ran. If the user still wants it, call it again (it will ask for approval again); otherwise answer the new message.',
  };
}
