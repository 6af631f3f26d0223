import type { ChatChunk } from '../../src/chat/index.js';

/** Reads a chat stream to its end: every chunk, and the error that ended it, if any. */
export async function readAll(stream: ReadableStream<ChatChunk>): Promise<{ chunks: ChatChunk[]; error?: unknown }> {
  const chunks: ChatChunk[] = [];
  try {
    for await (const chunk of stream as unknown as AsyncIterable<ChatChunk>) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}
