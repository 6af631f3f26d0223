/**
 * @internal Calls a developer's hook (an `onError`, an `onRetry`, a tool log sink) with `value`. What it throws, and
 * the rejection of a promise it returns (an `async` hook), are dropped: a hook must never turn an answer into a hang,
 * a crash or an unhandled rejection.
 */
export function quietCall<T>(hook: ((value: T) => unknown) | undefined, value: T): void {
  try {
    const result = hook?.(value) as PromiseLike<unknown> | undefined;
    if (typeof result?.then === 'function') result.then(undefined, () => {});
  } catch {
    // the hook's own failure has nowhere better to go
  }
}
