/**
 * @internal The A2A server behind `createA2AHandler`, from options already checked: the JSON-RPC front over the task
 * backend. A module of its own, loaded on the handler's first request, so that importing `faultline/a2a` (a client
 * app) does not load the server, the runner and the event machinery (issue 17).
 */
import type { Agent } from '../agent/agent.js';
import { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import { MAX_JSON_DEPTH } from '../wire/safe-json.js';
import type { A2AHandler } from './handler.js';
import { createRPCFront } from './handler-front.js';
import { findWaitUntil } from './handler-http.js';
import type { A2AHandlerOptions } from './handler-options.js';
import { createTaskOperations } from './task-operations.js';
import { storeJournal } from './task-journal.js';
import { InMemoryA2ATaskStore } from './task-store.js';

/** The server for checked `settings`. */
export function serveA2A(settings: A2AHandlerOptions): A2AHandler {
  const runner = settings.runner ?? new Runner({ appName: settings.card.name, agent: settings.agent as RunnableAgent | Agent, telemetry: settings.telemetry });
  const store = settings.taskStore ?? new InMemoryA2ATaskStore();
  const journal = storeJournal(store);
  const operations = createTaskOperations({
    runner,
    store,
    journal: () => journal,
    structured: settings.structuredTaskErrors ?? true,
    secrets: [...(settings.secrets ?? [])],
    keepAliveMs: settings.keepAliveMs ?? 15_000,
    maxQueuedEvents: settings.maxQueuedEvents ?? 10_000,
    maxLiveTasks: settings.maxLiveTasks ?? 1_000,
    journalTimeoutMs: settings.storeTimeoutMs ?? 10_000,
    waitUntil: findWaitUntil,
  });
  return createRPCFront(
    {
      card: settings.card,
      basePath: settings.basePath ?? '/',
      versions: settings.protocolVersions ?? ['0.3', '1.0'],
      limits: { maxBodyBytes: settings.maxBodyBytes ?? 1_048_576, bodyTimeoutMs: settings.bodyTimeoutMs ?? 30_000, maxDepth: settings.maxDepth ?? MAX_JSON_DEPTH },
      userId: settings.userId,
      telemetry: settings.telemetry,
    },
    operations.answer,
  );
}
