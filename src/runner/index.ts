export { completionState, type CompletionStateOf } from './completion-state.js';
export { CompletionTracker } from './completion-tracker.js';
export { METADATA_STATE_KEYS, ObjectType } from './constants.js';
export {
  createErrorEvent,
  createEvent,
  isErrorEvent,
  isRunnerCompletion,
  isTerminalError,
  type EventChoice,
  type EventOrigin,
  type EventResponse,
  type RunEvent,
  type RunnerCompletionEvent,
  type TerminalErrorEvent,
} from './event.js';
export type { Invocation, RunnableAgent } from './runnable-agent.js';
export { RESUME_ERROR_TYPE, RESUME_UNSUPPORTED, type RunnerResume } from './resume-run.js';
export { Runner, type RunEventStream, type RunnerOptions } from './runner.js';
export type { RunnerRunOptions } from './run-options.js';
export { sessionKeyOf } from './run-options.js';
export { agentResponseError, toRunnableAgent } from './to-runnable-agent.js';
