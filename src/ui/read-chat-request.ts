import type { ChatMessage } from '../chat/core/types.js';
import { readBoundedBody } from '../internal/http-body.js';
import { isPlainObject } from '../internal/json.js';
import { IssueList, resolveOptions, transcriptOf, UI_MESSAGES_LIMITS, type FromUIMessagesOptions } from './from-ui-messages.js';
import { quote, snapshotBody } from './ui-body-snapshot.js';
import type { UIMessagesError } from './ui-messages-error.js';
import { resumeOfChecked, type UIResume } from './resume-decisions.js';

/** Options of {@link readChatRequest}: those of `fromUIMessages`, and how long the body may take to arrive. */
export interface ReadChatRequestOptions extends FromUIMessagesOptions {
  /** Bound on the time the body takes to arrive (then HTTP 408), in ms. @default 30,000 */
  bodyTimeoutMs?: number | undefined;
}

/** What `useChat` posted, with its messages as faultline's transcript. */
export interface UIChatRequest {
  /** The chat's id (`useChat`'s `id`). */
  id: string;
  /** The transcript the model saw (see `fromUIMessages`). */
  messages: ChatMessage[];
  /** Why the browser asked: a new message, or a regenerated answer. */
  trigger: 'submit-message' | 'regenerate-message';
  /** The message the trigger concerns, when the browser named one. */
  messageId?: string;
  /** Every other field of the body (what `useChat`'s `body` option added), checked as plain JSON like the rest. */
  extra: Record<string, unknown>;
  /**
   * The resume the browser asks for: its last message, the assistant's, answers approvals (`addToolApprovalResponse`) — call
   * `agent.resume(resume.runId, resume.decisions, { owner })` instead of a new run (see `resumeDecisionsFromUIMessages`).
   */
  resume?: UIResume;
}

const TRIGGERS = new Set(['submit-message', 'regenerate-message']);
const OWN_FIELDS = new Set(['id', 'messages', 'trigger', 'messageId']);

/** True for a `Request` of any realm or runtime (read by shape, not by class). */
function isRequest(value: unknown): value is Request {
  return typeof value === 'object' && value !== null && typeof (value as Request).headers?.get === 'function' && 'bodyUsed' in value && typeof (value as Request).method === 'string';
}

/**
 * True when JSON text nests deeper than `limit`, found by counting brackets outside strings — a linear scan, so a
 * body of a million `[` is refused before `JSON.parse` spends seconds on it.
 */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index++; // a backslash escapes the next character
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      if (++depth > limit) return true;
    } else if (code === 125 || code === 93) depth--;
  }
  return false;
}

/** The JSON of a request's body, read within its bounds, or the error it deserves. */
async function bodyOf(request: Request, options: { maxBodyBytes: number; bodyTimeoutMs: number; maxDepth: number }): Promise<{ value: unknown } | UIMessagesError> {
  const list = new IssueList();
  const declared = Number(request.headers.get('content-length') ?? '0');
  const tooLarge = () => {
    list.add({ code: 'too_large', path: '(body)', message: `is larger than ${options.maxBodyBytes} bytes (maxBodyBytes); it was not read` });
    return list.error(413);
  };
  if (declared > options.maxBodyBytes) return tooLarge();
  if (request.bodyUsed) {
    list.add({ code: 'invalid', path: '(body)', message: 'was already read by someone else; pass the request before reading it, or pass the parsed body' });
    return list.error();
  }
  const { text, exceeded, timedOut, failed } = await readBoundedBody(request, options.maxBodyBytes, { timeoutMs: options.bodyTimeoutMs });
  if (exceeded) return tooLarge();
  if (timedOut) {
    list.add({ code: 'timeout', path: '(body)', message: `did not arrive within ${options.bodyTimeoutMs} ms (bodyTimeoutMs)` });
    return list.error(408);
  }
  if (failed) {
    list.add({ code: 'invalid', path: '(body)', message: 'could not be read to its end: the connection failed while it arrived; it was not parsed' });
    return list.error();
  }
  if (nestsDeeperThan(text, options.maxDepth)) {
    list.add({ code: 'too_deep', path: '(body)', message: `nests deeper than ${options.maxDepth} levels (maxDepth); it was not parsed` });
    return list.error();
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    list.add({ code: 'not_json', path: '(body)', message: `is not JSON (it starts ${quote(text.slice(0, 60))})` });
    return list.error();
  }
}

/**
 * Reads the chat request `useChat` posts — `{ id, messages: UIMessage[], trigger, messageId? }` plus whatever its
 * `body` option adds — from a `Request` (its body read at most `maxBodyBytes`, within `bodyTimeoutMs`) or from a body
 * already parsed, and returns it with `messages` as faultline's transcript (`fromUIMessages`). A malformed, hostile or
 * oversized body is a `UIMessagesError` listing every problem (`status` 400, 413 or 408; `toResponse()` answers the
 * request); bad options are a `ConfigError`. Nothing else is thrown.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request): Promise<Response> {
 *     try {
 *       const chat = await readChatRequest(request);
 *       return toUIMessageStreamResponse(agent.run(chat.messages, { signal: request.signal }));
 *     } catch (error) {
 *       if (UIMessagesError.isInstance(error)) return error.toResponse();
 *       throw error;
 *     }
 *   },
 * };
 * ```
 */
export async function readChatRequest(request: Request | unknown, options?: ReadChatRequestOptions): Promise<UIChatRequest> {
  const resolved = resolveOptions(options, ['bodyTimeoutMs']);
  let body: unknown = request;
  let read = false;
  if (isRequest(request)) {
    const parsed = await bodyOf(request, { maxBodyBytes: resolved.maxBodyBytes, bodyTimeoutMs: resolved.bodyTimeoutMs ?? UI_MESSAGES_LIMITS.bodyTimeoutMs, maxDepth: resolved.maxDepth });
    if (!('value' in parsed)) throw parsed;
    body = parsed.value;
    read = true;
  }
  const list = new IssueList();
  // A body read here is bounded in bytes already and is fresh plain data: checked, not copied. A body handed in as a
  // value is bounded by the size estimate and copied (its getters run once, here).
  const copy = snapshotBody(body, read ? { ...resolved, maxBodyBytes: Number.POSITIVE_INFINITY } : resolved, list.add, [], !read);
  if (list.count > 0) throw list.error();
  if (!isPlainObject(copy)) {
    list.add({ code: 'invalid', path: '(body)', message: `must be an object {id, messages, trigger, messageId?} (got ${quote(copy)})` });
    throw list.error();
  }
  const { id, trigger, messageId } = copy;
  if (typeof id !== 'string' || id === '') list.add({ code: 'invalid', path: 'id', message: `must be a non-empty string (got ${quote(id)})` });
  if (typeof trigger !== 'string' || !TRIGGERS.has(trigger)) list.add({ code: 'invalid', path: 'trigger', message: `must be "submit-message" or "regenerate-message" (got ${quote(trigger)})` });
  if (messageId !== undefined && messageId !== null && typeof messageId !== 'string') list.add({ code: 'invalid', path: 'messageId', message: `must be a string when given (got ${quote(messageId)})` });
  const messages = transcriptOf(copy.messages, ['messages'], resolved, list);
  if (list.count > 0) throw list.error();
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(copy)) if (!OWN_FIELDS.has(key)) extra[key] = value;
  const chat: UIChatRequest = { id: id as string, messages, trigger: trigger as UIChatRequest['trigger'], extra };
  if (typeof messageId === 'string') chat.messageId = messageId;
  const resume = resumeOfChecked(copy.messages);
  if (resume) chat.resume = resume;
  return chat;
}
