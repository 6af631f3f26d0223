/**
 * @internal A Runner session read as a valid transcript, whatever order its turns were appended in. A round that
 * stopped to ask is appended with its calls unanswered (its assistant message names the run waiting on them); their
 * answers come later, from another turn — the resume's results, or, when the user sends a new message instead, a
 * closure per call saying it was not run — and every read places each call's one answer right after its assistant
 * message, in call order. Appending is all a store has to do, so concurrent turns on one session stay safe: a real
 * answer replaces a closure (a resume that won the race ran or refused the call), a second answer to a call or an
 * answer to no call is left out, and the marks never reach a model.
 */
import type { ChatMessage, ToolCall } from '../chat/core/types.js';
import { approvalSuperseded } from '../interrupts/approval-answers.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import { isPlainObject } from '../internal/json.js';

/** A message as the session keeps it: what the model gets, plus the marks only a read of the session uses. */
interface StoredMessage extends ChatMessage {
  /** On an assistant message whose round stopped to ask: the run waiting on its calls. */
  pendingRun?: string;
  /** On a tool message: a closure written because the user moved on. */
  superseded?: true;
}

/** Calls of one assistant message that have no answer yet, and the run waiting on them (when the session names it). */
export interface PendingRound {
  runId: string | undefined;
  calls: ToolCall[];
}

/** The session read: the transcript the model gets, and the rounds still waiting. */
export interface SessionView {
  transcript: ChatMessage[];
  pending: PendingRound[];
}

/** Marks the assistant messages of `transcript` whose calls `interrupts` wait on with their run. */
export function markPending(transcript: readonly ChatMessage[], interrupts: readonly Interrupt[]): void {
  for (const interrupt of interrupts) {
    if (typeof interrupt?.toolCallId !== 'string') continue;
    for (let at = transcript.length - 1; at >= 0; at--) {
      const message = transcript[at] as StoredMessage;
      if (callsOf(message).some((call) => call.id === interrupt.toolCallId)) {
        message.pendingRun = interrupt.runId;
        break;
      }
    }
  }
}

/** Reads a stored session; see the module comment. */
export function readSession(stored: readonly ChatMessage[]): SessionView {
  const rounds: Array<{ message: StoredMessage; answers: Map<string, StoredMessage> }> = [];
  // Per call id, the answers of the latest round that asked it, until a real answer arrives (ids may repeat across rounds).
  const open = new Map<string, Map<string, StoredMessage>>();
  for (const message of stored as readonly StoredMessage[]) {
    if (isPlainObject(message) && message.role === 'tool') {
      const id = message.toolCallId;
      const answers = typeof id === 'string' ? open.get(id) : undefined;
      if (answers === undefined) continue; // it answers no waiting call: a provider would refuse it
      const kept = answers.get(id!);
      if (kept === undefined || (kept.superseded === true && message.superseded !== true)) answers.set(id!, message);
      if (message.superseded !== true) open.delete(id!);
      continue;
    }
    const answers = new Map<string, StoredMessage>();
    for (const call of callsOf(message)) open.set(call.id, answers);
    rounds.push({ message, answers });
  }
  const transcript: ChatMessage[] = [];
  const pending: PendingRound[] = [];
  for (const { message, answers } of rounds) {
    transcript.push(clean(message));
    const unanswered: ToolCall[] = [];
    for (const call of callsOf(message)) {
      const answer = answers.get(call.id);
      if (answer === undefined) unanswered.push(call);
      else {
        transcript.push(clean(answer));
        answers.delete(call.id); // a call listed twice is answered once
      }
    }
    if (unanswered.length > 0) pending.push({ runId: typeof message.pendingRun === 'string' ? message.pendingRun : undefined, calls: unanswered });
  }
  return { transcript, pending };
}

/** The tool messages that close `rounds`: each call answered as not run (`ToolApprovalSuperseded`, structured like every tool error). */
export function closures(rounds: readonly PendingRound[]): ChatMessage[] {
  return rounds.flatMap((round) =>
    round.calls.map((call): StoredMessage => ({ role: 'tool', content: JSON.stringify({ ok: false, error: approvalSuperseded(call.name) }), toolCallId: call.id, superseded: true })),
  );
}

/** The calls of a stored message with an id (a session holds whatever its store gave back: the agent checks the rest). */
function callsOf(message: StoredMessage | undefined): ToolCall[] {
  const calls: unknown = isPlainObject(message) ? message.toolCalls : undefined;
  return Array.isArray(calls) ? calls.filter((call): call is ToolCall => isPlainObject(call) && typeof call.id === 'string') : [];
}

function clean(message: StoredMessage): ChatMessage {
  if (!isPlainObject(message) || (message.pendingRun === undefined && message.superseded === undefined)) return message;
  const { pendingRun: _run, superseded: _closure, ...rest } = message;
  return rest;
}
