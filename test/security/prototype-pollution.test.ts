// Hostile input for every public function of the root entry: prototype-pollution payloads (`__proto__`,
// `constructor.prototype`), values of the wrong type, values that throw when touched, cycles and huge strings.
// Each case asserts a specific typed outcome, and Object.prototype is checked after every call.
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentError,
  ConfigError,
  cloneResponseError,
  defineTool,
  formatPath,
  isRecoverable,
  isResponseError,
  isTool,
  markRecoverable,
  normalizeResponseError,
  runTool,
  runToolCall,
  recoverableError,
  serializeToolResult,
  toolErrorFromFetchError,
  toolErrorFromResponse,
  toResponseError,
  ToolFailure,
  ToolResult,
  type AnyTool,
  type ResponseError,
  type StandardSchemaV1,
  type ToolLogRecord,
} from '../../src/index.js';

// ---------------------------------------------------------------------------------------------------------------
// Payloads and checks

const POLLUTION_JSON = '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}';
const PROTOTYPE_JSON = '{"prototype": {"polluted": "yes"}, "nested": {"__proto__": {"polluted": "yes"}}}';
const ARRAY_JSON = '[{"__proto__": {"polluted": "yes"}}, {"constructor": {"prototype": {"polluted": "yes"}}}]';

type Data = Record<string, unknown>;

/** A fresh parse each time: JSON.parse makes `__proto__` an own data property, as a network payload would. */
const pollution = (): Data => JSON.parse(POLLUTION_JSON) as Data;

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype, Error: Error.prototype };
const baseline = Object.fromEntries(Object.entries(PROTOTYPES).map(([name, prototype]) => [name, Reflect.ownKeys(prototype).map(String).sort()]));

/** Fails if any built-in prototype gained, lost or changed a key, or if `({}).polluted` resolves. */
function expectPristinePrototypes(): void {
  expect(({} as Data).polluted).toBeUndefined();
  expect(([] as unknown as Data).polluted).toBeUndefined();
  for (const [name, prototype] of Object.entries(PROTOTYPES)) {
    expect(Reflect.ownKeys(prototype).map(String).sort(), `${name}.prototype keys`).toEqual(baseline[name]);
  }
  expect(Object.getPrototypeOf(Object.prototype)).toBeNull();
}

afterEach(() => {
  try {
    expectPristinePrototypes();
  } finally {
    // Never let a pollution leak into the next test, even when one got through.
    for (const prototype of Object.values(PROTOTYPES)) delete (prototype as Data).polluted;
  }
});

/** Own data keys, with the prototype confirmed to be the ordinary one. */
function expectOrdinaryObject(value: unknown): asserts value is Data {
  expect(value).toBeTypeOf('object');
  expect(value).not.toBeNull();
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect((value as Data).polluted).toBeUndefined();
}

function expectOwnData(value: Data, key: string, expected: unknown): void {
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  expect(descriptor, `own property ${key}`).toBeDefined();
  expect(descriptor && 'value' in descriptor, `${key} is a data property`).toBe(true);
  expect(descriptor?.value).toEqual(expected);
}

/** Settles `promise` or fails after `ms`: a hang is a failure, not a stuck test run. */
async function withinTime<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const quiet = { logger: () => {} };

/** A Standard Schema that accepts any value unchanged (or reports `check`'s issues), with a JSON Schema. */
function passThroughSchema(check?: (value: unknown) => StandardSchemaV1.Issue[] | undefined): StandardSchemaV1<Data> {
  return {
    '~standard': {
      version: 1,
      vendor: 'faultline-test',
      validate: (value) => {
        const issues = check?.(value);
        return issues && issues.length > 0 ? { issues } : { value: value as Data };
      },
      jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
    },
  };
}

/** A tool that records the arguments its `execute` receives. */
function recordingTool(name: string, parameters: StandardSchemaV1<Data>): { tool: AnyTool; received: Data[] } {
  const received: Data[] = [];
  const tool = defineTool({
    name,
    description: 'Echoes the keys it received.',
    parameters,
    execute: (args: Data) => {
      received.push(args);
      return { keys: Object.keys(args) };
    },
  });
  return { tool, received };
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile values of the wrong type

interface Hostile {
  label: string;
  make: () => unknown;
  /** The message `toResponseError` / `AgentError.from` / `ToolResult.error` should carry, when it is predictable. */
  message?: string;
}

function throwingGetters(): object {
  const value: Data = {};
  for (const key of ['message', 'name', 'cause', 'errors', 'type', 'code', 'param', 'errorType', 'errorCode', 'recoverable', 'context', 'suggestion', 'toJSON', 'stack', 'then', 'city']) {
    Object.defineProperty(value, key, { enumerable: true, get: () => { throw new Error(`getter ${key} throws`); } });
  }
  return value;
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function trappedProxy(): object {
  const fail = () => {
    throw new Error('trap throws');
  };
  return new Proxy({}, { get: fail, has: fail, ownKeys: fail, getPrototypeOf: fail, getOwnPropertyDescriptor: fail });
}

function cyclicCauseChain(): Error {
  const first = new Error('first');
  const second = new Error('second', { cause: first });
  (first as { cause?: unknown }).cause = second;
  return first;
}

function selfContainingAggregate(message: string): AggregateError {
  const aggregate = new AggregateError([], message);
  (aggregate.errors as unknown[]).push(aggregate);
  return aggregate;
}

const HOSTILE: readonly Hostile[] = [
  { label: 'a number', make: () => 42, message: '42' },
  { label: 'NaN', make: () => Number.NaN, message: 'NaN' },
  { label: 'an array', make: () => [1, 'two'], message: '[1,"two"]' },
  { label: 'a symbol', make: () => Symbol('hostile'), message: 'Symbol(hostile)' },
  { label: 'a function', make: () => function hostile() {} },
  { label: 'a BigInt', make: () => 2n ** 70n, message: (2n ** 70n).toString() },
  { label: 'a non-JSON string', make: () => '{"unterminated": ', message: '{"unterminated": ' },
  { label: 'a revoked Proxy', make: revokedProxy },
  { label: 'a Proxy whose every trap throws', make: trappedProxy },
  { label: 'an object whose getters throw', make: throwingGetters },
  { label: 'a cyclic cause chain', make: cyclicCauseChain, message: 'first' },
  { label: 'an AggregateError containing itself', make: () => selfContainingAggregate('') },
  { label: 'an AggregateError containing itself, with a message', make: () => selfContainingAggregate('outer'), message: 'outer' },
];

// ---------------------------------------------------------------------------------------------------------------

describe('prototype-pollution payloads', () => {
  describe('toResponseError', () => {
    it('turns a polluting payload into a flow_error whose message is its JSON text, and reads no code through __proto__', () => {
      const payload = pollution();
      const response = toResponseError(payload);
      expect(response).toEqual({ type: 'flow_error', message: JSON.stringify(payload) });
      expectPristinePrototypes();
    });

    it('keeps an embedded response error to its own fields, ignoring code and param smuggled under __proto__', () => {
      const payload = JSON.parse('{"type": "api_error", "message": "upstream failed", "__proto__": {"code": "INJECTED", "param": "x"}}') as unknown;
      expect(toResponseError(payload)).toEqual({ type: 'api_error', message: 'upstream failed' });
      expectPristinePrototypes();
    });

    it('does not call errorType or errorCode conventions that only exist under a __proto__ key', () => {
      const payload = JSON.parse('{"message": "m", "__proto__": {"errorType": "evil_type", "errorCode": "EVIL", "code": "EVIL"}}') as unknown;
      expect(toResponseError(payload)).toEqual({ type: 'flow_error', message: 'm' });
      expectPristinePrototypes();
    });

    it('walks a cause that is a polluting payload without following it into the prototype', () => {
      const error = new Error('outer failure', { cause: pollution() });
      expect(toResponseError(error)).toEqual({ type: 'flow_error', message: 'outer failure' });
      expectPristinePrototypes();
    });
  });

  describe('normalizeResponseError', () => {
    it('returns undefined for a polluting payload, which has no message', () => {
      expect(normalizeResponseError(pollution())).toBeUndefined();
      expectPristinePrototypes();
    });

    it('returns undefined when type and message exist only under __proto__', () => {
      expect(normalizeResponseError(JSON.parse('{"__proto__": {"type": "t", "message": "m"}}'))).toBeUndefined();
      expectPristinePrototypes();
    });

    it('keeps exactly type, message and a stringified code, dropping __proto__ and constructor keys', () => {
      const payload = JSON.parse('{"type": "t", "message": "m", "code": 7, "__proto__": {"param": "p"}, "constructor": {"prototype": {"polluted": "yes"}}}') as unknown;
      const normalized = normalizeResponseError(payload);
      expect(normalized).toEqual({ type: 't', message: 'm', code: '7' });
      expectOrdinaryObject(normalized);
      expect(Object.keys(normalized)).toEqual(['type', 'message', 'code']);
      expectPristinePrototypes();
    });
  });

  describe('isResponseError', () => {
    it('rejects a polluting payload', () => {
      expect(isResponseError(pollution())).toBe(false);
      expect(isResponseError(JSON.parse(PROTOTYPE_JSON))).toBe(false);
      expect(isResponseError(JSON.parse(ARRAY_JSON))).toBe(false);
    });

    it('rejects fields that exist only under __proto__', () => {
      expect(isResponseError(JSON.parse('{"__proto__": {"type": "t", "message": "m"}}'))).toBe(false);
    });

    it('rejects a code that is an object carrying __proto__', () => {
      expect(isResponseError(JSON.parse('{"type": "t", "message": "m", "code": {"__proto__": {"polluted": "yes"}}}'))).toBe(false);
      expectPristinePrototypes();
    });

    it('accepts a response error with an extra own __proto__ key, which is just data', () => {
      expect(isResponseError(JSON.parse('{"type": "t", "message": "m", "__proto__": {"polluted": "yes"}}'))).toBe(true);
      expectPristinePrototypes();
    });
  });

  describe('cloneResponseError', () => {
    it('copies only type, message, code and param into an ordinary object', () => {
      const payload = JSON.parse(
        '{"type": "t", "message": "m", "code": "C", "__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
      ) as ResponseError;
      const copy = cloneResponseError(payload);
      expect(copy).toEqual({ type: 't', message: 'm', code: 'C' });
      expectOrdinaryObject(copy);
      expect(Object.keys(copy)).toEqual(['type', 'message', 'code']);
      expect(Object.hasOwn(copy, '__proto__')).toBe(false);
      expectPristinePrototypes();
    });
  });

  describe('AgentError.from', () => {
    it('wraps a polluting payload as kind other, keeping it as the cause', () => {
      const payload = pollution();
      const error = AgentError.from(payload);
      expect(AgentError.isInstance(error)).toBe(true);
      expect(error.kind).toBe('other');
      expect(error.cause).toBe(payload);
      expect(error.message).toBe(JSON.stringify(payload));
      expectPristinePrototypes();
    });

    it('serializes the payload cause as own data, never as a prototype', () => {
      const json = AgentError.from(pollution()).toJSON();
      expectOrdinaryObject(json.cause);
      expectOwnData(json.cause, '__proto__', { polluted: 'yes' });
      expectOwnData(json.cause, 'constructor', { prototype: { polluted: 'yes' } });
      expect(JSON.parse(JSON.stringify(json))).toEqual({ name: 'AgentError', kind: 'other', message: JSON.stringify(pollution()), cause: pollution() });
      expectPristinePrototypes();
    });

    it('does not take a name, message or brand from a __proto__ key', () => {
      const payload = JSON.parse('{"__proto__": {"name": "ConfigError", "message": "spoofed", "kind": "config"}}') as unknown;
      const error = AgentError.from(payload);
      expect(error.name).toBe('AgentError');
      expect(error.kind).toBe('other');
      expect(error.message).toBe('{"__proto__":{"name":"ConfigError","message":"spoofed","kind":"config"}}');
      expect(ConfigError.isInstance(payload)).toBe(false);
      expectPristinePrototypes();
    });
  });

  describe('markRecoverable and isRecoverable', () => {
    it('marks a polluting payload recoverable by wrapping it, keeping it as the cause', () => {
      const payload = pollution();
      const marked = markRecoverable(payload);
      expect(marked).not.toBe(payload);
      expect(marked).toBeInstanceOf(Error);
      expect((marked as Error).name).toBe('Error');
      expect((marked as Error).cause).toBe(payload);
      expect(isRecoverable(marked)).toBe(true);
      expectPristinePrototypes();
    });

    it('does not treat a recoverable flag under __proto__ or constructor.prototype as recoverable', () => {
      expect(isRecoverable(JSON.parse('{"__proto__": {"recoverable": true}}'))).toBe(false);
      expect(isRecoverable(JSON.parse('{"constructor": {"prototype": {"recoverable": true}}}'))).toBe(false);
      expect(isRecoverable(pollution())).toBe(false);
      expect(isRecoverable(JSON.parse('{"recoverable": true}'))).toBe(true);
      expectPristinePrototypes();
    });

    it('wraps a payload whose recoverable flag is only under __proto__', () => {
      const payload = JSON.parse('{"__proto__": {"recoverable": true}}') as unknown;
      const marked = markRecoverable(payload);
      expect(marked).not.toBe(payload);
      expect(isRecoverable(marked)).toBe(true);
      expectPristinePrototypes();
    });
  });

  describe('ToolResult', () => {
    it('success keeps a polluting payload as data and serializes its keys as data', () => {
      const payload = pollution();
      const result = ToolResult.success(payload);
      expect(result.ok).toBe(true);
      expect(result.data).toBe(payload);
      expect(serializeToolResult(result)).toBe(`{"ok":true,"data":${JSON.stringify(payload)}}`);
      const parsed = JSON.parse(serializeToolResult(result)) as { data: Data };
      expectOrdinaryObject(parsed.data);
      expectOwnData(parsed.data, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('error turns a polluting payload into a generic ToolError with a string message and no context', () => {
      const info = ToolResult.error(pollution() as never).error;
      expect(info?.type).toBe('ToolExecutionFailed');
      expect(info?.message).toBeTypeOf('string');
      expect(info?.context).toBeUndefined();
      expect(info?.suggestion).toBeUndefined();
      expectPristinePrototypes();
    });

    it('error copies a polluting context as own data into a fresh object', () => {
      const context = pollution();
      const info = ToolResult.error({ type: 'LookupFailed', message: 'No such order.', context }).error;
      expect(info?.type).toBe('LookupFailed');
      expectOrdinaryObject(info?.context);
      expect(info?.context).not.toBe(context);
      expectOwnData(info!.context!, '__proto__', { polluted: 'yes' });
      expectOwnData(info!.context!, 'constructor', { prototype: { polluted: 'yes' } });
      expectPristinePrototypes();
    });

    it('error ignores a suggestion and context smuggled under __proto__', () => {
      const input = JSON.parse('{"type": "X", "message": "m", "__proto__": {"suggestion": "injected", "context": {"a": 1}}}') as never;
      expect(ToolResult.error(input).toJSON()).toEqual({ ok: false, error: { type: 'X', message: 'm' } });
      expectPristinePrototypes();
    });

    it('errorWithData keeps polluting data and a polluting error input as data', () => {
      const data = pollution();
      const result = ToolResult.errorWithData(pollution() as never, data);
      expect(result.ok).toBe(false);
      expect(result.data).toBe(data);
      expect(result.error?.type).toBe('ToolExecutionFailed');
      expect(JSON.parse(serializeToolResult(result))).toMatchObject({ ok: false, data: { constructor: { prototype: { polluted: 'yes' } } } });
      expectPristinePrototypes();
    });

    it('partial records a failure named __proto__ as an own entry of context.failed', () => {
      const failures = JSON.parse('{"__proto__": {"type": "NetworkError", "message": "forecast down"}, "constructor": "history unavailable"}') as Record<
        string,
        string
      >;
      const result = ToolResult.partial({ current: { temperature: 21 } }, failures);
      expect(result.ok).toBe(true);
      expect(result.error?.type).toBe('PartialFailure');
      expect(result.error?.message).toContain('2 parts');
      const failed = result.error?.context?.failed as Data;
      expectOrdinaryObject(failed);
      expect(Object.keys(failed)).toEqual(['__proto__', 'constructor']);
      expectOwnData(failed, '__proto__', { type: 'NetworkError', message: 'forecast down' });
      expectOwnData(failed, 'constructor', { type: 'ToolExecutionFailed', message: 'history unavailable' });
      const parsed = JSON.parse(serializeToolResult(result)) as { error: { context: { failed: Data } } };
      expectOwnData(parsed.error.context.failed, '__proto__', { type: 'NetworkError', message: 'forecast down' });
      expectPristinePrototypes();
    });

    it('partial with failures only under an inherited __proto__ is a plain success', () => {
      const failures = Object.create({ forecast: 'down' }) as Record<string, string>;
      expect(ToolResult.partial({ a: 1 }, failures).toJSON()).toEqual({ ok: true, data: { a: 1 } });
    });

    it('serializeToolResult writes polluting keys of a flat error result as plain JSON', () => {
      const result = ToolResult.errorWithData({ type: 'X', message: 'bad input' }, JSON.parse(PROTOTYPE_JSON));
      expect(serializeToolResult(result, { errorFormat: 'flat' })).toBe(
        '{"ok":false,"data":{"prototype":{"polluted":"yes"},"nested":{"__proto__":{"polluted":"yes"}}},"error":"bad input"}',
      );
      expectPristinePrototypes();
    });
  });

  describe('defineTool', () => {
    const execute = (args: Data) => args;
    /** What defineTool throws for `definition` (undefined when it accepts it). */
    const refusal = (definition: unknown): unknown => {
      try {
        defineTool(definition as never);
      } catch (error) {
        return error;
      }
      return undefined;
    };

    it('refuses a definition carrying __proto__ and constructor keys as unknown fields, and pollutes nothing', () => {
      const definition = Object.assign(pollution(), { name: 'echo', description: 'Echoes.', parameters: passThroughSchema(), execute });
      const caught = refusal(definition);
      expect(ConfigError.isInstance(caught)).toBe(true);
      expect((caught as ConfigError).problems).toEqual(expect.arrayContaining(['unknown option "__proto__"']));
      expectPristinePrototypes();
    });

    it('rejects a definition whose fields exist only under a __proto__ key, listing every problem', () => {
      const definition = JSON.parse('{"__proto__": {"name": "echo", "description": "Echoes."}}') as never;
      const caught = refusal(definition);
      expect(ConfigError.isInstance(caught)).toBe(true);
      expect((caught as ConfigError).problems).toHaveLength(5); // the four fields missing, and the unknown "__proto__"
      expectPristinePrototypes();
    });

    it('rejects a definition that inherits its fields from a prototype', () => {
      const definition = Object.create({ name: 'echo', description: 'Echoes.', parameters: passThroughSchema(), execute }) as never;
      expect(() => defineTool(definition)).toThrow(ConfigError);
      try {
        defineTool(definition);
      } catch (error) {
        expect((error as ConfigError).problems).toContain('the definition must be an object');
      }
    });

    it('copies an explicit jsonSchema with __proto__ keys as own data', () => {
      const jsonSchema = JSON.parse('{"type": "object", "__proto__": {"polluted": "yes"}, "properties": {"__proto__": {"type": "string"}}}') as Data;
      const tool = defineTool({ name: 'echo', description: 'Echoes.', parameters: passThroughSchema(), jsonSchema, execute });
      expectOrdinaryObject(tool.jsonSchema);
      expect(tool.jsonSchema).not.toBe(jsonSchema);
      expectOwnData(tool.jsonSchema, '__proto__', { polluted: 'yes' });
      expectOwnData(tool.jsonSchema.properties as Data, '__proto__', { type: 'string' });
      expectPristinePrototypes();
    });
  });

  describe('runTool and runToolCall', () => {
    it('with a zod looseObject schema: constructor arrives as own data and __proto__ never becomes the prototype', async () => {
      const { tool, received } = recordingTool('loose', z.looseObject({ name: z.string().optional() }));
      const run = await runTool(tool, POLLUTION_JSON, quiet);
      expect(run.outcome).toBe('success');
      const [args] = received;
      expectOrdinaryObject(args);
      expectOwnData(args, 'constructor', { prototype: { polluted: 'yes' } });
      if (Object.hasOwn(args, '__proto__')) expectOwnData(args, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('with a zod record schema: the keys that survive validation are own data', async () => {
      const { tool, received } = recordingTool('record', z.record(z.string(), z.unknown()));
      const run = await runTool(tool, POLLUTION_JSON, quiet);
      expect(run.outcome).toBe('success');
      const [args] = received;
      expectOrdinaryObject(args);
      expectOwnData(args, 'constructor', { prototype: { polluted: 'yes' } });
      if (Object.hasOwn(args, '__proto__')) expectOwnData(args, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('with a schema that keeps every key: __proto__ and constructor both arrive as own data', async () => {
      const { tool, received } = recordingTool('keep_all', passThroughSchema());
      const run = await runTool(tool, POLLUTION_JSON, quiet);
      expect(run.outcome).toBe('success');
      const [args] = received;
      expectOrdinaryObject(args);
      expectOwnData(args, '__proto__', { polluted: 'yes' });
      expectOwnData(args, 'constructor', { prototype: { polluted: 'yes' } });
      expect(JSON.parse(serializeToolResult(run.result))).toEqual({ ok: true, data: { keys: ['__proto__', 'constructor'] } });
      expectPristinePrototypes();
    });

    it('decodes double-encoded polluting arguments into own data', async () => {
      const { tool, received } = recordingTool('keep_all', passThroughSchema());
      const run = await runTool(tool, JSON.stringify(POLLUTION_JSON), quiet);
      expect(run.outcome).toBe('success');
      expect(run.argumentsCoerced).toBe(true);
      expectOwnData(received[0]!, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('decodes a field sent as a JSON string that holds __proto__ into own data', async () => {
      const schema = passThroughSchema((value) =>
        typeof (value as Data).options === 'string' ? [{ message: 'expected object', path: ['options'] }] : undefined,
      );
      const { tool, received } = recordingTool('options', schema);
      const run = await runTool(tool, JSON.stringify({ options: POLLUTION_JSON }), quiet);
      expect(run.outcome).toBe('success');
      expect(run.argumentsCoerced).toBe(true);
      const options = received[0]?.options as Data;
      expectOrdinaryObject(options);
      expectOwnData(options, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('coerces a field whose issue path runs through __proto__ inside the own data only', async () => {
      const schema = passThroughSchema((value) => {
        const inner = Object.hasOwn(value as Data, '__proto__') ? ((value as Data)['__proto__'] as Data) : undefined;
        return typeof inner?.polluted === 'string' ? [{ message: 'expected boolean', path: ['__proto__', 'polluted'] }] : undefined;
      });
      const { tool, received } = recordingTool('through_proto', schema);
      const run = await runTool(tool, '{"__proto__": {"polluted": "true"}}', quiet);
      expect(run.outcome).toBe('success');
      expect(run.argumentsCoerced).toBe(true);
      expectOwnData(received[0]!, '__proto__', { polluted: true });
      expectPristinePrototypes();
    });

    it('reports an invalid field under __proto__ as an InputValidationError naming the path', async () => {
      const schema = passThroughSchema(() => [{ message: 'not allowed', path: ['__proto__', 'polluted'] }]);
      const { tool, received } = recordingTool('rejects', schema);
      const run = await runTool(tool, POLLUTION_JSON, quiet);
      expect(run.outcome).toBe('invalid_arguments');
      expect(run.result.error?.type).toBe('InputValidationError');
      expect(run.result.error?.context?.issues).toEqual([{ path: '__proto__.polluted', message: 'not allowed', received: '"yes"' }]);
      expect(received).toEqual([]);
      expectPristinePrototypes();
    });

    it('hands the developer log the polluting arguments as own data', async () => {
      const records: ToolLogRecord[] = [];
      const schema = passThroughSchema(() => [{ message: 'rejected', path: ['constructor'] }]);
      const { tool } = recordingTool('logged', schema);
      await runTool(tool, pollution(), { logger: (record) => records.push(record) });
      const logged = records.find((record) => record.event === 'tool.invalid_arguments')?.arguments;
      expectOrdinaryObject(logged);
      expectOwnData(logged, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('runToolCall passes polluting argument text to the tool as own data', async () => {
      const { tool, received } = recordingTool('keep_all', passThroughSchema());
      const run = await runToolCall([tool], { id: 'call_1', name: 'keep_all', arguments: POLLUTION_JSON }, quiet);
      expect(run.outcome).toBe('success');
      expect(run.callId).toBe('call_1');
      expectOwnData(received[0]!, '__proto__', { polluted: 'yes' });
      expectPristinePrototypes();
    });

    it('runToolCall does not find a tool whose name is smuggled under __proto__', async () => {
      const { tool, received } = recordingTool('keep_all', passThroughSchema());
      const call = JSON.parse('{"__proto__": {"name": "keep_all"}, "arguments": "{}"}') as never;
      const run = await runToolCall([tool], call, quiet);
      expect(run.outcome).toBe('not_found');
      expect(run.result.error?.type).toBe('ToolNotFound');
      expect(received).toEqual([]);
      expectPristinePrototypes();
    });

    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) {
      it(`runToolCall answers a call to the name ${name} with ToolNotFound, from a list or a Map`, async () => {
        const { tool } = recordingTool('keep_all', passThroughSchema());
        for (const tools of [[tool], new Map([['keep_all', tool]])]) {
          const run = await runToolCall(tools, { name, arguments: POLLUTION_JSON }, quiet);
          expect(run.outcome).toBe('not_found');
          expect(run.result.error?.type).toBe('ToolNotFound');
        }
        expectPristinePrototypes();
      });
    }
  });
  describe('the other public functions', () => {
    it('formatPath writes __proto__ and constructor segments as plain path text', () => {
      expect(formatPath(['__proto__', 'polluted'])).toBe('__proto__.polluted');
      expect(formatPath([{ key: 'constructor' }, { key: 'prototype' }, 0])).toBe('constructor.prototype[0]');
      expectPristinePrototypes();
    });

    it('isTool rejects a payload that carries tool-like fields under __proto__', () => {
      expect(isTool(JSON.parse('{"__proto__": {"name": "echo", "execute": "x"}}'))).toBe(false);
      expect(isTool(pollution())).toBe(false);
    });

    it('recoverableError keeps a message that spells a polluting payload as plain text', () => {
      const error = recoverableError(POLLUTION_JSON, { code: '__proto__' });
      expect(isRecoverable(error)).toBe(true);
      expect(error.message).toBe(POLLUTION_JSON);
      expect(toResponseError(error)).toEqual({ type: 'flow_error', message: POLLUTION_JSON, code: '__proto__' });
      expectPristinePrototypes();
    });

    it('toolErrorFromResponse reads the provider message from own fields, not from a __proto__ key', async () => {
      const body = '{"error": {"__proto__": {"message": "injected", "code": "INJECTED"}, "message": "city is required"}}';
      const failure = await toolErrorFromResponse(new Response(body, { status: 400 }), { service: 'Weather API' });
      expect(ToolFailure.isInstance(failure)).toBe(true);
      expect(failure.type).toBe('InputValidationError');
      expect(failure.context?.providerMessage).toBe('city is required');
      expect(failure.context?.providerCode).toBeUndefined();
      expect(failure.message).not.toContain('injected');
      expectPristinePrototypes();
    });

    it('toolErrorFromResponse answers a body that is only a polluting payload with the status alone', async () => {
      const failure = await toolErrorFromResponse(new Response(POLLUTION_JSON, { status: 503 }), { service: 'Weather API' });
      expect(failure.type).toBe('APIFailure');
      expect(failure.retryable).toBe(true);
      expect(failure.context?.providerMessage).toBeUndefined();
      expectPristinePrototypes();
    });

    it('toolErrorFromFetchError turns a polluting payload into a NetworkError', () => {
      const failure = toolErrorFromFetchError(JSON.parse('{"__proto__": {"name": "TimeoutError"}, "message": "socket hang up"}'));
      expect(failure.type).toBe('NetworkError');
      expect(failure.message).toContain('socket hang up');
      expectPristinePrototypes();
    });
  });
});

describe('the prototype guard of this file', () => {
  it('notices a polluted Object.prototype', () => {
    (Object.prototype as Data).polluted = 'yes';
    try {
      expect(() => expectPristinePrototypes()).toThrow();
    } finally {
      delete (Object.prototype as Data).polluted;
    }
    expectPristinePrototypes();
  });
});

describe('values of the wrong type', () => {
  describe('toResponseError', () => {
    it('returns undefined for null and undefined', () => {
      expect(toResponseError(null)).toBeUndefined();
      expect(toResponseError(undefined)).toBeUndefined();
    });

    for (const { label, make, message } of HOSTILE) {
      it(`turns ${label} into a flow_error ResponseError`, () => {
        const response = toResponseError(make());
        expect(isResponseError(response)).toBe(true);
        expect(response?.type).toBe('flow_error');
        if (message !== undefined) expect(response?.message).toBe(message);
        expectPristinePrototypes();
      });
    }
  });

  describe('AgentError.from', () => {
    for (const { label, make, message } of [...HOSTILE, { label: 'null', make: () => null, message: 'null' }, { label: 'undefined', make: () => undefined, message: 'undefined' }]) {
      it(`wraps ${label} as an AgentError of kind other whose toJSON is JSON-safe`, () => {
        const value = make();
        const error = AgentError.from(value);
        expect(AgentError.isInstance(error)).toBe(true);
        expect(error.kind).toBe('other');
        expect(error.message).toBeTypeOf('string');
        if (message !== undefined) expect(error.message).toBe(message);
        expect(Object.is(error.cause, value)).toBe(true);
        const json = error.toJSON();
        expect(json).toMatchObject({ name: 'AgentError', kind: 'other', message: error.message });
        expect(JSON.parse(JSON.stringify(json))).toMatchObject({ name: 'AgentError', kind: 'other' });
      });
    }
  });

  describe('isRecoverable', () => {
    for (const { label, make } of [...HOSTILE, { label: 'null', make: () => null }, { label: 'undefined', make: () => undefined }]) {
      it(`answers false for ${label}`, () => {
        expect(isRecoverable(make())).toBe(false);
      });
    }
  });

  describe('markRecoverable', () => {
    it('passes null and undefined through', () => {
      expect(markRecoverable(null)).toBeNull();
      expect(markRecoverable(undefined)).toBeUndefined();
    });

    for (const { label, make, message } of HOSTILE) {
      it(`wraps ${label} in a recoverable Error that keeps it as the cause`, () => {
        const value = make();
        const marked = markRecoverable(value);
        expect(marked).toBeInstanceOf(Error);
        expect(isRecoverable(marked)).toBe(true);
        expect(Object.is((marked as Error).cause, value)).toBe(true);
        expect((marked as Error).name).toBeTypeOf('string');
        if (message !== undefined) expect((marked as Error).message).toBe(message);
      });
    }
  });

  describe('ToolResult.error', () => {
    for (const { label, make, message } of [...HOSTILE, { label: 'null', make: () => null, message: 'null' }, { label: 'undefined', make: () => undefined, message: 'undefined' }]) {
      it(`turns ${label} into a failed result with a generic ToolError`, () => {
        const result = ToolResult.error(make() as never);
        expect(ToolResult.isInstance(result)).toBe(true);
        expect(result.ok).toBe(false);
        expect(result.error?.type).toBe('ToolExecutionFailed');
        expect(result.error?.message).toBeTypeOf('string');
        if (message !== undefined) expect(result.error?.message).toBe(message);
        expect(() => serializeToolResult(result)).not.toThrow();
      });
    }
  });

  describe('runTool', () => {
    const city = () => defineTool({ name: 'weather', description: 'Weather for a city.', parameters: z.object({ city: z.string().max(100) }), execute: ({ city }) => ({ city }) });

    const invalidCases: ReadonlyArray<{ label: string; make: () => unknown }> = [
      { label: 'a number', make: () => 42 },
      { label: 'an array', make: () => [1, 'two'] },
      { label: 'a symbol', make: () => Symbol('hostile') },
      { label: 'a function', make: () => () => 'x' },
      { label: 'a BigInt', make: () => 2n ** 70n },
      { label: 'null', make: () => null },
      { label: 'undefined', make: () => undefined },
      { label: 'non-JSON text', make: () => '{city: "Paris"' },
      { label: 'JSON text of the wrong type', make: () => '"Paris"' },
      { label: 'a cyclic object with a wrong field', make: () => { const value: Data = { city: 7 }; value.self = value; return value; } },
      { label: 'an AggregateError containing itself', make: () => selfContainingAggregate('') },
    ];

    for (const { label, make } of invalidCases) {
      it(`answers ${label} with an InputValidationError result`, async () => {
        const run = await withinTime(runTool(city(), make(), quiet));
        expect(run.outcome).toBe('invalid_arguments');
        expect(run.attempts).toBe(0);
        expect(run.result.ok).toBe(false);
        expect(run.result.error?.type).toBe('InputValidationError');
        expect(() => serializeToolResult(run.result)).not.toThrow();
        expectPristinePrototypes();
      });
    }

    const crashCases: ReadonlyArray<{ label: string; make: () => unknown }> = [
      { label: 'a revoked Proxy', make: revokedProxy },
      { label: 'a Proxy whose every trap throws', make: trappedProxy },
      { label: 'an object whose getters throw', make: throwingGetters },
    ];

    for (const { label, make } of crashCases) {
      it(`answers ${label}, which makes the schema itself throw, with a ToolInternalError result`, async () => {
        const run = await withinTime(runTool(city(), make(), quiet));
        expect(run.outcome).toBe('crash');
        expect(run.attempts).toBe(0);
        expect(run.result.ok).toBe(false);
        expect(run.result.error?.type).toBe('ToolInternalError');
        expect(() => serializeToolResult(run.result)).not.toThrow();
      });
    }

    it('runToolCall answers a call object that is a revoked Proxy with ToolNotFound', async () => {
      const run = await withinTime(runToolCall([city()], revokedProxy() as never, quiet));
      expect(run.outcome).toBe('not_found');
      expect(run.result.error?.type).toBe('ToolNotFound');
    });
  });
});

describe('huge input', () => {
  const TEN_MB = 10 * 1024 * 1024;
  const tool = () => defineTool({ name: 'weather', description: 'Weather for a city.', parameters: z.object({ city: z.string().max(100) }), execute: ({ city }) => ({ city }) });

  it('answers 10 MB of argument text with an InputValidationError quickly, without parsing it', async () => {
    const raw = `{"city": "${'x'.repeat(TEN_MB)}"}`;
    const started = performance.now();
    const run = await withinTime(runTool(tool(), raw, quiet));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.type).toBe('InputValidationError');
    expect(run.result.error?.message).toContain('too large');
    expect(serializeToolResult(run.result).length).toBeLessThan(20_000);
  });

  it('answers 10 MB of polluting argument text the same way', async () => {
    const raw = `{"__proto__": {"polluted": "${'y'.repeat(TEN_MB)}"}}`;
    const run = await withinTime(runToolCall([tool()], { name: 'weather', arguments: raw }, quiet));
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.type).toBe('InputValidationError');
    expectPristinePrototypes();
  });

  it('answers an already-parsed object with a 10 MB field with a short InputValidationError', async () => {
    const started = performance.now();
    const run = await withinTime(runTool(tool(), { city: 'x'.repeat(TEN_MB) }, quiet));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.type).toBe('InputValidationError');
    expect(serializeToolResult(run.result).length).toBeLessThan(20_000);
  });

  it('turns an error with a 10 MB message into a ResponseError quickly', () => {
    const started = performance.now();
    const response = toResponseError(new Error('z'.repeat(TEN_MB)));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(response?.type).toBe('flow_error');
    expect(response?.message).toBeTypeOf('string');
  });
});
