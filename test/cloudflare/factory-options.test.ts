// createA2AWorker and createA2ADurableObject check option names and userId's type when they are made, as
// createA2AHandler does: a mistyped `userID` left every caller the default identity 'a2a-user' (one user read
// another's conversation), a mistyped `retainTaskMS` left the default in force unnoticed, and a `userId` that was not a
// function failed only at request time with an untyped -32603.
import { describe, expect, it } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import type { A2ADurableObjectOptions, A2AWorkerOptions } from '../../src/cloudflare/options.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { testAgent } from './node-agent.js';

const CARD = { name: 'node-agent' };
const worker = (extra: Record<string, unknown>) => () => createA2AWorker({ namespace: 'A2A_TASKS', card: CARD, ...extra } as never);
const object = (extra: Record<string, unknown>) => () => createA2ADurableObject({ agent: testAgent, card: CARD, namespace: 'A2A_TASKS', ...extra } as never);

/** The problems of the ConfigError `build` throws (the test fails when it throws nothing, or something else). */
function problemsOf(build: () => unknown): readonly string[] {
  try {
    build();
  } catch (error) {
    expect(ConfigError.isInstance(error), String(error)).toBe(true);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError, and nothing was thrown');
}

describe('an option name the Cloudflare factories do not take', () => {
  it.each<[string, () => unknown, string]>([
    ['createA2AWorker({ userID }) (every caller was a2a-user)', worker({ userID: (request: Request) => request.headers.get('x-user') ?? 'anon' }), 'unknown option "userID" (did you mean userId?)'],
    ['createA2AWorker({ allowedOrigin })', worker({ allowedOrigin: ['https://app.example'] }), 'unknown option "allowedOrigin" (did you mean allowedOrigins?)'],
    ['createA2AWorker({ maxBodyByte })', worker({ maxBodyByte: 10 }), 'unknown option "maxBodyByte" (did you mean maxBodyBytes?)'],
    ['createA2AWorker({ agent }) (a Durable Object option: the Worker runs no agent)', worker({ agent: testAgent }), 'unknown option "agent"'],
    ['createA2ADurableObject({ retainTaskMS })', object({ retainTaskMS: 1 }), 'unknown option "retainTaskMS" (did you mean retainTaskMs?)'],
    ['createA2ADurableObject({ heartbeatMS })', object({ heartbeatMS: 1000 }), 'unknown option "heartbeatMS" (did you mean heartbeatMs?)'],
    ['createA2ADurableObject({ maxResume })', object({ maxResume: 0 }), 'unknown option "maxResume" (did you mean maxResumes?)'],
    ['createA2ADurableObject({ userId }) (a Worker option)', object({ userId: () => 'u' }), 'unknown option "userId"'],
  ])('%s is a ConfigError naming it', (_name, build, problem) => {
    expect(problemsOf(build)).toContain(problem);
  });

  it('a key that looks like a secret is named by its length only', () => {
    expect(problemsOf(worker({ sk_live_0123456789abcdef0123: 1 }))).toContain('unknown option of 28 characters');
  });

  it('every problem is listed at once', () => {
    expect(problemsOf(worker({ userID: () => 'u', maxDepth: 0 }))).toEqual(['unknown option "userID" (did you mean userId?)', 'maxDepth must be an integer > 0 (got 0)']);
  });
});

describe('a userId that is not a function', () => {
  it.each([
    ["'alice' (a string: every request failed with -32603)", 'alice'],
    ['5', 5],
    ['null', null],
  ])('createA2AWorker({ userId: %s }) is a ConfigError when it is made', (_name, userId) => {
    expect(problemsOf(worker({ userId }))).toContain('userId must be a function (request) => string');
  });

  it('createA2AWorker({ basePath: 5 }) is a ConfigError, as createA2AHandler says it', () => {
    expect(problemsOf(worker({ basePath: 5 }))).toContain('basePath must be a string (got 5)');
  });
});

describe('every option the factories take', () => {
  it('createA2AWorker takes each documented option with a valid value', () => {
    const options = {
      namespace: 'A2A_TASKS',
      card: CARD,
      basePath: '/a2a',
      protocolVersions: ['0.3', '1.0'],
      maxBodyBytes: 65_536,
      bodyTimeoutMs: 5_000,
      maxDepth: 50,
      userId: (request: Request) => request.headers.get('x-user') ?? 'anon',
      allowedHosts: ['agent.example.com'],
      allowedOrigins: ['https://app.example'],
    } satisfies Required<A2AWorkerOptions>; // an option added to the type and not here fails to compile
    expect(() => createA2AWorker(options)).not.toThrow();
    expect(() => createA2AWorker({ ...options, namespace: () => ({}) as never, allowedHosts: '*', allowedOrigins: '*', bodyTimeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it('createA2ADurableObject takes each documented option with a valid value', () => {
    const options = {
      agent: testAgent,
      card: CARD,
      namespace: 'A2A_TASKS',
      structuredTaskErrors: false,
      keepAliveMs: 10_000,
      maxQueuedEvents: 500,
      secrets: ['sk-live-planted'],
      heartbeatMs: 10_000,
      retainTaskMs: 60_000,
      maxSessionBytes: 1_048_576,
      retainSessionMs: 120_000,
      resume: false,
      maxResumes: 0,
    } satisfies Required<A2ADurableObjectOptions>; // an option added to the type and not here fails to compile
    expect(() => createA2ADurableObject(options)).not.toThrow();
    expect(() => createA2ADurableObject({ ...options, agent: () => testAgent, namespace: () => ({}) as never, secrets: () => ['sk-live-planted'], keepAliveMs: false })).not.toThrow();
  });

  it('options left undefined are taken as not given', () => {
    expect(() => createA2AWorker({ namespace: 'A2A_TASKS', card: CARD, userId: undefined, basePath: undefined })).not.toThrow();
    expect(() => createA2ADurableObject({ agent: testAgent, card: CARD, namespace: 'A2A_TASKS', retainTaskMs: undefined })).not.toThrow();
  });
});
