import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import { deleteInBatches, olderThanDays } from '../../../core/retention';
import type { Executor } from '../../../db/database';
import { defineJob, schedulePayload, type JobDefinition } from '../../../jobs/job-definition';

/**
 * Deletes payment notifications applied more than `days` ago, and the callback tokens of operations started
 * before then. A notification is only a hint (the provider's own state decides), so a retry that arrives after
 * its row went is applied again and changes nothing; a row not yet applied always stays.
 */
export async function purgePaymentNotifications(db: Executor, days: number): Promise<number> {
  const notices = await deleteInBatches(db, 'payment_notifications', sql<boolean>`applied_at is not null and ${olderThanDays('received_at', days)}`);
  const tokens = await deleteInBatches(db, 'payment_callback_tokens', olderThanDays('created_at', days));
  return notices + tokens;
}

export const purgePaymentNotificationsType = defineJob({
  name: 'payments-purge-notifications',
  version: 1,
  payload: schedulePayload(),
  retry: { limit: 2 },
  schedule: '29 * * * *',
  expireInSeconds: 600,
});

export const purgePaymentNotificationsJob = (ctx: AppContext): JobDefinition => ({
  ...purgePaymentNotificationsType,
  handler: async () => {
    await purgePaymentNotifications(ctx.db, ctx.config.SVC_RETAIN_PROVIDER_NOTIFICATIONS_DAYS);
  },
});
