/**
 * @internal What a provider's error code says about trying again: one table, read by the HTTP path
 * (`chat-error-from-response.ts`: a non-2xx answer) and by the stream-error path (`event-decoder.ts`: an `error` or
 * `response.failed` event, and a failed whole Responses answer) alike, so the same code gets the same answer
 * whichever way it arrives.
 *
 * A status alone cannot say it: OpenAI answers HTTP 429 both for a rate limit (`rate_limit_exceeded`, gone in
 * seconds) and for an exhausted quota or an inactive billing account (`insufficient_quota`, `billing_not_active`),
 * which no retry passes; only the code tells them apart.
 * @see https://platform.openai.com/docs/guides/error-codes
 * @see https://docs.anthropic.com/en/api/errors
 */

/**
 * The transient codes (OpenAI's error `code`, Anthropic's error `type`), with the HTTP status each one is the stream
 * form of: retried before any output, exactly as that status is.
 */
export const TRANSIENT: Readonly<Record<string, number>> = {
  // Anthropic: overloaded, rate limited, an internal error, a gateway timeout.
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  // OpenAI: a server error, a rate limit, an overloaded or unavailable service.
  server_error: 500,
  rate_limit_exceeded: 429,
  overloaded: 503,
  service_unavailable: 503,
};

/**
 * The lasting codes, with the HTTP status they come with: never retried, whatever status carries them — the quota is
 * used up, billing is inactive or capped (OpenAI), a billing problem (Anthropic). The HTTP path reads only this part
 * (a transient status decides by itself), so a client without a stream-error path carries only it.
 */
export const LASTING: Readonly<Record<string, number>> = {
  insufficient_quota: 429,
  billing_not_active: 429,
  billing_hard_limit_reached: 400,
  billing_error: 402,
};

/** What a listed provider error code means: the HTTP status it is (the stream form of), and whether a retry may help. */
export interface CodeClass {
  status: number;
  retryable: boolean;
}

/**
 * The class of a provider error code, or `undefined` for a code the table does not list (and for a prototype key such
 * as `constructor`: the table is read with `Object.hasOwn`). Codes not listed leave the decision to the HTTP status,
 * and are no retryable stream error.
 */
export function codeClass(code: string | undefined): CodeClass | undefined {
  if (code === undefined) return undefined;
  if (Object.hasOwn(TRANSIENT, code)) return { status: TRANSIENT[code] as number, retryable: true };
  return isLasting(code) ? { status: LASTING[code] as number, retryable: false } : undefined;
}

/** True for a code that says the limit will not pass (`insufficient_quota`): no retry, whatever the status. */
export function isLasting(code: string | undefined): boolean {
  return code !== undefined && Object.hasOwn(LASTING, code);
}
