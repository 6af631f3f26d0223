// The tools the MCP demo serves: an order desk whose tools fail in every way a tool can. They are plain faultline
// tools (`defineTool`), the same objects an agent could use locally — which is what the demo compares against.
//   get_order       succeeds for A-1001; a structured DataNotFoundError (context + suggestion) for any other id
//   refund_order    crashes: an Error naming an internal host and holding an API key (the key is a configured secret)
//   track_shipment  hangs (ignoring its signal) past its 300 ms timeout
// It takes the SDK namespace so the same file runs with `import * as F from 'faultline'` or from `dist/`.
import * as z from 'zod';

/** A key the refund tool "uses": listed in `secrets`, so it must never reach a model, a client or a log. */
export const PLANTED_KEY = 'sk-live-ORDERS-PLANTED-5f3a9c1e7b2d';
/** An internal host named by the crash: the developer log may show it, the model must not. */
export const INTERNAL_HOST = 'orders-db-7.internal.acme-corp.lan';

export const SERVER_INFO = { name: 'order-desk', version: '1.0.0' };

const ORDERS = new Map([['A-1001', { order_id: 'A-1001', status: 'shipped', items: 2, total_eur: 59.9 }]]);

/** @param {typeof import('faultline')} F the SDK namespace */
export function createOrderTools(F) {
  const { DataNotFoundError, defineTool } = F;
  const orderId = z.object({ order_id: z.string().regex(/^A-\d{4}$/, 'an order id like A-1001') });
  const getOrder = defineTool({
    name: 'get_order',
    description: 'Status, items and total of an order, by id (A-1234).',
    parameters: orderId,
    execute: async ({ order_id }) => {
      const order = ORDERS.get(order_id);
      if (!order) {
        throw new DataNotFoundError(`No order ${order_id} exists.`, {
          context: { order_id, searched: 'orders placed in the last 24 months' },
          suggestion: 'Ask the customer for the order id printed on the confirmation e-mail.',
        });
      }
      return order;
    },
  });
  const refundOrder = defineTool({
    name: 'refund_order',
    description: 'Refund an order in full.',
    parameters: z.object({ order_id: z.string(), reason: z.string().optional() }),
    execute: async () => {
      // What a real crash looks like: a driver error quoting the connection string.
      throw new Error(`connect ECONNREFUSED ${INTERNAL_HOST}:5432 (postgres://refunds:${PLANTED_KEY}@${INTERNAL_HOST}/payments)`);
    },
  });
  const trackShipment = defineTool({
    name: 'track_shipment',
    description: 'Where the parcel of an order is now.',
    parameters: orderId,
    timeoutMs: 300,
    execute: () => new Promise(() => {}), // never settles and ignores its signal: the timeout still fires
  });
  return [getOrder, refundOrder, trackShipment];
}
