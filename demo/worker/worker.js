// The A2A demo on Cloudflare Durable Objects: no `nodejs_compat`, nothing but the Workers runtime's Web APIs and the
// classic Durable Object API. Any isolate answers for any task: each task runs in its own object, which writes every
// transition before sending it, so tasks/get, tasks/cancel and tasks/resubscribe work from anywhere, and a restart
// ends a running task `failed` with TASK_ABANDONED — or resumes it, for the checkpointed "write" graph.
// Run it with `npx wrangler dev` (this folder's wrangler.toml) or, with nothing else installed, `npm run demo:worker`
// (miniflare, the simulator wrangler uses). In your own Worker, import from 'faultline' and 'faultline/cloudflare'.
import * as F from '../../dist/index.js';
import { createA2ADurableObject, createA2AWorker } from '../../dist/cloudflare/index.js';
import { INVENTORY_CARD, inventoryAgent } from '../a2a/inventory.mjs';

// The Durable Object class, exported under the `class_name` of wrangler.toml's binding. The agent is built once per
// object; its graph checkpoints into the object's storage.
export const A2ATasks = createA2ADurableObject({
  agent: ({ checkpointer }) => inventoryAgent(F, { checkpointer }),
  card: INVENTORY_CARD,
  namespace: 'A2A_TASKS',
});

// The Worker: the agent card and JSON-RPC checks in whichever isolate the request lands, then the task's object.
export default createA2AWorker({ namespace: 'A2A_TASKS', card: INVENTORY_CARD });
