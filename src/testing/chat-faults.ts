import { delay, http, HttpResponse, type HttpHandler } from './msw.js';
import { baseURLProblems, checkInput } from './input-check.js';
import { chunk, sseResponse, textEvents, toolCallEvents } from './openai-stream.js';
import { startTimer } from '../internal/delay.js';

/**
 * The faults `chatFaultHandlers` serve, by URL segment.
 * @example `for (const fault of Object.keys(CHAT_FAULTS)) console.log(fault, CHAT_FAULTS[fault])`
 */
export const CHAT_FAULTS = /* @__PURE__ */ Object.freeze({
  ok: 'a normal streamed answer ("Hello from the fault server.")',
  'rate-limit': 'HTTP 429 with Retry-After (retry-after-ms: 50) on the first call of a run id, then the answer',
  'server-error': 'HTTP 500 on the first two calls of a run id, then the answer',
  unauthorized: 'HTTP 401 with an OpenAI error body echoing the (fake) key',
  'cut-mid-stream': 'two text deltas, then the connection drops 30 ms later',
  'malformed-chunk': 'one text delta, then a chunk that is not JSON',
  'mid-stream-error': 'one text delta, then `data: {"error": …}`',
  'invalid-tool-json': 'a tool call whose arguments are not JSON',
  'slow-first-byte': 'the answer after 2 s without a byte',
  'no-finish': 'text deltas, then a clean end without finish_reason or [DONE]',
  'keep-alive-only': 'HTTP 200 text/event-stream, then a `: keep-alive` comment every 20 ms while the client reads, never an event, until it cancels (a first-chunk timeout)',
  trickle: 'HTTP 200 text/event-stream, then one byte every 20 ms while the client reads of a `data:` line that never ends, until it cancels (a first-chunk timeout)',
} as const);

/** A fault name. */
export type ChatFault = keyof typeof CHAT_FAULTS;

/** The never-finished line the `trickle` fault sends byte by byte: a plausible chunk, then one `x` per tick forever. */
const TRICKLE_LINE = 'data: {"id":"chatcmpl-trickle","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"';

/**
 * A 200 `text/event-stream` answer that sends `piece(tick)` 20 ms after each read of the client, and nothing else,
 * forever: alive, never useful. Pull-based: nothing ticks while nobody reads (msw keeps an unread copy of each mocked
 * body), and the pending tick is cleared when the client cancels the body.
 */
function everyTick(piece: (tick: number) => string): Response {
  const encoder = new TextEncoder();
  let tick = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return new Promise<void>((resolve) => {
          timer = startTimer(() => {
            controller.enqueue(encoder.encode(piece(tick++)));
            resolve();
          }, 20);
        });
      },
      cancel() {
        clearTimeout(timer);
      },
    },
    { highWaterMark: 0 },
  );
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_useless' } });
}

/**
 * msw handlers of an OpenAI-compatible endpoint that fails on purpose: `POST <baseURL>/<fault>/<runId>/chat/completions`
 * serves the fault named in {@link CHAT_FAULTS}; `<runId>` keeps stateful faults (429 then success) apart between
 * runs. Point a client's `baseURL` at `<baseURL>/<fault>/<runId>`. These are the handlers our own tests use, in
 * process and served over loopback for the other runtimes.
 *
 * `options` is `{ baseURL }`, an absolute http(s) URL, and nothing else: anything else is a `ConfigError` naming
 * each problem (a misspelt name with the one meant), thrown before a handler is built.
 *
 * @example
 * ```ts
 * const server = setupServer(...chatFaultHandlers({ baseURL: 'https://llm.test' }));
 * const client = createOpenAICompatibleClient({ baseURL: 'https://llm.test/rate-limit/run-1', model: 'm' });
 * ```
 */
export function chatFaultHandlers(options: { baseURL: string }): HttpHandler[] {
  checkInput('chatFaultHandlers options', baseURLProblems(options));
  const base = options.baseURL.replace(/\/+$/, '');
  const calls = new Map<string, number>();
  const count = (key: string) => {
    const next = (calls.get(key) ?? 0) + 1;
    calls.set(key, next);
    return next;
  };
  const answer = () => sseResponse(textEvents(['Hello ', 'from the ', 'fault server.']));
  return [
    http.post(`${base}/:fault/:runId/chat/completions`, async ({ params }) => {
      const fault = String(params.fault);
      const call = count(`${fault}/${String(params.runId)}`);
      switch (fault) {
        case 'ok':
          return answer();
        case 'rate-limit':
          return call === 1
            ? HttpResponse.json({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }, { status: 429, headers: { 'retry-after-ms': '50', 'retry-after': '1' } })
            : answer();
        case 'server-error':
          return call <= 2 ? HttpResponse.json({ error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } }, { status: 500 }) : answer();
        case 'unauthorized':
          return HttpResponse.json(
            { error: { message: 'Incorrect API key provided: sk-fault-0123456789abcdef.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
            { status: 401, headers: { 'x-request-id': 'req_unauthorized' } },
          );
        case 'cut-mid-stream':
          return sseResponse(textEvents(['partial ', 'answer ', 'never finished']), { dropAfter: 3, dropDelayMs: 30 });
        case 'malformed-chunk':
          return sseResponse([chunk({ content: 'Hello' }), '{"id": broken']);
        case 'mid-stream-error':
          return sseResponse([chunk({ content: 'Hello' }), { error: { message: 'The model is overloaded', type: 'server_error', code: 'overloaded' } }]);
        case 'invalid-tool-json':
          return call % 2 === 1 ? sseResponse(toolCallEvents([{ id: `call_${call}`, name: 'get_weather', arguments: '{"city": Paris' }])) : answer();
        case 'slow-first-byte':
          await delay(2_000);
          return answer();
        case 'no-finish':
          return sseResponse(textEvents(['half an ', 'answer']), { endAfter: 3 });
        case 'keep-alive-only':
          return everyTick(() => ': keep-alive\n\n');
        case 'trickle':
          return everyTick((tick) => TRICKLE_LINE[tick] ?? 'x');
        default:
          return HttpResponse.json({ error: { message: `unknown fault ${fault}; known: ${Object.keys(CHAT_FAULTS).join(', ')}` } }, { status: 404 });
      }
    }),
  ];
}
