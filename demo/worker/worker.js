// The A2A handler as a Cloudflare Worker: no `nodejs_compat`, nothing but the Workers runtime's Web APIs.
// Run it with `npx wrangler dev` (this folder's wrangler.toml) or, with nothing else installed, `npm run demo:worker`
// (miniflare, the simulator wrangler uses). In your own Worker, import from 'faultline' instead of dist/.
import * as F from '../../dist/index.js';
import { INVENTORY_CARD, inventoryAgent } from '../a2a/inventory.mjs';

// Built once per isolate; the in-memory task store lives as long as the isolate does (use a Durable Object-backed
// `A2ATaskStore` when tasks must survive it).
const handler = F.createA2AHandler({ agent: inventoryAgent(F), card: INVENTORY_CARD });

// Workers call fetch(request, env, ctx): the handler registers each task's run with ctx.waitUntil, so a non-blocking
// message/send keeps running after its response is sent, and tasks/cancel from another request can stop it.
export default { fetch: handler };
