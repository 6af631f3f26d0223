export type { Interrupt, ResumeDecision } from './interrupt.js';
export { checkDecisions, checkDecisionsWith, RESUME_LIMITS, type CheckedResume } from './check-decisions.js';
export { approvalDenied, approvalExpired, approvalSuperseded, APPROVAL_DENIED_TYPE, APPROVAL_EXPIRED_TYPE, APPROVAL_SUPERSEDED_TYPE } from './approval-answers.js';
export { argumentsKey } from './arguments-key.js';
export type { AgentRunState, RunCallExecution, RunResumeRecord, RunStateStore } from './run-state-store.js';
export { InMemoryRunStateStore, type InMemoryRunStateStoreOptions } from './in-memory-run-state-store.js';
export { executionUnknown, EXECUTION_UNKNOWN_TYPE } from './execution-unknown.js';
