// A port of tRPC-Agent-Go's examples/graph/error_handling and the error-handling doc's inventory example:
// a recoverable node, a fatal local node, and a fatal child subgraph, each run under the Runner and summarised
// from its runner.completion event like the seed's PrintSummary. Run: `npm run demo:graph [scenario]`.
import * as F from 'faultline';
import { consumeUntilCompletion, graphErrorScenarios, summaryLines } from './scenarios.mjs';

const scenarios = graphErrorScenarios(F);
const chosen = process.argv[2] ? [process.argv[2]] : Object.keys(scenarios);
for (const name of chosen) {
  const build = scenarios[name];
  if (!build) {
    console.error(`unknown scenario ${JSON.stringify(name)}; choose one of: ${Object.keys(scenarios).join(', ')}`);
    process.exitCode = 2;
    break;
  }
  console.log(`\n== ${name} ==`);
  const runner = new F.Runner({ appName: 'graph-error-handling', agent: F.createGraphAgent(`${name}-agent`, build()) });
  const summary = await consumeUntilCompletion(F, runner.run({ userId: 'demo-user', sessionId: name, message: 'place order 42' }));
  for (const line of summaryLines(summary)) console.log(line);
}
