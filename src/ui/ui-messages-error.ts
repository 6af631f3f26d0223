import { AgentError, type AgentErrorOptions } from '../errors/agent-error.js';
import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';

const symbol = Symbol.for('faultline.error.UIMessagesError');

/**
 * What kind of problem one {@link UIMessagesIssue} is: `not_json` (a value JSON cannot carry, or a body that is not
 * JSON), `too_large` / `too_deep` / `too_long` / `too_many` (a bound), `prototype_key` (`__proto__`, `constructor`,
 * `prototype`), `invalid` (a wrong type or value), `unknown_part` (a part type that would change the transcript if
 * guessed at), `unsupported` (a part faultline cannot send to a model, e.g. a file), `duplicate_call` (one tool call id
 * twice), `orphan_output` (a tool output whose call cannot be rebuilt), `timeout` (the body did not arrive in time).
 */
export type UIMessagesIssueCode =
  | 'not_json'
  | 'too_large'
  | 'too_deep'
  | 'too_long'
  | 'too_many'
  | 'prototype_key'
  | 'invalid'
  | 'unknown_part'
  | 'unsupported'
  | 'duplicate_call'
  | 'orphan_output'
  | 'timeout';

/** One problem of a chat request: where (`messages[2].parts[0].state`), what, and how bad. */
export interface UIMessagesIssue {
  code: UIMessagesIssueCode;
  /** Where in the body, e.g. `messages[2].parts[0].state` (`(body)` for the body itself). */
  path: string;
  /** What is wrong, quoting the value at most 200 characters, credential shapes masked. */
  message: string;
}

/** Options of {@link UIMessagesError}. */
export interface UIMessagesErrorOptions extends AgentErrorOptions {
  /** Every problem found (at most 20 are kept; the message says how many there were). */
  issues?: readonly UIMessagesIssue[] | undefined;
  /** The HTTP status the request deserves: 400 (malformed), 413 (over the byte bound), 408 (too slow). @default 400 */
  status?: number | undefined;
}

const STATUS_CODES: Readonly<Record<number, string>> = { 400: 'INVALID_UI_MESSAGES', 408: 'BODY_TIMEOUT', 413: 'BODY_TOO_LARGE' };

/**
 * A chat request (`useChat`'s POST body, or the `UIMessage[]` in it) that cannot become a transcript: malformed,
 * hostile or over a bound. Lists every problem found (`issues`, each with a path and a bounded preview), carries the
 * HTTP status it deserves (`status`: 400, 413 or 408) and answers the request itself with {@link toResponse}.
 * `code` is `INVALID_UI_MESSAGES`, `BODY_TOO_LARGE` or `BODY_TIMEOUT`.
 *
 * @example
 * ```ts
 * try {
 *   const chat = await readChatRequest(request);
 *   return toUIMessageStreamResponse(agent.run(chat.messages));
 * } catch (error) {
 *   if (UIMessagesError.isInstance(error)) return error.toResponse(); // 400 + JSON listing each problem
 *   throw error;
 * }
 * ```
 */
export class UIMessagesError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'UIMessagesError';
  override readonly kind = 'ui_messages' as const;
  /** The HTTP status the request deserves. */
  readonly status: number;
  declare readonly issues: readonly UIMessagesIssue[];

  constructor(message: string, options: UIMessagesErrorOptions = {}) {
    const settings = optionsOf<UIMessagesErrorOptions>(options);
    const status = settings.status === 408 || settings.status === 413 ? settings.status : 400;
    super(message, { code: STATUS_CODES[status], ...settings });
    this[symbol] = true;
    this.status = status;
    this.issues = Object.freeze(Array.isArray(settings.issues) ? settings.issues.slice(0, 20).map((issue) => ({ code: issue.code, path: String(issue.path), message: String(issue.message) })) : []);
  }

  /** @example `UIMessagesError.isInstance(error)` */
  static override isInstance(value: unknown): value is UIMessagesError {
    return hasMarker(value, symbol);
  }

  /**
   * The answer to the request: its `status`, `content-type: application/json`, and the body
   * `{ error: { type: 'invalid_request', kind, code, message, issues } }` (what `useChat` shows as its `error`).
   * @example `if (UIMessagesError.isInstance(error)) return error.toResponse();`
   */
  toResponse(): Response {
    const body = { error: { type: 'invalid_request', kind: this.kind, code: this.code, message: this.message, issues: this.issues } };
    return new Response(JSON.stringify(body), { status: this.status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
  }

  protected override details(): Record<string, unknown> {
    return { status: this.status, issues: this.issues.map((issue) => ({ ...issue })) };
  }
}
