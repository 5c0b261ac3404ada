import { z } from 'zod';
import type { AppContext } from '../../../core/context';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';
import { nowOf } from './order-transitions';
import { duePendingOrders } from './orders.repository';
import { expireOrderIfDue } from './orders.service';

/** Sent with each pending order, to start at its `expires_at`. */
export const expireOrder = defineJob({
  name: 'ticketing-expire-order',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), order_id: z.string() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
});

/** Every minute, for orders whose own job was lost (or whose hold was shortened): the safety net. */
export const expireDueOrders = defineJob({
  name: 'ticketing-expire-due-orders',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '* * * * *',
});

export async function expireDuePendingOrders(ctx: AppContext): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await duePendingOrders(ctx.db, nowOf(ctx), 200);
    for (const o of due) {
      if (await expireOrderIfDue(ctx, { tenantId: o.tenant_id, livemode: o.livemode }, o.id)) expired++;
    }
    if (due.length < 200) return expired;
  }
}

export const orderExpiryJobs = (ctx: AppContext): JobDefinition<any>[] => [
  {
    ...expireOrder,
    handler: async (payloads) => {
      for (const p of payloads) await expireOrderIfDue(ctx, { tenantId: p.tenant_id, livemode: p.livemode }, p.order_id);
    },
  },
  {
    ...expireDueOrders,
    handler: async () => {
      await expireDuePendingOrders(ctx);
    },
  },
];
