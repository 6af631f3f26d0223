export type { Interrupt, ResumeDecision } from './interrupt.js';
export { checkDecisions, RESUME_LIMITS, type CheckedResume } from './check-decisions.js';
export { approvalDenied, approvalExpired, APPROVAL_DENIED_TYPE, APPROVAL_EXPIRED_TYPE } from './approval-answers.js';
export { argumentsKey } from './arguments-key.js';
