import { hasMarker } from '../internal/brand.js';
import { describeError } from '../internal/error-json.js';
import { messageOf } from '../internal/error-chain.js';
import { messageText, optionsOf } from '../internal/json.js';
import type { AgentErrorKind } from './constants.js';

const symbol = Symbol.for('faultline.error');

/** Options every framework error accepts. */
export interface AgentErrorOptions {
  /** The underlying error (ES2022 `cause`), kept as-is. */
  cause?: unknown;
  /** A stable machine code (business or provider code), surfaced as `ResponseError.code`. */
  code?: string | undefined;
}

/** The JSON form of a framework error, as produced by `toJSON()`. */
export interface AgentErrorJSON {
  name: string;
  kind: AgentErrorKind;
  message: string;
  code?: string;
  cause?: unknown;
  [field: string]: unknown;
}

/**
 * Base class of every framework-level error (the caller's layer; the model's layer is `ToolResult`). Its own kind is
 * `other`: {@link AgentError.from} wraps any unknown thrown value in it, keeping the original as `cause`.
 *
 * Recognise errors with the static `isInstance` of each class rather than `instanceof`: it works across duplicated
 * copies of the package and across realms.
 *
 * @example
 * ```ts
 * try {
 *   registry.run('planner', messages);
 * } catch (error) {
 *   if (AgentNotFoundError.isInstance(error)) console.log(error.availableIds);
 *   else if (AgentError.isInstance(error)) console.log(error.kind, error.message);
 * }
 * ```
 */
export class AgentError extends Error {
  declare private readonly [symbol]: true;
  override readonly name: string = 'AgentError';
  /** Stable snake_case discriminator of the error class. */
  readonly kind: AgentErrorKind = 'other';
  /** A stable machine code, when one is known (an own property either way: `declare`d, set by the constructor). */
  declare readonly code?: string;

  /**
   * @param message - What failed, with what input, and what to do. Never include credentials.
   * @param options - `cause` and `code`.
   */
  constructor(message: string, options: AgentErrorOptions = {}) {
    const settings = optionsOf<AgentErrorOptions>(options);
    super(messageText(message), settings.cause === undefined ? undefined : { cause: settings.cause });
    this[symbol] = true;
    const code = settings.code;
    this.code = code === undefined || typeof code === 'string' ? code : messageText(code);
  }

  /**
   * True for any framework error, from this copy of the package or another.
   * @example `AgentError.isInstance(error)`
   */
  static isInstance(value: unknown): value is AgentError {
    return hasMarker(value, symbol);
  }

  /**
   * Returns `value` when it already is a framework error; otherwise wraps it as kind `other` with `value` as `cause`
   * (the seed's `Other(anyhow)`), so every failure can be handled as an `AgentError`.
   * @example
   * ```ts
   * const error = AgentError.from(new TypeError('boom')); // error.kind === 'other', error.cause is the TypeError
   * ```
   */
  static from(value: unknown): AgentError {
    if (AgentError.isInstance(value)) return value;
    return new AgentError(messageOf(value), { cause: value });
  }

  /**
   * Where this error is explained: its class's page in the package's `docs/errors/`, at the section of its code
   * (`faultline/docs/errors/workflow-error.md#state_invalid`). The path starts with the package's name, so a log line
   * in your app does not read as a file of your own (the pages ship in the package: `node_modules/faultline/docs/…`);
   * a code of your own that the page does not list lands on the class's page, and the codes of `ChatClientError`
   * and `StreamError` — the provider's own (`invalid_api_key`), which their pages do not list one by one — give the
   * page with no anchor.
   * @example `console.error(error.message, '→ see', error.docs)`
   */
  get docs(): string {
    const page = this.kind === 'other' ? 'agent' : this.kind.replace(/_/g, '-');
    return `faultline/docs/errors/${page}-error.md${this.code && this.kind !== 'chat_client' && this.kind !== 'stream' ? `#${this.code.toLowerCase()}` : ''}`;
  }

  /** Class-specific fields for `toJSON()`; subclasses extend it. */
  protected details(): Record<string, unknown> {
    return {};
  }

  /** A JSON-safe plain object: name, kind, message, code, the class's fields and the cause chain (no stack). */
  toJSON(): AgentErrorJSON {
    const json: AgentErrorJSON = { name: this.name, kind: this.kind, message: this.message };
    if (this.code !== undefined) json.code = this.code;
    for (const [key, value] of Object.entries(this.details())) if (value !== undefined) json[key] = value;
    if (this.cause !== undefined) json.cause = describeError(this.cause, 1);
    return json;
  }
}
