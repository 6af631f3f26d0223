// Conformance in Deno: `deno test` on the built package, with only the permissions it needs
// (--allow-net to the loopback fault server, --allow-env for its URL).
import * as F from '../../../dist/index.js';
import * as UI from '../../../dist/ui/index.js';
import { scenarios } from '../scenarios.mjs';

const baseURL = Deno.env.get('FAULTLINE_FAULT_URL');
if (!baseURL) throw new Error('FAULTLINE_FAULT_URL is not set: run this through test/conformance/deno.test.ts');

for (const [index, scenario] of scenarios.entries()) {
  const reason = scenario.skip?.deno;
  Deno.test({
    name: reason ? `${scenario.name} (skipped: ${reason})` : scenario.name,
    ignore: Boolean(reason),
    fn: () => scenario.run({ F, UI, baseURL, runId: `deno-${index}-${crypto.randomUUID()}` }),
  });
}
