import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, positiveIntegerProblems, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import type { ToolErrorFormat } from '../tools/tool-error-format.js';
import type { UIFilePart } from './ui-file-part.js';
import { pathOf, quote, snapshotBody } from './ui-body-snapshot.js';
import { readUIMessages } from './ui-message-reader.js';
import { UIMessagesError, type UIMessagesIssue } from './ui-messages-error.js';
import type { ReadContext } from './ui-read-context.js';

/**
 * The default bounds of a chat request, each changed by the option of the same name:
 * - `maxBodyBytes` 4 MiB: the body's size (`readChatRequest` reads no further: HTTP 413), and for `fromUIMessages`
 *   the JSON size of the messages;
 * - `maxMessages` 1,000 messages; `maxParts` 10,000 parts across all messages;
 * - `maxDepth` 128 levels of nesting (the body's own few plus tool inputs and outputs);
 * - `maxStringLength` 1 MiB (1,048,576 characters) for any one string;
 * - `bodyTimeoutMs` 30 s for the body to arrive (`readChatRequest`: HTTP 408).
 * @example `readChatRequest(request, { maxBodyBytes: UI_MESSAGES_LIMITS.maxBodyBytes * 4 })`
 */
export const UI_MESSAGES_LIMITS = /* @__PURE__ */ Object.freeze({
  maxBodyBytes: 4_194_304,
  maxMessages: 1_000,
  maxParts: 10_000,
  maxDepth: 128,
  maxStringLength: 1_048_576,
  bodyTimeoutMs: 30_000,
});

/** Options of {@link fromUIMessages} (and of `readChatRequest`). */
export interface FromUIMessagesOptions {
  /**
   * The form of a tool message rebuilt without faultline's metadata (a part from another server): match your agent's
   * `toolErrorFormat`. @default 'structured'
   */
  toolErrorFormat?: ToolErrorFormat | undefined;
  /**
   * A `system` message posted by the browser: `'refuse'` (a client may not set the system prompt; the agent's own
   * instructions come first anyway) or `'keep'`. @default 'refuse'
   */
  systemMessages?: 'refuse' | 'keep' | undefined;
  /**
   * Turns a user's file part into text for the model (e.g. a `text/plain` data URL). Without it, or when it returns
   * `undefined`, a file part is refused (`unsupported`): faultline's messages carry text.
   */
  fileText?: ((file: UIFilePart) => string | undefined) | undefined;
  /** Bound on the JSON size of the messages (characters). @default 4 MiB (4,194,304) */
  maxBodyBytes?: number | undefined;
  /** Bound on the number of messages. @default 1,000 */
  maxMessages?: number | undefined;
  /** Bound on the number of parts, all messages together. @default 10,000 */
  maxParts?: number | undefined;
  /** Bound on nesting, the body's own levels included. @default 128 */
  maxDepth?: number | undefined;
  /** Bound on the length of any one string (characters). @default 1,048,576 */
  maxStringLength?: number | undefined;
}

/** @internal The bounds every read uses, resolved. */
type Bounds = { maxBodyBytes: number; maxMessages: number; maxParts: number; maxDepth: number; maxStringLength: number };

/** @internal The options with their defaults, checked (a bad option is the developer's: a `ConfigError`). */
export function resolveOptions<T extends FromUIMessagesOptions>(options: T | undefined, extra: readonly string[] = []): Omit<T, keyof Bounds> & Bounds {
  if (options !== undefined && !isPlainObject(options)) throw ConfigError.fromProblems('UI message options', [`options must be an object (got ${refusedValue(options)})`]);
  const given = (options ?? {}) as T;
  const problems = unknownOptionProblems(given, ['toolErrorFormat', 'systemMessages', 'fileText', 'maxBodyBytes', 'maxMessages', 'maxParts', 'maxDepth', 'maxStringLength', ...extra]);
  problems.push(...positiveIntegerProblems(given, ['maxBodyBytes', 'maxMessages', 'maxParts', 'maxDepth', 'maxStringLength', ...extra]));
  if (given.toolErrorFormat !== undefined && given.toolErrorFormat !== 'structured' && given.toolErrorFormat !== 'flat') problems.push(`toolErrorFormat must be 'structured' or 'flat' (got ${refusedValue(given.toolErrorFormat)})`);
  if (given.systemMessages !== undefined && given.systemMessages !== 'refuse' && given.systemMessages !== 'keep') problems.push(`systemMessages must be 'refuse' or 'keep' (got ${refusedValue(given.systemMessages)})`);
  if (given.fileText !== undefined && typeof given.fileText !== 'function') problems.push('fileText must be a function');
  if (problems.length > 0) throw ConfigError.fromProblems('UI message options', problems);
  const limits = UI_MESSAGES_LIMITS;
  return {
    ...given,
    maxBodyBytes: given.maxBodyBytes ?? limits.maxBodyBytes,
    maxMessages: given.maxMessages ?? limits.maxMessages,
    maxParts: given.maxParts ?? limits.maxParts,
    maxDepth: given.maxDepth ?? limits.maxDepth,
    maxStringLength: given.maxStringLength ?? limits.maxStringLength,
  };
}

/** @internal Collects issues (at most 50: past them the body is plainly hostile, and reading stops). */
export class IssueList {
  readonly issues: UIMessagesIssue[] = [];
  count = 0;
  add = (issue: UIMessagesIssue): boolean => {
    this.count++;
    if (this.issues.length < 50) this.issues.push(issue);
    return this.count < 50;
  };

  /**
   * The error listing them: `The chat request was refused: 3 problems: (1) messages[0].role: …`; HTTP 413 when the
   * body is over its byte bound, else 400.
   */
  error(status = this.issues.some((issue) => issue.code === 'too_large') ? 413 : 400): UIMessagesError {
    const shown = this.issues.slice(0, 5).map((issue, index) => `${this.count === 1 ? '' : `(${index + 1}) `}${issue.path}: ${issue.message}`);
    const more = this.count > shown.length ? `; and ${this.count - shown.length} more` : '';
    const listed = this.count === 1 ? shown[0] : `${this.count} problems: ${shown.join('; ')}${more}`;
    return new UIMessagesError(`The chat request was refused: ${listed}`, { issues: this.issues, status });
  }
}

/** @internal The transcript of a `messages` value (at `path` in the body), problems added to `list`. */
export function transcriptOf(value: unknown, path: ReadonlyArray<string | number>, options: ReturnType<typeof resolveOptions>, list: IssueList): ChatMessage[] {
  const issue = (code: UIMessagesIssue['code'], at: ReadonlyArray<string | number>, message: string) => void list.add({ code, path: pathOf(at), message });
  if (!Array.isArray(value)) {
    issue('invalid', path, `must be an array of UIMessages (got ${quote(value)})`);
    return [];
  }
  if (value.length === 0) issue('invalid', path, 'must hold at least one message');
  if (value.length > options.maxMessages) {
    issue('too_many', path, `holds ${value.length} messages; at most ${options.maxMessages} are accepted (maxMessages)`);
    return [];
  }
  const parts = value.reduce((sum: number, message) => sum + (isPlainObject(message) && Array.isArray(message.parts) ? message.parts.length : 0), 0);
  if (parts > options.maxParts) {
    issue('too_many', path, `hold ${parts} parts; at most ${options.maxParts} are accepted (maxParts)`);
    return [];
  }
  const context: ReadContext = { format: options.toolErrorFormat ?? 'structured', systemMessages: options.systemMessages ?? 'refuse', fileText: options.fileText, callIds: new Set(), issue };
  const transcript = readUIMessages(value, path, context);
  if (list.count === 0 && transcript.length === 0) issue('invalid', path, 'hold nothing a model can be sent (no text, no tool call)');
  return transcript;
}

/**
 * The transcript the model saw, rebuilt from the `UIMessage[]` a browser posts (`useChat` holds the history and sends
 * it whole each turn): per user message its text; per step of an assistant message (split at `step-start`) one
 * assistant message — its text, its reasoning and the replay items a provider needs back (Anthropic thinking
 * signatures, Responses reasoning items, from `providerMetadata.faultline`), its tool calls with the raw argument text
 * the model wrote (`callProviderMetadata.faultline.arguments`) — then one tool message per call with the exact content
 * the model saw (`resultProviderMetadata.faultline.content`). A part from another server, without that metadata, is
 * rebuilt as faultline writes it (`input` as JSON; `output` as a `ToolResultJSON`; an error from its
 * `data-faultline-error` envelope, else `errorText`). A call the browser holds no answer for (`input-available`: the
 * run was stopped) is answered as the agent answers a cancelled call (`Aborted`, outcome unknown); one whose
 * arguments were still streaming, as a cut-off call that was not run — so the transcript is a valid next request for
 * every provider. `data-*` and `source-*` parts are for display and are not sent.
 *
 * Never throws anything but a `UIMessagesError` (every problem listed, HTTP 400) for a malformed or hostile value —
 * wrong types, unknown part types, prototype keys, duplicate tool call ids, a tool output whose call cannot be rebuilt,
 * bounds (`UI_MESSAGES_LIMITS`) — or a `ConfigError` for bad options.
 *
 * @example
 * ```ts
 * const { messages } = await request.json(); // prefer readChatRequest(request): it bounds the read
 * const run = agent.run(fromUIMessages(messages));
 * ```
 */
export function fromUIMessages(messages: unknown, options?: FromUIMessagesOptions): ChatMessage[] {
  const resolved = resolveOptions(options);
  const list = new IssueList();
  const copy = snapshotBody(messages, resolved, list.add, ['messages']);
  if (list.count > 0) throw list.error();
  const transcript = transcriptOf(copy, ['messages'], resolved, list);
  if (list.count > 0) throw list.error();
  return transcript;
}
