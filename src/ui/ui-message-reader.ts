/**
 * @internal `UIMessage`s (already checked and copied by ui-body-snapshot.ts) as the transcript faultline's loop writes:
 * a user message's text; per step of an assistant message (steps split at `step-start` parts) one assistant message
 * (its text, reasoning, replay items and tool calls) and then one tool message per call, in call order. Parts a model
 * never sees (`data-*`, `source-url`, `source-document`) are skipped; a part type not known here is refused, since
 * guessing at it could change the transcript.
 */
import type { ChatMessage, ReplayItem, ToolCall } from '../chat/core/types.js';
import { isPlainObject } from '../internal/json.js';
import { quote } from './ui-body-snapshot.js';
import type { UIFilePart } from './ui-file-part.js';
import type { ReadContext } from './ui-read-context.js';
import { faultlineMetadata, isToolPartType, metadataString, readToolPart } from './ui-tool-part.js';

type Path = ReadonlyArray<string | number>;
type Part = Record<string, unknown>;

/** Part types a model never receives: kept by the browser for display, skipped here. */
function isDisplayOnly(type: string): boolean {
  return type.startsWith('data-') || type === 'source-url' || type === 'source-document';
}

/** The text of a text or reasoning part (an issue when it is not a string). */
function textOf(part: Part, path: Path, context: ReadContext): string {
  if (typeof part.text === 'string') return part.text;
  context.issue('invalid', [...path, 'text'], `must be a string (got ${quote(part.text)})`);
  return '';
}

/** A file part as text through the `fileText` option; refused without it. */
function fileText(part: Part, path: Path, context: ReadContext): string | undefined {
  if (typeof part.mediaType !== 'string' || typeof part.url !== 'string' || (part.filename !== undefined && typeof part.filename !== 'string')) {
    context.issue('invalid', path, 'must be a file part {type: "file", mediaType: string, url: string, filename?: string}');
    return undefined;
  }
  const file: UIFilePart = { type: 'file', mediaType: part.mediaType, url: part.url, ...(typeof part.filename === 'string' ? { filename: part.filename } : {}) };
  let text: string | undefined;
  try {
    text = context.fileText?.(file);
  } catch {
    text = undefined;
  }
  if (typeof text === 'string') return text;
  context.issue('unsupported', path, `is a file (${quote(part.mediaType)}); faultline's messages carry text only, so a file is refused unless the fileText option turns it into text`);
  return undefined;
}

/** A user or system message: its text parts (and files made text), joined by a blank line. */
function textMessage(role: 'user' | 'system', parts: readonly unknown[], path: Path, context: ReadContext): ChatMessage | undefined {
  const texts: string[] = [];
  parts.forEach((part, index) => {
    const at = [...path, index];
    if (!isPlainObject(part) || typeof part.type !== 'string') return context.issue('invalid', at, `must be a part object with a string type (got ${quote(part)})`);
    if (part.type === 'text') texts.push(textOf(part, at, context));
    else if (part.type === 'file') {
      const text = fileText(part, at, context);
      if (text !== undefined) texts.push(text);
    } else if (isDisplayOnly(part.type) || part.type === 'step-start') return;
    else if (part.type === 'reasoning' || isToolPartType(part.type)) context.issue('invalid', [...at, 'type'], `is a ${quote(part.type)} part, which only an assistant message holds`);
    else context.issue('unknown_part', [...at, 'type'], `is a part type faultline does not know (${quote(part.type)}); it is refused rather than guessed at`);
    return;
  });
  const content = texts.filter((text) => text !== '').join('\n\n');
  return content === '' ? undefined : { role, content };
}

/** What one step of an assistant message has gathered. */
interface Step {
  texts: string[];
  reasoning: string[];
  /** `faultline.reasoning` of the step's first reasoning part that has one (the whole reasoning text of the step). */
  fullReasoning: string | undefined;
  replay: ReplayItem[] | undefined;
  calls: ToolCall[];
  answers: ChatMessage[];
}

const newStep = (): Step => ({ texts: [], reasoning: [], fullReasoning: undefined, replay: undefined, calls: [], answers: [] });

/** `faultline.replay` of a part's metadata: an array of `{protocol, item}`, else an issue. */
function replayOf(own: Record<string, unknown> | undefined, path: Path, context: ReadContext): ReplayItem[] | undefined {
  const replay = own?.replay;
  if (replay === undefined) return undefined;
  if (!Array.isArray(replay) || !replay.every((entry) => isPlainObject(entry) && typeof entry.protocol === 'string' && isPlainObject(entry.item))) {
    context.issue('invalid', [...path, 'replay'], 'must be an array of {protocol: string, item: object}');
    return undefined;
  }
  return replay as ReplayItem[];
}

/** The messages of one finished step: the assistant message as the loop writes it, then its tool messages. */
function stepMessages(step: Step): ChatMessage[] {
  const text = step.texts.join('');
  const reasoning = step.fullReasoning ?? step.reasoning.join('');
  if (text === '' && reasoning === '' && step.calls.length === 0 && step.replay === undefined) return [];
  const assistant: ChatMessage = { role: 'assistant', content: step.calls.length > 0 && text === '' ? null : text };
  if (step.calls.length > 0) assistant.toolCalls = step.calls;
  if (reasoning !== '') assistant.reasoning = reasoning;
  if (step.replay !== undefined && step.replay.length > 0) assistant.replay = step.replay;
  return [assistant, ...step.answers];
}

/** An assistant message: one assistant message per step, each followed by the tool messages of its calls. */
function assistantMessages(parts: readonly unknown[], path: Path, context: ReadContext): ChatMessage[] {
  const errors = new Map<string, unknown>();
  for (const part of parts) if (isPlainObject(part) && part.type === 'data-faultline-error' && typeof part.id === 'string') errors.set(part.id, isPlainObject(part.data) ? part.data : undefined);
  const messages: ChatMessage[] = [];
  let step = newStep();
  parts.forEach((part, index) => {
    const at = [...path, index];
    if (!isPlainObject(part) || typeof part.type !== 'string') return context.issue('invalid', at, `must be a part object with a string type (got ${quote(part)})`);
    const type = part.type;
    if (type === 'step-start') {
      messages.push(...stepMessages(step));
      step = newStep();
      return;
    }
    if (isDisplayOnly(type)) return;
    if (type === 'text' || type === 'reasoning') {
      const text = textOf(part, at, context);
      const own = faultlineMetadata(part, 'providerMetadata', at, context);
      const ownPath = [...at, 'providerMetadata', 'faultline'];
      step.replay ??= replayOf(own, ownPath, context);
      if (type === 'text') step.texts.push(text);
      else {
        step.reasoning.push(text);
        const full = metadataString(own, 'reasoning', ownPath, context);
        step.fullReasoning ??= full;
      }
      return;
    }
    if (isToolPartType(type)) {
      step.replay ??= replayOf(faultlineMetadata(part, 'callProviderMetadata', at, context), [...at, 'callProviderMetadata', 'faultline'], context);
      const read = readToolPart(part, at, context, errors);
      if (read) {
        step.calls.push(read.call);
        step.answers.push(read.answer);
      }
      return;
    }
    if (type === 'file') return context.issue('unsupported', at, 'is a file the assistant made; faultline cannot send a file back to a model');
    return context.issue('unknown_part', [...at, 'type'], `is a part type faultline does not know (${quote(type)}); it is refused rather than guessed at`);
  });
  messages.push(...stepMessages(step));
  return messages;
}

/** @internal The transcript of checked `UIMessage`s (problems reported to the context; the result is then unused). */
export function readUIMessages(messages: readonly unknown[], path: Path, context: ReadContext): ChatMessage[] {
  const transcript: ChatMessage[] = [];
  messages.forEach((message, index) => {
    const at = [...path, index];
    if (!isPlainObject(message)) return context.issue('invalid', at, `must be a UIMessage object (got ${quote(message)})`);
    if (typeof message.id !== 'string') context.issue('invalid', [...at, 'id'], `must be a string (got ${quote(message.id)})`);
    if (!Array.isArray(message.parts)) return context.issue('invalid', [...at, 'parts'], `must be an array of parts (got ${quote(message.parts)})`);
    const parts = message.parts as unknown[];
    const role = message.role;
    if (role === 'assistant') transcript.push(...assistantMessages(parts, [...at, 'parts'], context));
    else if (role === 'user' || (role === 'system' && context.systemMessages === 'keep')) {
      const read = textMessage(role, parts, [...at, 'parts'], context);
      if (read) transcript.push(read);
    } else if (role === 'system') context.issue('unsupported', [...at, 'role'], 'is "system": a browser may not set the system prompt (the systemMessages option can allow it)');
    else context.issue('invalid', [...at, 'role'], `must be "user", "assistant" or "system" (got ${quote(role)})`);
    return;
  });
  return transcript;
}
