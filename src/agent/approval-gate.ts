/**
 * @internal The round of tool calls of an agent with tools that need approval: the calls nobody has to approve run as
 * usual; a call a person refused earlier in the run with the same arguments is refused again; the others stop the run
 * with one interrupt each, kept in the run-state store. Reached only through `toolApprovals()`.
 */
import type { ChatMessage, ToolCall, Usage } from '../chat/core/types.js';
import { AgentError } from '../errors/agent-error.js';
import { ToolError } from '../errors/tool-error.js';
import { approvalDenied } from '../interrupts/approval-answers.js';
import { argumentsKey } from '../interrupts/arguments-key.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import { isoTimestamp } from '../internal/clock.js';
import { messageOf } from '../internal/error-chain.js';
import { createId } from '../internal/ids.js';
import { redactError, redactText } from '../internal/redact.js';
import { EVENT_INTERRUPT, FAULTLINE_INTERRUPT_COUNT, FAULTLINE_INTERRUPT_IDS } from '../telemetry/attribute-names.js';
import { traces } from '../telemetry/no-telemetry.js';
import type { AnyTool } from '../tools/define-tool.js';
import { DEFAULT_MAX_ARGUMENTS_LENGTH, parseToolArguments } from '../tools/tool-arguments.js';
import { findTool, shownToolName } from '../tools/tool-call-name.js';
import { errorJSON, safeEmit } from './agent-events.js';
import type { LoopContext, RoundEnd } from './loop-context.js';
import { syntheticAnswer } from './synthetic-answer.js';
import { RunStateHandle } from './run-state.js';
import { runTools } from './run-tools.js';
import type { AgentRunItem } from './types.js';


type Verdict = { ask: false; noRepair?: boolean } | { ask: true; args: unknown; tool: AnyTool } | { ask?: undefined; denied: true; tool: AnyTool };

/** The calls that a person must approve, and those that run; see the module comment. */
export async function* gatedTools(
  context: LoopContext,
  calls: readonly ToolCall[],
  iteration: number,
  conversation: ChatMessage[],
  added: ChatMessage[],
  queue: AgentRunItem[],
  usage: Usage,
  cut: boolean,
): AsyncGenerator<AgentRunItem[], RoundEnd, undefined> {
  const { settings } = context;
  const denied = new Set(context.runState?.record.denied ?? []);
  const verdicts: Verdict[] = [];
  for (const call of calls) verdicts.push(await verdictOf(context, call, iteration, queue, denied));
  const noRepair = new Set(calls.filter((_, index) => (verdicts[index] as { noRepair?: boolean }).noRepair === true).map((call) => call.id));
  const runnable = calls.filter((_, index) => verdicts[index]!.ask === false);
  // In a round the output limit cut, a call whose arguments were cut off is answered so (never asked about); a whole one is asked about as usual.
  if (runnable.length === calls.length) return yield* runTools(context, calls, iteration, conversation, added, queue, cut, noRepair);
  const scratch: ChatMessage[] = [];
  const failure = runnable.length > 0 ? yield* runTools(context, runnable, iteration, scratch, [], queue, cut, noRepair) : undefined;
  if (failure !== undefined) return failure;
  const answered: Record<string, string> = {};
  for (const message of scratch) answered[message.toolCallId as string] = message.content as string;
  const pending: Interrupt[] = [];
  const runId = context.runState?.record.runId ?? context.runId; // a resumed run's own id: its record is kept under it
  const time = Date.now();
  calls.forEach((call, index) => {
    const verdict = verdicts[index]!;
    if ('denied' in verdict) {
      const name = shownToolName(settings.tools, call.name, settings.secrets);
      const { item, content } = syntheticAnswer(settings, call.id, name, iteration, 'denied', approvalDenied(name));
      answered[call.id] = content;
      queue.push(item);
    } else if (verdict.ask) {
      const interrupt: Interrupt = { id: createId('approval'), runId, kind: 'approval', toolCallId: call.id, toolName: verdict.tool.name, args: verdict.args, createdAt: isoTimestamp(time) };
      if (verdict.tool.approvalExpiresInMs !== undefined) interrupt.expiresAt = new Date(time + verdict.tool.approvalExpiresInMs).toISOString();
      pending.push(interrupt);
    }
  });
  if (pending.length === 0) {
    // Every call that needed a person was refused before: the round is whole, the run goes on.
    const messages = calls.map((call): ChatMessage => ({ role: 'tool', content: answered[call.id] as string, toolCallId: call.id }));
    conversation.push(...messages);
    added.push(...messages);
    if (queue.length > 0) yield queue.splice(0);
    return undefined;
  }
  const saved = await keep(context, { added, iteration, usage, calls, answered, pending });
  if (saved !== undefined) return { error: saved };
  const interrupts = pending.slice(0, 50).map((each) => ({ id: each.id, toolCallId: each.toolCallId, toolName: each.toolName, expiresAt: each.expiresAt }));
  safeEmit(context, queue, 'interrupt', () => ({ runId: context.runId, agent: settings.name, iteration, count: pending.length, interrupts }));
  if (traces(context.span)) context.span.addEvent(EVENT_INTERRUPT, { [FAULTLINE_INTERRUPT_COUNT]: pending.length, [FAULTLINE_INTERRUPT_IDS]: interrupts.map((each) => each.id).join(',') });
  return { interrupted: { type: 'interrupted', runId, iteration, interrupts: pending, usage } };
}

/** Whether `call` runs, is asked about, or is refused again. */
async function verdictOf(context: LoopContext, call: ToolCall, iteration: number, queue: AgentRunItem[], denied: ReadonlySet<string>): Promise<Verdict> {
  const { settings } = context;
  const tool = findTool(settings.tools, call.name);
  const rule = tool?.needsApproval;
  if (tool === undefined || rule === undefined || rule === false) return { ask: false };
  const parsed = await parseToolArguments(tool, call.arguments, { maxLength: DEFAULT_MAX_ARGUMENTS_LENGTH });
  if (!parsed.ok) return { ask: false, noRepair: true }; // the model is told what is wrong; nothing runs unasked
  if (denied.has(deniedKey(tool.name, parsed.value))) return { denied: true, tool };
  if (rule === true) return { ask: true, args: parsed.value, tool };
  try {
    return (await rule(parsed.value, { callId: call.id, toolName: tool.name })) === false ? { ask: false } : { ask: true, args: parsed.value, tool };
  } catch (error) {
    const failure = new ToolError(`The needsApproval check of tool '${tool.name}' threw, so the call waits for a person: ${redactText(messageOf(error), settings.secrets)}`, {
      toolName: tool.name,
      callId: call.id,
      cause: redactError(error, settings.secrets),
    });
    queue.push({ type: 'error', iteration, terminal: false, error: failure });
    safeEmit(context, queue, 'error', () => ({ runId: context.runId, agent: settings.name, iteration, terminal: false, error: errorJSON(failure, settings.secrets) }));
    return { ask: true, args: parsed.value, tool };
  }
}

/** How a refused call is remembered in its run: its tool and its arguments, whatever their key order. */
export function deniedKey(toolName: string, args: unknown): string {
  return `${toolName} ${argumentsKey(args)}`;
}

interface Stop {
  added: ChatMessage[];
  iteration: number;
  usage: Usage;
  calls: readonly ToolCall[];
  answered: Record<string, string>;
  pending: Interrupt[];
}

/** Keeps the stopped run in the store; the failure when it cannot be kept (then nothing waits: the run fails). */
async function keep(context: LoopContext, stop: Stop): Promise<unknown> {
  const round = { iteration: stop.iteration, calls: [...stop.calls], answered: stop.answered };
  try {
    const held = context.runState;
    if (held !== undefined) {
      const written = await held.write((record) => {
        record.status = 'interrupted';
        record.added = [...stop.added];
        record.iterations = stop.iteration;
        record.usage = stop.usage;
        record.round = round;
        record.interrupts = stop.pending;
        record.executions = {};
      });
      if (written) return undefined;
      return new AgentError(`The run ${context.runId} stopped to ask, but another resume took it over; its approvals were not kept.`, { code: 'RUN_STATE_FAILED' });
    }
    const store = context.settings.approvals!.store;
    const record = {
      version: 1 as const,
      runId: context.runId,
      agent: context.settings.name,
      revision: 1,
      status: 'interrupted' as const,
      ...(context.sessionId !== undefined ? { sessionId: context.sessionId } : {}),
      ...(context.owner !== undefined ? { owner: context.owner } : {}),
      input: [...context.input],
      added: [...stop.added],
      iterations: stop.iteration,
      usage: stop.usage,
      round,
      interrupts: stop.pending,
      executions: {},
      denied: [],
      resumes: [],
      updatedAt: isoTimestamp(),
    };
    if ((await store.put(record)) === false) return new AgentError(`The run ${context.runId} could not keep its approvals: the store holds another run under its id.`, { code: 'RUN_STATE_FAILED' });
    context.runState = new RunStateHandle(store, record);
    return undefined;
  } catch (error) {
    return new AgentError(`The run ${context.runId} stopped to ask, but its approvals could not be kept: ${redactText(messageOf(error), context.settings.secrets)}`, { code: 'RUN_STATE_FAILED', cause: redactError(error, context.settings.secrets) });
  }
}
