import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import type { Executor } from '../../../db/database';

const HOUR_MS = 3_600_000;
export const windowOf = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Counts one live send of the tenant in the current clock hour, unless the hour's cap is reached: one
 * conditional upsert, so concurrent sends cannot pass the cap together. Answers whether it was counted.
 */
export async function takeSendSlot(db: Executor, tenantId: string, now: Date, cap: number): Promise<boolean> {
  const row = await db
    .insertInto('message_send_windows')
    .values({ tenant_id: tenantId, window_start: windowOf(now), sent: 1 })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'window_start'])
        .doUpdateSet({ sent: sql<number>`message_send_windows.sent + 1` })
        .where('message_send_windows.sent', '<', cap),
    )
    .returning('sent')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * `429 send_cap_exceeded` when the tenant already sent its hourly cap of live messages: a request that would
 * send one (a sign-in code, a resend) is refused up front rather than accepted and failed later.
 */
export async function checkSendCap(ctx: AppContext, tenantId: string): Promise<void> {
  const now = ctx.clock ? ctx.clock() : new Date();
  const start = windowOf(now);
  const row = await ctx.db
    .selectFrom('message_send_windows')
    .select('sent')
    .where('tenant_id', '=', tenantId)
    .where('window_start', '=', start)
    .executeTakeFirst();
  if ((row?.sent ?? 0) < ctx.config.SVC_MESSAGES_PER_HOUR) return;
  const retryAfter = Math.max(1, Math.ceil((start.getTime() + HOUR_MS - now.getTime()) / 1000));
  throw ApiError.of('send_cap_exceeded', {
    message: `This tenant sent its ${ctx.config.SVC_MESSAGES_PER_HOUR} live messages of this hour.`,
    headers: { 'Retry-After': String(retryAfter) },
  });
}
