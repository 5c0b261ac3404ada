import type { AppContext } from '../../../core/context';
import { lockDuePayments, type PaymentRow } from '../attempts/payment-rows.service';
import { lockDueRefunds, type RefundRow } from '../refunds/refunds.service';
import { claimRows } from './claim-rows';

/** How long a claimed row is left to the process that claimed it before another may take it. */
const LEASE_MS = 120_000;

/**
 * Takes due rows with skip-locked and moves their next check a lease ahead, in one short transaction: the
 * provider calls then run without holding a lock, and another process skips what this one took.
 */
export async function claimDue(ctx: AppContext, now: Date, limit: number): Promise<{ payments: PaymentRow[]; refunds: Array<{ refund: RefundRow; payment: PaymentRow }> }> {
  return ctx.db.transaction().execute(async (trx) => {
    const payments = await lockDuePayments(trx, now, limit);
    const refunds = await lockDueRefunds(trx, now, limit);
    const lease = new Date(now.getTime() + LEASE_MS);
    await claimRows(trx, payments.map((p) => p.id), refunds.map((r) => r.id), lease);
    const paymentIds = [...new Set(refunds.map((r) => r.payment_id).filter((id): id is string => id !== null))];
    const paid = paymentIds.length === 0 ? [] : await trx.selectFrom('payments').selectAll().where('id', 'in', paymentIds).execute();
    const byId = new Map(paid.map((p) => [p.id, p]));
    return { payments, refunds: refunds.filter((r) => r.payment_id && byId.has(r.payment_id)).map((refund) => ({ refund, payment: byId.get(refund.payment_id!)! })) };
  });
}
