/**
 * Model calls as batches of chunks, for consumers inside the SDK (the agent loop). A `ChatStream` is the public shape,
 * but a Web `ReadableStream` costs a construction and a promise round trip per chunk; the clients of this package
 * produce batches anyway, so they also offer them directly, under a symbol. Any other `ChatClient` is read through
 * its stream, one chunk per batch. Internal: not exported from the package.
 */
import { streamFromBatches } from '../../internal/streams.js';
import type { ChatChunk, ChatClient, ChatRequest, ChatStream } from './types.js';

/** A model call in progress: its batches, and how to cancel it (aborting the call, then returning the batches). */
export interface ChatBatches {
  readonly batches: AsyncGenerator<readonly ChatChunk[], void, undefined>;
  cancel(reason?: unknown): void;
}

/** The batch opener a client may carry, with the `stream` function it stands for. */
interface BatchOpener {
  readonly stream: ChatClient['stream'];
  open(request: ChatRequest): ChatBatches;
}

const BATCHES = Symbol('faultline.chat.batches');

/**
 * Makes a client from its batch opener: `stream` is `open` behind a `ChatStream`, and the opener stays reachable for
 * {@link openChatBatches}. The opener is non-enumerable (a `{ ...client, stream }` copy does not inherit it) and is
 * used only while `client.stream` is still the function made here, so a wrapper that replaces `stream` is always
 * honoured.
 */
export function batchClient<C extends ChatClient>(base: Omit<C, 'stream'>, open: (request: ChatRequest) => ChatBatches): C {
  const client = base as C;
  const stream = (request: ChatRequest): ChatStream => batchStream(open(request));
  client.stream = stream;
  const opener: BatchOpener = { stream, open };
  Object.defineProperty(client, BATCHES, { value: opener, enumerable: false });
  return client;
}

/** A `ChatStream` over the batches of a call. */
function batchStream(call: ChatBatches): ChatStream {
  return streamFromBatches(call.batches, (reason) => call.cancel(reason));
}

/** Stops a call its consumer no longer reads: aborts it, then lets its generator clean up. */
export function closeChatBatches(call: ChatBatches, reason?: unknown): void {
  call.cancel(reason);
  call.batches.return(undefined).catch(() => {});
}

/**
 * Opens a model call on any client: through its batch path when it has one for its current `stream`, else through
 * `client.stream(request)` read chunk by chunk. Throws synchronously what `stream` throws synchronously.
 */
export function openChatBatches(client: ChatClient, request: ChatRequest): ChatBatches {
  const opener = (client as { [BATCHES]?: BatchOpener })[BATCHES];
  if (opener !== undefined && opener.stream === client.stream) return opener.open(request);
  return readStream(client.stream(request));
}

function readStream(stream: ChatStream): ChatBatches {
  const reader = stream.getReader();
  let finished = false;
  async function* batches(): AsyncGenerator<readonly ChatChunk[], void, undefined> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield [value];
      }
      finished = true;
    } catch (error) {
      finished = true;
      throw error;
    } finally {
      if (finished) reader.releaseLock();
      else reader.cancel().catch(() => {});
    }
  }
  const generator = batches();
  return {
    batches: generator,
    cancel(reason) {
      reader.cancel(reason).catch(() => {});
    },
  };
}
