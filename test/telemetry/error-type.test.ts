// error.type is the SDK's error taxonomy: a framework error's kind, a tool failure's type, `cancelled` for aborts,
// an error's class name, and `_OTHER` as the convention's fallback.
import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.js';
import { ChatClientError } from '../../src/errors/chat-client-error.js';
import { CircuitOpenError } from '../../src/errors/circuit-open-error.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { ToolError } from '../../src/errors/tool-error.js';
import { WorkflowError } from '../../src/errors/workflow-error.js';
import { ERROR_TYPE_OTHER, errorTypeOf } from '../../src/telemetry/index.js';
import { NetworkError } from '../../src/tools/network-error.js';
import { RateLimitError } from '../../src/tools/rate-limit-error.js';
import { ToolFailure } from '../../src/tools/tool-failure.js';

describe('errorTypeOf', () => {
  it('gives a framework error’s kind', () => {
    expect(errorTypeOf(new ChatClientError('The provider answered 503.', { status: 503 }))).toBe('chat_client');
    expect(errorTypeOf(new CircuitOpenError('The circuit of api.example is open.'))).toBe('circuit_open');
    expect(errorTypeOf(new WorkflowError('Node plan failed.'))).toBe('workflow');
    expect(errorTypeOf(new ConfigError('bad'))).toBe('config');
    expect(errorTypeOf(new ToolError('tool crashed'))).toBe('tool');
    expect(errorTypeOf(AgentError.from(new TypeError('boom')))).toBe('other');
  });

  it('gives a tool failure’s model-facing type', () => {
    expect(errorTypeOf(new NetworkError())).toBe('NetworkError');
    expect(errorTypeOf(new RateLimitError())).toBe('RateLimitError');
    expect(errorTypeOf(new ToolFailure('QuotaExceeded', 'The quota is used up.'))).toBe('QuotaExceeded');
    expect(errorTypeOf({ type: 'DataNotFoundError', message: 'No profile for user 42.' })).toBe('DataNotFoundError');
    expect(errorTypeOf(new NetworkError().toErrorInfo())).toBe('NetworkError');
  });

  it('recognises a ToolFailure by the same brand as ToolFailure.isInstance (also from another copy of the package)', () => {
    const branded = { [Symbol.for('faultline.tool.ToolFailure')]: true, type: 'FromAnotherCopy', message: 'm', name: 'FromAnotherCopy' };
    expect(ToolFailure.isInstance(branded)).toBe(true);
    expect(errorTypeOf(branded)).toBe('FromAnotherCopy');
    expect(errorTypeOf(Object.assign(new Error('m'), { type: 'NotATool' }))).toBe('Error'); // a type alone is not a tool failure
  });

  it('gives `cancelled` for an abort', () => {
    expect(errorTypeOf(new DOMException('The operation was aborted.', 'AbortError'))).toBe('cancelled');
    const controller = new AbortController();
    controller.abort();
    expect(errorTypeOf(controller.signal.reason)).toBe('cancelled');
  });

  it('gives another error’s class name when it is a plain identifier', () => {
    expect(errorTypeOf(new Error('plain'))).toBe('Error');
    expect(errorTypeOf(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeOf(new DOMException('late', 'TimeoutError'))).toBe('TimeoutError');
    expect(errorTypeOf(Object.assign(new Error('x'), { name: 'Not an identifier!' }))).toBe(ERROR_TYPE_OTHER);
    expect(errorTypeOf(Object.assign(new Error('x'), { name: '' }))).toBe(ERROR_TYPE_OTHER);
    expect(errorTypeOf(Object.assign(new Error('x'), { name: 'x'.repeat(500) }))).toBe(ERROR_TYPE_OTHER);
  });

  it('gives _OTHER for a thrown string and other non-errors', () => {
    expect(ERROR_TYPE_OTHER).toBe('_OTHER');
    for (const value of ['boom', null, undefined, 42, Symbol('s'), () => 1, {}, []]) expect(errorTypeOf(value)).toBe('_OTHER');
  });

  it('never throws on hostile values, and falls back past an unusable kind or type', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty({}, 'name', {
      get() {
        throw new Error('getter');
      },
    });
    expect(errorTypeOf(proxy)).toBe('_OTHER');
    expect(errorTypeOf(getter)).toBe('_OTHER');
    const badKind = Object.assign(new AgentError('x'), {});
    Object.defineProperty(badKind, 'kind', { value: 'has spaces' });
    expect(errorTypeOf(badKind)).toBe('AgentError');
    expect(errorTypeOf({ type: 'bad type!', message: 'm' })).toBe('_OTHER');
  });
});
