/**
 * Checks every provider's encoder runs before a request leaves: each problem of a `ChatRequest`'s messages and tools
 * as a sentence, so a `ConfigError` can list them all at once.
 */
import { isPlainObject, refusedValue } from '../../internal/json.js';
import type { ChatMessage, ChatRequest } from './types.js';
import { unknownOptionProblems } from '../../internal/option-names.js';
import { signalProblems } from '../../internal/call-options.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** The fields of a `ChatRequest` (an unknown one is a problem: `maxToken` would be dropped, not sent). */
const REQUEST_KEYS = ['messages', 'tools', 'toolChoice', 'temperature', 'maxTokens', 'parallelToolCalls', 'responseFormat', 'signal', 'onRetry', 'onFallback'];

/** Every problem with a request's messages, tools and settings, as sentences. */
export function requestProblems(request: ChatRequest): string[] {
  const problems: string[] = [];
  if (!isPlainObject(request)) return ['the request must be an object'];
  problems.push(...unknownOptionProblems(request, REQUEST_KEYS));
  if (!Array.isArray(request.messages)) return ['messages must be an array'];
  if (request.messages.length === 0) problems.push('messages must not be empty');
  request.messages.forEach((message, index) => {
    if (isValidMessage(message)) return; // the common case: no problem, nothing built
    const at = `messages[${index}]`;
    if (!isPlainObject(message)) {
      problems.push(`${at} must be an object`);
      return;
    }
    if (!ROLES.has(message.role as string)) problems.push(`${at}.role must be system, user, assistant or tool (got ${refusedValue(message.role)})`);
    if (message.content !== null && typeof message.content !== 'string') problems.push(`${at}.content must be a string or null`);
    if (message.role === 'tool' && (typeof message.toolCallId !== 'string' || message.toolCallId === '')) problems.push(`${at} is a tool message without toolCallId`);
    if (message.replay !== undefined) {
      const valid = Array.isArray(message.replay) && message.replay.every((entry) => isPlainObject(entry) && typeof entry.protocol === 'string' && isPlainObject(entry.item));
      if (!valid) problems.push(`${at}.replay must be an array of {protocol: string, item: object}`);
    }
    if (message.toolCalls !== undefined) {
      if (!Array.isArray(message.toolCalls)) problems.push(`${at}.toolCalls must be an array`);
      else
        message.toolCalls.forEach((call, callIndex) => {
          if (!isPlainObject(call) || typeof call.id !== 'string' || typeof call.name !== 'string' || typeof call.arguments !== 'string') {
            problems.push(`${at}.toolCalls[${callIndex}] must be {id, name, arguments} strings`);
          }
        });
    }
  });
  if (request.tools !== undefined) {
    if (!Array.isArray(request.tools)) problems.push('tools must be an array');
    else
      request.tools.forEach((tool, index) => {
        if (!isPlainObject(tool) || typeof tool.name !== 'string' || !isPlainObject(tool.parameters)) {
          problems.push(`tools[${index}] must be {name, description, parameters}`);
        }
      });
  }
  problems.push(...settingProblems(request));
  return problems;
}

/**
 * The request's settings: a value of the wrong kind was sent as given (`temperature: 'hot'`, `NaN` as `null`), dropped
 * by one wire and not another (`toolChoice: 'always'`), or threw from inside an encoder (`responseFormat: 5`).
 */
function settingProblems(request: ChatRequest): string[] {
  const problems: string[] = [];
  const { temperature, maxTokens, parallelToolCalls, toolChoice, responseFormat, onRetry, onFallback } = request;
  if (temperature !== undefined && !(typeof temperature === 'number' && Number.isFinite(temperature) && temperature >= 0)) problems.push(`temperature must be a finite number ≥ 0 (got ${refusedValue(temperature)})`);
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 1)) problems.push(`maxTokens must be an integer ≥ 1 (got ${refusedValue(maxTokens)})`);
  if (parallelToolCalls !== undefined && typeof parallelToolCalls !== 'boolean') problems.push(`parallelToolCalls must be a boolean (got ${refusedValue(parallelToolCalls)})`);
  if (toolChoice !== undefined && toolChoice !== 'auto' && toolChoice !== 'none' && toolChoice !== 'required' && !(isPlainObject(toolChoice) && typeof toolChoice.name === 'string')) {
    problems.push(`toolChoice must be 'auto', 'none', 'required' or { name } (got ${refusedValue(toolChoice)})`);
  }
  if (responseFormat !== undefined && !(isPlainObject(responseFormat) && typeof responseFormat.name === 'string' && isPlainObject(responseFormat.schema))) problems.push('responseFormat must be { name, schema } (a JSON Schema object)');
  // A getter is not read: an agent run's signal is made only when something reads it (abort-source.ts).
  const signal = Object.getOwnPropertyDescriptor(request, 'signal');
  if (signal !== undefined && 'value' in signal) problems.push(...signalProblems(signal.value));
  for (const [name, value] of [['onRetry', onRetry], ['onFallback', onFallback]] as const) if (value !== undefined && typeof value !== 'function') problems.push(`${name} must be a function`);
  return problems;
}

/** A message every check passes, checked without building anything (the sentences come only for a bad one). */
function isValidMessage(message: unknown): boolean {
  if (!isPlainObject(message) || !ROLES.has(message.role as string)) return false;
  if (message.content !== null && typeof message.content !== 'string') return false;
  if (message.role === 'tool' && (typeof message.toolCallId !== 'string' || message.toolCallId === '')) return false;
  if (message.replay !== undefined) return false; // checked in full below
  if (message.toolCalls === undefined) return true;
  if (!Array.isArray(message.toolCalls)) return false;
  for (const call of message.toolCalls as unknown[]) {
    if (!isPlainObject(call) || typeof call.id !== 'string' || typeof call.name !== 'string' || typeof call.arguments !== 'string') return false;
  }
  return true;
}

/**
 * Ids of tool calls whose answer is the agent loop's "cut off at the output token limit" `InputValidationError`
 * (context `cutOffAtOutputLimit: true`): their arguments are known not to be JSON, and the model has been told why.
 */
export function cutOffCallIds(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'tool' || typeof message.toolCallId !== 'string' || !message.content?.includes('"cutOffAtOutputLimit":true')) continue;
    try {
      const parsed: unknown = JSON.parse(message.content);
      const context = isPlainObject(parsed) && isPlainObject(parsed.error) ? parsed.error.context : undefined;
      if (isPlainObject(context) && context.cutOffAtOutputLimit === true) ids.add(message.toolCallId);
    } catch {
      // not a tool result of ours
    }
  }
  return ids;
}
