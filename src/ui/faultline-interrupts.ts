import { isPlainObject } from '../internal/json.js';
import { summarizeInterrupts } from '../runner/interrupt-summary.js';
import type { FaultlineInterruptData } from './data-parts.js';

/** The most parts read from one message (a message is data from the network). */
const MAX_PARTS = 10_000;

/**
 * The questions a UI message's run stopped on, in order: each `data-faultline-interrupt` part (an approval of a tool
 * call, a graph node's question) as a typed object. The shape is never trusted: each field is checked and copied
 * (unknown fields dropped, texts bounded, at most 50 interrupts), and a part that does not hold an interrupt is
 * skipped — a message from any server, or none, gives a list, never an exception. `runId` is the run to resume.
 *
 * @param message - A `UIMessage` (from `useChat`'s `messages`, `readUIMessageStream`…), or anything.
 * @returns The interrupts, as `FaultlineInterruptData`.
 * @example
 * ```ts
 * for (const question of faultlineInterrupts(message)) {
 *   if (question.kind === 'approval') showApproval(question.toolName, question.reason, question.expiresAt);
 * }
 * ```
 */
export function faultlineInterrupts(message: { readonly parts?: readonly unknown[] } | null | undefined): FaultlineInterruptData[] {
  let parts: unknown;
  try {
    parts = (message as { parts?: unknown } | null | undefined)?.parts;
  } catch {
    return [];
  }
  if (!Array.isArray(parts)) return [];
  const found: unknown[] = [];
  for (const part of parts.slice(0, MAX_PARTS)) {
    try {
      if (!isPlainObject(part) || part.type !== 'data-faultline-interrupt' || !isPlainObject(part.data)) continue;
      const { id, runId, kind } = part.data;
      if (typeof id === 'string' && typeof runId === 'string' && (kind === 'approval' || kind === 'input')) found.push(part.data);
    } catch {
      // a part with throwing getters (not JSON) holds no interrupt we can read
    }
  }
  try {
    return summarizeInterrupts(found).interrupts;
  } catch {
    return [];
  }
}
