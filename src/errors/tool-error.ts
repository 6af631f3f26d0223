import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.ToolError');

/** Options of {@link ToolError}. */
export interface ToolErrorOptions extends AgentErrorOptions {
  /** The tool that failed. */
  toolName?: string | undefined;
  /** The model's tool-call id. */
  callId?: string | undefined;
}

/**
 * A tool failure raised to the caller instead of being shown to the model (the seed's `ToolError`): a tool that
 * crashed or returned a result that cannot be serialized (a recoverable error item; the model gets a sanitized
 * `ToolInternalError`, or the run fails under `onToolCrash: 'throw'`), and a `needsApproval` check that threw.
 * Expected failures belong in a `ToolResult` instead, so the model can react.
 *
 * @example
 * ```ts
 * await runTool(tool, args, { onToolCrash: 'throw' }).catch((error) => {
 *   if (ToolError.isInstance(error)) console.error(error.toolName, error.cause);
 * });
 * ```
 */
export class ToolError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'ToolError';
  override readonly kind = 'tool' as const;
  readonly toolName?: string;
  readonly callId?: string;

  constructor(message: string, options: ToolErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<ToolErrorOptions>(options);
    this.toolName = settings.toolName;
    this.callId = settings.callId;
  }

  /** @example `ToolError.isInstance(error)` */
  static override isInstance(value: unknown): value is ToolError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { toolName: this.toolName, callId: this.callId };
  }
}
