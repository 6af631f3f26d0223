/** @internal The MCP client's per-request time limit and the mapping of every request failure to a typed error. */
import { JSONRPCError } from '../errors/jsonrpc-error.js';
import { MCPError } from '../errors/mcp-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import { StreamError } from '../errors/stream-error.js';
import { startTimer } from '../internal/delay.js';
import { messageOf } from '../internal/error-chain.js';
import { redactError, redactText } from '../internal/redact.js';
import { protocolError, type AnswerContext } from './client-messages.js';

/** The time limit of one request: aborts `controller` with a typed timeout naming the option that sets it. */
export function requestTimer(ctx: AnswerContext, controller: AbortController, method: string, options: { timeoutMs: number; limit: 'request' | 'initialize' }): ReturnType<typeof setTimeout> | undefined {
  if (!Number.isFinite(options.timeoutMs)) return undefined;
  return startTimer(
    () =>
      controller.abort(
        // the option that sets the limit: timeouts.requestMs or timeouts.initializeMs
        new MCPError(`MCP ${method} to ${ctx.server} timed out: no response within ${options.timeoutMs} ms (timeouts.${options.limit}Ms)`, {
          reason: 'timeout',
          timeout: options.limit,
          url: ctx.url,
          method,
        }),
      ),
    options.timeoutMs,
  );
}

/** The error the caller sees: its own abort reason, a limit that fired (the attempt's `signal` aborted), or a typed failure. */
export function transportFailure(ctx: AnswerContext, error: unknown, signal: AbortSignal, userSignal: AbortSignal | undefined, method: string): unknown {
  if (userSignal?.aborted) return userSignal.reason;
  if (signal.aborted && MCPError.isInstance(signal.reason)) return signal.reason;
  if (MCPError.isInstance(error) || JSONRPCError.isInstance(error) || SerializeError.isInstance(error)) return error;
  if (StreamError.isInstance(error)) return protocolError(ctx, `its stream answering ${method} broke a bound: ${error.message}`, error, method);
  return new MCPError(`MCP ${method} to ${ctx.server} failed: ${redactText(messageOf(error), ctx.secrets)}`, {
    reason: 'network',
    url: ctx.url,
    method,
    cause: redactError(error, ctx.secrets),
  });
}

/**
 * An answer whose body broke off before its end (a connection reset: `readBodyUntil`'s `failed`): a network failure,
 * whatever the part that arrived says — never a "not JSON" answer blamed on the server. The server may have acted on
 * the request, so it is retryable only when the request is safe to repeat (`idempotent`).
 */
export function bodyBroke(ctx: AnswerContext, method: string, failed: { error: unknown }, idempotent: boolean): MCPError {
  return new MCPError(`MCP ${method} to ${ctx.server} failed: its answer broke off: ${redactText(messageOf(failed.error), ctx.secrets)}`, {
    reason: 'network',
    url: ctx.url,
    method,
    retryable: idempotent,
    cause: redactError(failed.error, ctx.secrets),
  });
}
