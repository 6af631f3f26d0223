import { describe, expect, it, vi } from 'vitest';
import {
  AgentError,
  AgentNotFoundError,
  ChatClientError,
  ConfigError,
  InterruptExpiredError,
  InterruptNotFoundError,
  ResumeIncompleteError,
  ResumePayloadError,
  SerializeError,
  SessionError,
  StreamError,
  ToolError,
  WorkflowError,
} from '../../src/errors/index.js';

const classes = [
  { Class: ChatClientError, make: () => new ChatClientError('Chat API returned 401 Unauthorized: bad key', { status: 401 }), kind: 'chat_client' },
  { Class: ToolError, make: () => new ToolError('Tool execution error: bad', { toolName: 'echo', callId: 'c1' }), kind: 'tool' },
  { Class: WorkflowError, make: () => new WorkflowError('step limit reached', { stepNumber: 25 }), kind: 'workflow' },
  { Class: ConfigError, make: () => new ConfigError('chat client is required'), kind: 'config' },
  { Class: AgentNotFoundError, make: () => new AgentNotFoundError('missing', ['a']), kind: 'agent_not_found' },
  { Class: StreamError, make: () => new StreamError('SSE parse error', { reason: 'malformed_chunk' }), kind: 'stream' },
  { Class: SerializeError, make: () => new SerializeError('cannot serialize'), kind: 'serialize' },
  { Class: SessionError, make: () => new SessionError('store offline', { sessionId: 's1' }), kind: 'session' },
  { Class: InterruptNotFoundError, make: () => new InterruptNotFoundError('not waiting on int_9', { runId: 'r1', ids: ['int_9'], pendingIds: ['int_1'] }), kind: 'resume' },
  { Class: InterruptExpiredError, make: () => new InterruptExpiredError('too late', { runId: 'r1', ids: ['int_1'], expiredAt: '2026-01-01T00:00:00.000Z' }), kind: 'resume' },
  { Class: ResumeIncompleteError, make: () => new ResumeIncompleteError('undecided', { runId: 'r1', undecidedIds: ['int_2'] }), kind: 'resume' },
  { Class: ResumePayloadError, make: () => new ResumePayloadError('bad value', { runId: 'r1', id: 'int_1', issues: ['value: expected string'] }), kind: 'resume' },
] as const;

describe('the framework error taxonomy', () => {
  for (const { Class, make, kind } of classes) {
    it(`${Class.name} has its class name, kind "${kind}", and is an AgentError and an Error`, () => {
      const error = make();
      expect(error.name).toBe(Class.name);
      expect(error.kind).toBe(kind);
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(AgentError);
      expect(Class.isInstance(error)).toBe(true);
      expect(AgentError.isInstance(error)).toBe(true);
      expect(String(error)).toBe(`${Class.name}: ${error.message}`);
    });

    it(`${Class.name}.isInstance rejects the other classes and non-errors`, () => {
      for (const other of classes) {
        if (other.Class === Class) continue;
        expect(Class.isInstance(other.make())).toBe(false);
      }
      for (const value of [null, undefined, 'ChatClientError', 42, {}, new Error('plain'), { kind }]) {
        expect(Class.isInstance(value)).toBe(false);
      }
    });

    it(`${Class.name}.toJSON() is plain JSON with name, kind and message and never a stack`, () => {
      const json = make().toJSON();
      expect(json).toMatchObject({ name: Class.name, kind, message: make().message });
      const text = JSON.stringify(json);
      expect(JSON.parse(text)).toEqual(json);
      expect(text).not.toContain('stack');
      expect(text).not.toMatch(/\n\s+at /);
    });
  }

  it('keeps the ES2022 cause and describes it in toJSON()', () => {
    const cause = new TypeError('socket hang up');
    const error = new ChatClientError('HTTP request failed', { cause });
    expect(error.cause).toBe(cause);
    expect(error.toJSON().cause).toEqual({ name: 'TypeError', message: 'socket hang up' });
  });

  it('describes a nested AgentError cause by its own toJSON()', () => {
    const inner = new StreamError('dropped', { reason: 'read_failed' });
    const outer = new ToolError('tool failed', { cause: inner });
    expect(outer.toJSON().cause).toMatchObject({ name: 'StreamError', kind: 'stream', reason: 'read_failed' });
  });

  it('survives a cause chain that loops back on itself', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.defineProperty(first, 'cause', { value: second });
    const error = new WorkflowError('loop', { cause: first });
    expect(() => JSON.stringify(error)).not.toThrow();
    expect(JSON.stringify(error)).toContain('cause chain truncated');
  });

  it('carries an optional machine code', () => {
    expect(new WorkflowError('x', { code: 'WRITE_FATAL' }).code).toBe('WRITE_FATAL');
    expect(new WorkflowError('x').toJSON()).not.toHaveProperty('code');
  });
});

describe('AgentError.from', () => {
  it('wraps an unknown error as kind "other" with the original as cause (the seed Other(anyhow))', () => {
    const original = new RangeError('index out of range');
    const error = AgentError.from(original);
    expect(error.kind).toBe('other');
    expect(error.name).toBe('AgentError');
    expect(error.message).toBe('index out of range');
    expect(error.cause).toBe(original);
  });

  it('returns a framework error unchanged', () => {
    const error = new ConfigError('bad');
    expect(AgentError.from(error)).toBe(error);
  });

  it.each([
    ['a string', 'plain failure', 'plain failure'],
    ['a number', 42, '42'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['an object', { status: 'bad' }, '{"status":"bad"}'],
    ['an object with a message', { message: 'from object' }, 'from object'],
  ])('wraps %s with a readable message', (_label, value, message) => {
    const error = AgentError.from(value);
    expect(error.kind).toBe('other');
    expect(error.message).toBe(message);
    expect(error.cause).toBe(value);
  });

  it('never throws on hostile values', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('getter trap');
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(AgentError.from(hostile).kind).toBe('other');
    expect(AgentError.from(revocable.proxy).kind).toBe('other');
    expect(AgentError.from(Object.create(null)).kind).toBe('other');
    expect(AgentError.from(Symbol('s')).message).toBe('Symbol(s)');
  });
});

describe('ChatClientError', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
    [501, false],
  ])('classifies status %i as retryable=%s', (status, retryable) => {
    const error = new ChatClientError(`Chat API returned ${status}`, { status });
    expect(error.reason).toBe('http');
    expect(error.retryable).toBe(retryable);
  });

  it('treats a network failure and a timeout as retryable', () => {
    expect(new ChatClientError('HTTP request failed').retryable).toBe(true);
    expect(new ChatClientError('HTTP request failed').reason).toBe('network');
    expect(new ChatClientError('no first chunk', { reason: 'timeout', timeout: 'first_chunk' }).retryable).toBe(true);
  });

  it('lets the caller override retryable', () => {
    expect(new ChatClientError('x', { status: 500, retryable: false }).retryable).toBe(false);
  });

  it('carries status, Retry-After, request id and the provider message into toJSON()', () => {
    const error = new ChatClientError('Chat API returned 429 Too Many Requests: slow down', {
      status: 429,
      retryAfterMs: 2000,
      requestId: 'req_123',
      providerMessage: 'slow down',
      code: 'rate_limit_exceeded',
      model: 'gpt-4o-mini',
    });
    expect(error.toJSON()).toEqual({
      name: 'ChatClientError',
      kind: 'chat_client',
      message: 'Chat API returned 429 Too Many Requests: slow down',
      code: 'rate_limit_exceeded',
      reason: 'http',
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
      requestId: 'req_123',
      providerMessage: 'slow down',
      model: 'gpt-4o-mini',
    });
  });
});

describe('ConfigError', () => {
  it('lists every problem at once', () => {
    const error = ConfigError.fromProblems('agent "helper"', ['chat client is required: call .chatClient(client)', 'duplicate tool name "search"']);
    expect(error.problems).toEqual(['chat client is required: call .chatClient(client)', 'duplicate tool name "search"']);
    expect(error.message).toBe(
      'Invalid agent "helper": 2 problems: (1) chat client is required: call .chatClient(client); (2) duplicate tool name "search"',
    );
  });

  it('states a single problem plainly', () => {
    expect(ConfigError.fromProblems('agent "a"', ['chat client is required']).message).toBe('Invalid agent "a": chat client is required');
  });

  it('freezes its problem list', () => {
    const problems = ['one'];
    const error = new ConfigError('x', { problems });
    problems.push('two');
    expect(error.problems).toEqual(['one']);
    expect(Object.isFrozen(error.problems)).toBe(true);
  });
});

describe('AgentNotFoundError', () => {
  it('names the missing id and every registered id', () => {
    const error = new AgentNotFoundError('planer', ['planner', 'writer']);
    expect(error.message).toBe('Agent not found: "planer". Registered agents: "planner", "writer".');
    expect(error.agentId).toBe('planer');
    expect(error.availableIds).toEqual(['planner', 'writer']);
  });

  it('says when nothing is registered', () => {
    expect(new AgentNotFoundError('missing').message).toBe('Agent not found: "missing". No agents are registered.');
  });
});

describe('brands across copies of the package', () => {
  it('recognises errors created by a second, separately loaded copy of the module graph', async () => {
    vi.resetModules();
    const copy = (await import('../../src/errors/index.js?copy')) as unknown as typeof import('../../src/errors/index.js');
    expect(copy.ChatClientError).not.toBe(ChatClientError);
    const foreign = new copy.ChatClientError('from the other copy', { status: 503 });
    expect(foreign instanceof ChatClientError).toBe(false);
    expect(ChatClientError.isInstance(foreign)).toBe(true);
    expect(AgentError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(foreign)).toBe(false);
    expect(copy.ConfigError.isInstance(new ConfigError('local'))).toBe(true);
  });
});
