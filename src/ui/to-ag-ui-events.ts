import type { AgentRunItem } from '../agent/types.js';
import { ConfigError } from '../errors/config-error.js';
import { StreamError } from '../errors/stream-error.js';
import { watchAbort } from '../internal/delay.js';
import { messageOf } from '../internal/error-chain.js';
import { createId } from '../internal/ids.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { runSecrets, streamFromBatches } from '../internal/streams.js';
import type { RunEvent } from '../runner/event.js';
import { AgentAGUIMapper, type AgentItem } from './ag-ui-agent.js';
import { thrownErrorValue } from './ag-ui-error-value.js';
import type { AGUIEvent, AGUIOptions } from './ag-ui-events.js';
import { RunnerAGUIMapper } from './ag-ui-runner.js';
import { AGUIWriter } from './ag-ui-writer.js';
import { signalProblems } from '../internal/call-options.js';
import { secretsProblem } from '../internal/secret-forms.js';

/** True for a runner event (`{id, invocationId, author, timestamp, …}`); an agent item has a `type` instead. */
function isRunEvent(value: unknown): value is RunEvent {
  try {
    return isPlainObject(value) && typeof value.invocationId === 'string' && typeof value.timestamp === 'string' && value.type === undefined;
  } catch {
    return false; // a value that cannot be read (a throwing getter): not a runner event; the agent mapping fails it
  }
}

/**
 * What the run's end is when a value of the run could not be mapped (a malformed run event: a null item, a tool call
 * without its call, `toolCalls` that is not a list, a hostile value that throws when read): a typed `StreamError`
 * (`malformed_chunk`), never the `TypeError` itself.
 */
function unreadable(error: unknown) {
  return thrownErrorValue(new StreamError(`A run event could not be read as AG-UI events: ${messageOf(error)}`, { reason: 'malformed_chunk', cause: error }), 'run');
}

function optionProblems(run: unknown, options: unknown): string[] {
  const problems: string[] = [];
  if (typeof (run as ReadableStream | null)?.getReader !== 'function') problems.push('run must be a ReadableStream (agent.run(…), runner.run(…))');
  if (!isPlainObject(options)) return [...problems, `options must be an object (got ${refusedValue(options)})`];
  problems.push(...unknownOptionProblems(options, ['threadId', 'runId', 'secrets', 'signal', 'executionErrorsKey']));
  for (const key of ['threadId', 'runId', 'executionErrorsKey'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) problems.push(`${key} must be a non-empty string (got ${refusedValue(value)})`);
  }
  const secrets = secretsProblem(options.secrets);
  if (secrets) problems.push(secrets);
  problems.push(...signalProblems(options.signal));
  return problems;
}

/**
 * A run as AG-UI events (protocol 1.0, what CopilotKit and other AG-UI clients read): an agent run (`agent.run(…)`)
 * or a runner / graph run (`runner.run(…)`). `RUN_STARTED`; per model call a step with its text
 * (`TEXT_MESSAGE_START/CONTENT/END`), its reasoning (`REASONING_START`, `REASONING_MESSAGE_*`, `REASONING_END`) and
 * its tool calls (`TOOL_CALL_START/ARGS/END`); each tool's answer as `TOOL_CALL_RESULT` whose `content` is the exact
 * `ToolResultJSON` the model got; a graph's nodes as steps; faultline's structure as `CUSTOM` events —
 * `faultline.error` (an `AGUIErrorValue`: the model-facing envelope plus kind, code, retryable, retryAfterMs, scope),
 * `faultline.retry`, `faultline.record` (a graph's execution-error record), `faultline.completion` (the runner's
 * status and error codes, no state values). The end is always one of: `RUN_FINISHED`; `RUN_FINISHED` with the outcome
 * `cancelled` for a run that was stopped (AG-UI's word for an abort: it did not fail); or exactly one `RUN_ERROR`
 * (`code`: the failure's kind, or a runner failure's `ResponseError` type) with nothing after it.
 *
 * Every event is redacted (`secrets` in every form, credential shapes). The events are pulled from the run as they
 * are read: a reader that stops reading stops the run's work with it, and one that cancels (a client that went away)
 * cancels the run. Bad arguments are a `ConfigError`. A malformed run event (a custom or remote agent's) never breaks
 * the stream: a part of it that is not of its type is read as absent, and one the mapping cannot read at all ends the
 * run with a typed `RUN_ERROR` (a `StreamError`, kind `stream`) after `RUN_STARTED`.
 *
 * @example
 * ```ts
 * for await (const event of toAGUIEvents(agent.run('Weather in Paris?'), { threadId: 'thread-1' })) console.log(event.type);
 * ```
 */
export function toAGUIEvents(run: ReadableStream<AgentRunItem> | ReadableStream<RunEvent>, options: AGUIOptions = {}): ReadableStream<AGUIEvent> & AsyncIterable<AGUIEvent> {
  const problems = optionProblems(run, options);
  if (problems.length > 0) throw ConfigError.fromProblems('AG-UI options', problems);
  const settings: AGUIOptions = options;
  const reader = (run as ReadableStream<unknown>).getReader();
  let stopped = false;
  const stop = (reason: unknown) => {
    stopped = true;
    reader.cancel(reason).catch(() => {});
  };
  const signal = settings.signal;
  const unwatch = signal ? watchAbort(signal, () => stop(signal.reason)) : undefined;

  async function* batches(): AsyncGenerator<AGUIEvent[], void, undefined> {
    try {
      let next = await read();
      const runner = !next.done && isRunEvent(next.value);
      const runId = settings.runId ?? (runner ? ((next as { value: RunEvent }).value.invocationId) : createId('run'));
      const writer = new AGUIWriter(settings.threadId ?? createId('thread'), runId, [...runSecrets(run), ...(settings.secrets ?? [])]);
      const mapper = runner ? new RunnerAGUIMapper(writer, () => stopped, settings.executionErrorsKey ?? 'execution_errors') : new AgentAGUIMapper(writer, () => stopped);
      writer.started();
      while (!writer.ended) {
        // One guard for every value of the run: whatever a malformed event makes the mapping throw, the events end
        // as AG-UI says a failed run ends (what was written, its open messages and steps closed, one RUN_ERROR).
        try {
          if (stopped) writer.cancelled();
          else if (next.done) {
            if (runner) (mapper as RunnerAGUIMapper).end();
            else writer.failed({ type: 'StreamError', message: 'The run ended without a finish or an error item.', kind: 'stream', retryable: false, scope: 'run' });
          } else if ('error' in next) {
            writer.failed({ type: 'StreamError', message: `The run stream failed: ${messageOf(next.error)}`.slice(0, 2_000), kind: 'stream', retryable: false, scope: 'run' });
          } else if (runner) (mapper as RunnerAGUIMapper).map(next.value as RunEvent);
          else (mapper as AgentAGUIMapper).map(next.value as AgentItem);
        } catch (error) {
          writer.failed(unreadable(error));
        }
        const events = writer.take();
        if (events.length > 0) yield events;
        if (!writer.ended) next = await read();
      }
    } finally {
      unwatch?.();
      if (!stopped) reader.cancel().catch(() => {}); // a finished run's stream is done; a run given up on is cancelled
    }
  }

  /** The next value of the run, `done` once it ended or was stopped, or the error its stream failed with. */
  async function read(): Promise<{ done: true } | { done: false; value: unknown } | { done: false; error: unknown; value?: undefined }> {
    if (stopped) return { done: true };
    try {
      const result = await reader.read();
      return result.done ? { done: true } : { done: false, value: result.value };
    } catch (error) {
      return stopped ? { done: true } : { done: false, error };
    }
  }

  return streamFromBatches(batches(), stop);
}
