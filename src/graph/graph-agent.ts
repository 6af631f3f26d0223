import type { ChatMessage } from '../chat/types.js';
import { ErrorType } from '../errors/constants.js';
import { AsyncQueue } from '../internal/async-queue.js';
import { messageOf } from '../internal/error-chain.js';
import { cancelledError, createErrorEvent, type RunEvent } from '../runner/event.js';
import type { Invocation, RunnableAgent } from '../runner/runnable-agent.js';
import type { CompiledGraph } from './compiled-graph.js';
import type { State } from './state-schema.js';

/** Options of {@link createGraphAgent}. */
export interface GraphAgentOptions {
  /** Builds the graph's input from an invocation. @default the invocation's `state`, else `{user_input, messages}` */
  input?: ((invocation: Invocation) => State) | undefined;
}

/** A graph as an agent. */
export interface GraphAgent extends RunnableAgent {
  readonly graph: CompiledGraph;
}

function defaultInput(invocation: Invocation): State {
  if (invocation.state) return invocation.state;
  const messages: ChatMessage[] = [...invocation.history, ...(invocation.message ? [invocation.message] : [])];
  return { user_input: invocation.message?.content ?? '', messages };
}

/**
 * Runs a compiled graph as an agent, under the `Runner` or as a node of another graph. A failed run ends with the
 * graph's fallback state and its `graph.pregel.step` error (the runner's completion reports it); an aborted one with
 * a terminal `cancelled` error event.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });
 * ```
 */
export function createGraphAgent(name: string, graph: CompiledGraph, options: GraphAgentOptions = {}): GraphAgent {
  return {
    name,
    graph,
    runEvents(invocation: Invocation): AsyncIterable<RunEvent> {
      const queue = new AsyncQueue<RunEvent>();
      const origin = { invocationId: invocation.invocationId, author: name, branch: invocation.branch, requestId: invocation.requestId };
      let input: State;
      try {
        input = (options.input ?? defaultInput)(invocation);
      } catch (error) {
        queue.push(createErrorEvent(origin, { type: ErrorType.RunError, message: `The graph input could not be built: ${messageOf(error)}` }));
        queue.close();
        return queue;
      }
      graph
        .run(input, {
          signal: invocation.signal,
          invocationId: invocation.invocationId,
          path: invocation.path,
          branch: invocation.branch,
          requestId: invocation.requestId,
          onEvent: (event) => queue.push(event),
        })
        .then(
          (outcome) => {
            if (outcome.status === 'aborted') queue.push(createErrorEvent(origin, cancelledError(outcome.reason)));
            queue.close();
          },
          (error: unknown) => {
            queue.push(createErrorEvent(origin, { type: ErrorType.RunError, message: messageOf(error) }));
            queue.close();
          },
        );
      return queue;
    },
  };
}
