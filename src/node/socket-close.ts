import type { NodeIncomingRequest } from './node-types.js';

type Socket = NonNullable<NodeIncomingRequest['socket']>;
const closeWatchers = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `callback` when `socket` closes, until the returned function is called: how the listener and a request body
 * kept after its answer watch a connection. One listener per socket, whatever the number of requests watching it (no
 * `MaxListenersExceededWarning` for a burst of pipelined ones).
 * @example `const unwatch = watchClose(incoming.socket, () => controller.abort()); … unwatch();`
 */
export function watchClose(socket: NodeIncomingRequest['socket'], callback: () => void): () => void {
  if (typeof socket?.once !== 'function') return () => {};
  const callbacks = closeWatchers.get(socket) ?? new Set<() => void>();
  if (!closeWatchers.has(socket)) {
    closeWatchers.set(socket, callbacks);
    socket.once('close', () => {
      closeWatchers.delete(socket);
      for (const each of callbacks) each();
    });
  }
  callbacks.add(callback);
  return () => void callbacks.delete(callback);
}
