import type { AnyTool } from '../../tools/define-tool.js';
import type { ChatToolDefinition } from './types.js';

/** @internal What a model is told about tools: name, description and the JSON Schema of the arguments. */
export function chatToolDefinitions(tools: readonly AnyTool[]): ChatToolDefinition[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.jsonSchema }));
}
