/**
 * @internal A request answered by a JSON body: read whole (up to `maxResponseBytes`), server messages in it routed to
 * the client, the response to the request taken out. A body cut off before its end (a connection reset) is a network
 * failure, never an answer of the server's that is "not JSON".
 */
import type { Attempt } from '../internal/attempt.js';
import { readBodyUntil } from '../internal/http-body.js';
import { parseMessages, protocolError, resultOf, tooLarge, type AnswerContext, type ServerMessage } from './client-messages.js';
import { bodyBroke } from './transport-failure.js';

/** @internal The request an HTTP answer is for: a 404 is about the session it `carried`; `idempotent` decides a broken body's retry. */
export interface AnswerOf {
  method: string;
  id: number;
  carried: string | undefined;
  idempotent: boolean;
}

/** @internal What a JSON answer needs of its transport. */
export interface JSONAnswerHost {
  answer: AnswerContext;
  maxResponseBytes: number;
  /** Hands server messages on; returns the response to this request, if one is among them. */
  route: (messages: readonly ServerMessage[]) => Extract<ServerMessage, { kind: 'response' }> | undefined;
}

export async function readJSONAnswer(host: JSONAnswerHost, response: Response, attempt: Attempt, { method, id, idempotent }: AnswerOf): Promise<unknown> {
  const ctx = host.answer;
  const body = await attempt.race(readBodyUntil(response, attempt.signal, host.maxResponseBytes));
  if (body.exceeded) throw tooLarge(ctx, method, host.maxResponseBytes);
  let messages: ServerMessage[];
  try {
    messages = parseMessages(ctx, body.text, `its answer to ${method}`);
  } catch (error) {
    // What arrived of a body that broke off is not what the server said. (A JSON text that parses whole, the reset
    // after it, is: JSON-RPC messages are objects and arrays, whose end is their own.)
    throw body.failed ? bodyBroke(ctx, method, body.failed, idempotent) : error;
  }
  const found = host.route(messages);
  if (found === undefined) throw protocolError(ctx, `its answer to ${method} holds no response to request ${id}`, undefined, method);
  return resultOf(ctx, found, method, response.status, false);
}
