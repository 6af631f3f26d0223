import type { ResumeDecision } from '../interrupts/interrupt.js';
import { isPlainObject } from '../internal/json.js';
import { IssueList, UI_MESSAGES_LIMITS } from './from-ui-messages.js';
import { pathOf, quote, snapshotBody } from './ui-body-snapshot.js';
import { isToolPartType } from './ui-tool-part.js';

/** What a browser's answers to a stopped run resume: the run, and a decision per approval answered. */
export interface UIResume {
  runId: string;
  decisions: ResumeDecision[];
}

/** The longest reason a denial may give (as `RESUME_LIMITS.maxReasonLength`). */
const MAX_REASON = 2_000;

/**
 * The resume a browser asks for after `useChat`'s `addToolApprovalResponse`: the last message's tool parts, when it is
 * the assistant's, in state `approval-responded` (`approval: { id, approved, reason? }`) as `ResumeDecision`s, and the
 * run they answer (the `runId` of that message's `data-faultline-interrupt` parts, or of its `metadata.faultline`).
 * `undefined` when the last message answers nothing — a user message after it included: the user moved on, and that
 * message is the turn (as the AI SDK reads approvals only from a last assistant message). Each answer must name an approval the message was asked (a `data-faultline-interrupt`
 * part with that id, for that tool call), once, all of one run — else a `UIMessagesError` (HTTP 400) listing every
 * problem: a forged id, a duplicate, a mismatched tool call or run, a malformed approval. The agent still checks the
 * decisions against what the run waits on (`ResumeError`s): this only reads what the browser said.
 *
 * @example
 * ```ts
 * const resume = resumeDecisionsFromUIMessages(body.messages);
 * if (resume) return toUIMessageStreamResponse(agent.resume(resume.runId, resume.decisions, { owner: user.id })); // the owner agent.run was given
 * ```
 */
export function resumeDecisionsFromUIMessages(messages: unknown): UIResume | undefined {
  const list = new IssueList();
  const copy = snapshotBody(messages, UI_MESSAGES_LIMITS, list.add, ['messages']);
  if (list.count > 0) throw list.error();
  return resumeOfChecked(copy);
}

/**
 * @internal {@link resumeDecisionsFromUIMessages} of messages already copied and checked within their reader's limits
 * (`readChatRequest`'s, which may be raised): not read again under the default ones.
 */
export function resumeOfChecked(copy: unknown): UIResume | undefined {
  const list = new IssueList();
  if (!Array.isArray(copy)) {
    list.add({ code: 'invalid', path: 'messages', message: `must be an array of UIMessages (got ${quote(copy)})` });
    throw list.error();
  }
  const at = copy.length - 1;
  if (at < 0 || !(isPlainObject(copy[at]) && (copy[at] as Record<string, unknown>).role === 'assistant')) return undefined;
  const message = copy[at] as Record<string, unknown>;
  const parts = Array.isArray(message.parts) ? (message.parts as unknown[]) : [];
  const issue = (path: ReadonlyArray<string | number>, text: string, code: 'invalid' | 'duplicate_call' = 'invalid') => void list.add({ code, path: pathOf(['messages', at, ...path]), message: text });
  const asked = new Map<string, { runId: unknown; toolCallId: unknown }>();
  for (const part of parts) {
    if (isPlainObject(part) && part.type === 'data-faultline-interrupt' && isPlainObject(part.data) && typeof part.data.id === 'string') asked.set(part.data.id, { runId: part.data.runId, toolCallId: part.data.toolCallId });
  }
  const decisions: ResumeDecision[] = [];
  const runIds = new Set<string>();
  const seen = new Set<string>();
  parts.forEach((part, index) => {
    if (!isPlainObject(part) || typeof part.type !== 'string' || !isToolPartType(part.type) || part.state !== 'approval-responded') return;
    const approval = part.approval;
    const path = ['parts', index, 'approval'];
    if (!isPlainObject(approval) || typeof approval.id !== 'string' || approval.id === '' || typeof approval.approved !== 'boolean') {
      issue(path, `must be { id, approved, reason? } (got ${quote(approval)})`);
      return;
    }
    const { id, approved, reason } = approval;
    if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > MAX_REASON)) return issue([...path, 'reason'], `must be a string of at most ${MAX_REASON} characters (got ${quote(reason)})`);
    if (seen.has(id)) return issue([...path, 'id'], `answers the approval ${quote(id)} a second time; answer each once`, 'duplicate_call');
    seen.add(id);
    const question = asked.get(id);
    if (!question) return issue([...path, 'id'], `names ${quote(id)}, which this message never asked (no data-faultline-interrupt part has that id)`);
    if (question.toolCallId !== part.toolCallId) return issue(['parts', index, 'toolCallId'], `is ${quote(part.toolCallId)}, but the approval ${quote(id)} was asked for the tool call ${quote(question.toolCallId)}`);
    if (typeof question.runId === 'string' && question.runId !== '') runIds.add(question.runId);
    decisions.push(approved ? { id, approved: true } : typeof reason === 'string' ? { id, approved: false, reason } : { id, approved: false });
  });
  const metadata = isPlainObject(message.metadata) && isPlainObject(message.metadata.faultline) ? message.metadata.faultline.runId : undefined;
  if (typeof metadata === 'string' && metadata !== '' && decisions.length > 0) runIds.add(metadata);
  if (list.count === 0 && decisions.length > 0 && runIds.size !== 1) issue(['metadata', 'faultline', 'runId'], runIds.size === 0 ? 'is missing: the approvals name no run to resume' : `the approvals name ${runIds.size} runs (${[...runIds].slice(0, 3).map((id) => quote(id)).join(', ')}); they must answer one`);
  if (list.count > 0) throw list.error();
  return decisions.length === 0 ? undefined : { runId: [...runIds][0] as string, decisions };
}
