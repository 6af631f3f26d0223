// What each entry loads when it is imported: the runtime import graph of the source (type-only imports excluded).
// Every module loaded is a file Node reads and links at import — `import('faultline/a2a')` was 2.5× slower than
// `@a2a-js/sdk/client` mostly because it loaded the agent loop, the chat clients and the tools for one `instanceof`
// (issue 17). These bounds fail when an entry starts loading a part it does not use.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The modules `entry` loads at run time, as paths relative to src/. */
function runtimeGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const path = relative(SRC, file);
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(file, 'utf8');
    // `import … from './x.js'` and `export … from './x.js'`, but not `import type` / `export type`.
    for (const match of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+'(\.[^']+)'/gms)) {
      const names = match[0].match(/\{([^}]*)\}/)?.[1];
      if (names !== undefined && names.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))) continue; // only types
      visit(resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
    }
    for (const match of text.matchAll(/^import\s+'(\.[^']+)'/gm)) visit(resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
  };
  visit(resolve(SRC, entry));
  return seen;
}

const folderOf = (path: string) => path.split('/')[0] as string;

describe('what each entry loads at import', () => {
  it('faultline/a2a loads no chat client, no tool code, no agent loop, no graph, no MCP (and stays within 86 modules)', () => {
    const graph = runtimeGraph('a2a/index.ts');
    const loaded = [...graph];
    expect(loaded.filter((path) => ['chat', 'tools', 'graph', 'mcp', 'cloudflare'].includes(folderOf(path)))).toEqual([]);
    // The handler's runner and its default session store; nothing else of the agent folder.
    expect(loaded.filter((path) => folderOf(path) === 'agent').sort()).toEqual(['agent/agent-brand.ts', 'agent/in-memory-session-store.ts', 'agent/session-store.ts', 'agent/session-trim.ts']);
    // Beyond the transport and the Runner: an input-required task's metadata and interrupt summary, the Runner's
    // resume and its session read as a valid transcript, the canonical key of an answer's decisions, and the hold on
    // streamed text a credential may be cut across, and the forms of a secret (whole or cut by an excerpt), and the
    // handler's check of option names (`option-names.ts`, with the closest name it points to, `closest.ts`), the
    // runner's run options (`run-options.ts`), a client's call-options check (`call-options.ts`) and its request body
    // encoded once before anything is sent (`wire/jsonrpc-request.ts`), and the media-type check its handler shares
    // with MCP's (`internal/media-types.ts`), and whose a task is (`a2a/task-owners.ts`: owners kept with the tasks of
    // an app's store, split from the task backend by concern).
    expect(graph.size).toBeLessThanOrEqual(86);
  });

  it('faultline/errors loads only errors and internal helpers', () => {
    expect([...runtimeGraph('errors/index.ts')].filter((path) => !['errors', 'internal'].includes(folderOf(path)))).toEqual([]);
  });

  it('faultline/resilience and faultline/telemetry load neither a client nor an agent', () => {
    for (const entry of ['resilience/index.ts', 'telemetry/index.ts']) {
      expect([...runtimeGraph(entry)].filter((path) => ['chat', 'tools', 'agent', 'graph', 'a2a', 'mcp', 'runner'].includes(folderOf(path)))).toEqual([]);
    }
  });

  it('the graph sees through type-only imports (it is not vacuous)', () => {
    const agent = runtimeGraph('agent/index.ts');
    expect(agent.has('agent/agent-loop.ts')).toBe(true);
    expect(agent.has('tools/run-tool-call.ts')).toBe(true);
  });
});
