import { AgentError } from '../errors/agent-error.js';
import { ErrorType } from '../errors/constants.js';
import { toResponseError, type ResponseError } from '../errors/response-error.js';
import { isoTimestamp } from '../internal/clock.js';
import { isAbortError, messageOf } from '../internal/error-chain.js';
import { isPlainObject, preview, truncate } from '../internal/json.js';
import { HeldText } from '../internal/held-text.js';
import { headerSecrets, removeSecrets, secretForms, urlView } from '../internal/redact.js';
import type { Interrupt, ResumeDecision } from '../interrupts/interrupt.js';
import { ObjectType } from '../runner/constants.js';
import { cancelledError, createErrorEvent, createEvent, isTerminalError, type RunEvent } from '../runner/event.js';
import { RESUME_ERROR_TYPE } from '../runner/resume-run.js';
import type { Invocation, RunnableAgent } from '../runner/runnable-agent.js';
import { createA2AClient, decisionsMessage, textMessage, type A2AClient, type A2AClientOptions } from './client.js';
import { defaultA2AEventConverter, taskInterrupts, type A2AConverterContext, type A2AEventConverter } from './event-converter.js';
import type { A2AStreamEvent, MessageSendParams } from './types.js';

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
  // A credential the URLs given hide (`?api_key=…`, user info) too: the client removes it from each event, but a text
  // split across two deltas is only whole here.
  const secrets = [...(options.secrets ?? []), ...headerSecrets(options.headers)];
  for (const url of [options.url, options.agentCardUrl]) if (typeof url === 'string') secrets.push(...urlView(url, secrets).hidden);
  const convert = (run: () => RunEvent[]): RunEvent[] => {
    const events = convertWith(run);
    return secrets.length === 0 ? events : events.map((event) => removeSecrets(event, secrets));
  };
  const clean = (event: RunEvent): RunEvent => (secrets.length === 0 ? event : removeSecrets(event, secrets));
  const forms = secrets.flatMap((secret) => (secret.length >= 4 ? secretForms(secret) : []));
  const longestForm = forms.reduce((longest, form) => Math.max(longest, form.length), 0);
  return {
    name: fallbackName,
    resumable: true,
    async *runEvents(invocation: Invocation): AsyncGenerator<RunEvent> {
      const streamed = new Set<string>();
      const context: A2AConverterContext = {
        invocationId: invocation.invocationId,
        author: fallbackName,
        branch: invocation.branch,
        requestId: invocation.requestId,
        hasStreamed: (artifactId) => streamed.has(artifactId),
      };
      let params: MessageSendParams;
      if (invocation.resume) {
        const target = remoteTarget(invocation.resume.decisions);
        if ('type' in target) {
          yield clean(createErrorEvent(context, target));
          return;
        }
        params = { message: decisionsMessage(target, target.decisions) };
      } else {
        params = { message: textMessage(inputText(invocation), invocation.sessionId ? { contextId: invocation.sessionId } : {}) };
      }
      // The remote's questions become this invocation's: a done completion carrying them, ids naming the remote task.
      const stopped = (event: A2AStreamEvent): RunEvent | undefined => {
        const waiting = taskInterrupts(event);
        if (!waiting) return undefined;
        const interrupts = waiting.interrupts.map(({ id, runId: _remoteRun, ...rest }): Interrupt => ({ ...rest, id: localId(waiting.taskId, waiting.contextId, id), runId: invocation.invocationId, createdAt: rest.createdAt ?? isoTimestamp() }));
        return clean(createEvent(context, { response: { object: ObjectType.ChatCompletion, done: true, interrupts } }));
      };
      let streaming = options.streaming;
      let where = 'A2A request';
      let buffered = '';
      // A credential may arrive split across two streamed deltas, where no one event holds it whole: deltas go out
      // only up to where redaction can see every credential whole, the rest held until more arrives or text ends.
      const held = forms.length === 0 ? undefined : new HeldText(forms, longestForm);
      let lastDelta: RunEvent | undefined;
      const flushHeld = (): RunEvent | undefined => {
        const rest = held?.flush() ?? '';
        return rest === '' || lastDelta === undefined ? undefined : clean(withDelta(lastDelta, rest));
      };
      try {
        // The card names the author (unless `name` does) whichever mode is chosen, and picks the mode when none is.
        if (streaming === undefined || options.name === undefined) {
          const card = await client.getAgentCard({ signal: invocation.signal });
          streaming ??= card?.capabilities?.streaming ?? true;
          if (card?.name) context.author = options.name ?? card.name;
        }
        if (!streaming) {
          const result = await client.sendMessage(params, { signal: invocation.signal });
          const interrupted = stopped(result);
          if (interrupted) {
            yield interrupted;
            return;
          }
          for (const event of convert(() => converter.convertResult(result, context))) yield event;
          return;
        }
        where = 'A2A streaming request';
        for await (const event of client.streamMessage(params, { signal: invocation.signal })) {
          if (event.kind === 'artifact-update' && event.lastChunk !== true) streamed.add(event.artifact.artifactId);
          const interrupted = stopped(event);
          if (interrupted) {
            const rest = flushHeld();
            if (rest) yield rest;
            if (buffered !== '') yield clean(assistant(context, buffered, false));
            yield interrupted;
            return;
          }
          for (const raw of convertWith(() => converter.convertStreamEvent(event as A2AStreamEvent, context))) {
            const response = raw.response;
            if (response?.partial) {
              const delta = response.choices?.[0]?.delta?.content ?? '';
              buffered += delta;
              if (held && delta !== '') {
                lastDelta = raw;
                const out = held.push(delta);
                if (out !== '') yield clean(withDelta(raw, out));
                continue;
              }
            } else {
              const rest = flushHeld();
              if (rest) yield rest;
              if (response && buffered !== '') {
                yield clean(assistant(context, buffered, false));
                buffered = '';
              }
            }
            const converted = clean(raw);
            yield converted;
            if (isTerminalError(converted)) return; // decisions.md point 9: nothing follows a terminal error
          }
        }
        const rest = flushHeld();
        if (rest) yield rest;
        yield clean(assistant(context, buffered, true));
      } catch (error) {
        const rest = flushHeld();
        if (rest) yield rest;
        if (buffered !== '') yield clean(assistant(context, buffered, false)); // what was streamed stays a complete message
        if (error instanceof ConverterFailure) {
          yield createErrorEvent(context, { type: ErrorType.RunError, message: `custom event converter failed: ${messageOf(error.cause)}` });
          return;
        }
        const refusal = remoteRefusal(error, invocation.resume !== undefined);
        if (refusal) {
          yield clean(createErrorEvent(context, refusal));
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

/** A streamed delta event carrying `text` in place of its own delta. */
function withDelta(event: RunEvent, text: string): RunEvent {
  const response = event.response as NonNullable<RunEvent['response']>;
  const [choice, ...others] = response.choices ?? [];
  return { ...event, response: { ...response, choices: [{ ...choice, index: choice?.index ?? 0, delta: { ...choice?.delta, content: text } }, ...others] } };
}

const LOCAL_ID_PREFIX = 'a2a';

/** The id the parent sees for a remote interrupt: it names the task, so a resume needs no memory of this process. */
function localId(taskId: string, contextId: string, remoteId: string): string {
  return [LOCAL_ID_PREFIX, taskId, contextId, remoteId].map(encodeURIComponent).join(':');
}

/**
 * The remote task a resume answers, read from its decisions' ids, with the decisions renamed to the remote's ids; or
 * the refusal a local agent would give: an id naming no remote interrupt, or interrupts of two tasks (one invocation
 * stops on one task), is `INTERRUPT_NOT_FOUND`; no decision at all, `RESUME_INCOMPLETE`.
 */
function remoteTarget(decisions: readonly ResumeDecision[]): { taskId: string; contextId: string; decisions: ResumeDecision[] } | ResponseError {
  const refuse = (code: string, message: string): ResponseError => ({ type: RESUME_ERROR_TYPE, code, message });
  if (decisions.length === 0) return refuse('RESUME_INCOMPLETE', 'The resume carries no decisions: answer each pending interrupt of the remote task');
  let target: { taskId: string; contextId: string; decisions: ResumeDecision[] } | undefined;
  for (const decision of decisions) {
    const id: unknown = isPlainObject(decision) ? decision.id : undefined;
    const parts = typeof id === 'string' ? id.split(':') : [];
    let names: string[] = [];
    try {
      names = parts.length === 4 && parts[0] === LOCAL_ID_PREFIX ? parts.slice(1).map(decodeURIComponent) : [];
    } catch {
      // a malformed escape: the id names nothing
    }
    const [taskId, contextId, remoteId] = names;
    if (!taskId || !contextId || !remoteId) return refuse('INTERRUPT_NOT_FOUND', `The decision id ${preview(id, 200)} names no interrupt of a remote A2A task (they read a2a:<taskId>:<contextId>:<id>)`);
    target ??= { taskId, contextId, decisions: [] };
    if (target.taskId !== taskId || target.contextId !== contextId) return refuse('INTERRUPT_NOT_FOUND', `The decision id ${preview(id, 200)} names an interrupt of remote task ${preview(taskId, 200)}, not of ${preview(target.taskId, 200)} that this run waits on`);
    target.decisions.push({ ...decision, id: remoteId });
  }
  return target as NonNullable<typeof target>;
}

/**
 * A remote refusal of a resume as the local refusal: JSON-RPC -32602 with `data: { type: 'resume', code }` keeps its
 * code; a task the remote does not know (-32001: gone, or never there) is a run that waits on nothing.
 */
function remoteRefusal(error: unknown, resuming: boolean): ResponseError | undefined {
  if (!resuming || !AgentError.isInstance(error) || error.kind !== 'jsonrpc') return undefined;
  const { data, rpcCode } = error as AgentError & { data?: unknown; rpcCode?: number };
  const message = `The remote agent refused the resume: ${error.message}`;
  if (rpcCode === -32001) return { type: RESUME_ERROR_TYPE, code: 'RUN_NOT_INTERRUPTED', message };
  if (!isPlainObject(data) || data.type !== RESUME_ERROR_TYPE || typeof data.code !== 'string') return undefined;
  return { type: RESUME_ERROR_TYPE, code: truncate(data.code, 200), message };
}

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
