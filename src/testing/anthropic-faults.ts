import { http, HttpResponse, type HttpHandler } from './msw.js';
import { baseURLProblems, checkInput } from './input-check.js';
import { errorReply, messageReply, streamedReply, type AnthropicReply, type AnswerIds } from './anthropic-stream.js';

/**
 * The faults `anthropicFaultHandlers` serve, by URL segment. "A run id's first call" counts per `<fault>/<runId>`.
 * @example `for (const [fault, what] of Object.entries(ANTHROPIC_FAULTS)) console.log(fault, what)`
 */
export const ANTHROPIC_FAULTS = /* @__PURE__ */ Object.freeze({
  ok: 'a streamed text answer ("Hello from the Anthropic fault server."), stop_reason end_turn',
  'tool-round':
    'a run id\'s first call: a text block, then a streamed tool_use of the tool `lookup` with input {"order":"A-1"} (stop_reason tool_use; the request must offer a tool named lookup, else HTTP 400). Every later call must send back that tool_use and its tool_result (else HTTP 400 invalid_request_error, as Anthropic answers), and gets a text answer quoting the tool result\'s text: "The lookup tool answered: <text>" ("The lookup tool failed: <text>" when is_error)',
  'overloaded-mid-stream': 'on every call: two text deltas ("The first part of the answer"), then `event: error` overloaded_error; no message_stop (a StreamError after output)',
  'overloaded-before-output': "a run id's first call: message_start and a ping, then `event: error` overloaded_error before any content block (retryable); later calls: the ok answer",
  overloaded: "a run id's first call: HTTP 529 overloaded_error with retry-after: 1 (seconds); later calls: the ok answer",
} as const);

/**
 * A fault name of {@link ANTHROPIC_FAULTS}.
 * @example `const fault: AnthropicFault = 'tool-round'; createAnthropicClient({ baseURL: \`https://claude.test/${fault}/run-1\`, model, maxTokens })`
 */
export type AnthropicFault = keyof typeof ANTHROPIC_FAULTS;

/** Run ids remembered at most (the oldest forgotten first: a forgotten run id starts again at its first call). */
const MAX_RUNS = 10_000;
const TOOL_NAME = 'lookup';
const TOOL_INPUT = /* @__PURE__ */ Object.freeze({ order: 'A-1' });
const BROWSER_HEADER = 'anthropic-dangerous-direct-browser-access';
/** What Anthropic answers with a browser's request that did not opt in with {@link BROWSER_HEADER}. */
const CORS_REFUSAL = `CORS requests must set '${BROWSER_HEADER}' header`;
const OK_TEXT = ['Hello ', 'from the ', 'Anthropic fault server.'];

interface Run {
  calls: number;
  /** The `tool_use` id this run's tool round asked for. */
  toolUseId?: string;
}

type Block = { type?: unknown; id?: unknown; name?: unknown; tool_use_id?: unknown; content?: unknown; text?: unknown; is_error?: unknown };
type Message = { role?: unknown; content?: unknown };

const blocksOf = (message: Message | undefined): Block[] =>
  Array.isArray(message?.content) ? (message.content as unknown[]).filter((block): block is Block => typeof block === 'object' && block !== null) : [];

/** The text of a `tool_result`'s content: a string, or its text blocks joined. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (typeof block === 'object' && block !== null && typeof (block as Block).text === 'string' ? ((block as Block).text as string) : '')).join('');
}

/**
 * msw handlers of an Anthropic Messages endpoint that fails on purpose: `POST <baseURL>/<fault>/<runId>/v1/messages`
 * serves the fault named in {@link ANTHROPIC_FAULTS}; `<runId>` keeps stateful faults (first call, then an answer)
 * apart between runs. Point `createAnthropicClient`'s `baseURL` at `<baseURL>/<fault>/<runId>`. Streams follow the
 * documented event flow (a streamed request: `"stream": true`; otherwise the whole Message as JSON, and a fault cut
 * mid-stream answers HTTP 529); every answer carries a `request-id` header, every error Anthropic's error body.
 *
 * Checked like the API checks them: `x-api-key` (any value) and `anthropic-version` present (else 401 / 400),
 * `model`, `max_tokens` and `messages` in the body (else 400 naming the field). Browser calls as Anthropic answers
 * them: a request with an `Origin` but without `anthropic-dangerous-direct-browser-access: true` gets 401 and no
 * CORS header; with it, every answer allows any origin (`access-control-allow-origin: *`, all headers exposed), and
 * the CORS preflight (`OPTIONS`) is answered. Run ids are remembered up to 10,000, the oldest forgotten first.
 *
 * `options` is `{ baseURL }`, an absolute http(s) URL, and nothing else: anything else is a `ConfigError` naming
 * each problem (a misspelt name with the one meant), thrown before a handler is built.
 *
 * @example
 * ```ts
 * const server = setupServer(...anthropicFaultHandlers({ baseURL: 'https://claude.test' }));
 * const client = createAnthropicClient({ baseURL: 'https://claude.test/overloaded-mid-stream/run-1', apiKey: 'sk-ant-fake', model: 'claude-sonnet-4-5', maxTokens: 1024 });
 * ```
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function anthropicFaultHandlers(options: { baseURL: string }): HttpHandler[] {
  checkInput('anthropicFaultHandlers options', baseURLProblems(options));
  const base = options.baseURL.replace(/\/+$/, '');
  const path = `${base}/:fault/:runId/v1/messages`;
  const runs = new Map<string, Run>();
  let sequence = 0;
  const next = () => String(++sequence).padStart(10, '0');
  const runOf = (key: string): Run => {
    let run = runs.get(key);
    if (!run) {
      run = { calls: 0 };
      runs.set(key, run);
      while (runs.size > MAX_RUNS) runs.delete(runs.keys().next().value as string);
    }
    run.calls++;
    return run;
  };

  const answer = async (request: Request, fault: string, runId: string): Promise<Response> => {
    const requestId = `req_011Fault${next()}`;
    const browser = request.headers.get(BROWSER_HEADER) === 'true';
    if (request.headers.has('origin') && !browser) return errorReply(401, 'authentication_error', CORS_REFUSAL, requestId);
    const cors: Record<string, string> = browser ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': '*' } : {};
    const fail = (status: number, type: string, message: string, extra: Record<string, string> = {}) => errorReply(status, type, message, requestId, { ...cors, ...extra });
    if (!request.headers.get('x-api-key')) return fail(401, 'authentication_error', 'x-api-key header is required');
    if (!request.headers.get('anthropic-version')) return fail(400, 'invalid_request_error', 'anthropic-version: header is required');
    if (!Object.hasOwn(ANTHROPIC_FAULTS, fault)) return fail(404, 'not_found_error', `unknown fault ${fault.slice(0, 100)}; known: ${Object.keys(ANTHROPIC_FAULTS).join(', ')}`);
    let body: { model?: unknown; max_tokens?: unknown; messages?: unknown; stream?: unknown; tools?: unknown };
    try {
      body = (await request.json()) as typeof body;
    } catch {
      return fail(400, 'invalid_request_error', 'There was an error parsing the body of your request: it is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(400, 'invalid_request_error', 'The request body must be a JSON object');
    for (const field of ['model', 'max_tokens', 'messages'] as const) if (body[field] === undefined) return fail(400, 'invalid_request_error', `${field}: Field required`);
    if (!Array.isArray(body.messages) || body.messages.length === 0) return fail(400, 'invalid_request_error', 'messages: at least one message is required');

    const run = runOf(`${fault}/${runId}`);
    const ids: AnswerIds = { messageId: `msg_01Fault${next()}`, requestId, model: typeof body.model === 'string' ? body.model.slice(0, 100) : 'claude-fault' };
    const reply = (content: AnthropicReply): Response => {
      if (body.stream === true) return streamedReply(content, ids, cors);
      return content.cut ? fail(529, 'overloaded_error', 'Overloaded') : messageReply(content, ids, cors);
    };
    const ok: AnthropicReply = { text: OK_TEXT };
    switch (fault as AnthropicFault) {
      case 'ok':
        return reply(ok);
      case 'overloaded-mid-stream':
        return reply({ text: ['The first part ', 'of the answer'], cut: 'after-text' });
      case 'overloaded-before-output':
        return reply(run.calls === 1 ? { text: [], cut: 'before-content' } : ok);
      case 'overloaded':
        return run.calls === 1 ? fail(529, 'overloaded_error', 'Overloaded', { 'retry-after': '1' }) : reply(ok);
      case 'tool-round':
        return toolRound(run, body.messages as Message[], body.tools, reply, fail, next);
    }
  };

  return [
    http.options(path, ({ request }) => {
      const asked = request.headers.get('access-control-request-headers');
      return new HttpResponse(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': asked ?? '*',
          'access-control-max-age': '600',
        },
      });
    }),
    http.post(path, ({ request, params }) => answer(request, String(params.fault), String(params.runId))),
  ];
}

/** The `tool-round` fault: a `tool_use` of `lookup` first, then an answer quoting its `tool_result`. */
function toolRound(
  run: Run,
  messages: readonly Message[],
  tools: unknown,
  reply: (content: AnthropicReply) => Response,
  fail: (status: number, type: string, message: string) => Response,
  next: () => string,
): Response {
  if (run.toolUseId === undefined) {
    const offered = Array.isArray(tools) ? tools.map((tool) => (typeof tool === 'object' && tool !== null ? (tool as Block).name : undefined)) : [];
    if (!offered.includes(TOOL_NAME)) {
      return fail(400, 'invalid_request_error', `tools: the tool-round fault calls a tool named ${TOOL_NAME}, and this request offers none (offered: ${offered.map(String).join(', ').slice(0, 200) || 'no tools'})`);
    }
    run.toolUseId = `toolu_01FaultLookup${next()}`;
    return reply({ text: ['Let me look up ', 'order A-1.'], toolUse: { id: run.toolUseId, name: TOOL_NAME, input: TOOL_INPUT, parts: ['{"order":', '"A-1"}'] } });
  }
  const id = run.toolUseId;
  const last = messages.length - 1;
  const asked = blocksOf(messages[last - 1]).some((block) => block.type === 'tool_use' && block.id === id);
  const result = blocksOf(messages[last]).find((block) => block.type === 'tool_result' && block.tool_use_id === id);
  if (!asked || messages[last - 1]?.role !== 'assistant') {
    return fail(400, 'invalid_request_error', `messages: the tool-round fault's second request must send back the assistant's tool_use ${id} (in messages.${Math.max(0, last - 1)}) and its tool_result after it`);
  }
  if (!result || messages[last]?.role !== 'user') {
    return fail(400, 'invalid_request_error', `messages.${last - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
  }
  const text = resultText(result.content);
  return reply({ text: [result.is_error === true ? 'The lookup tool failed: ' : 'The lookup tool answered: ', text] });
}
