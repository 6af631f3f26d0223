/**
 * `content` of a Chat Completions message or delta in every shape providers send: a string, or an array of parts —
 * `text` (also `output_text`), `thinking` (Mistral's reasoning models: a string or text parts), `reasoning`, and
 * `refusal`. The rule: an answer is never silently lost; a part this client does not understand is named, so the
 * caller gets a typed error instead of an empty success.
 * @see https://docs.mistral.ai/capabilities/reasoning/ (content as `[{type:'thinking',…},{type:'text',…}]`)
 * @see https://platform.openai.com/docs/guides/structured-outputs#refusals (`refusal`)
 */
import { isPlainObject } from '../../internal/json.js';

/** What a `content` held. */
export interface ContentParts {
  text: string;
  reasoning: string;
  refusal: string;
  /** Types of parts that carry nothing this client decodes (an empty list when every part was understood). */
  unknown: string[];
}

/** The text of a `thinking`/`reasoning` part: a string, or text parts (`undefined` when it is neither: never read as none). */
function thoughtText(value: unknown): string | undefined {
  if (typeof value === 'string' || value === undefined || value === null) return value ?? '';
  if (!Array.isArray(value)) return undefined;
  let text = '';
  for (const part of value) {
    const piece: unknown = typeof part === 'string' ? part : isPlainObject(part) ? (part.text ?? '') : undefined;
    if (typeof piece !== 'string') return undefined;
    text += piece;
  }
  return text;
}

/** Decodes `content`: a string, `null`/absent, or an array of parts. Anything else: one unknown part named by its type. */
export function contentParts(content: unknown): ContentParts {
  const parts: ContentParts = { text: '', reasoning: '', refusal: '', unknown: [] };
  if (content === undefined || content === null) return parts;
  if (typeof content === 'string') {
    parts.text = content;
    return parts;
  }
  if (!Array.isArray(content)) {
    parts.unknown.push(typeof content);
    return parts;
  }
  for (const part of content) {
    if (typeof part === 'string') {
      parts.text += part;
      continue;
    }
    const type = isPlainObject(part) && typeof part.type === 'string' ? part.type : typeof part;
    if (!isPlainObject(part)) {
      parts.unknown.push(type);
    } else if (type === 'thinking' || type === 'reasoning') {
      const thought = thoughtText(part.thinking ?? part.reasoning ?? part.text ?? part.summary);
      if (thought === undefined) parts.unknown.push(`${type} whose text is not text`);
      else parts.reasoning += thought;
    } else if (type === 'refusal' && typeof part.refusal === 'string') {
      parts.refusal += part.refusal;
    } else if (typeof part.text === 'string') {
      parts.text += part.text; // `text`, `output_text`, and any part that carries text
    } else {
      parts.unknown.push(type);
    }
  }
  return parts;
}
