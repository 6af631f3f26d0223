/**
 * Running a child agent (a graph agent, an LLM agent, a remote A2A agent) as a node of a parent graph, and turning
 * its events into a `SubgraphResult` (seed-systems §3.2, decisions.md point 7).
 */
import type { ChatMessage, ToolCall } from '../../chat/core/types.js';
import { ErrorType } from '../../errors/constants.js';
import { cloneResponseError, type ResponseError } from '../../errors/response-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { createId } from '../../internal/ids.js';
import { untilAborted } from '../../internal/delay.js';
import { isPlainObject, preview } from '../../internal/json.js';
import { ObjectType } from '../../runner/constants.js';
import { isTerminalError, type RunEvent } from '../../runner/event.js';
import type { RunnableAgent } from '../../runner/runnable-agent.js';
import { decodeStateDelta, mergeStateDelta, withoutMetadata, type StateDelta } from '../../runner/state-delta.js';
import { CHECKPOINT_FAILED, CHILD_RUN_SEPARATOR, SUBGRAPH_INTERRUPTED } from '../core/constants.js';
import { EXECUTION, type NodeContext } from '../core/node-context.js';
import type { State, StateSchema } from '../core/state-schema.js';
import { SubgraphResult } from '../core/subgraph-result.js';

/** Options of `addAgentNode`. */
export interface AgentNodeOptions {
  /** @default the node id */
  name?: string | undefined;
  /**
   * Builds the child's input from the parent state. @default the parent state. Either way the parent's
   * execution-error fields are removed, so the child hands back only the records its own run produced.
   */
  inputMapper?: ((parent: State) => State) | undefined;
  /** Builds the parent update from the child's result. @default `{last_response, node_responses: {[nodeId]: last_response}}` */
  outputMapper?: ((parent: State, result: SubgraphResult) => State | undefined | Promise<State | undefined>) | undefined;
  /** A terminal child error fails this node (its code kept), instead of completing with fallback data. @default false */
  propagateChildErrors?: boolean | undefined;
}

function isGraphCompletion(event: RunEvent): boolean {
  return event.response?.object === ObjectType.GraphExecution && event.response.done === true && event.stateDelta !== undefined;
}

function assistantText(event: RunEvent): { text: string; message: ChatMessage; toolCalls: ToolCall[] } | undefined {
  const response = event.response;
  if (!response || response.partial || response.error) return undefined;
  const message = response.choices?.[0]?.message;
  if (!message || message.role !== 'assistant') return undefined;
  return { text: message.content, message: { role: 'assistant', content: message.content }, toolCalls: message.toolCalls ?? [] };
}

/** @internal The run id of agent node `nodeId`'s child in run `runId`: a key no run id of a caller's can be. */
export function childRunId(runId: string, nodeId: string): string {
  return `${runId}${CHILD_RUN_SEPARATOR}${nodeId}`;
}

/**
 * The child's invocation id: in a checkpointed run `<run id>␟<node id>`, which is also the child graph's run id. A
 * child runs anew (its old checkpoint deleted, with its own children's) except on the first attempt in a resumed
 * step, where a child that ran before resumes from its checkpoint.
 */
async function childInvocationId(id: string, context: NodeContext): Promise<string> {
  const checkpoint = context[EXECUTION]?.checkpoint;
  if (!checkpoint) return createId('invocation');
  const child = childRunId(checkpoint.runId, id);
  if (checkpoint.resuming && context.attempt === 1) {
    // A child that stopped to ask still asks, and nothing in its parent's resume can answer it: the node fails as it
    // did (never a child "resumed" without its answer, refused, and the parent run on past the question).
    const kept: unknown = await untilAborted(Promise.resolve(checkpoint.checkpointer.get(child)), context.signal).catch((error: unknown) => {
      if (context.signal.aborted) throw error;
      return undefined; // unreadable: the child's own resume says what is wrong with it
    });
    if (isPlainObject(kept) && kept.status === 'interrupted') throw stoppedToAsk(id, Array.isArray(kept.interrupts) ? kept.interrupts : []);
    return child;
  }
  try {
    await checkpoint.checkpointer.delete(child);
  } catch (error) {
    throw new WorkflowError(`agent node ${preview(id, 200)} could not delete the old checkpoint of its child run ${preview(child, 200)}: the checkpointer's delete() failed: ${messageOf(error)}`, {
      nodeId: id,
      code: CHECKPOINT_FAILED,
      cause: error,
    });
  }
  return child;
}

/** The node function of an agent node. */
export function agentNode(id: string, agent: RunnableAgent, schema: StateSchema, options: AgentNodeOptions) {
  return async (state: State, context: NodeContext): Promise<State> => {
    const errorKeys = schema.executionErrorKeys;
    const childInput: State = options.inputMapper ? options.inputMapper(state) : state;
    const input: State = Object.fromEntries(Object.entries(childInput ?? {}).filter(([key]) => !errorKeys.includes(key)));
    const invocationId = await childInvocationId(id, context);
    const checkpointer = context[EXECUTION]?.checkpoint?.checkpointer;
    const result = new SubgraphResult(id);
    const fallbackRaw: StateDelta = {};
    let finalError: ResponseError | undefined;
    let childFailure: ResponseError | undefined;
    let asked: readonly { id: string }[] | undefined;
    const emit = context[EXECUTION]?.emit;
    const userInput = typeof state.user_input === 'string' ? state.user_input : undefined;
    for await (const event of agent.runEvents({
      invocationId,
      appName: 'graph',
      userId: '',
      sessionId: '',
      message: userInput !== undefined ? { role: 'user', content: userInput } : undefined,
      history: [],
      state: input,
      path: [...(context.path ?? []), id],
      signal: context.signal,
      ...(checkpointer ? { checkpointer } : {}),
      telemetry: context[EXECUTION]?.telemetry,
      traceparent: context[EXECUTION]?.span?.traceparent(),
    })) {
      emit?.(event);
      const own = event.invocationId === invocationId;
      if (own && isGraphCompletion(event)) {
        result.rawStateDelta = { ...event.stateDelta };
        result.finalState = decodeStateDelta(withoutMetadata(event.stateDelta));
        continue;
      }
      if (own && event.response?.interrupts !== undefined) asked = event.response.interrupts;
      if (own) mergeStateDelta(fallbackRaw, event.stateDelta, true);
      const response = event.response;
      if (!response || response.partial || !own) continue;
      finalError = response.error ? cloneResponseError(response.error) : undefined;
      if (response.error && (isTerminalError(event) || response.object === ObjectType.GraphPregelStep)) childFailure = cloneResponseError(response.error);
      const answer = assistantText(event);
      if (answer) {
        childFailure = undefined;
        result.lastResponse = answer.text;
        result.lastMessage = answer.message;
        if (answer.toolCalls.length > 0) result.toolCalls = answer.toolCalls;
      }
    }
    context.signal.throwIfAborted();
    if (asked !== undefined) throw stoppedToAsk(id, asked);
    const failure = finalError ?? childFailure;
    if (result.rawStateDelta === undefined && failure && failure.type !== ErrorType.StopAgentError && Object.keys(fallbackRaw).length > 0) {
      result.fallbackStateDelta = fallbackRaw;
      result.fallbackState = decodeStateDelta(fallbackRaw);
    }
    if (failure) result.error = failure;
    if (options.propagateChildErrors && childFailure) {
      throw new WorkflowError(childFailure.message, { nodeId: id, cause: childFailure });
    }
    const mapped = options.outputMapper
      ? await options.outputMapper(state, result)
      : result.lastResponse !== ''
        ? { last_response: result.lastResponse, node_responses: { [id]: result.lastResponse } }
        : undefined;
    return mapped ?? {};
  };
}

/** A child run that stopped to ask: it cannot stop its parent to ask. */
function stoppedToAsk(id: string, asked: readonly unknown[]): WorkflowError {
  const ids = asked
    .slice(0, 10)
    .map((each) => preview(isPlainObject(each) ? each.id : each, 80))
    .join(', ');
  return new WorkflowError(`agent node ${preview(id, 200)}'s child run stopped to ask (${ids}): a child cannot stop its parent to ask; ask in a node of the parent graph (interrupt(context, …)) instead`, {
    nodeId: id,
    code: SUBGRAPH_INTERRUPTED,
  });
}
