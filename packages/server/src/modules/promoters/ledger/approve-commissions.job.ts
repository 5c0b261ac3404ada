import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import { defineJob, schedulePayload } from '../../../jobs/job-definition';
import type { JobDefinition } from '../../../jobs/queue';
import { approveDue } from './commissions.service';
import { findCommission } from './commissions.repository';
import { serializeCommission } from './commissions.serializer';

const nowOf = (ctx: AppContext) => (ctx.clock ? ctx.clock() : new Date());

/** Every 10 minutes: pending entries whose `available_at` passed, while their order is still paid or partly refunded. */
export const approveCommissions = defineJob({
  name: 'promoters-approve-commissions',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 1 },
  expireInSeconds: 300,
  schedule: '*/10 * * * *',
});

/** Approves in batches until none is due (each batch its own transaction; rows another run holds are skipped). */
export async function approveDueCommissions(ctx: AppContext): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await ctx.db.transaction().execute((trx) => approveDue(trx, nowOf(ctx)));
    total += moved.length;
    if (moved.length < 500) return total;
  }
}

export const approveCommissionsJob = (ctx: AppContext): JobDefinition => ({ ...approveCommissions, handler: async () => void (await approveDueCommissions(ctx)) });

/** The test helper: the entry's `available_at` becomes now, then the approval runs for its order. */
export async function approveNow(ctx: AppContext, scope: Scope, id: string) {
  const entry = await findCommission(ctx.db, scope, id);
  if (!entry) throw ApiError.notFound('commission', id);
  const now = nowOf(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('commissions').set({ available_at: now }).where('order_id', '=', entry.order_id).where('status', '=', 'pending').where('available_at', '>', now).execute();
    await approveDue(trx, now, { scope, orderId: entry.order_id });
  });
  return serializeCommission((await findCommission(ctx.db, scope, id))!);
}
