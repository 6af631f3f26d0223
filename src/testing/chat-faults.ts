import { http, HttpResponse, type HttpHandler } from './msw.js';
import { baseURLProblems, checkInput } from './input-check.js';
import { everyTick } from './keep-alive.js';
import { completionText, jsonResponse, type CompletionReply } from './openai-completion.js';
import { chunk, sseResponse, textEvents, toolCallEvents } from './openai-stream.js';
import { plannedBody, waitFor } from './paced-body.js';

/**
 * The faults `chatFaultHandlers` serve, by URL segment: each as a streamed request gets it, then ("not streamed:")
 * what a request without `"stream": true` (`client.complete()`) gets instead, where that differs.
 * @example `for (const fault of Object.keys(CHAT_FAULTS)) console.log(fault, CHAT_FAULTS[fault])`
 */
export const CHAT_FAULTS = /* @__PURE__ */ Object.freeze({
  ok: 'a normal answer ("Hello from the fault server."): streamed, or one chat.completion when the request is not',
  'rate-limit': 'HTTP 429 with Retry-After (retry-after-ms: 50) on the first call of a run id, then the answer',
  'server-error': 'HTTP 500 on the first two calls of a run id, then the answer',
  unauthorized: 'HTTP 401 with an OpenAI error body echoing the (fake) key',
  'cut-mid-stream': 'two text deltas, then the connection drops 30 ms later; not streamed: half of the JSON answer, then the drop',
  'malformed-chunk': 'one text delta, then a chunk that is not JSON; not streamed: a body that is not JSON',
  'mid-stream-error': 'one text delta, then `data: {"error": …}`; not streamed: that error as HTTP 503',
  'invalid-tool-json': 'a tool call whose arguments are not JSON on odd calls of a run id, the answer on even ones',
  'slow-first-byte': 'the answer after 2 s without a byte',
  'no-finish': 'text deltas, then a clean end without finish_reason or [DONE]; not streamed: half of the JSON answer, then a clean end',
  'keep-alive-only':
    'HTTP 200 text/event-stream, then a `: keep-alive` comment every 20 ms while the client reads, never an event, until it gives up (a first-chunk timeout); not streamed: HTTP 200 application/json, then a newline (whitespace JSON allows) every 20 ms, never the answer',
  trickle:
    'HTTP 200 text/event-stream, then one byte every 20 ms while the client reads of a `data:` line that never ends, until it gives up (a first-chunk timeout); not streamed: the same of a JSON answer that never ends',
} as const);

/** A fault name. */
export type ChatFault = keyof typeof CHAT_FAULTS;

/** The never-finished line the `trickle` fault sends byte by byte: a plausible chunk, then one `x` per tick forever. */
const TRICKLE_LINE = 'data: {"id":"chatcmpl-trickle","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"';
/** The same for a request that is not streamed: a plausible chat.completion whose content never ends. */
const TRICKLE_JSON = '{"id":"chatcmpl-trickle","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"';
const OK_TEXT = ['Hello ', 'from the ', 'fault server.'];
const OVERLOADED = /* @__PURE__ */ Object.freeze({ message: 'The model is overloaded', type: 'server_error', code: 'overloaded' });

/** Whether the request asks for a stream (`"stream": true`); a body that is not JSON does not. */
async function asksForStream(request: Request): Promise<boolean> {
  try {
    return ((await request.json()) as { stream?: unknown } | null)?.stream === true;
  } catch {
    return false;
  }
}

/** The JSON answer of `reply` in two halves: what arrives before a cut in the middle, and the rest. */
function halves(reply: CompletionReply): string[] {
  const text = completionText(reply);
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/**
 * msw handlers of an OpenAI-compatible endpoint that fails on purpose: `POST <baseURL>/<fault>/<runId>/chat/completions`
 * serves the fault named in {@link CHAT_FAULTS}; `<runId>` keeps stateful faults (429 then success) apart between
 * runs. Point a client's `baseURL` at `<baseURL>/<fault>/<runId>`. These are the handlers our own tests use, in
 * process and served over loopback for the other runtimes.
 *
 * A streamed request (`"stream": true`, what `client.stream()` sends) gets an SSE stream; any other request
 * (`client.complete()`) gets the whole `chat.completion` as JSON, and a fault that strikes mid-stream strikes as it
 * would a non-streamed answer: the connection drops, or the body ends, halfway through the JSON; the provider's error
 * event becomes an HTTP 503; the malformed chunk becomes a body that is not JSON. Every wait (the first byte, a drop,
 * a tick) ends as soon as the client gives up (aborts the request or cancels the body): no fault timer outlives it.
 *
 * `options` is `{ baseURL }`, an absolute http(s) URL, and nothing else: anything else is a `ConfigError` naming
 * each problem (a misspelt name with the one meant), thrown before a handler is built.
 *
 * @example
 * ```ts
 * const server = setupServer(...chatFaultHandlers({ baseURL: 'https://llm.test' }));
 * const client = createOpenAICompatibleClient({ baseURL: 'https://llm.test/rate-limit/run-1', model: 'm' });
 * await client.complete({ messages: [{ role: 'user', content: 'Hi' }] }); // a 429, a retry, then the JSON answer
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
  return [
    http.post(`${base}/:fault/:runId/chat/completions`, async ({ request, params }) => {
      const fault = String(params.fault);
      const call = count(`${fault}/${String(params.runId)}`);
      const streamed = await asksForStream(request);
      const { signal } = request;
      const answer = () => (streamed ? sseResponse(textEvents(OK_TEXT), { signal }) : jsonResponse(completionText({ content: OK_TEXT.join('') })));
      const useless = (body: ReadableStream<Uint8Array>) => (streamed ? new HttpResponse(body, { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_useless' } }) : jsonResponse(body));
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
        case 'cut-mid-stream': {
          const pieces = ['partial ', 'answer ', 'never finished'];
          if (streamed) return sseResponse(textEvents(pieces), { dropAfter: 3, dropDelayMs: 30, signal });
          return jsonResponse(plannedBody(halves({ content: pieces.join('') }), { dropAfter: 1, dropDelayMs: 30, signal }));
        }
        case 'malformed-chunk':
          return streamed ? sseResponse([chunk({ content: 'Hello' }), '{"id": broken'], { signal }) : jsonResponse('{"id": broken');
        case 'mid-stream-error':
          return streamed ? sseResponse([chunk({ content: 'Hello' }), { error: OVERLOADED }], { signal }) : HttpResponse.json({ error: OVERLOADED }, { status: 503 });
        case 'invalid-tool-json': {
          if (call % 2 === 0) return answer();
          const calls = [{ id: `call_${call}`, name: 'get_weather', arguments: '{"city": Paris' }];
          return streamed ? sseResponse(toolCallEvents(calls), { signal }) : jsonResponse(completionText({ toolCalls: calls }));
        }
        case 'slow-first-byte':
          // Not a byte, not even the headers; a client that gave up ends the wait, and its request gets no answer.
          return (await waitFor(2_000, signal)) ? answer() : HttpResponse.error();
        case 'no-finish': {
          const pieces = ['half an ', 'answer'];
          if (streamed) return sseResponse(textEvents(pieces), { endAfter: 3, signal });
          return jsonResponse(plannedBody(halves({ content: pieces.join('') }), { endAfter: 1, signal }));
        }
        case 'keep-alive-only':
          return useless(everyTick(() => (streamed ? ': keep-alive\n\n' : '\n'), signal));
        case 'trickle': {
          const line = streamed ? TRICKLE_LINE : TRICKLE_JSON;
          return useless(everyTick((tick) => line[tick] ?? 'x', signal));
        }
        default:
          return HttpResponse.json({ error: { message: `unknown fault ${fault}; known: ${Object.keys(CHAT_FAULTS).join(', ')}` } }, { status: 404 });
      }
    }),
  ];
}
