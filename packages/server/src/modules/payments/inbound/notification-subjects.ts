import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { PaymentRow } from '../attempts/payment-rows.service';
import type { RefundRow } from '../refunds/refunds.service';
import type { NotificationRow } from './notifications.repository';

/**
 * The payment a notification is about: the M-Pesa token's own payment (whose `CheckoutRequestID` must then be
 * the notification's, or a token was replayed for another prompt: `mismatch`), else the configuration's
 * payment with that provider reference.
 */
export async function paymentOf(db: Executor, scope: Scope, row: NotificationRow): Promise<PaymentRow | undefined | 'mismatch'> {
  const q = scoped(db, scope).selectFrom('payments').selectAll().where('provider_config_id', '=', row.provider_config_id);
  if (row.subject_id) {
    const payment = await q.where('id', '=', row.subject_id).executeTakeFirst();
    if (payment && payment.provider_reference && row.reference && payment.provider_reference !== row.reference) return 'mismatch';
    // Recorded, but its reference not yet: the push's answer is still being written.
    if (payment && !payment.provider_reference) return undefined;
    return payment;
  }
  if (!row.reference) return undefined;
  return q.where('provider_reference', '=', row.reference).executeTakeFirst();
}

/** The refund a notification is about (the reversal's token, else the provider's refund id), with its payment. */
export async function refundOf(db: Executor, scope: Scope, row: NotificationRow): Promise<{ refund: RefundRow; payment: PaymentRow } | undefined> {
  const q = scoped(db, scope).selectFrom('refunds').selectAll().where('provider_config_id', '=', row.provider_config_id);
  const refund = row.subject_id
    ? await q.where('id', '=', row.subject_id).executeTakeFirst()
    : row.reference
      ? await q.where('provider_reference', '=', row.reference).executeTakeFirst()
      : undefined;
  if (!refund?.payment_id) return undefined;
  const payment = await scoped(db, scope).selectFrom('payments').selectAll().where('id', '=', refund.payment_id).executeTakeFirst();
  return payment ? { refund, payment } : undefined;
}

/** Records a receipt learnt after the payment settled; `false` when another notice recorded one first. */
export async function fillReceipt(db: Executor, scope: Scope, paymentId: string, receipt: string): Promise<boolean> {
  const r = await scoped(db, scope)
    .updateTable('payments')
    .set({ provider_receipt: receipt, updated_at: new Date() })
    .where('id', '=', paymentId)
    .where('provider_receipt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
