import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Executor } from '../../../db/database';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';

/** Units per variant that pending orders hold, as their rows say, for the variants whose `reserved` differs. */
async function driftingVariants(db: Executor): Promise<{ id: string }[]> {
  const { rows } = await sql<{ id: string }>`
    with held as (
      select l->>'variant' as variant_id, sum((l->>'quantity')::int)::int as n
      from product_orders po cross join jsonb_array_elements(po.lines) l
      where po.stock_state = 'held'
      group by 1)
    select v.id from product_variants v left join held h on h.variant_id = v.id
    where v.reserved <> coalesce(h.n, 0)`.execute(db);
  return rows;
}

/**
 * Sets one variant's `reserved` to the units its pending orders hold, under the variant's row lock: an order
 * reserving meanwhile waits for the lock, and the count, read after it, includes every order committed before.
 * Answers the drift found, or 0.
 */
async function correctVariant(db: Executor, id: string): Promise<{ before: number; after: number } | null> {
  return db.transaction().execute(async (trx) => {
    const variant = await trx.selectFrom('product_variants').select(['reserved']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!variant) return null;
    const { rows } = await sql<{ n: number }>`
      select coalesce(sum((l->>'quantity')::int), 0)::int as n
      from product_orders po cross join jsonb_array_elements(po.lines) l
      where po.stock_state = 'held' and l->>'variant' = ${id}`.execute(trx);
    const held = rows[0]?.n ?? 0;
    if (held === variant.reserved) return null;
    await trx.updateTable('product_variants').set({ reserved: held }).where('id', '=', id).execute();
    return { before: variant.reserved, after: held };
  });
}

/** Every variant's `reserved` checked against its pending orders; each drift corrected and logged. */
export async function recomputeReserved(ctx: Pick<AppContext, 'db' | 'log'>): Promise<number> {
  let corrected = 0;
  for (const { id } of await driftingVariants(ctx.db)) {
    const drift = await correctVariant(ctx.db, id);
    if (!drift) continue;
    corrected++;
    ctx.log.warn({ variant: id, reserved: drift.before, held: drift.after }, 'commerce: a variant\'s reserved units drifted from its pending orders; corrected');
  }
  return corrected;
}

export const recomputeReservedType = defineJob({
  name: 'commerce-recompute-reserved',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '17 3 * * *',
  expireInSeconds: 600,
});

export const recomputeReservedJob = (ctx: AppContext): JobDefinition => ({
  ...recomputeReservedType,
  handler: async () => {
    await recomputeReserved(ctx);
  },
});
