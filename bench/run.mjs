// npm run bench [-- name…]: each benchmark in its own Node process (with --expose-gc), in order. Names: sse, providers,
// agent, graph, durable-objects, size, cold-import, mcp, a2a-client, tool-schemas, ui. The figures and their method are written up in
// docs/PERFORMANCE.md. At the end, issue 17's goals — each measured against its floor, limit or peer in the same run —
// are printed as met / missed.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ALL = ['sse', 'providers', 'agent', 'graph', 'durable-objects', 'size', 'cold-import', 'mcp', 'a2a-client', 'tool-schemas', 'ui'];
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

/** Issue 17's table: every goal against its floor, limit or peer, from this run's figures (rows not run are skipped). */
function printGoals(m) {
  const rows = [];
  const row = (what, now, goal, met) => rows.push([what, now, goal, met ? 'met' : 'MISSED']);
  if (m.agent) {
    const ratio = m.agent.msPerRun / m.agent.floorMsPerRun;
    row('2-step streaming agent loop vs the hand-written floor', `${ratio.toFixed(1)}× the floor`, '≤ 2.0×', ratio <= 2);
  }
  if (m.graph?.plainLinearStepUs) {
    const ratio = m.graph.linearStepUs / m.graph.plainLinearStepUs;
    row('graph step (100-node linear) vs a plain JS loop', `${ratio.toFixed(0)}×`, '≤ 10×', ratio <= 10);
  }
  if (m.providers) {
    const worst = Object.entries(m.providers).filter(([, value]) => typeof value === 'object' && value.ofLimit !== undefined).sort((a, b) => a[1].ofLimit - b[1].ofLimit)[0];
    if (worst) row('full chat-stream decode vs split + JSON.parse (worst client)', `${worst[1].ofLimit.toFixed(2)}× (${worst[0]})`, '≥ 0.9×', worst[1].ofLimit >= 0.9);
  }
  if (m['a2a-client']) {
    const a = m['a2a-client'];
    row('A2A client browser bundle, min+gzip', `${a.bundleKiB.toFixed(1)} KiB (@a2a-js/sdk: ${a.peerBundleKiB.toFixed(1)})`, '≤ 12 KiB', a.bundleKiB <= 12);
    row('that bundle’s cold start vs @a2a-js/sdk’s', `${a.coldStartRatio.toFixed(2)}×`, '≤ 1.0×', a.coldStartRatio <= 1);
    row("import('faultline/a2a') vs import('@a2a-js/sdk/client')", `${a.importRatio.toFixed(2)}×`, '≤ 1.0×', a.importRatio <= 1);
    if (a.esbuildRatio !== undefined) {
      const worst = Math.max(a.esbuildRatio, a.viteRatio);
      row('A2A client bundle vs @a2a-js/sdk’s, esbuild --minify / vite build', `${a.esbuildRatio.toFixed(2)}× / ${a.viteRatio.toFixed(2)}× (${a.esbuildKiB.toFixed(1)} / ${a.viteKiB.toFixed(1)} KiB)`, '≤ 0.6×', worst <= 0.6);
    }
  }
  if (rows.length === 0) return;
  const widths = [0, 1, 2, 3].map((column) => Math.max(...[['goal (issue 17)', 'now', 'target', ''], ...rows].map((cells) => cells[column].length)));
  const line = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  console.log(`\n${line(['goal (issue 17)', 'now', 'target', ''])}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const cells of rows) console.log(line(cells));
}
