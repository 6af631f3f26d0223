// The A2A handler under Deno.serve. Only loopback network access is needed:
//   deno run --allow-net=127.0.0.1 demo/deno/main.js [port]      (after `npm run build`; `npm run demo:deno` does both)
// In your own project: `import * as F from 'npm:faultline'`.
import * as F from '../../dist/index.js';
import { INVENTORY_CARD, inventoryAgent } from '../a2a/inventory.mjs';

const handler = F.createA2AHandler({ agent: inventoryAgent(F), card: INVENTORY_CARD });
const port = Number(Deno.args[0] ?? 8788);

const server = Deno.serve(
  {
    hostname: '127.0.0.1',
    port,
    onListen({ hostname, port }) {
      console.log(`A2A demo on Deno listening on http://${hostname}:${port}/`);
    },
  },
  handler,
);
Deno.addSignalListener?.('SIGINT', () => server.shutdown());
