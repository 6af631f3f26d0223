/** HTTP status facts shared by the chat client, the tool HTTP helper and the A2A client. */

/** Statuses worth retrying: request timeout, conflict, rate limit and transient server failures. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * `"401 Unauthorized"`, or just the number for unusual statuses; `label` is a reason of our own (`Overloaded`). Never
 * the answer's reason phrase: the peer writes it (it may quote the credential it refused), and no redaction of ours
 * can know every form of what it put there. A redirect (3xx, or status 0: what a browser shows of one refused, its
 * target hidden) says that it was not followed (see {@link NO_REDIRECTS}); its target is never quoted either.
 */
export function statusText(status: number, label?: string): string {
  const reason = label ?? ((status > 299 && status < 400) || !status ? 'redirect, not followed' : REASONS[status]);
  return reason ? `${status || 'a'} ${reason}` : String(status);
}

/**
 * How every request of ours that carries credentials is sent: fetch would follow a redirect with the request's headers
 * — an `x-api-key`, an `api-key`, any custom one (it drops only `Authorization`) — to wherever the server points, so a
 * redirect is an answer (a typed failure that {@link statusText} names), never followed.
 */
export const NO_REDIRECTS = 'manual' satisfies RequestRedirect;
