import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { PaymentRow, TogetherPlan } from '../../payments';
import { lockOrdersWithCatalogue } from '../checkout/checkout-sessions.service';
import { payHeldOrders, type LockedOrder } from './order-port';

/**
 * Confirmed payments of one scope that pay their orders together (`PaymentTarget.paymentsSucceededTogether`):
 * the orders locked in id order with their catalogue, then only the plain case is taken, as the simulator's
 * batch takes it: a ticket order still pending, its seats held, no coupon, no add-ons, its event not cancelled,
 * the payment all that is due, and one payment of the order in the batch. Every other payment (a late one, a
 * duplicate, a part payment, a cancelled event) is left to `paymentSucceeded`, which refunds or counts it.
 * `pay` completes their checkout sessions and pays the orders in one statement per step, the event's
 * capacity rows moved once, last.
 */
export async function paymentsSucceededTogether(trx: Transaction<DB>, ctx: AppContext, scope: Scope, payments: readonly PaymentRow[]): Promise<TogetherPlan> {
  const seen = new Set<string>();
  const firsts = payments.filter((p) => !seen.has(p.order_id) && (seen.add(p.order_id), true));
  const locked = await lockOrdersWithCatalogue(trx, [...seen]);
  const plain = firsts
    .map((payment) => ({ payment, locked: locked.get(payment.order_id) }))
    .filter(
      (c): c is { payment: PaymentRow; locked: LockedOrder } =>
        c.locked !== undefined &&
        c.locked.order.tenant_id === scope.tenantId &&
        c.locked.order.livemode === scope.livemode &&
        c.locked.order.kind === 'ticket' &&
        c.locked.order.status === 'pending' &&
        c.locked.order.seats_state === 'held' &&
        c.locked.order.coupon_id === null &&
        c.locked.order.amount_add_ons === null &&
        c.locked.event.status !== 'cancelled' &&
        c.locked.order.amount_paid + c.payment.amount === c.locked.order.amount_total,
    );
  return {
    ids: new Set(plain.map((c) => c.payment.id)),
    pay: async (succeeded) => {
      const paid = new Set(succeeded.map((p) => p.id));
      const paying = plain.filter((c) => paid.has(c.payment.id));
      if (paying.length !== plain.length) throw new Error('paymentsSucceededTogether: not every payment taken was marked succeeded');
      const sessions = paying.map((c) => c.payment.checkout_session_id).filter((id): id is string => id !== null);
      if (sessions.length > 0) {
        await scoped(trx, scope)
          .updateTable('checkout_sessions')
          .set({ status: 'complete', completed_at: new Date() })
          .where('id', 'in', sessions)
          .where('status', 'in', ['open', 'expired'])
          .execute();
      }
      await payHeldOrders(trx, ctx, scope, paying.map((c) => c.locked), paying.map(() => null));
    },
  };
}
