export { Agent } from './agent.js';
export { AgentBuilder, DEFAULT_MAX_ITERATIONS } from './agent-builder.js';
export { AgentRegistry } from './agent-registry.js';
export { collectAgentRun, type AgentRunResult } from './collect-agent-run.js';
export { runAgent, streamAgent } from './run-agent.js';
export type { RunAgentOptions, RunAgentSettings } from './run-agent-options.js';
export { InMemorySessionStore, type InMemorySessionStoreOptions } from './in-memory-session-store.js';
export { lastWriterWinsSessionStore, type LoadSaveSessionStore, type SessionStore } from './session-store.js';
export type { AgentEvents, AgentResumeOptions, AgentRunItem, AgentRunOptions, AgentRunStream, AgentToolOutcome, InterruptSummary } from './types.js';
