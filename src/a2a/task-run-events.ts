/** @internal What a task run makes of the runner's events before they become A2A events: scrubbing and state values. */
import type { ResponseError } from '../errors/response-error.js';
import { redactText, removeSecrets } from '../internal/redact.js';
import type { RunEvent } from '../runner/event.js';

/**
 * What leaves for a remote client: the handler's configured secrets removed from every string of the event (in every
 * form), and credential-shaped values masked in its error (a provider that echoed a key into an error code must not
 * hand it on to our A2A client as `error_code`). Answer text keeps its content: only configured secrets leave it.
 */
export function scrubEvent(event: RunEvent, secrets: readonly string[]): RunEvent {
  const clean = removeSecrets(event, secrets);
  const error = clean.response?.error;
  if (!error) return clean;
  const scrubbed: ResponseError = { type: redactText(error.type), message: redactText(error.message) };
  if (error.code !== undefined) scrubbed.code = redactText(error.code);
  if (error.param !== undefined) scrubbed.param = redactText(error.param);
  return { ...clean, response: { ...clean.response, error: scrubbed } } as RunEvent;
}

/** A string state value from its JSON text (`'"resp-1"'` → `resp-1`). */
export function stateString(text: string | null | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}
