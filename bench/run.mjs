// npm run bench [-- name…]: each benchmark in its own Node process (with --expose-gc), in order. Names: sse, providers,
// agent, graph, durable-objects, size, cold-import, mcp. The figures and their method are written up in docs/PERFORMANCE.md.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ALL = ['sse', 'providers', 'agent', 'graph', 'durable-objects', 'size', 'cold-import', 'mcp'];
const chosen = process.argv.slice(2).filter((name) => !name.startsWith('-'));
const unknown = chosen.filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const name of chosen.length > 0 ? chosen : ALL) {
  const result = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
