/** @internal The checks of a run's input and options, shared by `agent.run` and `runAgent` (which reports them with its own). */
import type { ChatMessage } from '../chat/core/types.js';
import { isPlainObject } from '../internal/json.js';
import type { AgentRunOptions } from './types.js';
import { isAbortSignal } from '../internal/call-options.js';

const ROLES: readonly string[] = ['system', 'user', 'assistant', 'tool'];

/** Every problem with the new messages of a turn (an array of messages; a string is always valid). */
export function runInputProblems(messages: unknown): string[] {
  if (typeof messages === 'string') return [];
  if (!Array.isArray(messages)) return [`messages must be a string or an array of messages`];
  const problems: string[] = [];
  if (messages.length === 0) problems.push(`messages must not be empty`);
  messages.forEach((message: unknown, index) => {
    if (!isPlainObject(message)) problems.push(`messages[${index}] must be an object`);
    else if (!ROLES.includes(message.role as string)) problems.push(`messages[${index}].role must be system, user, assistant or tool`);
    else if (message.content !== null && typeof message.content !== 'string') problems.push(`messages[${index}].content must be a string or null`);
  });
  return problems;
}

/** The new messages of a turn as the loop takes them (a string is one user message); check them first. */
export function toRunInput(messages: readonly ChatMessage[] | string): ChatMessage[] {
  if (typeof messages === 'string') return [{ role: 'user', content: messages }];
  return messages.map((message) => ({ ...message }));
}

/** Every problem with `session`, `owner`, `output` and `signal` of a run's options. */
export function runOptionProblems(options: Pick<AgentRunOptions, 'session' | 'output' | 'signal' | 'owner'>): string[] {
  const problems: string[] = [];
  if (options.signal !== undefined && !isAbortSignal(options.signal)) problems.push('signal must be an AbortSignal');
  if (options.session !== undefined && (typeof options.session !== 'string' || options.session === '')) problems.push('session must be a non-empty string');
  if (options.owner !== undefined && (typeof options.owner !== 'string' || options.owner === '')) problems.push('owner must be a non-empty string');
  if (options.output !== undefined && typeof (options.output as { '~standard'?: { validate?: unknown } } | null)?.['~standard']?.validate !== 'function') {
    problems.push('output must be a Standard Schema (zod, valibot, jsonSchema()…)');
  }
  return problems;
}
