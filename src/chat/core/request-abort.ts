/**
 * @internal How a model request of a run carries the run's `AbortSource` to this package's clients: they watch the
 * source itself (no `abort` listener, no controller, one timer for every limit of the run), while `request.signal`
 * stays a real `AbortSignal` for anything else that reads it — another package's client, a wrapper that copies the
 * request — made on first read and aborted with the run. A request whose `signal` was replaced is cancelled by the
 * replacement, as before.
 */
import type { AbortParent, AbortSource } from '../../internal/abort-source.js';
import type { ChatMessage, ChatRequest } from './types.js';

const sources = new WeakMap<object, AbortSource>();

/**
 * A request cancelled by `source`: `signal` is the source's signal, made when read; assigning `signal` replaces it
 * (and the source no longer applies).
 */
export function requestUnder(messages: ChatMessage[], hooks: Pick<ChatRequest, 'onRetry' | 'onFallback'>, source: AbortSource): ChatRequest {
  const request: ChatRequest = {
    messages,
    onRetry: hooks.onRetry,
    onFallback: hooks.onFallback,
    get signal(): AbortSignal {
      return source.signal;
    },
    set signal(value: AbortSignal | undefined) {
      sources.delete(this); // the caller's own signal now decides
      Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
    },
  };
  sources.set(request, source);
  return request;
}

/** What cancels `request`: the run's source it carries, else its `signal`. */
export function abortParentOf(request: ChatRequest): AbortParent | undefined {
  return sources.get(request) ?? request.signal;
}
