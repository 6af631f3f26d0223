/** @internal The framework's own answer to a tool call it did not run (refused, expired, of unknown outcome). */
import { serializeToolResult } from '../tools/serialize-tool-result.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';
import { ToolResult } from '../tools/tool-result.js';
import type { AgentRunItem, AgentSettings, AgentToolOutcome } from './types.js';

/** The `tool-result` item of a call answered with `error` (synthetic), and the tool message content the model gets. */
export function syntheticAnswer(settings: AgentSettings, callId: string, toolName: string, iteration: number, outcome: AgentToolOutcome, error: ToolErrorInfo): { item: AgentRunItem; content: string } {
  const result = ToolResult.error(error);
  const content = serializeToolResult(result, { errorFormat: settings.toolErrorFormat });
  return { item: { type: 'tool-result', iteration, callId, toolName, outcome, ok: false, result: result.toJSON(), content, attempts: 0, durationMs: 0, synthetic: true }, content };
}
