import type { ChatMessage, FinishReason, Usage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { StreamError } from '../errors/stream-error.js';
import { refusedValue } from '../internal/json.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import { keepPartialRun } from './partial-run.js';
import type { AgentRunItem } from './types.js';

type ToolResultItem = Extract<AgentRunItem, { type: 'tool-result' }>;

/** A completed run, collected from its stream: `finished`, or `interrupted` (it waits on `interrupts`). */
export interface AgentRunResult<Output = unknown> {
  /** `finished`: the run ended with its answer. `interrupted`: it stopped to ask; resume it with `agent.resume(runId, …)`. */
  status: 'finished' | 'interrupted';
  /** What an interrupted run waits on (empty when finished). */
  interrupts: Interrupt[];
  /** The run's id, when it stopped to ask (what `agent.resume` takes). */
  runId?: string;
  /** A resume sent again: this is the first one's outcome. */
  replay?: true;
  /** The final answer's text. */
  text: string;
  /** With the run's `output` schema: the final answer, decoded and validated. */
  output?: Output;
  finishReason: FinishReason;
  iterations: number;
  usage: Usage;
  /** The messages the run added (assistant and tool messages); for an interrupted run, its assistant messages so far. */
  messages: ChatMessage[];
  /**
   * Every tool result, in the order the model made the calls (as the transcript, `messages`, holds them); the run's
   * stream delivers each as its tool ends.
   */
  toolResults: ToolResultItem[];
  /** Recoverable errors seen on the way (the run went on). */
  errors: unknown[];
}

/**
 * Reads a run to its end. Resolves with the final result — `status: 'finished'`, or `status: 'interrupted'` with the
 * `interrupts` it waits on and its `runId` (a typed outcome, not a failure) — or rejects with the terminal error (the
 * exact abort reason for a cancelled run; a refused resume's `ResumeError`) — `partialRunOf(error)` gives what the run
 * produced before it failed; recoverable errors are listed in `errors`.
 *
 * @example
 * ```ts
 * const { text, toolResults } = await collectAgentRun(agent.run('Weather in Paris?'));
 * ```
 */
export async function collectAgentRun<Output = unknown>(stream: ReadableStream<AgentRunItem>): Promise<AgentRunResult<Output>> {
  const toolResults: ToolResultItem[] = [];
  // Where each call stands among the calls of the run, so the results read in call order once collected.
  const callOrder = new Map<string, number>();
  const errors: unknown[] = [];
  const messages: ChatMessage[] = [];
  let text = '';
  // What streamed of the model call under way (reset when its message ends it): a failure's partial text.
  let streamed = '';
  let iterations = 0;
  if (typeof (stream as { getReader?: unknown } | null)?.getReader !== 'function') throw ConfigError.fromProblems('collectAgentRun', [`stream must be the stream of agent.run() or agent.resume() (got ${refusedValue(stream)})`]);
  const reader = stream.getReader();
  let ending: { result: AgentRunResult<Output> } | { error: unknown } | undefined;
  try {
    // Read to the very end, past the last item, so the run finishes its own work (spans, listeners) before we return.
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (ending) continue;
      if (value.type === 'tool-call') callOrder.set(`${value.iteration} ${value.call.id}`, callOrder.size); // ids may repeat across rounds
      else if (value.type === 'tool-result') toolResults.push(value);
      else if (value.type === 'text-delta') {
        if (value.iteration !== iterations) streamed = '';
        iterations = value.iteration;
        streamed += value.delta;
      } else if (value.type === 'message') {
        messages.push(value.message);
        text = value.message.content ?? '';
        streamed = '';
        iterations = Math.max(iterations, value.iteration);
      } else if (value.type === 'interrupted') {
        const result: AgentRunResult<Output> = { status: 'interrupted', interrupts: value.interrupts, runId: value.runId, text, finishReason: 'tool_calls', iterations: value.iteration, usage: value.usage, messages, toolResults, errors };
        if (value.replay) result.replay = true;
        inCallOrder(toolResults, callOrder);
        ending = { result };
      }
      else if (value.type === 'error') {
        if (value.terminal) {
          ending = { error: value.error };
          inCallOrder(toolResults, callOrder);
          keepPartialRun(value.error, { text: streamed || text, toolResults, messages, errors, iterations: Math.max(iterations, value.iteration) });
        }
        else errors.push(value.error);
      } else if (value.type === 'finish') {
        inCallOrder(toolResults, callOrder);
        const result: AgentRunResult<Output> = { status: 'finished', interrupts: [], text: value.text, finishReason: value.finishReason, iterations: value.iterations, usage: value.usage, messages: value.messages, toolResults, errors };
        if ('output' in value) result.output = value.output as Output;
        if (value.replay) result.replay = true;
        ending = { result };
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (ending && 'result' in ending) return ending.result;
  if (ending) throw ending.error;
  throw new StreamError('The agent run stream ended without a finish or a terminal error', { reason: 'incomplete' });
}

/** Sorts results by their round, then by where their call stood (a call never announced — a synthetic answer — last). */
function inCallOrder(results: ToolResultItem[], callOrder: ReadonlyMap<string, number>): void {
  const at = (item: ToolResultItem) => callOrder.get(`${item.iteration} ${item.callId}`) ?? Number.MAX_SAFE_INTEGER;
  results.sort((a, b) => a.iteration - b.iteration || at(a) - at(b));
}
