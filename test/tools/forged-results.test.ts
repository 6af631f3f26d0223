// A tool may return anything, a value carrying ToolResult's mark included: the mark is a global symbol (so results of
// another copy of the package are results), and any object can carry it. Such a value is read once, inside the tool's
// run — a getter that throws is the tool's crash, typed and without the agent's secrets, and the run goes on — and it
// reaches the model in the one shape `{ok, data, error: {type, message}}`, whatever its fields held.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { runAgent } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { defineTool, runTool, ToolResult } from '../../src/tools/index.js';

const MARK = Symbol.for('faultline.tool.ToolResult');
const SECRET = 'sup3r-s3cret-value-xyz';
const tool = (execute: () => unknown) => defineTool({ name: 'forged', description: 'Returns a forged result.', parameters: z.object({}), execute: async () => execute() as never });

describe('a value marked as a ToolResult', () => {
  it('whose getter throws: a ToolInternalError crash for the model, not a rejection', async () => {
    const run = await runTool(tool(() => ({ [MARK]: true, get ok(): boolean { throw new Error(`bad ${SECRET}`); } })), '{}', { logger: false, secrets: [SECRET] });
    expect(run.outcome).toBe('crash');
    expect(JSON.parse(run.content)).toMatchObject({ ok: false, error: { type: 'ToolInternalError' } });
    expect(run.content).not.toContain(SECRET);
  });

  it('with fields of the wrong types: one shape for the model', async () => {
    const run = await runTool(tool(() => ({ [MARK]: true, ok: 'yes', data: 1, error: 5 })), '{}', { logger: false });
    const json = JSON.parse(run.content);
    expect(json.ok).toBe(false);
    expect(json.error).toEqual({ type: expect.any(String), message: expect.any(String) });
  });

  it('of another copy of the package (the mark, ok, data, error): read as the result it is', async () => {
    const other = { [MARK]: true, ok: false, data: { id: 7 }, error: { type: 'DataNotFound', message: 'No order 7.' } };
    const run = await runTool(tool(() => other), '{}', { logger: false });
    expect(JSON.parse(run.content)).toEqual({ ok: false, data: { id: 7 }, error: { type: 'DataNotFound', message: 'No order 7.' } });
    expect((await runTool(tool(() => ToolResult.success({ id: 8 })), '{}', { logger: false })).content).toBe('{"ok":true,"data":{"id":8}}');
  });

  it('in an agent run: the model is told of the crash, the run goes on, and no error carries the secret', async () => {
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'c1', name: 'forged', arguments: {} }] }, { text: 'done' }]);
    const forged = tool(() => ({ [MARK]: true, get ok(): boolean { throw new Error(`bad ${SECRET}`); } }));
    const result = await runAgent({ model, tools: [forged], prompt: 'go', secrets: [SECRET], toolLogger: false });
    expect(result.text).toBe('done');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
