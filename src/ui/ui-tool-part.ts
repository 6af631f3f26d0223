/**
 * @internal One tool part of an assistant `UIMessage` (`tool-<name>` or `dynamic-tool`) as the call the model made
 * and the tool message that answered it. The call's arguments are the raw text the model wrote
 * (`callProviderMetadata.faultline.arguments`), else the part's `input` as JSON (or its raw text); the answer is the
 * exact content the model saw (`resultProviderMetadata.faultline.content`), else rebuilt (see ui-tool-answers.ts).
 */
import type { ChatMessage, ToolCall } from '../chat/core/types.js';
import { isPlainObject } from '../internal/json.js';
import { GENERIC_TOOL_ERROR_TYPE } from '../tools/tool-failure.js';
import { abortedContent, cutOffContent, deniedContent, envelopeOf, errorContent, outputContent } from './ui-tool-answers.js';
import { quote } from './ui-body-snapshot.js';
import type { ReadContext } from './ui-read-context.js';

/** States a tool part may be in (AI SDK 5/6). */
const STATES = new Set(['input-streaming', 'input-available', 'approval-requested', 'approval-responded', 'output-available', 'output-error', 'output-denied']);

/** @internal A tool part read: the call, and the tool message answering it. */
export interface ReadToolPart {
  call: ToolCall;
  answer: ChatMessage;
}

/** @internal True for a part type that is a tool part. */
export function isToolPartType(type: string): boolean {
  return type.startsWith('tool-') || type === 'dynamic-tool';
}

/** @internal The `faultline` entry of a part's metadata slot, or `undefined` (an issue when it is there but not an object). */
export function faultlineMetadata(part: Record<string, unknown>, slot: string, path: ReadonlyArray<string | number>, context: ReadContext): Record<string, unknown> | undefined {
  const metadata = part[slot];
  if (metadata === undefined || metadata === null) return undefined;
  if (!isPlainObject(metadata)) {
    context.issue('invalid', [...path, slot], `must be an object (got ${quote(metadata)})`);
    return undefined;
  }
  const own = metadata.faultline;
  if (own === undefined || own === null) return undefined;
  if (!isPlainObject(own)) {
    context.issue('invalid', [...path, slot, 'faultline'], `must be an object (got ${quote(own)})`);
    return undefined;
  }
  return own;
}

/** @internal A string field of faultline's metadata, or `undefined` (an issue when it is there but not a string). */
export function metadataString(own: Record<string, unknown> | undefined, key: string, path: ReadonlyArray<string | number>, context: ReadContext): string | undefined {
  const value = own?.[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    context.issue('invalid', [...path, key], `must be a string (got ${quote(value)})`);
    return undefined;
  }
  return value;
}

/**
 * The call's arguments as the model wrote them: the raw text from metadata, else the raw text the browser kept
 * (`rawInput`: arguments still streaming, or not JSON), else the input as JSON text.
 */
function argumentsOf(part: Record<string, unknown>, raw: string | undefined): string | undefined {
  if (raw !== undefined) return raw;
  if (typeof part.rawInput === 'string') return part.rawInput;
  const input = part.input !== undefined ? part.input : part.rawInput;
  if (input === undefined) return undefined;
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/**
 * @internal The call and answer of one tool part, or `undefined` with the problems reported. `errors` holds the
 * message's `data-faultline-error` envelopes by tool call id (the fallback for an error without metadata).
 */
export function readToolPart(part: Record<string, unknown>, path: ReadonlyArray<string | number>, context: ReadContext, errors: ReadonlyMap<string, unknown>): ReadToolPart | undefined {
  const type = part.type as string;
  const toolName = type === 'dynamic-tool' ? part.toolName : type.slice('tool-'.length);
  const id = part.toolCallId;
  const state = part.state;
  let valid = true;
  const fail = (field: string, message: string, code: 'invalid' | 'unsupported' | 'duplicate_call' | 'orphan_output' = 'invalid') => {
    context.issue(code, [...path, field], message);
    valid = false;
  };
  if (typeof toolName !== 'string' || toolName === '') fail(type === 'dynamic-tool' ? 'toolName' : 'type', `must name the tool (got ${quote(type === 'dynamic-tool' ? toolName : type)})`);
  if (typeof id !== 'string' || id === '') fail('toolCallId', `must be a non-empty string (got ${quote(id)})`);
  else if (context.callIds.has(id)) fail('toolCallId', `repeats the tool call id ${quote(id)} of an earlier tool part; every call needs its own id`, 'duplicate_call');
  else context.callIds.add(id);
  if (typeof state !== 'string' || !STATES.has(state)) fail('state', `must be one of ${[...STATES].join(', ')} (got ${quote(state)})`);
  if (part.providerExecuted === true) fail('providerExecuted', 'marks a tool the provider ran itself; faultline cannot send such a call back to a model', 'unsupported');
  const call = faultlineMetadata(part, 'callProviderMetadata', path, context);
  const result = faultlineMetadata(part, 'resultProviderMetadata', path, context);
  const raw = metadataString(call, 'arguments', [...path, 'callProviderMetadata', 'faultline'], context);
  const content = metadataString(result, 'content', [...path, 'resultProviderMetadata', 'faultline'], context);
  if (!valid) return undefined;
  const name = toolName as string;
  const callId = id as string;
  const args = argumentsOf(part, raw);
  const answered = state === 'output-available' || state === 'output-error';
  if (args === undefined && state !== 'input-streaming') {
    fail(answered ? 'input' : 'state', answered ? 'is missing: a tool output whose call cannot be rebuilt (no input, no faultline.arguments)' : 'holds a tool call without input', answered ? 'orphan_output' : 'invalid');
    return undefined;
  }
  const format = context.format;
  let text: string;
  if (state === 'output-available' && part.preliminary !== true) {
    text = content ?? outputContent(part.output, format);
  } else if (state === 'output-error') {
    if (content !== undefined) text = content;
    else {
      if (typeof part.errorText !== 'string') {
        fail('errorText', `must be a string (got ${quote(part.errorText)})`);
        return undefined;
      }
      text = errorContent(envelopeOf(errors.get(callId)) ?? { type: GENERIC_TOOL_ERROR_TYPE, message: part.errorText }, format);
    }
  } else if (state === 'output-denied') {
    const reason = isPlainObject(part.approval) && typeof part.approval.reason === 'string' ? part.approval.reason : undefined;
    text = deniedContent(name, reason, format);
  } else if (state === 'input-streaming') {
    text = cutOffContent(name, args ?? '', format);
  } else {
    text = abortedContent(name, format); // input-available, an approval not yet answered, a preliminary output
  }
  return { call: { id: callId, name, arguments: args ?? '' }, answer: { role: 'tool', content: text, toolCallId: callId } };
}
