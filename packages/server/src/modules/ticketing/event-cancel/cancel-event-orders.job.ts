import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import { defineJob, type JobDefinition } from '../../../jobs/job-definition';
import { settleOrderOfCancelledEvent } from './settle-order.service';

export const cancelEventOrders = defineJob({
  name: 'ticketing-cancel-event-orders',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), event_id: z.string() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 900,
});

const BATCH = 100;

/**
 * Cancels an event's pending orders and refunds its paid ones, one order per transaction, walking the
 * orders by id: a large event is worked through in pieces, and a job run again (a retry, a lost process)
 * starts over and finds only what is still to do.
 */
export async function cancelOrdersOfEvent(ctx: AppContext, scope: Scope, eventId: string, batch = BATCH): Promise<number> {
  let after = '';
  let settled = 0;
  for (;;) {
    const ids = await ctx.db
      .selectFrom('orders')
      .select('id')
      .where('event_id', '=', eventId)
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .where('status', 'in', ['pending', 'paid', 'partially_refunded'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute();
    for (const { id } of ids) if (await settleOrderOfCancelledEvent(ctx, scope, id)) settled++;
    if (ids.length < batch) return settled;
    after = ids.at(-1)!.id;
  }
}

export const cancelEventOrdersJob = (ctx: AppContext): JobDefinition<z.infer<typeof cancelEventOrders.payload>> => ({
  ...cancelEventOrders,
  handler: async (payloads) => {
    for (const p of payloads) await cancelOrdersOfEvent(ctx, { tenantId: p.tenant_id, livemode: p.livemode }, p.event_id);
  },
});
