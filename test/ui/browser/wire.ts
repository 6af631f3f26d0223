/**
 * Reads a UI message stream body as the wire contract states it: `data: <json>\n\n` frames, the last `data: [DONE]`,
 * every chunk valid against `uiMessageChunkSchema` of the AI SDK itself.
 */
import { uiMessageChunkSchema, type UIMessageChunk } from 'ai';

/** A parsed frame: the chunk, or `'[DONE]'`. */
export type Frame = UIMessageChunk | '[DONE]';

/** Splits a body into frames; throws on a frame that is not `data: …` or not JSON. */
export function framesOf(text: string): Frame[] {
  const blocks = text.split('\n\n');
  if (blocks.at(-1) !== '') throw new Error(`the body does not end with a blank line: …${JSON.stringify(text.slice(-80))}`);
  return blocks.slice(0, -1).map((block) => {
    if (!block.startsWith('data: ') || block.includes('\n')) throw new Error(`not one data line: ${JSON.stringify(block.slice(0, 200))}`);
    const data = block.slice('data: '.length);
    return data === '[DONE]' ? '[DONE]' : (JSON.parse(data) as UIMessageChunk);
  });
}

/** Every chunk that `uiMessageChunkSchema` rejects, with the reason (none: `[]`). */
export async function invalidChunks(frames: readonly Frame[]): Promise<string[]> {
  const schema = uiMessageChunkSchema();
  const problems: string[] = [];
  for (const frame of frames) {
    if (frame === '[DONE]') continue;
    const result = await schema.validate!(frame);
    if (!result.success) problems.push(`${JSON.stringify(frame).slice(0, 200)}: ${String(result.error).slice(0, 300)}`);
  }
  return problems;
}

/** The chunk types in order (`[DONE]` included). */
export const typesOf = (frames: readonly Frame[]): string[] => frames.map((frame) => (frame === '[DONE]' ? '[DONE]' : frame.type));
