import { ChatClientError } from '../errors/chat-client-error.js';
import { ConfigError } from '../errors/config-error.js';
import { StreamError } from '../errors/stream-error.js';
import { isFallbackWorthy } from './core/fallback-worthy.js';
import { batchClient, closeChatBatches, openChatBatches, type ChatBatches } from './core/chat-batches.js';
import { collectChatStream } from './core/collect-chat-stream.js';
import type { ChatChunk, ChatClient, ChatRequest, ChatResponse } from './core/types.js';

/** Options of {@link createFallbackChatClient}. */
export interface FallbackChatClientOptions {
  /** Decides whether a failure moves on to the next client. @default retryable `ChatClientError`s and streams that broke before any output */
  shouldFallback?: (error: unknown) => boolean;
}

/**
 * Model fallback: a client built from an ordered list of clients. Each call tries them in order and moves to the
 * next on a retryable failure (after that client's own retries), as long as nothing has been streamed yet; once
 * output flows, a failure is reported, never replayed elsewhere. Aborts never fall back. `request.onFallback` hears
 * each move.
 *
 * @example
 * ```ts
 * const model = createFallbackChatClient([
 *   createOpenAICompatibleClient({ baseURL: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini' }),
 *   createOpenAICompatibleClient({ baseURL: 'https://api.deepseek.com', apiKey: deepseekKey, model: 'deepseek-chat' }),
 * ]);
 * ```
 */
export function createFallbackChatClient(clients: readonly ChatClient[], options: FallbackChatClientOptions = {}): ChatClient {
  const problems: string[] = [];
  if (!Array.isArray(clients) || clients.length === 0) problems.push('clients must be a non-empty array');
  else
    clients.forEach((client, index) => {
      if (!client || typeof client.stream !== 'function' || typeof client.complete !== 'function') problems.push(`clients[${index}] is not a ChatClient`);
    });
  if (problems.length > 0) throw ConfigError.fromProblems('fallback chat client', problems);
  const shouldFallback = options.shouldFallback ?? isFallbackWorthy;

  /** One call: the clients in turn, each read as batches, moving on only before anything was emitted. */
  const open = (request: ChatRequest): ChatBatches => {
    let current: ChatBatches | undefined;
    async function* run(): AsyncGenerator<readonly ChatChunk[], void, undefined> {
      for (let index = 0; ; index++) {
        const client = clients[index] as ChatClient;
        const call = openChatBatches(client, request);
        current = call;
        let emitted = false;
        let settled = false;
        try {
          for (;;) {
            const next = await call.batches.next();
            if (next.done) {
              settled = true;
              return;
            }
            if (next.value.length === 0) continue;
            emitted = true;
            yield next.value;
          }
        } catch (error) {
          settled = true;
          const following = clients[index + 1];
          if (emitted || !following || request.signal?.aborted || !shouldFallback(error)) throw error;
          request.onFallback?.({ from: client.name, to: following.name, error });
        } finally {
          if (!settled) closeChatBatches(call); // the caller stopped reading: stop the underlying call too
        }
      }
    }
    return { batches: run(), cancel: (reason) => current?.cancel(reason) };
  };

  const client: ChatClient = batchClient<ChatClient>(
    {
      name: `fallback(${clients.map((each) => each.name).join(', ')})`,
      async complete(request: ChatRequest): Promise<ChatResponse> {
        return collectChatStream(client.stream(request));
      },
    },
    open,
  );
  return client;
}
