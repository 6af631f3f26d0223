/**
 * The response headers of the AI SDK UI message stream: SSE, the protocol version `useChat` checks, and no caching or
 * proxy buffering (each frame reaches the browser as it is written).
 * @example `new Response(toUIMessageStream(run), { headers: UI_MESSAGE_STREAM_HEADERS })`
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'x-vercel-ai-ui-message-stream': 'v1',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};
