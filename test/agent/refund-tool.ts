/** The tool the approval tests ask a person about: `refund`, which needs approval and records each order it refunds. */
import * as z from 'zod';
import { defineTool } from '../../src/tools/index.js';

/** `refund({ orderId })`, pushing the order id to `refunded` and answering `{ orderId, refunded: true, ...extra }`. */
export function refundTool(refunded: string[], extra: Record<string, unknown> = {}) {
  return defineTool({
    name: 'refund',
    description: 'Refunds an order.',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: ({ orderId }) => (refunded.push(orderId), { orderId, refunded: true, ...extra }),
  });
}
