// Conformance in workerd: a Worker importing the built package (no nodejs_compat flag). Bundled the way wrangler
// bundles a Worker (dependencies resolved from node_modules) and run in miniflare.
import * as F from '../../../dist/index.js';
import * as UI from '../../../dist/ui/index.js';
import { runScenarios } from '../scenarios.mjs';

export default {
  async fetch(request) {
    const base = new URL(request.url).searchParams.get('base');
    if (!base) return new Response('missing ?base=<fault server URL>', { status: 400 });
    return Response.json(await runScenarios(F, base, 'workerd', UI));
  },
};
