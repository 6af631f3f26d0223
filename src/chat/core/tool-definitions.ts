import type { AnyTool } from '../../tools/define-tool.js';
import { cloneJSONLike, isPlainObject } from '../../internal/json.js';
import type { ChatToolDefinition } from './types.js';

/** @internal What a model is told about tools: name, description and the JSON Schema of the arguments. */
export function chatToolDefinitions(tools: readonly AnyTool[]): ChatToolDefinition[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.jsonSchema }));
}

const sealed = new WeakSet<ChatToolDefinition>();

/**
 * @internal The tool definitions an agent sends with every model call, made once: frozen, with a deep-frozen copy of
 * each JSON Schema, so nothing can change them afterwards and an encoder may write each one once and reuse the text
 * ({@link isSealedToolDefinition}). A schema holding anything but plain data (a class instance, a function) is frozen
 * too but not marked: it is encoded every time.
 */
export function sealedToolDefinitions(tools: readonly AnyTool[]): ChatToolDefinition[] {
  return tools.map((tool) => {
    const parameters = cloneJSONLike(tool.jsonSchema);
    const plain = freezePlain(parameters);
    const definition = Object.freeze({ name: tool.name, description: tool.description, parameters });
    if (plain) sealed.add(definition);
    return definition;
  });
}

/** @internal True for a definition of {@link sealedToolDefinitions} whose schema is plain, frozen data: its JSON never changes. */
export function isSealedToolDefinition(definition: ChatToolDefinition): boolean {
  return sealed.has(definition);
}

/** Freezes the plain objects and arrays of a fresh copy; false when it holds anything else (left as it is). */
function freezePlain(root: unknown): boolean {
  let plain = true;
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') plain = false;
      continue;
    }
    if (++visited > 100_000 || !(Array.isArray(value) || isPlainObject(value)) || Object.isFrozen(value)) {
      plain = false; // not ours to freeze, shared, or too large to walk: never cached
      continue;
    }
    Object.freeze(value);
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return plain;
}
