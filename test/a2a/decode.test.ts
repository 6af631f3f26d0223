// Decoding what arrives from the wire (seed-systems.md §7.2 for the A2A 0.3 JSON shapes, §7.6 for the 1.0
// differences, decisions.md point 13): valid 0.3 and 1.0 payloads decode to the 0.3 types; malformed ones throw a
// SerializeError whose issues name each bad path; arbitrary input never throws anything else and never pollutes
// Object.prototype (a fast-check property with a fixed seed).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeAgentCard, decodeMessageSendParams, decodeSendResult, decodeStreamEvent, decodeTask, type A2AProtocolVersion } from '../../src/a2a/index.js';
import { mutate, type Mutation } from '../helpers/json-mutations.js';
import { SerializeError } from '../../src/errors/index.js';

// ---------------------------------------------------------------------------------------------------------------
// Fixtures and checks

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

const STATE_LIST = 'submitted|working|input-required|completed|canceled|failed|rejected|auth-required|unknown';

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
const baseline = Object.fromEntries(Object.entries(PROTOTYPES).map(([name, prototype]) => [name, Reflect.ownKeys(prototype).map(String).sort()]));

/** Fails if a built-in prototype gained or lost a key, or if a plain object inherits anything unexpected. */
function expectPristinePrototypes(): void {
  expect(({} as JSONObject).polluted).toBeUndefined();
  expect(({} as JSONObject).kind).toBeUndefined();
  for (const [name, prototype] of Object.entries(PROTOTYPES)) expect(Reflect.ownKeys(prototype).map(String).sort(), `${name}.prototype keys`).toEqual(baseline[name]);
}

afterEach(() => expectPristinePrototypes());

/** The SerializeError `run` throws (fails the test if it throws anything else, or nothing). */
function serializeErrorOf(run: () => unknown): SerializeError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(SerializeError.isInstance(thrown), `expected a SerializeError, got ${String(thrown)}`).toBe(true);
  return thrown as SerializeError;
}

const issuePaths = (error: SerializeError) => error.issues.map((issue) => issue.path);

const v03Task = (): JSONObject => ({
  kind: 'task',
  id: 'task-1',
  contextId: 'ctx-1',
  status: {
    state: 'failed',
    timestamp: '2025-06-01T12:00:00Z',
    message: { kind: 'message', messageId: 'resp-1', role: 'agent', parts: [{ kind: 'text', text: 'task failed' }], metadata: { error_code: 'A2A_500' } },
  },
  history: [{ kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'order 42' }] }],
  artifacts: [{ artifactId: 'artifact-1', parts: [{ kind: 'data', data: { order: 42 } }] }],
  metadata: { object_type: 'error', error_code: 'A2A_500' },
});

const v03Message = (): JSONObject => ({
  kind: 'message',
  messageId: 'msg-1',
  role: 'agent',
  parts: [
    { kind: 'text', text: 'see attachments' },
    { kind: 'file', file: { bytes: 'aGk=', name: 'a.txt', mimeType: 'text/plain' } },
    { kind: 'file', file: { uri: 'https://files.example/b.png' } },
    { kind: 'data', data: { ok: true } },
  ],
  contextId: 'ctx-1',
});

const v03StatusUpdate = (): JSONObject => ({ kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state: 'working' }, final: false, metadata: { step: 1 } });

const v03ArtifactUpdate = (): JSONObject => ({
  kind: 'artifact-update',
  taskId: 'task-1',
  contextId: 'ctx-1',
  artifact: { artifactId: 'artifact-1', name: 'response', parts: [{ kind: 'text', text: 'partial' }] },
  append: true,
  lastChunk: false,
});

const v1Task = (): JSONObject => ({
  id: 'task-1',
  contextId: 'ctx-1',
  status: {
    state: 'TASK_STATE_FAILED',
    timestamp: '2025-06-01T12:00:00Z',
    message: { messageId: 'resp-1', role: 'ROLE_AGENT', parts: [{ text: 'task failed' }], metadata: { error_code: 'A2A_500' } },
  },
  history: [{ messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'order 42' }] }],
  artifacts: [
    {
      artifactId: 'artifact-1',
      parts: [{ data: { order: 42 } }, { raw: 'aGk=', filename: 'a.txt', mediaType: 'text/plain' }, { url: 'https://files.example/b.png', filename: '', mediaType: '' }],
    },
  ],
  metadata: { object_type: 'error', error_code: 'A2A_500' },
});

const v1Message = (): JSONObject => ({ messageId: 'msg-1', role: 'ROLE_AGENT', parts: [{ text: 'hello', metadata: { lang: 'en' } }], contextId: 'ctx-1' });

const v1StatusUpdate = (state: string): JSONObject => ({ statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state }, metadata: { step: 2 } } });

const v1ArtifactUpdate = (): JSONObject => ({
  artifactUpdate: { taskId: 'task-1', contextId: 'ctx-1', artifact: { artifactId: 'artifact-1', parts: [{ text: 'partial' }] }, append: true, lastChunk: true },
});

// ---------------------------------------------------------------------------------------------------------------
// Valid payloads

describe('decodeSendResult', () => {
  it('decodes a 0.3 Task and a 0.3 Message unchanged', () => {
    expect(decodeSendResult(v03Task(), '0.3')).toEqual(v03Task());
    expect(decodeSendResult(v03Message(), '0.3')).toEqual(v03Message());
  });

  it('keeps unknown fields of a peer (loose objects)', () => {
    const task = { ...v03Task(), tenant: 'acme', status: { ...v03Task().status, progress: 0.5 } };
    const decoded = decodeSendResult(task, '0.3') as JSONObject;
    expect(decoded.tenant).toBe('acme');
    expect(decoded.status.progress).toBe(0.5);
  });

  it('decodes a 1.0 {task} into the 0.3 shape: TASK_STATE_FAILED → failed, ROLE_* → roles, member-name parts → kinds', () => {
    expect(decodeSendResult({ task: v1Task() }, '1.0')).toEqual({
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: {
        state: 'failed',
        timestamp: '2025-06-01T12:00:00Z',
        message: { kind: 'message', messageId: 'resp-1', role: 'agent', parts: [{ kind: 'text', text: 'task failed' }], metadata: { error_code: 'A2A_500' } },
      },
      history: [{ kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'order 42' }] }],
      artifacts: [
        {
          artifactId: 'artifact-1',
          parts: [
            { kind: 'data', data: { order: 42 } },
            { kind: 'file', file: { bytes: 'aGk=', name: 'a.txt', mimeType: 'text/plain' } },
            { kind: 'file', file: { uri: 'https://files.example/b.png' } },
          ],
        },
      ],
      metadata: { object_type: 'error', error_code: 'A2A_500' },
    });
  });

  it('decodes a 1.0 {message}, keeping part metadata', () => {
    expect(decodeSendResult({ message: v1Message() }, '1.0')).toEqual({
      kind: 'message',
      messageId: 'msg-1',
      role: 'agent',
      parts: [{ kind: 'text', text: 'hello', metadata: { lang: 'en' } }],
      contextId: 'ctx-1',
    });
  });

  it('decodes a bare 1.0 task (it has a status) and a bare 1.0 message', () => {
    expect(decodeSendResult(v1Task(), '1.0')).toMatchObject({ kind: 'task', id: 'task-1', status: { state: 'failed' } });
    expect(decodeSendResult(v1Message(), '1.0')).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hello' }] });
  });

  it('accepts 0.3 JSON in 1.0 mode (objects that already have a kind pass through)', () => {
    expect(decodeSendResult(v03Task(), '1.0')).toEqual(v03Task());
  });

  it.each([
    ['TASK_STATE_SUBMITTED', 'submitted'],
    ['TASK_STATE_WORKING', 'working'],
    ['TASK_STATE_INPUT_REQUIRED', 'input-required'],
    ['TASK_STATE_AUTH_REQUIRED', 'auth-required'],
    ['TASK_STATE_COMPLETED', 'completed'],
    ['TASK_STATE_CANCELED', 'canceled'],
    ['TASK_STATE_CANCELLED', 'canceled'],
    ['TASK_STATE_FAILED', 'failed'],
    ['TASK_STATE_REJECTED', 'rejected'],
    ['TASK_STATE_UNSPECIFIED', 'unknown'],
  ])('maps the 1.0 state %s to %s', (v1State, state) => {
    expect((decodeSendResult({ task: { ...v1Task(), status: { state: v1State } } }, '1.0') as JSONObject).status.state).toBe(state);
  });
});

describe('decodeStreamEvent', () => {
  it('decodes every 0.3 item kind unchanged', () => {
    for (const event of [v03Task(), v03Message(), v03StatusUpdate(), v03ArtifactUpdate()]) expect(decodeStreamEvent(event, '0.3')).toEqual(event);
  });

  it('decodes a 1.0 {statusUpdate} in a terminal state with final: true', () => {
    expect(decodeStreamEvent(v1StatusUpdate('TASK_STATE_FAILED'), '1.0')).toEqual({
      kind: 'status-update',
      taskId: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'failed' },
      metadata: { step: 2 },
      final: true,
    });
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_COMPLETED'), '1.0') as JSONObject).final).toBe(true);
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_CANCELED'), '1.0') as JSONObject).final).toBe(true);
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_REJECTED'), '1.0') as JSONObject).final).toBe(true);
  });

  it('decodes a 1.0 {statusUpdate} in an interrupted state with final: true (a 1.0 stream closes there, §7.5)', () => {
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_INPUT_REQUIRED'), '1.0') as JSONObject).final).toBe(true);
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_AUTH_REQUIRED'), '1.0') as JSONObject).final).toBe(true);
  });

  it('decodes a 1.0 {statusUpdate} in a running state with final: false', () => {
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_WORKING'), '1.0') as JSONObject).final).toBe(false);
    expect((decodeStreamEvent(v1StatusUpdate('TASK_STATE_SUBMITTED'), '1.0') as JSONObject).final).toBe(false);
  });

  it('decodes a 1.0 status message with ROLE_AGENT and {text} parts', () => {
    const event = { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_FAILED', message: { messageId: 'resp-1', role: 'ROLE_AGENT', parts: [{ text: 'boom' }] } } } };
    expect((decodeStreamEvent(event, '1.0') as JSONObject).status.message).toEqual({ kind: 'message', messageId: 'resp-1', role: 'agent', parts: [{ kind: 'text', text: 'boom' }] });
  });

  it('decodes a 1.0 {artifactUpdate} with plain-bool append and lastChunk', () => {
    expect(decodeStreamEvent(v1ArtifactUpdate(), '1.0')).toEqual({
      kind: 'artifact-update',
      taskId: 'task-1',
      contextId: 'ctx-1',
      artifact: { artifactId: 'artifact-1', parts: [{ kind: 'text', text: 'partial' }] },
      append: true,
      lastChunk: true,
    });
  });

  it('decodes 1.0 {task} and {message} wrappers', () => {
    expect(decodeStreamEvent({ task: v1Task() }, '1.0')).toMatchObject({ kind: 'task', id: 'task-1', status: { state: 'failed' } });
    expect(decodeStreamEvent({ message: v1Message() }, '1.0')).toMatchObject({ kind: 'message', messageId: 'msg-1', role: 'agent' });
  });
});

describe('decodeTask', () => {
  it('decodes a 0.3 task and a bare 1.0 task', () => {
    expect(decodeTask(v03Task(), '0.3')).toEqual(v03Task());
    expect(decodeTask(v1Task(), '1.0')).toMatchObject({ kind: 'task', id: 'task-1', status: { state: 'failed' }, history: [{ role: 'user' }] });
  });

  it('refuses a message where a task is expected, naming result.kind', () => {
    const error = serializeErrorOf(() => decodeTask(v03Message(), '0.3'));
    expect(error.issues.map((issue) => [issue.path, issue.code])).toContainEqual(['result.kind', 'invalid_value']);
    expect(error.subject).toBe('A2A task');
  });
});

describe('decodeMessageSendParams', () => {
  it('decodes 0.3 params with configuration and metadata', () => {
    const params = { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, configuration: { blocking: false, historyLength: 2, acceptedOutputModes: ['text/plain'] }, metadata: { trace: 't-1' } };
    expect(decodeMessageSendParams(params, '0.3')).toEqual(params);
  });

  it('decodes 1.0 params: ROLE_USER and {text} parts', () => {
    expect(decodeMessageSendParams({ message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { blocking: true } }, '1.0')).toEqual({
      message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
      configuration: { blocking: true },
    });
  });

  it('names params.message.messageId when a 1.0 message has no id, and params.message when there is no message', () => {
    expect(issuePaths(serializeErrorOf(() => decodeMessageSendParams({ message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] } }, '1.0')))).toEqual(['params.message.messageId']);
    expect(issuePaths(serializeErrorOf(() => decodeMessageSendParams({}, '0.3')))).toEqual(['params.message']);
    expect(issuePaths(serializeErrorOf(() => decodeMessageSendParams(undefined, '1.0')))).toEqual(['params']);
  });

  it('names params.configuration.blocking when it is not a boolean', () => {
    const error = serializeErrorOf(() =>
      decodeMessageSendParams({ message: { kind: 'message', messageId: 'm', role: 'user', parts: [] }, configuration: { blocking: 'no' } }, '0.3'),
    );
    expect(error.issues).toEqual([{ code: 'invalid_type', path: 'params.configuration.blocking', message: 'expected boolean' }]);
  });
});

describe('decodeAgentCard', () => {
  it('decodes a 0.3 card and a 1.0 card with supportedInterfaces', () => {
    const v03 = { name: 'inventory', description: 'Stock', url: 'https://agent.example/a2a', protocolVersion: '0.3.0', preferredTransport: 'JSONRPC', version: '1.0.0', capabilities: { streaming: true }, skills: [] };
    expect(decodeAgentCard(v03)).toEqual(v03);
    const v1 = { name: 'inventory', description: 'Stock', version: '2.0.0', supportedInterfaces: [{ url: 'https://agent.example/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {} };
    expect(decodeAgentCard(v1).supportedInterfaces).toEqual([{ url: 'https://agent.example/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
  });

  it('names agent card.name when it is missing and the interface fields that are wrong', () => {
    const error = serializeErrorOf(() => decodeAgentCard({ supportedInterfaces: [{ url: 42 }] }));
    expect(error.subject).toBe('agent card');
    expect(error.issues).toEqual([
      { code: 'invalid_type', path: 'agent card.name', message: 'expected string' },
      { code: 'invalid_type', path: 'agent card.supportedInterfaces[0].url', message: 'expected string' },
      { code: 'invalid_type', path: 'agent card.supportedInterfaces[0].protocolBinding', message: 'expected string' },
    ]);
  });

  it('uses the where argument as the root of every path', () => {
    expect(issuePaths(serializeErrorOf(() => decodeAgentCard({ name: 7 }, 'https://agent.example/.well-known/agent-card.json')))).toEqual([
      'https://agent.example/.well-known/agent-card.json.name',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Malformed payloads

describe('malformed payloads', () => {
  it('names result.status.state for an unknown state, listing the valid ones', () => {
    const error = serializeErrorOf(() => decodeSendResult({ ...v03Task(), status: { state: 'exploded' } }, '0.3'));
    expect(error.name).toBe('SerializeError');
    expect(error.kind).toBe('serialize');
    expect(error.subject).toBe('A2A send result');
    expect(error.issues).toEqual([{ code: 'invalid_value', path: 'result.status.state', message: `expected one of ${STATE_LIST}` }]);
    expect(error.message).toBe(`Invalid A2A send result: result.status.state: expected one of ${STATE_LIST}`);
  });

  it('names result.parts[0].text for a text part without text', () => {
    const error = serializeErrorOf(() => decodeSendResult({ ...v03Message(), parts: [{ kind: 'text' }] }, '0.3'));
    expect(error.issues).toEqual([{ code: 'invalid_type', path: 'result.parts[0].text', message: 'expected string' }]);
  });

  it('names every bad path of one payload', () => {
    const task = { ...v03Task(), id: 7, status: { state: 'bogus' }, history: [{ kind: 'message', messageId: 'm', role: 'robot', parts: [{ kind: 'data', data: 'not an object' }] }] };
    expect(issuePaths(serializeErrorOf(() => decodeSendResult(task, '0.3'))).sort()).toEqual(
      ['result.id', 'result.status.state', 'result.history[0].role', 'result.history[0].parts[0].data'].sort(),
    );
  });

  it('names result.kind for an unknown kind, listing the kinds', () => {
    expect(serializeErrorOf(() => decodeStreamEvent({ kind: 'heartbeat' }, '0.3')).issues).toEqual([
      { code: 'invalid_union', path: 'result.kind', message: 'expected one of task|message|status-update|artifact-update' },
    ]);
    expect(serializeErrorOf(() => decodeSendResult({ kind: 'status-update' }, '0.3')).issues).toEqual([
      { code: 'invalid_union', path: 'result.kind', message: 'expected one of task|message' },
    ]);
  });

  it('names result.parts[0].kind for an unknown part kind', () => {
    expect(serializeErrorOf(() => decodeSendResult({ ...v03Message(), parts: [{ kind: 'video', url: 'x' }] }, '0.3')).issues).toEqual([
      { code: 'invalid_union', path: 'result.parts[0].kind', message: 'expected one of text|file|data' },
    ]);
  });

  it('names the file of a file part with neither bytes nor uri', () => {
    expect(issuePaths(serializeErrorOf(() => decodeSendResult({ ...v03Message(), parts: [{ kind: 'file', file: { name: 'x' } }] }, '0.3')))).toEqual(['result.parts[0].file']);
  });

  it('names result.final for a 0.3 status-update without final', () => {
    const { final: _final, ...update } = v03StatusUpdate();
    expect(serializeErrorOf(() => decodeStreamEvent(update, '0.3')).issues).toEqual([{ code: 'invalid_type', path: 'result.final', message: 'expected boolean' }]);
  });

  it.each([
    ['null', null],
    ['a number', 42],
    ['a string', 'task'],
    ['an array', [v03Task()]],
    ['undefined', undefined],
  ])('refuses %s with an issue at result', (_name, value) => {
    for (const version of ['0.3', '1.0'] as const) {
      expect(serializeErrorOf(() => decodeSendResult(value, version)).issues).toEqual([{ code: 'invalid_type', path: 'result', message: 'expected object' }]);
    }
  });

  it('uses the where argument as the root of every path', () => {
    expect(issuePaths(serializeErrorOf(() => decodeStreamEvent({ ...v03StatusUpdate(), status: { state: 'x' } }, '0.3', 'stream[3]')))).toEqual(['stream[3].status.state']);
  });

  it('names the state of a 1.0 task with an unknown TASK_STATE_ value', () => {
    const error = serializeErrorOf(() => decodeSendResult({ task: { ...v1Task(), status: { state: 'TASK_STATE_EXPLODED' } } }, '1.0'));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.code).toBe('invalid_value');
    expect(error.issues[0]?.path.endsWith('status.state')).toBe(true);
  });

  it('names the role of a 1.0 message with ROLE_UNSPECIFIED and the parts that have no known member', () => {
    const error = serializeErrorOf(() => decodeSendResult({ message: { ...v1Message(), role: 'ROLE_UNSPECIFIED', parts: [{ text: 'ok' }, { video: 'x' }] } }, '1.0'));
    expect(issuePaths(error).sort()).toEqual(['result.message.parts[1].kind', 'result.message.role']);
  });

  // 1.0 payloads are normalised to 0.3 before validation; the wrapper key is kept in the path so it points into the
  // JSON that was received.
  it('names the 1.0 wire path of the bad value inside a {task} wrapper', () => {
    const error = serializeErrorOf(() => decodeSendResult({ task: { ...v1Task(), status: { state: 'TASK_STATE_EXPLODED' } } }, '1.0'));
    expect(issuePaths(error)).toEqual(['result.task.status.state']);
  });

  it('caps the issues at 20 and the message length, whatever the payload size', () => {
    const parts = Array.from({ length: 200 }, () => ({ kind: 'text', text: 5 }));
    const error = serializeErrorOf(() => decodeSendResult({ ...v03Message(), parts }, '0.3'));
    expect(error.issues).toHaveLength(20);
    expect(error.issues[19]?.path).toBe('result.parts[19].text');
    expect(error.message.length).toBeLessThanOrEqual('Invalid A2A send result: '.length + 1000);
  });

  it('drops __proto__ keys of a payload: the decoded objects keep Object.prototype and inherit nothing', () => {
    const payload = JSON.parse(
      '{"kind":"task","id":"t","contextId":"c","status":{"state":"completed","__proto__":{"message":{"kind":"message"}}},"__proto__":{"metadata":{"polluted":true}}}',
    ) as unknown;
    const task = decodeSendResult(payload, '0.3') as JSONObject;
    expect(Object.getPrototypeOf(task)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(task.status)).toBe(Object.prototype);
    expect(task.metadata).toBeUndefined();
    expect(task.status.message).toBeUndefined();
    const v1 = decodeStreamEvent(JSON.parse('{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"__proto__":{"metadata":{"x":1}}}}'), '1.0') as JSONObject;
    expect(Object.getPrototypeOf(v1)).toBe(Object.prototype);
    expect(v1.metadata).toBeUndefined();
  });

  it('does not take a kind from a __proto__ key', () => {
    const payload = JSON.parse('{"__proto__":{"kind":"task"},"id":"t","contextId":"c","status":{"state":"completed"}}') as unknown;
    expect(issuePaths(serializeErrorOf(() => decodeStreamEvent(payload, '0.3')))).toEqual(['result.kind']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Property: decode or SerializeError, nothing else

const STREAM_KINDS = new Set(['task', 'message', 'status-update', 'artifact-update']);

type Decoder = { name: string; run: (value: unknown, version: A2AProtocolVersion) => unknown; check: (decoded: JSONObject) => void };

const DECODERS: Decoder[] = [
  {
    name: 'decodeSendResult',
    run: (value, version) => decodeSendResult(value, version),
    check: (decoded) => {
      expect(['task', 'message']).toContain(decoded.kind);
      expect(decodeSendResult(decoded, '0.3')).toEqual(decoded);
    },
  },
  {
    name: 'decodeStreamEvent',
    run: (value, version) => decodeStreamEvent(value, version),
    check: (decoded) => {
      expect(STREAM_KINDS.has(decoded.kind)).toBe(true);
      expect(decodeStreamEvent(decoded, '0.3')).toEqual(decoded);
    },
  },
  {
    name: 'decodeTask',
    run: (value, version) => decodeTask(value, version),
    check: (decoded) => {
      expect(decoded.kind).toBe('task');
      expect(typeof decoded.status.state).toBe('string');
    },
  },
  {
    name: 'decodeMessageSendParams',
    run: (value, version) => decodeMessageSendParams(value, version),
    check: (decoded) => {
      expect(decoded.message.kind).toBe('message');
      expect(['user', 'agent']).toContain(decoded.message.role);
    },
  },
  {
    name: 'decodeAgentCard',
    run: (value) => decodeAgentCard(value),
    check: (decoded) => expect(typeof decoded.name).toBe('string'),
  },
];

/** Valid payloads, per version, that mutations start from, with the decoder that accepts each. */
const SEEDS: Array<{ version: A2AProtocolVersion; value: JSONObject; decode: (value: unknown, version: A2AProtocolVersion) => unknown }> = [
  { version: '0.3', value: v03Task(), decode: decodeSendResult },
  { version: '0.3', value: v03Message(), decode: decodeSendResult },
  { version: '0.3', value: v03StatusUpdate(), decode: decodeStreamEvent },
  { version: '0.3', value: v03ArtifactUpdate(), decode: decodeStreamEvent },
  { version: '0.3', value: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] }, configuration: { blocking: true } }, decode: decodeMessageSendParams },
  { version: '0.3', value: { name: 'inventory', url: 'https://agent.example', capabilities: { streaming: true } }, decode: (value) => decodeAgentCard(value) },
  { version: '1.0', value: { task: v1Task() }, decode: decodeStreamEvent },
  { version: '1.0', value: v1Task(), decode: decodeTask },
  { version: '1.0', value: { message: v1Message() }, decode: decodeSendResult },
  { version: '1.0', value: v1StatusUpdate('TASK_STATE_FAILED'), decode: decodeStreamEvent },
  { version: '1.0', value: v1ArtifactUpdate(), decode: decodeStreamEvent },
  { version: '1.0', value: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } }, decode: decodeMessageSendParams },
];

const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
const KNOWN_KEYS = ['kind', 'state', 'status', 'parts', 'text', 'role', 'final', 'task', 'message', 'statusUpdate', 'artifactUpdate', 'data', 'raw', 'url', 'metadata'];

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ action: fc.constant('delete' as const), path: fc.array(fc.nat(), { maxLength: 6 }) }),
  fc.record({ action: fc.constant('set' as const), path: fc.array(fc.nat(), { maxLength: 6 }), value: jsonValue }),
  fc.record({ action: fc.constant('add' as const), path: fc.array(fc.nat(), { maxLength: 6 }), key: fc.constantFrom(...DANGEROUS_KEYS, ...KNOWN_KEYS), value: jsonValue }),
);


/** Runs every decoder in both versions: each returns a valid value or throws a SerializeError, never anything else. */
function expectDecodeOrSerializeError(value: unknown): void {
  for (const decoder of DECODERS) {
    for (const version of ['0.3', '1.0'] as const) {
      let decoded: unknown;
      try {
        decoded = decoder.run(value, version);
      } catch (error) {
        if (!SerializeError.isInstance(error)) throw new Error(`${decoder.name}(${version}) threw ${String(error)} for ${JSON.stringify(value)}`);
        expect(error.issues.length).toBeGreaterThan(0);
        for (const issue of error.issues) expect(typeof issue.path).toBe('string');
        continue;
      }
      decoder.check(decoded as JSONObject);
    }
  }
  expectPristinePrototypes();
}

describe('decoding arbitrary input (property)', () => {
  it('decodes arbitrary JSON to a valid value or throws a SerializeError, never anything else', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), (text) => {
        expectDecodeOrSerializeError(JSON.parse(text));
      }),
      { seed: 20250601, numRuns: 200 },
    );
  });

  it('decodes mutated valid 0.3 and 1.0 payloads to a valid value or throws a SerializeError, and never pollutes Object.prototype', () => {
    let decodedSome = 0;
    let refusedSome = 0;
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 }), (seed, mutations) => {
        const value = mutate(seed.value, mutations);
        expectDecodeOrSerializeError(value);
        try {
          seed.decode(value, seed.version);
          decodedSome++;
        } catch {
          refusedSome++;
        }
      }),
      { seed: 4242, numRuns: 200 },
    );
    // Both outcomes happen: the mutations neither always break the payload nor never do.
    expect(decodedSome).toBeGreaterThan(0);
    expect(refusedSome).toBeGreaterThan(0);
  });

  it('decodes every unmutated seed payload with its decoder', () => {
    for (const seed of SEEDS) expect(() => seed.decode(seed.value, seed.version), JSON.stringify(seed.value)).not.toThrow();
  });
});
