import { ErrorType } from '../errors/constants.js';
import { toResponseError } from '../errors/response-error.js';
import { isAbortError, messageOf } from '../internal/error-chain.js';
import { headerSecrets, removeSecrets } from '../internal/redact.js';
import { ObjectType } from '../runner/constants.js';
import { cancelledError, createErrorEvent, createEvent, isTerminalError, type RunEvent } from '../runner/event.js';
import type { Invocation, RunnableAgent } from '../runner/runnable-agent.js';
import { createA2AClient, textMessage, type A2AClient, type A2AClientOptions } from './client.js';
import { defaultA2AEventConverter, type A2AConverterContext, type A2AEventConverter } from './event-converter.js';
import type { A2AStreamEvent } from './types.js';

/** Options of {@link createA2AAgent}: a client (or the options to make one), and how to decode. */
export interface A2AAgentOptions extends A2AClientOptions {
  /** The agent's name as author of its events. @default the card's name, else 'a2a-agent' */
  name?: string | undefined;
  /** A client to use instead of making one from the options. */
  client?: A2AClient | undefined;
  /** Stream (`message/stream`) or not (`message/send`). @default the card's `capabilities.streaming`, else true */
  streaming?: boolean | undefined;
  /** Decodes results and events into runner events. @default {@link defaultA2AEventConverter} */
  converter?: A2AEventConverter | undefined;
}

/**
 * A remote A2A agent as a `RunnableAgent`: runs under the `Runner` and as a graph agent node, so remote failures
 * flow into the parent's collector like local ones. A failed/rejected/canceled remote task becomes a terminal `error`
 * event (`ResponseError` rebuilt from its metadata, with the remote's `state_delta` when it sent one); a transport or
 * JSON-RPC failure a `run_error` event; a failing converter a `run_error` too; and after any terminal error nothing
 * follows — no synthetic final message (decisions.md point 9).
 *
 * @example
 * ```ts
 * const remote = createA2AAgent({ agentCardUrl: 'https://inventory.example' });
 * parent.addAgentNode('inventory', remote, { outputMapper: collector.subgraphOutputMapper(), propagateChildErrors: true });
 * ```
 */
export function createA2AAgent(options: A2AAgentOptions): RunnableAgent {
  const client = options.client ?? createA2AClient(options);
  const converter = options.converter ?? defaultA2AEventConverter;
  const fallbackName = options.name ?? 'a2a-agent';
  // What the remote sends back may quote the credentials we sent it (a failed task forwarding our Authorization
  // header's refusal): they are removed from every event before it reaches the runner, a collector or our own A2A
  // answers.
  const secrets = [...(options.secrets ?? []), ...headerSecrets(options.headers)];
  const convert = (run: () => RunEvent[]): RunEvent[] => {
    const events = convertWith(run);
    return secrets.length === 0 ? events : events.map((event) => removeSecrets(event, secrets));
  };
  return {
    name: fallbackName,
    async *runEvents(invocation: Invocation): AsyncGenerator<RunEvent> {
      const streamed = new Set<string>();
      const context: A2AConverterContext = {
        invocationId: invocation.invocationId,
        author: fallbackName,
        branch: invocation.branch,
        requestId: invocation.requestId,
        hasStreamed: (artifactId) => streamed.has(artifactId),
      };
      const text = inputText(invocation);
      const params = { message: textMessage(text, invocation.sessionId ? { contextId: invocation.sessionId } : {}) };
      let streaming = options.streaming;
      let where = 'A2A request';
      let buffered = '';
      try {
        // The card names the author (unless `name` does) whichever mode is chosen, and picks the mode when none is.
        if (streaming === undefined || options.name === undefined) {
          const card = await client.getAgentCard({ signal: invocation.signal });
          streaming ??= card?.capabilities?.streaming ?? true;
          if (card?.name) context.author = options.name ?? card.name;
        }
        if (!streaming) {
          const result = await client.sendMessage(params, { signal: invocation.signal });
          for (const event of convert(() => converter.convertResult(result, context))) yield event;
          return;
        }
        where = 'A2A streaming request';
        for await (const event of client.streamMessage(params, { signal: invocation.signal })) {
          if (event.kind === 'artifact-update' && event.lastChunk !== true) streamed.add(event.artifact.artifactId);
          for (const converted of convert(() => converter.convertStreamEvent(event as A2AStreamEvent, context))) {
            const response = converted.response;
            if (response?.partial) {
              buffered += response.choices?.[0]?.delta?.content ?? '';
            } else if (response && buffered !== '') {
              yield assistant(context, buffered, false);
              buffered = '';
            }
            yield converted;
            if (isTerminalError(converted)) return; // decisions.md point 9: nothing follows a terminal error
          }
        }
        yield assistant(context, buffered, true);
      } catch (error) {
        if (buffered !== '') yield assistant(context, buffered, false); // what was streamed stays a complete message
        if (error instanceof ConverterFailure) {
          yield createErrorEvent(context, { type: ErrorType.RunError, message: `custom event converter failed: ${messageOf(error.cause)}` });
          return;
        }
        if (invocation.signal.aborted || isAbortError(error)) {
          yield createErrorEvent(context, cancelledError(invocation.signal.reason ?? error));
          return;
        }
        const responseError = toResponseError(error, ErrorType.RunError) ?? { type: ErrorType.RunError, message: messageOf(error) };
        yield createErrorEvent(context, { ...responseError, message: `${where} failed: ${responseError.message}` });
      }
    },
  };
}

class ConverterFailure extends Error {}

function convertWith(run: () => RunEvent[]): RunEvent[] {
  try {
    const events = run();
    if (!Array.isArray(events)) throw new TypeError('the converter returned something other than an array of events');
    return events;
  } catch (error) {
    throw new ConverterFailure('converter failed', { cause: error });
  }
}

function assistant(context: A2AConverterContext, text: string, done: boolean): RunEvent {
  return createEvent(context, { response: { object: ObjectType.ChatCompletion, done, partial: false, choices: [{ index: 0, message: { role: 'assistant', content: text } }] } });
}

function inputText(invocation: Invocation): string {
  if (invocation.message?.content) return invocation.message.content;
  const state = invocation.state;
  if (typeof state?.user_input === 'string') return state.user_input;
  const lastUser = [...invocation.history].reverse().find((message) => message.role === 'user');
  return lastUser?.content ?? '';
}
