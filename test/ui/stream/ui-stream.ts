/**
 * Reading a UI message stream back as the AI SDK does: the SSE body split into frames, each frame checked against
 * `uiMessageChunkSchema` (from `ai`, a dev dependency), the protocol's structure checked (one start, balanced steps,
 * unique part ids, every part closed, every tool call answered, the ending then `[DONE]`), and the chunks replayed
 * through `readUIMessageStream` into the `UIMessage` a `useChat` would hold.
 */
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import type { FaultlineDataParts, FaultlineMessageMetadata } from '../../../src/ui/index.js';

export type FaultlineUIMessage = UIMessage<FaultlineMessageMetadata, FaultlineDataParts>;

/** What a body held: its raw frames (`[DONE]` included), the chunks, and whether it ended with `[DONE]`. */
export interface ReadBody {
  frames: string[];
  chunks: UIMessageChunk[];
  text: string;
}

/** Reads a UI message stream body to its end. Fails on a frame that is not `data: <json>` or `data: [DONE]`. */
export async function readBody(body: ReadableStream<Uint8Array>): Promise<ReadBody> {
  const text = await new Response(body).text();
  if (!text.endsWith('\n\n')) throw new Error(`the body does not end with a blank line: ${JSON.stringify(text.slice(-80))}`);
  const frames = text.slice(0, -2).split('\n\n');
  const chunks: UIMessageChunk[] = [];
  for (const frame of frames) {
    if (!frame.startsWith('data: ')) throw new Error(`not a data frame: ${JSON.stringify(frame.slice(0, 120))}`);
    if (frame === 'data: [DONE]') continue;
    chunks.push(JSON.parse(frame.slice('data: '.length)) as UIMessageChunk);
  }
  return { frames, chunks, text };
}

/** Frames that `uiMessageChunkSchema` rejects, as `index: type: issue` lines. */
export async function schemaProblems(chunks: readonly unknown[]): Promise<string[]> {
  const schema = uiMessageChunkSchema();
  const problems: string[] = [];
  for (const [index, chunk] of chunks.entries()) {
    const result = await schema.validate!(chunk);
    if (!result.success) problems.push(`${index}: ${(chunk as { type?: string }).type}: ${String(result.error).slice(0, 300)}`);
  }
  return problems;
}

/**
 * The protocol's structure, as problems: `start` first; the ending (`finish` or `abort`) once and last, then
 * `[DONE]`; steps balanced; part ids unique and each part closed before a tool part, an error or the ending; every
 * tool input answered once (an approval request answers it for the turn); data parts' ids unique per type unless the same part is updated.
 */
export function structureProblems(body: ReadBody): string[] {
  const { chunks, frames } = body;
  const problems: string[] = [];
  if (frames.at(-1) !== 'data: [DONE]') problems.push('the last frame is not [DONE]');
  if (frames.filter((frame) => frame === 'data: [DONE]').length !== 1) problems.push('[DONE] is not sent exactly once');
  if (chunks[0]?.type !== 'start') problems.push(`the first chunk is ${chunks[0]?.type}, not start`);
  const endings = chunks.map((chunk, index) => [chunk.type, index] as const).filter(([type]) => type === 'finish' || type === 'abort');
  if (endings.length !== 1 || endings[0]?.[1] !== chunks.length - 1) problems.push(`the ending is not once and last: ${JSON.stringify(endings)}`);
  const seen = new Set<string>();
  const open = new Map<string, string>();
  const tools = new Map<string, 'input' | 'available' | 'answered'>();
  let inStep = false;
  for (const [index, chunk] of chunks.entries()) {
    const at = `${index} ${chunk.type}`;
    switch (chunk.type) {
      case 'start-step':
        if (inStep) problems.push(`${at}: a step starts inside a step`);
        inStep = true;
        break;
      case 'finish-step':
        if (!inStep) problems.push(`${at}: finish-step outside a step`);
        if (open.size > 0) problems.push(`${at}: parts still open at finish-step: ${[...open.keys()]}`);
        inStep = false;
        break;
      case 'text-start':
      case 'reasoning-start':
        if (seen.has(chunk.id)) problems.push(`${at}: the part id ${chunk.id} is used twice`);
        seen.add(chunk.id);
        open.set(chunk.id, chunk.type);
        break;
      case 'text-delta':
      case 'reasoning-delta':
        if (!open.has(chunk.id)) problems.push(`${at}: a delta for a part that is not open: ${chunk.id}`);
        break;
      case 'text-end':
      case 'reasoning-end':
        if (!open.delete(chunk.id)) problems.push(`${at}: the end of a part that is not open: ${chunk.id}`);
        break;
      case 'tool-input-start':
        if (open.size > 0) problems.push(`${at}: parts open before a tool part: ${[...open.keys()]}`);
        if (tools.has(chunk.toolCallId)) problems.push(`${at}: the tool call ${chunk.toolCallId} starts twice`);
        tools.set(chunk.toolCallId, 'input');
        break;
      case 'tool-input-available':
        if (tools.get(chunk.toolCallId) !== 'input') problems.push(`${at}: input available without its start: ${chunk.toolCallId}`);
        tools.set(chunk.toolCallId, 'available');
        break;
      case 'tool-output-available':
      case 'tool-output-error':
        if (open.size > 0) problems.push(`${at}: parts open before a tool part: ${[...open.keys()]}`);
        if (tools.get(chunk.toolCallId) !== 'available') problems.push(`${at}: an output for a call that is not waiting for one: ${chunk.toolCallId}`);
        tools.set(chunk.toolCallId, 'answered');
        break;
      case 'tool-approval-request':
        if (tools.get(chunk.toolCallId) !== 'available') problems.push(`${at}: an approval request for a call that is not waiting for an output: ${chunk.toolCallId}`);
        tools.set(chunk.toolCallId, 'answered'); // waits on a person: the approval is its answer for this turn
        break;
      case 'error':
      case 'finish':
      case 'abort':
        if (open.size > 0) problems.push(`${at}: parts open: ${[...open.keys()]}`);
        if (inStep) problems.push(`${at}: inside a step`);
        break;
      default:
        break;
    }
  }
  for (const [id, state] of tools) if (state !== 'answered') problems.push(`the tool call ${id} is never answered`);
  return problems;
}

/** The message `useChat` would hold: the chunks replayed through `readUIMessageStream`; `error` chunks collected. */
export async function messageOf(chunks: readonly UIMessageChunk[]): Promise<{ message: FaultlineUIMessage | undefined; errors: string[] }> {
  const errors: string[] = [];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: FaultlineUIMessage | undefined;
  for await (const snapshot of readUIMessageStream<FaultlineUIMessage>({ stream, onError: (error) => errors.push(error instanceof Error ? error.message : String(error)) })) message = snapshot;
  return { message, errors };
}

/** Every check at once: schema, structure, and the replayed message with no part left spinning. */
export async function checkedBody(body: ReadableStream<Uint8Array>): Promise<ReadBody & { message: FaultlineUIMessage | undefined; errors: string[] }> {
  const read = await readBody(body);
  const problems = [...(await schemaProblems(read.chunks)), ...structureProblems(read)];
  if (problems.length > 0) throw new Error(`the stream breaks the protocol:\n${problems.join('\n')}\n${read.text.slice(0, 4_000)}`);
  const { message, errors } = await messageOf(read.chunks);
  const spinning = (message?.parts ?? []).filter((part) => ('state' in part && (part.state === 'streaming' || part.state === 'input-streaming' || part.state === 'input-available')));
  if (spinning.length > 0) throw new Error(`parts left spinning: ${JSON.stringify(spinning).slice(0, 1_000)}`);
  return { ...read, message, errors };
}

/** The chunks of one type. */
export function chunksOfType<T extends UIMessageChunk['type']>(chunks: readonly UIMessageChunk[], type: T): Array<Extract<UIMessageChunk, { type: T }>> {
  return chunks.filter((chunk): chunk is Extract<UIMessageChunk, { type: T }> => chunk.type === type);
}
