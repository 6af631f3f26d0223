// Tests of the BUILT package (STYLE.md "Cross-runtime suites import the built dist/, not src/"): what ships is what
// must run. `npm test` builds before vitest runs; alone, run `npm run build` first.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');
const MISSING_BUILD = 'dist/index.js is missing: run npm run build first (npm test does it before vitest).';

function requireBuild(): void {
  if (!existsSync(join(dist, 'index.js'))) throw new Error(MISSING_BUILD);
}

/** Runs an ES module snippet in a fresh Node process at the repository root and parses the JSON it prints. */
function runInNode(code: string): unknown {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 15_000 });
  return JSON.parse(output);
}

// Loosely typed views of the built modules (dist/ has no types for a dynamic file URL import).
type ErrorClass = (new (message: string, options?: Record<string, unknown>) => Error) & { isInstance(value: unknown): boolean };
type ErrorsModule = Record<string, ErrorClass>;
interface ToolsModule {
  ToolResult: { success(data: unknown): object; error(error: unknown): object; isInstance(value: unknown): boolean };
  ToolFailure: ErrorClass & (new (type: string, message: string) => Error);
  DataNotFoundError: ErrorClass;
  NetworkError: ErrorClass;
  InputValidationError: ErrorClass;
  defineTool(definition: Record<string, unknown>): object;
  isTool(value: unknown): boolean;
  runTool(tool: object, rawArguments: unknown, options?: Record<string, unknown>): Promise<{ outcome: string; result: object }>;
  serializeToolResult(result: object): string;
}

describe('the built package', () => {
  beforeAll(requireBuild);

  describe('self-reference through the exports map in a real Node process', () => {
    it('resolves faultline, faultline/errors and faultline/tools to the same classes', () => {
      const report = runInNode(`
        const root = await import('faultline');
        const errors = await import('faultline/errors');
        const tools = await import('faultline/tools');
        const names = ['AgentError', 'toResponseError', 'ToolResult', 'defineTool', 'runTool'];
        console.log(JSON.stringify({
          rootTypes: Object.fromEntries(names.map((name) => [name, typeof root[name]])),
          sameAgentError: root.AgentError === errors.AgentError,
          sameToolResult: root.ToolResult === tools.ToolResult,
          sameRunTool: root.runTool === tools.runTool,
          errorsHasNoTools: !('runTool' in errors),
        }));
      `);
      expect(report).toEqual({
        rootTypes: { AgentError: 'function', toResponseError: 'function', ToolResult: 'function', defineTool: 'function', runTool: 'function' },
        sameAgentError: true,
        sameToolResult: true,
        sameRunTool: true,
        errorsHasNoTools: true,
      });
    });

    it('builds errors that behave as documented', () => {
      const report = runInNode(`
        const { ChatClientError, AgentError, toResponseError } = await import('faultline/errors');
        const limited = new ChatClientError('x', { status: 429 });
        const unauthorized = new ChatClientError('y', { status: 401 });
        console.log(JSON.stringify({
          retryable429: limited.retryable === true,
          retryable401: unauthorized.retryable,
          name: limited.name,
          kind: limited.kind,
          isAgentError: AgentError.isInstance(limited),
          response: toResponseError(limited),
        }));
      `);
      expect(report).toEqual({
        retryable429: true,
        retryable401: false,
        name: 'ChatClientError',
        kind: 'chat_client',
        isAgentError: true,
        response: { type: 'api_error', message: 'x' },
      });
    });

    it('runs a zod-validated tool end to end and rejects bad arguments as data', () => {
      const report = runInNode(`
        const { z } = await import('zod');
        const { defineTool, runTool, serializeToolResult } = await import('faultline/tools');
        const echo = defineTool({
          name: 'echo',
          description: 'Echoes a word.',
          parameters: z.object({ word: z.string() }),
          execute: ({ word }) => ({ word }),
        });
        const good = await runTool(echo, '{"word":"hi"}', { logger: () => {} });
        const bad = await runTool(echo, '{"word":1}', { logger: () => {} });
        console.log(JSON.stringify({
          good: serializeToolResult(good.result),
          badOutcome: bad.outcome,
          badType: bad.result.error.type,
        }));
      `);
      expect(report).toEqual({ good: '{"ok":true,"data":{"word":"hi"}}', badOutcome: 'invalid_arguments', badType: 'InputValidationError' });
    });
  });

  describe('two copies of dist/ loaded side by side', () => {
    const directories: string[] = [];
    let errorsA: ErrorsModule;
    let errorsB: ErrorsModule;
    let toolsA: ToolsModule;
    let toolsB: ToolsModule;

    const copyOfDist = (label: string): string => {
      const directory = mkdtempSync(join(tmpdir(), `faultline-copy-${label}-`));
      directories.push(directory);
      cpSync(dist, join(directory, 'dist'), { recursive: true });
      cpSync(join(root, 'src'), join(directory, 'src'), { recursive: true }); // shipped too; the source maps point at it
      writeFileSync(join(directory, 'package.json'), JSON.stringify({ name: `faultline-copy-${label}`, type: 'module' }));
      return join(directory, 'dist');
    };
    const load = async <T>(directory: string, file: string): Promise<T> => (await import(pathToFileURL(join(directory, file)).href)) as T;

    beforeAll(async () => {
      requireBuild();
      const a = copyOfDist('a');
      const b = copyOfDist('b');
      [errorsA, errorsB, toolsA, toolsB] = await Promise.all([
        load<ErrorsModule>(a, 'errors/index.js'),
        load<ErrorsModule>(b, 'errors/index.js'),
        load<ToolsModule>(a, 'tools/index.js'),
        load<ToolsModule>(b, 'tools/index.js'),
      ]);
    });

    afterAll(() => {
      for (const directory of directories) rmSync(directory, { recursive: true, force: true });
    });

    it('really are two module instances with distinct classes', () => {
      expect(errorsA.AgentError).not.toBe(errorsB.AgentError);
      expect(toolsA.ToolResult).not.toBe(toolsB.ToolResult);
    });

    const makers: Record<string, (module: ErrorsModule) => Error> = {
      AgentError: (module) => new module.AgentError!('plain'),
      ChatClientError: (module) => new module.ChatClientError!('provider down', { status: 503 }),
      ConfigError: (module) => new module.ConfigError!('no chat client'),
      StreamError: (module) => new module.StreamError!('bad chunk', { reason: 'malformed_chunk' }),
      ToolError: (module) => new module.ToolError!('tool crashed', { toolName: 'echo' }),
      WorkflowError: (module) => new module.WorkflowError!('step limit', { stepNumber: 3 }),
      SerializeError: (module) => new module.SerializeError!('cycle'),
      SessionError: (module) => new module.SessionError!('store offline'),
    };

    for (const [name, make] of Object.entries(makers)) {
      it(`recognises a ${name} from copy A with copy B's static isInstance, though not with instanceof`, () => {
        const error = make(errorsA);
        const ClassB = errorsB[name]!;
        expect(error).toBeInstanceOf(errorsA[name]!);
        expect(error).not.toBeInstanceOf(ClassB);
        expect(ClassB.isInstance(error)).toBe(true);
        expect(errorsB.AgentError!.isInstance(error)).toBe(true);
      });
    }

    it("recognises AgentNotFoundError across copies too", () => {
      const error = new (errorsA.AgentNotFoundError as unknown as new (id: string, ids: string[]) => Error)('planer', ['planner']);
      expect(error).not.toBeInstanceOf(errorsB.AgentNotFoundError!);
      expect(errorsB.AgentNotFoundError!.isInstance(error)).toBe(true);
    });

    it("answers false from copy B's isInstance for an error of a different class made by copy A", () => {
      const config = makers.ConfigError!(errorsA);
      expect(errorsB.ChatClientError!.isInstance(config)).toBe(false);
      expect(errorsB.StreamError!.isInstance(config)).toBe(false);
      expect(errorsB.ConfigError!.isInstance(makers.ChatClientError!(errorsA))).toBe(false);
      expect(errorsB.ChatClientError!.isInstance(makers.AgentError!(errorsA))).toBe(false);
      expect(errorsB.AgentError!.isInstance(new Error('not ours'))).toBe(false);
    });

    it("recognises copy A's ToolResult with copy B's ToolResult.isInstance, though not with instanceof", () => {
      const result = toolsA.ToolResult.success({ a: 1 });
      expect(result).not.toBeInstanceOf(toolsB.ToolResult as unknown as new () => object);
      expect(toolsB.ToolResult.isInstance(result)).toBe(true);
      expect(toolsB.ToolResult.isInstance({ ok: true, data: { a: 1 } })).toBe(false);
      expect(toolsB.ToolFailure.isInstance(result)).toBe(false);
    });

    it("recognises copy A's ToolFailure and its subclasses with copy B's isInstance, and not as another subclass", () => {
      const notFound = new toolsA.DataNotFoundError('No order 1234.');
      const custom = new toolsA.ToolFailure('QuotaExceeded', 'quota used up');
      expect(notFound).not.toBeInstanceOf(toolsB.ToolFailure);
      expect(toolsB.ToolFailure.isInstance(notFound)).toBe(true);
      expect(toolsB.DataNotFoundError.isInstance(notFound)).toBe(true);
      expect(toolsB.NetworkError.isInstance(notFound)).toBe(false);
      expect(toolsB.ToolFailure.isInstance(custom)).toBe(true);
      expect(toolsB.DataNotFoundError.isInstance(custom)).toBe(false);
      expect(toolsB.ToolResult.isInstance(notFound)).toBe(false);
      expect(errorsB.AgentError!.isInstance(notFound)).toBe(false);
    });

    it("runs a tool defined with copy A through copy B's runTool, keeping A's results and failures", async () => {
      const passThrough = {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: (value: unknown) => ({ value }),
          jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
        },
      };
      const tool = toolsA.defineTool({
        name: 'lookup',
        description: 'Looks an order up.',
        parameters: passThrough,
        execute: ({ id }: { id: number }) => {
          if (id === 1) return toolsA.ToolResult.success({ id });
          throw new toolsA.DataNotFoundError(`No order ${id}.`);
        },
      });
      expect(toolsB.isTool(tool)).toBe(true);
      const found = await toolsB.runTool(tool, '{"id":1}', { logger: () => {} });
      const missing = await toolsB.runTool(tool, '{"id":2}', { logger: () => {} });
      expect(found.outcome).toBe('success');
      expect(toolsB.serializeToolResult(found.result)).toBe('{"ok":true,"data":{"id":1}}');
      expect(missing.outcome).toBe('failure');
      expect(JSON.parse(toolsB.serializeToolResult(missing.result))).toMatchObject({
        ok: false,
        error: { type: 'DataNotFoundError', message: 'No order 2.' },
      });
    });
  });

  describe('the IIFE build for a script tag', () => {
    const iifePath = join(dist, 'faultline.iife.js');
    let text: string;
    let context: vm.Context & { Faultline?: Record<string, unknown> };

    beforeAll(() => {
      requireBuild();
      if (!existsSync(iifePath)) throw new Error(`dist/faultline.iife.js is missing: ${MISSING_BUILD}`);
      text = readFileSync(iifePath, 'utf8');
      context = vm.createContext({
        console,
        AbortController,
        AbortSignal,
        DOMException,
        TextDecoder,
        TextEncoder,
        Response,
        Headers,
        URL,
        setTimeout,
        clearTimeout,
        crypto,
        performance,
        structuredClone,
        queueMicrotask,
        ReadableStream,
        WritableStream,
        TransformStream,
        Request,
        fetch,
      });
      vm.runInContext(text, context, { filename: 'faultline.iife.js' });
    });

    it('defines the Faultline global with the root exports', () => {
      const faultline = context.Faultline;
      expect(faultline).toBeTypeOf('object');
      expect(typeof faultline?.ToolResult).toBe('function');
      expect(typeof faultline?.AgentError).toBe('function');
      expect(typeof faultline?.runTool).toBe('function');
      expect(typeof faultline?.defineTool).toBe('function');
      expect(typeof faultline?.toResponseError).toBe('function');
    });

    it('round-trips ToolResult.success({a: 1}).toJSON() through JSON', () => {
      const json = vm.runInContext('JSON.stringify(Faultline.ToolResult.success({ a: 1 }).toJSON())', context) as string;
      expect(json).toBe('{"ok":true,"data":{"a":1}}');
      expect(JSON.parse(json)).toEqual({ ok: true, data: { a: 1 } });
    });

    it('runs a tool inside the sandbox with only web globals', async () => {
      const serialized = (await vm.runInContext(
        `(async () => {
          const schema = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }),
            jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) } } };
          const tool = Faultline.defineTool({ name: 'add', description: 'Adds.', parameters: schema, execute: ({ a, b }) => a + b });
          const run = await Faultline.runTool(tool, '{"a":1,"b":2}', { logger: () => {} });
          return Faultline.serializeToolResult(run.result);
        })()`,
        context,
      )) as string;
      expect(serialized).toBe('{"ok":true,"data":3}');
    });

    it('makes errors that the ESM build recognises across realms', async () => {
      const { AgentError, ChatClientError } = (await import(pathToFileURL(join(dist, 'errors/index.js')).href)) as ErrorsModule;
      const foreign = vm.runInContext("new Faultline.ChatClientError('down', { status: 503 })", context) as unknown;
      expect(foreign).not.toBeInstanceOf(Error);
      expect(ChatClientError!.isInstance(foreign)).toBe(true);
      expect(AgentError!.isInstance(foreign)).toBe(true);
    });

    it('contains no require( call and no import statement', () => {
      expect(text).not.toMatch(/\brequire\s*\(/);
      expect(text).not.toMatch(/(^|[;{}\s])import\s*[\s{*"'(]/m);
      expect(text).not.toMatch(/(^|[;{}\s])export\s*[\s{*]/m);
    });

    it('is minified', () => {
      expect(text.split('\n').length).toBeLessThan(50);
      expect(text).not.toMatch(/\n {2,}\S/);
    });
  });
});
