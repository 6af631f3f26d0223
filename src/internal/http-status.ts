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

/** `"401 Unauthorized"`, or just the number for unusual statuses. */
export function statusText(status: number, given?: string): string {
  const reason = given?.trim() || REASONS[status];
  return reason ? `${status} ${reason}` : String(status);
}
