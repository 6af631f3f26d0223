import type { Agent } from '../agent/agent.js';
import type { ToolCall } from '../chat/core/types.js';
import { ErrorType } from '../errors/constants.js';
import { toResponseError, type ResponseError } from '../errors/response-error.js';
import { AgentError } from '../errors/agent-error.js';
import { isAbortError } from '../internal/error-chain.js';
import { keepRunSecrets, runSecrets } from '../internal/streams.js';
import { ObjectType } from './constants.js';
import { RESUME_ERROR_TYPE } from './resume-run.js';
import { sessionKeyOf } from './run-options.js';
import { cancelledError, chunkEvent, createErrorEvent, createEvent, type EventOrigin, type RunEvent } from './event.js';
import type { Invocation, RunnableAgent } from './runnable-agent.js';
import { parseTraceparent } from '../telemetry/traceparent.js';

/**
 * The `ResponseError` of an agent failure: an abort is `cancelled`; framework errors keep their wire type
 * (`api_error` for `ChatClientError`, `stream_error` for `StreamError`), anything else is `flow_error`.
 * @example `agentResponseError(new ChatClientError('Chat API returned 503', { status: 503 })).type // 'api_error'`
 */
export function agentResponseError(error: unknown): ResponseError {
  if (isAbortError(error)) return cancelledError(error);
  // A refused resume keeps its code under the type every resumable agent reports it with.
  if (AgentError.isInstance(error) && error.kind === 'resume') return { type: RESUME_ERROR_TYPE, ...(error.code ? { code: error.code } : {}), message: error.message };
  return toResponseError(error, ErrorType.FlowError) ?? { type: ErrorType.FlowError, message: 'unknown failure' };
}

/** The mark of a resume's outcome given again (`EventResponse.replay`). */
const replayed = (item: { replay?: true }): { replay?: true } => (item.replay ? { replay: true } : {});

/**
 * An LLM `Agent` as a `RunnableAgent`, so it runs under the `Runner` or as a graph agent node. Its items become
 * events: text and reasoning as partial `chat.completion.chunk`s, each tool round as an assistant message with its
 * calls plus one `tool.response` per result, recoverable errors as non-terminal error responses, the terminal error
 * as an `error` event with the right type (`api_error`, `stream_error`, `cancelled`, `flow_error`), and the answer as
 * a done `chat.completion` — or, for a run that stopped to ask, a done `chat.completion` carrying its `interrupts`
 * (the runner's completion then carries them too, with no error).
 *
 * A Runner resume (`runner.run({ resume: { runId, decisions } })`) continues the stopped run with `agent.resume`; a
 * refused one is a terminal error of type `resume` with its `ResumeError` code. A new message on the session instead
 * closes the stopped run (`agent.supersede`): its resume is then refused with `RUN_NOT_INTERRUPTED`. A run belongs to
 * the session it ran in (its `owner` is the session key of app, user and session): a resume from any other session —
 * another user holding its run id — is refused with `RUN_NOT_INTERRUPTED` as well, as if the run were not there.
 *
 * @example `new Runner({ appName: 'support', agent: toRunnableAgent(agent) })`
 */
export function toRunnableAgent(agent: Agent): RunnableAgent {
  // A failure's message may quote what failed (a tool's API key in a provider's error): events leave without it.
  const failure = (error: unknown): ResponseError => agent.withoutSecrets(agentResponseError(error));
  const runnable: RunnableAgent = {
    name: agent.name,
    resumable: true,
    supersede: (runId, options) => agent.supersede(runId, options),
    async *runEvents(invocation: Invocation): AsyncGenerator<RunEvent> {
      const origin: EventOrigin = { invocationId: invocation.invocationId, author: agent.name, branch: invocation.branch, requestId: invocation.requestId };
      const input = [...invocation.history, ...(invocation.message ? [invocation.message] : [])];
      let stream;
      try {
        // The run belongs to the session it runs in: a resume from any other session is refused as if the run were not there.
        const options = { signal: invocation.signal, parentSpan: parseTraceparent(invocation.traceparent), owner: sessionKeyOf(invocation.appName, invocation.userId, invocation.sessionId) };
        const resume = invocation.resume;
        stream = resume ? agent.resume(resume.runId, resume.decisions, options) : agent.run(input.length > 0 ? input : '', options);
      } catch (error) {
        yield createErrorEvent(origin, failure(error));
        return;
      }
      let text = '';
      let calls: ToolCall[] = [];
      for await (const item of stream) {
        switch (item.type) {
          case 'text-delta':
            text += item.delta;
            yield chunkEvent(origin, { content: item.delta });
            break;
          case 'reasoning-delta':
            yield chunkEvent(origin, { reasoning: item.delta });
            break;
          case 'tool-call':
            calls.push(item.call);
            break;
          case 'tool-result':
            if (calls.length > 0) {
              yield createEvent(origin, { response: { object: ObjectType.ChatCompletion, done: false, choices: [{ index: 0, message: { role: 'assistant', content: text, toolCalls: calls } }] } });
              text = '';
              calls = [];
            }
            yield createEvent(origin, { response: { object: ObjectType.ToolResponse, done: false, choices: [{ index: 0, message: { role: 'tool', content: item.content, toolCallId: item.callId } }] } });
            break;
          case 'error':
            yield item.terminal
              ? createErrorEvent(origin, failure(item.error))
              : createEvent(origin, { response: { object: ObjectType.ChatCompletion, done: false, error: failure(item.error) } });
            break;
          case 'interrupted':
            // Not an error: the run waits on a person (resume it with `agent.resume(runId, decisions)`). Its round
            // goes out even when none of its calls has a result yet: the session keeps it open until it is answered.
            if (calls.length > 0) {
              yield createEvent(origin, { response: { object: ObjectType.ChatCompletion, done: false, choices: [{ index: 0, message: { role: 'assistant', content: text, toolCalls: calls } }] } });
              text = '';
              calls = [];
            }
            yield createEvent(origin, { response: { object: ObjectType.ChatCompletion, done: true, usage: item.usage, interrupts: item.interrupts, ...replayed(item) } });
            break;
          case 'finish':
            yield createEvent(origin, {
              response: {
                object: ObjectType.ChatCompletion,
                done: true,
                usage: item.usage,
                choices: [{ index: 0, message: { role: 'assistant', content: item.text }, finishReason: item.finishReason }],
                ...replayed(item),
              },
            });
            break;
          default:
            break;
        }
      }
    },
  };
  keepRunSecrets(runnable, runSecrets(agent));
  return runnable;
}
