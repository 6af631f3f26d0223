// The developer-log option is one type everywhere a tool runs (issue 15): a graph tools node and the MCP handler take
// `false`, `console` or a function like runTool and the agent do, and refuse anything else as a ConfigError.
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { createMCPHandler } from '../../src/mcp/index.js';
import { defineTool, jsonSchema, type ToolLogRecord } from '../../src/tools/index.js';

const crash = defineTool({ name: 'crash', description: 'Crashes.', parameters: jsonSchema({ type: 'object' }), execute: () => { throw new TypeError('boom'); } });

function toolsGraph(logger: unknown) {
  return new StateGraph(messagesStateSchema())
    .addToolsNode('tools', [crash], { logger: logger as never })
    .setEntryPoint('tools')
    .setFinishPoint('tools')
    .compile();
}
const callingState = { messages: [{ role: 'assistant' as const, content: null, toolCalls: [{ id: 'call_1', name: 'crash', arguments: '{}' }] }] };

describe('a graph tools node', () => {
  it('false prints nothing, a function gets every record, console prints on the level method', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await toolsGraph(false).invoke(callingState);
      expect(error).not.toHaveBeenCalled();
      const records: ToolLogRecord[] = [];
      await toolsGraph((record: ToolLogRecord) => records.push(record)).invoke(callingState);
      expect(records.map((record) => record.event)).toContain('tool.crash');
      await toolsGraph(console).invoke(callingState);
      expect(error).toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it('any other logger is a compile() problem naming the node', () => {
    expect(() => toolsGraph('loud')).toThrow(/tools node "tools": logger must be false, console or a function/);
  });
});

describe('the MCP handler', () => {
  it('takes false, console and a function; anything else is a ConfigError', () => {
    for (const logger of [false, console, () => {}]) expect(() => createMCPHandler({ tools: [crash], serverInfo: { name: 's', version: '1' }, logger: logger as never })).not.toThrow();
    expect(() => createMCPHandler({ tools: [crash], serverInfo: { name: 's', version: '1' }, logger: 'loud' as never })).toThrow(ConfigError);
  });
});
