import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../../db/database';
import type { PaymentNotificationsTable } from '../../../db/payments.schema';

export type NotificationRow = Selectable<PaymentNotificationsTable>;

/** A configuration by its id alone: the inbound address names it, and it names its tenant and environment. */
export const findConfigById = (db: Executor, id: string) => db.selectFrom('payment_provider_configs').selectAll().where('id', '=', id).executeTakeFirst();

export const findCallbackToken = (db: Executor, configId: string, tokenHash: string) =>
  db.selectFrom('payment_callback_tokens').select(['subject_id', 'subject_type']).where('token_hash', '=', tokenHash).where('provider_config_id', '=', configId).executeTakeFirst();

/** Records a notification once per configuration and provider event id; `undefined` when it was already there. */
export const insertNotification = (db: Executor, row: Insertable<PaymentNotificationsTable>) =>
  db
    .insertInto('payment_notifications')
    .values(row)
    .onConflict((oc) => oc.columns(['provider_config_id', 'provider_event_id']).doNothing())
    .returning(['id'])
    .executeTakeFirst();

export const findNotification = (db: Executor, id: string) => db.selectFrom('payment_notifications').selectAll().where('id', '=', id).executeTakeFirst();

/** Counts a try; the row is taken by whoever applies it, so the count only informs the operator and the give-up. */
export const countTry = (db: Executor, id: string) =>
  db.updateTable('payment_notifications').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', id).returning(['attempts']).executeTakeFirstOrThrow();

export const noteError = (db: Executor, id: string, error: string) => db.updateTable('payment_notifications').set({ last_error: error.slice(0, 500) }).where('id', '=', id).execute();

/** Marks a notification applied, once: a second apply of the same row finds it done. */
export const markApplied = (db: Executor, id: string, outcome: string, subjectId: string | null) =>
  db
    .updateTable('payment_notifications')
    .set({ applied_at: new Date(), outcome, subject_id: subjectId, last_error: null })
    .where('id', '=', id)
    .where('applied_at', 'is', null)
    .execute();
