/**
 * The UI message stream contract (the web-UI stream's wire format: start → per model call start-step … finish-step →
 * finish | error + finish('error') | a cut), written from an agent run's items through the AI SDK's own
 * `createUIMessageStream`, then read back with its `readUIMessageStream` into the `UIMessage` `useChat` would hold —
 * the history a browser posts back. Tool parts carry the raw arguments (`tool-input-available.providerMetadata.faultline
 * .arguments`) and the exact content (`tool-output-*.providerMetadata.faultline.content`); a failed tool also gets a
 * `data-faultline-error` part; a step's reasoning and replay items ride on its `reasoning-end` (else its first text or
 * tool part) as `providerMetadata.faultline`.
 */
import { createUIMessageStream, readUIMessageStream, uiMessageChunkSchema, validateUIMessages, type UIMessage, type UIMessageChunk } from 'ai';
import { expect } from 'vitest';
import type { AgentRunItem } from '../../../src/agent/index.js';
import type { ChatMessage } from '../../../src/chat/index.js';
import { AgentError } from '../../../src/errors/index.js';

/** Options of {@link contractChunks}. */
export interface ContractOptions {
  /** The assistant message of each model call, in order (from the run's transcript): its reasoning and replay. */
  assistants: readonly ChatMessage[];
  /** The browser stops reading right after the first chunk this matches (what `stop()` leaves it holding). */
  cutAfter?: (chunk: UIMessageChunk) => boolean;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** The chunks of a run, as the contract writes them. */
export function contractChunks(items: readonly AgentRunItem[], options: ContractOptions): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [{ type: 'start', messageId: 'msg-1' }];
  let iteration = 0;
  let text: string | undefined;
  let reasoning: string | undefined;
  let parts = 0;
  let metadataSent = false;
  const faultline = (): Record<string, unknown> | undefined => {
    if (metadataSent) return undefined;
    const message = options.assistants[iteration - 1];
    const own: Record<string, unknown> = {};
    if (message?.reasoning !== undefined) own.reasoning = message.reasoning;
    if (message?.replay !== undefined) own.replay = message.replay;
    if (Object.keys(own).length === 0) return undefined;
    metadataSent = true;
    return own;
  };
  const closeParts = () => {
    if (reasoning !== undefined) {
      const own = faultline();
      chunks.push({ type: 'reasoning-end', id: reasoning, ...(own ? { providerMetadata: { faultline: own } } : {}) } as UIMessageChunk);
      reasoning = undefined;
    }
    if (text !== undefined) {
      const own = faultline();
      chunks.push({ type: 'text-end', id: text, ...(own ? { providerMetadata: { faultline: own } } : {}) } as UIMessageChunk);
      text = undefined;
    }
  };
  const step = (next: number) => {
    if (next === iteration) return;
    closeParts();
    if (iteration > 0) chunks.push({ type: 'finish-step' });
    iteration = next;
    parts = 0;
    metadataSent = false;
    chunks.push({ type: 'start-step' });
  };
  for (const item of items) {
    switch (item.type) {
      case 'text-delta':
        step(item.iteration);
        if (reasoning !== undefined) closeParts();
        if (text === undefined) {
          text = `t${iteration}-${++parts}`;
          chunks.push({ type: 'text-start', id: text });
        }
        chunks.push({ type: 'text-delta', id: text, delta: item.delta });
        break;
      case 'reasoning-delta':
        step(item.iteration);
        if (text !== undefined) closeParts();
        if (reasoning === undefined) {
          reasoning = `r${iteration}-${++parts}`;
          chunks.push({ type: 'reasoning-start', id: reasoning });
        }
        chunks.push({ type: 'reasoning-delta', id: reasoning, delta: item.delta });
        break;
      case 'tool-call': {
        step(item.iteration);
        closeParts();
        const own = { arguments: item.call.arguments, ...faultline() };
        chunks.push({ type: 'tool-input-start', toolCallId: item.call.id, toolName: item.call.name });
        chunks.push({ type: 'tool-input-available', toolCallId: item.call.id, toolName: item.call.name, input: parsed(item.call.arguments), providerMetadata: { faultline: own } } as UIMessageChunk);
        break;
      }
      case 'tool-result': {
        step(item.iteration);
        closeParts();
        const providerMetadata = { faultline: { content: item.content } };
        if (item.ok) chunks.push({ type: 'tool-output-available', toolCallId: item.callId, output: item.result, providerMetadata } as UIMessageChunk);
        else {
          const error = item.result.error ?? { type: 'ToolExecutionFailed', message: 'failed' };
          chunks.push({ type: 'tool-output-error', toolCallId: item.callId, errorText: error.message, providerMetadata } as UIMessageChunk);
          chunks.push({ type: 'data-faultline-error', id: item.callId, data: { ...error, kind: 'tool', retryable: false, scope: 'tool', toolCallId: item.callId, toolName: item.toolName } } as UIMessageChunk);
        }
        break;
      }
      case 'error':
        if (!item.terminal) break;
        closeParts();
        {
          const failure = AgentError.from(item.error);
          chunks.push({ type: 'data-faultline-error', id: 'run', data: { type: failure.name, message: failure.message, kind: failure.kind, retryable: false, scope: 'run' } } as UIMessageChunk);
          chunks.push({ type: 'error', errorText: failure.message });
        }
        if (iteration > 0) chunks.push({ type: 'finish-step' });
        chunks.push({ type: 'finish', finishReason: 'error' });
        break;
      case 'finish':
        closeParts();
        if (iteration > 0) chunks.push({ type: 'finish-step' });
        chunks.push({ type: 'finish', finishReason: item.finishReason === 'max_iterations' ? 'other' : item.finishReason === 'tool_calls' ? 'tool-calls' : 'stop', messageMetadata: { faultline: { finishReason: item.finishReason } } } as UIMessageChunk);
        break;
      default:
        break;
    }
  }
  const cut = options.cutAfter ? chunks.findIndex(options.cutAfter) : -1;
  return cut === -1 ? chunks : chunks.slice(0, cut + 1);
}

/** The UIMessage `useChat` holds after reading `chunks` (each validated against `uiMessageChunkSchema` first). */
export async function uiMessageOf(chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const checked = await schema.validate!(chunk);
    expect(checked.success, JSON.stringify(chunk)).toBe(true);
  }
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      for (const chunk of chunks) writer.write(chunk);
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: stream as ReadableStream<UIMessageChunk> })) last = message;
  if (!last) throw new Error('readUIMessageStream gave no message');
  return structuredClone(last);
}

/** A user message as `useChat` makes it from `sendMessage({ text })`. */
export function userUIMessage(id: string, text: string): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** The body `useChat` posts: the history it holds, checked as the AI SDK checks UIMessages. */
export async function chatBody(messages: UIMessage[]): Promise<Record<string, unknown>> {
  await validateUIMessages({ messages });
  return JSON.parse(JSON.stringify({ id: 'chat-1', messages, trigger: 'submit-message' })) as Record<string, unknown>;
}
