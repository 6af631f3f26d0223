// npm run bench [-- name…]: each benchmark in its own Node process (with --expose-gc), in order. Names: sse, providers,
// agent, graph, durable-objects, size, cold-import, mcp, a2a-client, tool-schemas, ui, apps. The figures and their method are written up in
// docs/PERFORMANCE.md. At the end, the goals — each measured against its floor, limit or peer in the same run — are
// printed as met / missed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ALL = ['sse', 'providers', 'agent', 'graph', 'durable-objects', 'size', 'cold-import', 'mcp', 'a2a-client', 'tool-schemas', 'ui', 'apps'];
const chosen = process.argv.slice(2).filter((name) => !name.startsWith('-'));
const unknown = chosen.filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}
let failed = false;
const measured = {};
for (const name of chosen.length > 0 ? chosen : ALL) {
  const result = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))], { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(result.stdout ?? '');
  for (const line of (result.stdout ?? '').split('\n')) {
    if (!line.startsWith('BENCH ')) continue;
    const values = JSON.parse(line.slice(6));
    measured[values.bench] = values;
  }
  if (result.status !== 0) failed = true;
}
printGoals(measured);
process.exit(failed ? 1 : 0);

/**
 * The goals table: every goal against its floor, limit or peer, from this run's figures (rows of benchmarks not run
 * are skipped). A goal is met only by a figure measured in the same run as what it is compared with.
 */
function printGoals(m) {
  const rows = [];
  const row = (what, now, goal, met) => rows.push([what, now, goal, met ? 'met' : 'MISSED']);
  if (m.agent) {
    const ratio = m.agent.msPerRun / m.agent.floorMsPerRun;
    row('2-step streaming agent loop vs the hand-written floor', `${ratio.toFixed(1)}× the floor`, '≤ 3.0×', ratio <= 3);
  }
  if (m.graph?.plainLinearStepUs) {
    const ratio = m.graph.linearStepUs / m.graph.plainLinearStepUs;
    row('graph step (100-node linear) vs a plain JS loop', `${ratio.toFixed(0)}×`, '≤ 10×', ratio <= 10);
  }
  if (m.providers) {
    // Every client on every corpus, against the naive decoder reading the same bytes from a Response body: the worst.
    const cases = Object.entries(m.providers).filter(([, value]) => typeof value === 'object' && (value.ofBodyLimit ?? value.worstOfBodyLimit) !== undefined);
    const ratioOf = (value) => value.worstOfBodyLimit ?? value.ofBodyLimit;
    const worst = cases.sort((a, b) => ratioOf(a[1]) - ratioOf(b[1]))[0];
    if (worst) row('full chat-stream decode vs the body-read limit (worst client, worst corpus)', `${ratioOf(worst[1]).toFixed(2)}× (${worst[0]}${worst[1].worstCorpus ? `, ${worst[1].worstCorpus}` : ''})`, '≥ 0.9×', ratioOf(worst[1]) >= 0.9);
  }
  if (m['a2a-client']) {
    const a = m['a2a-client'];
    row('that bundle’s cold start vs @a2a-js/sdk’s', `${a.coldStartRatio.toFixed(2)}×`, '≤ 1.0×', a.coldStartRatio <= 1);
    row("import('faultline/a2a') vs import('@a2a-js/sdk/client')", `${a.importRatio.toFixed(2)}×`, '≤ 1.0×', a.importRatio <= 1);
    if (a.esbuildRatio !== undefined) {
      const worst = Math.max(a.esbuildRatio, a.viteRatio);
      row('A2A client bundle vs @a2a-js/sdk’s, esbuild --minify / vite build', `${a.esbuildRatio.toFixed(3)}× / ${a.viteRatio.toFixed(3)}× (${a.esbuildKiB.toFixed(1)} / ${a.viteKiB.toFixed(1)} KiB)`, '≤ 0.6×', worst <= 0.6);
    }
  }
  if (m.apps) {
    row('agent + one zod tool in the browser (esbuild, min+gzip)', `${m.apps.agentZodKiB.toFixed(1)} KiB (zod alone ${m.apps.zodFloorKiB.toFixed(1)})`, '≤ 46 KiB', m.apps.agentZodKiB <= 46);
    row('two-node graph + collector + Runner in the browser', `${m.apps.graphKiB.toFixed(1)} KiB`, '≤ 23 KiB', m.apps.graphKiB <= 23);
  }
  if (m['durable-objects']) {
    // Every way a task arrives counts: a new conversation (the server mints its contextId), a turn of one the server
    // began, a turn of one whose contextId the client chose; the goal is judged on the worst.
    const d = m['durable-objects'];
    const ratios = [d.durableMedianMs, d.continuedMedianMs ?? d.ongoingMedianMs, d.ongoingMedianMs].map((ms) => ms / d.memoryMedianMs);
    row('a unary failed task on Durable Objects vs in memory (new conversation / turn, server-begun / turn, client-named)', ratios.map((ratio) => `${ratio.toFixed(1)}×`).join(' / '), '≤ 3.0×', Math.max(...ratios) <= 3);
  }
  if (m.ui) row("web-UI stream encode vs the AI SDK's (same run content; time)", `${m.ui.encodeRatio.toFixed(2)}×`, '≤ 1.0×', m.ui.encodeRatio <= 1);
  if (m.mcp?.size) row("MCP client bundle vs @modelcontextprotocol/sdk's client", `${m.mcp.size.ratioGzip.toFixed(2)}×`, '≤ 0.3×', m.mcp.size.ratioGzip <= 0.3);
  if (rows.length === 0) return;
  const header = ['goal', 'now', 'target', ''];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...[header, ...rows].map((cells) => cells[column].length)));
  const line = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  console.log(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const cells of rows) console.log(line(cells));
}
