/**
 * msw helpers for OpenAI-compatible chat completion streams. The stream builders are the public ones of
 * `faultline/testing` (src/testing), so our tests exercise what users get.
 */
import { http, type HttpResponseResolver } from 'msw';

export { chunk, sseResponse, sseText, textEvents, toolCallEvents, usageChunk, type StreamPlan } from '../../src/testing/index.js';

export const BASE_URL = 'https://llm.test/v1';
export const COMPLETIONS_URL = `${BASE_URL}/chat/completions`;

/** An msw handler answering each successive call with the next resolver (the last one repeats). */
export function completions(...answers: Array<HttpResponseResolver>): ReturnType<typeof http.post> {
  let call = 0;
  return http.post(COMPLETIONS_URL, (info) => {
    const answer = answers[Math.min(call, answers.length - 1)] as HttpResponseResolver;
    call++;
    return answer(info);
  });
}

/** Records the JSON bodies sent to the completions endpoint. */
export async function requestBody(request: Request): Promise<Record<string, unknown>> {
  return (await request.clone().json()) as Record<string, unknown>;
}
