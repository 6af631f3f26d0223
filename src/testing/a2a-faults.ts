import { http, HttpResponse, type HttpHandler } from './msw.js';
import { baseURLProblems, checkInput } from './input-check.js';
import { keepAliveAfter } from './keep-alive.js';
import { sseText } from './openai-stream.js';

/**
 * What `a2aFaultHandlers` does, by the text of the user's message.
 * @example `client.sendMessage('fail') // a failed task, see A2A_FAULTS.fail`
 */
export const A2A_FAULTS = /* @__PURE__ */ Object.freeze({
  fail: 'a failed task with structured error metadata (error_code REMOTE_VALIDATION_FAILED) mirrored in the status message',
  reject: 'a rejected task without metadata (the client falls back to "remote task rejected")',
  cancel: 'a canceled task',
  'rpc-error': 'a JSON-RPC error -32001 instead of a result',
  'rpc-error-in-stream': 'in a stream: the task snapshot, then a JSON-RPC error -32603 inside the stream',
  'keep-alive-only':
    'in a stream: the task snapshot, then only a `: keep-alive` comment every 20 ms while the client reads, never another event, until it cancels (an idle timeout); message/send: a completed task',
  'anything else': 'a completed task whose artifact echoes the text',
} as const);

const ERROR_METADATA = /* @__PURE__ */ Object.freeze({
  object_type: 'error',
  error_type: 'flow_error',
  error_code: 'REMOTE_VALIDATION_FAILED',
  error_message: 'validation failed',
  task_state: 'failed',
  llm_response_id: 'resp-1',
});

interface RPC {
  id: string | number | null;
  method: string;
  params?: { message?: { parts?: Array<{ kind?: string; text?: string }>; contextId?: string } };
}

/**
 * msw handlers of a remote A2A 0.3 agent that fails on purpose, chosen by the user's text (see {@link A2A_FAULTS}):
 * the agent card at `<baseURL>/.well-known/agent-card.json`, JSON-RPC at `<baseURL>/` for `message/send`,
 * `message/stream` (SSE: the Task, then one final status-update or an artifact and `completed` — or, for
 * `keep-alive-only`, nothing but comments after the Task) and `tasks/get` (always -32001). The payloads follow
 * tRPC-Agent-Go's structured task errors.
 *
 * `options` is `{ baseURL }`, an absolute http(s) URL, and nothing else: anything else is a `ConfigError` naming
 * each problem (a misspelt name with the one meant), thrown before a handler is built.
 *
 * @example
 * ```ts
 * const server = setupServer(...a2aFaultHandlers({ baseURL: 'https://remote.test' }));
 * const result = await createA2AClient({ agentCardUrl: 'https://remote.test' }).sendMessage('fail');
 * ```
 */
export function a2aFaultHandlers(options: { baseURL: string }): HttpHandler[] {
  checkInput('a2aFaultHandlers options', baseURLProblems(options));
  const base = options.baseURL.replace(/\/+$/, '');
  let sequence = 0;
  const card = {
    protocolVersion: '0.3.0',
    name: 'fault-agent',
    description: 'An A2A agent that fails on purpose.',
    url: `${base}/`,
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  return [
    http.get(`${base}/.well-known/agent-card.json`, () => HttpResponse.json(card)),
    http.post(`${base}/`, async ({ request }) => {
      let rpc: RPC;
      try {
        rpc = (await request.json()) as RPC;
      } catch {
        return HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      if (typeof rpc !== 'object' || rpc === null || typeof rpc.method !== 'string') return HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      const text = (rpc.params?.message?.parts ?? []).map((part) => part.text ?? '').join('');
      const taskId = `task-fault-${++sequence}`;
      const contextId = rpc.params?.message?.contextId ?? `ctx-fault-${sequence}`;
      const envelope = (body: { result: unknown } | { error: { code: number; message: string } }) => ({ jsonrpc: '2.0', id: rpc.id, ...body });
      const reply = (result: unknown) => HttpResponse.json(envelope({ result }));
      const error = (code: number, message: string) => HttpResponse.json(envelope({ error: { code, message } }));
      if (rpc.method === 'tasks/get' || rpc.method === 'tasks/cancel') return error(-32001, 'Task not found');
      if (rpc.method !== 'message/send' && rpc.method !== 'message/stream') return error(-32601, 'Method not found');
      if (text === 'rpc-error') return error(-32001, 'Task not found');
      const status = finalStatus(text, taskId, contextId);
      if (rpc.method === 'message/send') {
        return reply({ kind: 'task', id: taskId, contextId, status: status.status, ...(status.metadata ? { metadata: status.metadata } : {}), ...(status.artifact ? { artifacts: [status.artifact] } : {}) });
      }
      const frames: unknown[] = [envelope({ result: { kind: 'task', id: taskId, contextId, status: { state: 'submitted' } } })];
      if (text === 'keep-alive-only') return keepAliveAfter(sseText(frames), request.signal);
      if (text === 'rpc-error-in-stream') frames.push(envelope({ error: { code: -32603, message: 'Internal error' } }));
      else {
        if (status.artifact) frames.push(envelope({ result: { kind: 'artifact-update', taskId, contextId, artifact: status.artifact, lastChunk: true } }));
        frames.push(envelope({ result: { kind: 'status-update', taskId, contextId, final: true, status: status.status, ...(status.metadata ? { metadata: status.metadata } : {}) } }));
      }
      return new HttpResponse(sseText(frames), { headers: { 'content-type': 'text/event-stream' } });
    }),
  ];
}


function finalStatus(text: string, taskId: string, contextId: string) {
  const message = (content: string, metadata?: Record<string, unknown>) => ({
    kind: 'message',
    role: 'agent',
    messageId: 'resp-1',
    taskId,
    contextId,
    parts: [{ kind: 'text', text: content }],
    ...(metadata ? { metadata: { ...metadata } } : {}),
  });
  switch (text) {
    case 'fail':
      return { status: { state: 'failed', message: message('validation failed', ERROR_METADATA) }, metadata: { ...ERROR_METADATA } };
    case 'reject':
      return { status: { state: 'rejected' } };
    case 'cancel':
      return { status: { state: 'canceled' } };
    default:
      return { status: { state: 'completed' }, artifact: { artifactId: 'artifact-1', name: 'response', parts: [{ kind: 'text', text: `ok: ${text}` }] } };
  }
}
