/** A graph node that runs the tool calls of the last assistant message through `runToolCall`. */
import type { ChatMessage, ToolCall } from '../../chat/core/types.js';
import { preview } from '../../internal/json.js';
import { ObjectType } from '../../runner/constants.js';
import { createEvent } from '../../runner/event.js';
import { isTool, type AnyTool } from '../../tools/define-tool.js';
import { runToolCallUnder } from '../../tools/run-tool-call.js';
import { toolRunContent, type ToolErrorFormat } from '../../tools/serialize-tool-result.js';
import { toolLogOptionProblem, type ToolLogOption } from '../../tools/tool-log-option.js';
import { END } from '../core/constants.js';
import { EXECUTION, type NodeContext } from '../core/node-context.js';
import type { Router } from '../core/node-function.js';
import type { State } from '../core/state-schema.js';
import { secretsProblem } from '../../internal/secret-forms.js';

/** Options of `addToolsNode`. */
export interface ToolsNodeOptions {
  name?: string | undefined;
  /** @default 'messages' */
  messagesKey?: string | undefined;
  /** @default 'result' */
  onToolCrash?: 'result' | 'throw' | undefined;
  /** @default 'structured' */
  errorFormat?: ToolErrorFormat | undefined;
  /** The tools' developer log: `false`, `console` or a function. @default crashes only, one line on `console.error` */
  logger?: ToolLogOption | undefined;
  secrets?: readonly string[] | undefined;
}

/**
 * The tool calls of the last assistant message that no tool message answers yet.
 * @example `pendingToolCalls(state.messages).length > 0`
 */
export function pendingToolCalls(messages: readonly ChatMessage[]): ToolCall[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ChatMessage;
    if (message.role !== 'assistant') continue;
    const answered = new Set(messages.slice(index + 1).filter((each) => each.role === 'tool').map((each) => each.toolCallId));
    return (message.toolCalls ?? []).filter((call) => !answered.has(call.id));
  }
  return [];
}

/** The node function of a tools node: one tool message per pending call, in call order. */
/** @internal Every problem with a tools node's tools and options, as sentences for `compile()`. */
export function toolsNodeProblems(id: string, tools: readonly AnyTool[], options: ToolsNodeOptions): string[] {
  if (!Array.isArray(tools) || tools.some((tool) => !isTool(tool))) return [`tools node ${preview(id, 200)} needs tools made by defineTool()`];
  const where = `tools node ${preview(id, 200)}`;
  const problems: string[] = [];
  const logger = toolLogOptionProblem(options.logger, `${where}: logger`);
  if (logger) problems.push(logger);
  if (options.onToolCrash !== undefined && options.onToolCrash !== 'result' && options.onToolCrash !== 'throw') problems.push(`${where}: onToolCrash must be 'result' or 'throw'`);
  if (options.errorFormat !== undefined && options.errorFormat !== 'structured' && options.errorFormat !== 'flat') problems.push(`${where}: errorFormat must be 'structured' or 'flat'`);
  const secrets = secretsProblem(options.secrets);
  if (secrets) problems.push(`${where}: ${secrets}`);
  return problems;
}

export function toolsNode(id: string, tools: readonly AnyTool[], options: ToolsNodeOptions) {
  const key = options.messagesKey ?? 'messages';
  return async (state: State, context: NodeContext): Promise<State | undefined> => {
    const messages = Array.isArray(state[key]) ? (state[key] as ChatMessage[]) : [];
    const calls = pendingToolCalls(messages);
    if (calls.length === 0) return undefined;
    const runs = await Promise.all(
      calls.map((call) =>
        // The options were checked at compile() (toolsNodeProblems): the run goes past runToolCall's own check.
        runToolCallUnder(tools, call, { onToolCrash: options.onToolCrash, logger: options.logger, secrets: options.secrets }, context.signal),
      ),
    );
    const emit = context[EXECUTION]?.emit;
    const toolMessages: ChatMessage[] = runs.map((run) => {
      const content = toolRunContent(run, options.errorFormat);
      emit?.(
        createEvent(
          { invocationId: context.invocationId, author: id },
          { response: { object: ObjectType.ToolResponse, done: false, choices: [{ index: 0, message: { role: 'tool', content, toolCallId: run.callId } }] } },
        ),
      );
      return { role: 'tool', content, toolCallId: run.callId };
    });
    return { [key]: toolMessages };
  };
}

/**
 * A router for the classic tool loop: to `toolsNodeId` while the last assistant message has unanswered tool calls,
 * else to `otherwise` (default `END`).
 * @example `graph.addConditionalEdges('llm', routeToolCalls('tools'))`
 */
export function routeToolCalls<T extends string, O extends string = typeof END>(toolsNodeId: T, options: { messagesKey?: string; otherwise?: O } = {}): Router<State, T | O> {
  const key = options.messagesKey ?? 'messages';
  return (state) => {
    const messages = Array.isArray(state[key]) ? (state[key] as ChatMessage[]) : [];
    return pendingToolCalls(messages).length > 0 ? toolsNodeId : ((options.otherwise ?? END) as O);
  };
}
