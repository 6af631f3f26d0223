/**
 * @internal Where a conversation over its size bound is cut: the oldest messages go until the rest fits, the cut moved
 * to the next user message (so whole turns go), or where there is none to the next message that is not a tool answer
 * — a transcript never starts with a tool message, so it stays a valid request. Shared by every bounded session store.
 */
import type { ChatMessage } from '../chat/core/types.js';
import { SerializeError } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';

/**
 * A message as a session keeps it: its JSON text. A session holds JSON, and its bound counts these characters, so a
 * message JSON cannot write (a BigInt, a cycle, a getter that throws) is a `SerializeError` — the store's `append`
 * fails and its caller reports a `SessionError` — never kept uncounted.
 */
export function messageText(message: ChatMessage): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    throw new SerializeError(`A message of this turn cannot be kept in the session: JSON cannot write it (${messageOf(error)})`, { subject: 'session message', cause: error });
  }
  if (text === undefined) throw new SerializeError('A message of this turn cannot be kept in the session: it is not a message', { subject: 'session message' });
  return text;
}

/** The JSON length of a message, as the session bounds count it (see {@link messageText}). */
export function messageSize(message: ChatMessage): number {
  return messageText(message).length;
}

/**
 * How many of the oldest `messages` to drop so the rest fits `limit` (0: keep all). `sizes[i]` is the size of
 * `messages[i]`, `total` their sum. The last message is always kept, so one endless turn is still bounded.
 * @example `const cut = trimCut(messages, messages.map(messageSize), total, 4 * 1024 * 1024); messages.splice(0, cut)`
 */
export function trimCut(messages: readonly ChatMessage[], sizes: readonly number[], total: number, limit: number): number {
  if (total <= limit) return 0;
  let fits = 0; // the first index from which the rest fits
  let rest = total;
  while (fits < messages.length - 1 && rest > limit) rest -= sizes[fits++] ?? 0;
  let cut = messages.findIndex((message, index) => index >= fits && message.role === 'user');
  if (cut === -1) cut = messages.findIndex((message, index) => index >= fits && message.role !== 'tool');
  if (cut === -1) {
    cut = fits; // only tool answers fit: keep from the call that asked for them
    while (cut > 0 && messages[cut]?.role === 'tool') cut--;
  }
  return Math.max(0, cut);
}
