/** The options of `toUIMessageStream` / `toUIMessageStreamResponse`, their defaults and their checks. */
import { isPlainObject, positiveIntegerProblems, refusedValue } from '../internal/json.js';
import type { FaultlineErrorData } from './data-parts.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { secretsProblem } from '../internal/secret-forms.js';

/**
 * The default bound on frames queued for a reader that reads slowly (1 MiB).
 * @example `toUIMessageStream(run, { maxBufferedBytes: 4 * DEFAULT_MAX_BUFFERED_BYTES })`
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 1_048_576;

/** Options of `toUIMessageStream`. Every field is optional. */
export interface UIMessageStreamOptions {
  /** Strings no frame may hold (your tools' keys), removed in every form; added to the secrets the agent run has. */
  secrets?: readonly string[] | undefined;
  /**
   * What a browser may see of a failure. `'model'`: the model-facing view — a tool's envelope as the model read it,
   * a framework error's own message, a generic text for an unknown error. `'developer'`: also a `cause` on each
   * error part (the underlying error described: name, message, code, cause chain) and a circuit's dependency.
   * Never a stack. @default 'model'
   */
  expose?: 'model' | 'developer' | undefined;
  /**
   * The assistant message's id (`start.messageId`). @default a new `msg-<uuid>`; none for a resumed run
   * (`agent.resume`, a Runner's `resume`), whose answer continues the message that asked, as `useChat` expects
   */
  messageId?: string | undefined;
  /**
   * Maps each failure before it is written: return a string to replace its `message` (and the `errorText`), an
   * object to replace fields of the data (`message`, `suggestion`, `type`, `context`), or nothing to keep it. A
   * throwing `onError` keeps the default. What it returns is redacted and bounded like the rest.
   */
  onError?: ((error: unknown, data: FaultlineErrorData) => string | Partial<FaultlineErrorData> | undefined | void) | undefined;
  /**
   * Bound, in bytes, on frames waiting in the stream for a reader that is not reading. The run is read only while the
   * reader wants more (backpressure), 16 KiB ahead at most; frames that outgrow the bound anyway — a huge tool output
   * while the reader is away — and stay untaken for 10 s end the stream: the run is aborted, and the stream ends with
   * a `StreamError` (`buffer_full`), `error` and `finish`. A reader that keeps reading takes every frame, whatever its
   * size (a large frame waits between two of its reads: only time tells that reader from one that stopped).
   * @default 1048576 (1 MiB, {@link DEFAULT_MAX_BUFFERED_BYTES})
   */
  maxBufferedBytes?: number | undefined;
  /** Aborts the run; the stream then ends with `abort` and `[DONE]`. */
  signal?: AbortSignal | undefined;
  /**
   * Runner runs: put the completion's decoded business state into `data-faultline-completion` (`state`), redacted,
   * when its JSON is at most this many characters (`true`: 65,536). @default false (no state values in the stream)
   */
  completionState?: boolean | number | undefined;
}

/** @internal The options, resolved. */
export interface ResolvedUIOptions {
  secrets: readonly string[];
  developer: boolean;
  messageId: string | undefined;
  onError: UIMessageStreamOptions['onError'];
  maxBufferedBytes: number;
  signal: AbortSignal | undefined;
  completionState: number;
  /** The run goes on from a stop (a resume): it continues the message that asked. */
  resumed: boolean;
}

/** The options' names: anything else is a problem, never silently ignored. */
const KNOWN = ['secrets', 'expose', 'messageId', 'onError', 'maxBufferedBytes', 'signal', 'completionState'];

/** @internal Every problem of `options` (`extra`: more names a caller takes), as sentences (none when valid). */
export function uiOptionProblems(options: unknown, extra: readonly string[] = []): string[] {
  if (options === undefined) return [];
  if (!isPlainObject(options)) return ['options must be an object'];
  const problems = positiveIntegerProblems(options, ['maxBufferedBytes']);
  problems.push(...unknownOptionProblems(options, [...KNOWN, ...extra]));
  const { secrets, expose, messageId, onError, signal, completionState } = options as UIMessageStreamOptions;
  const secretsRefused = secretsProblem(secrets);
  if (secretsRefused) problems.push(secretsRefused);
  if (expose !== undefined && expose !== 'model' && expose !== 'developer') problems.push(`expose must be 'model' or 'developer' (got ${refusedValue(expose)})`);
  if (messageId !== undefined && (typeof messageId !== 'string' || messageId === '' || messageId.length > 200)) problems.push('messageId must be a non-empty string of at most 200 characters');
  if (onError !== undefined && typeof onError !== 'function') problems.push('onError must be a function');
  if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) problems.push('signal must be an AbortSignal');
  if (completionState !== undefined && typeof completionState !== 'boolean' && !(typeof completionState === 'number' && Number.isInteger(completionState) && completionState > 0)) {
    problems.push('completionState must be a boolean or an integer > 0');
  }
  return problems;
}

/** @internal The options with their defaults (checked first by {@link uiOptionProblems}). */
export function resolveUIOptions(options: UIMessageStreamOptions | undefined, runSecrets: readonly string[], resumed = false): ResolvedUIOptions {
  const settings = options ?? {};
  const state = settings.completionState;
  return {
    secrets: [...runSecrets, ...(settings.secrets ?? [])],
    developer: settings.expose === 'developer',
    messageId: settings.messageId,
    onError: settings.onError,
    maxBufferedBytes: settings.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    signal: settings.signal,
    completionState: state === true ? 65_536 : typeof state === 'number' ? state : 0,
    resumed,
  };
}
