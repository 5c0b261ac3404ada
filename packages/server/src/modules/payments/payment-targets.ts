import type { Transaction } from 'kysely';
import type { AppContext } from '../../core/context';
import type { Scope } from '../../core/scope';
import type { DB } from '../../db/schema';
import type { PaymentRow } from './attempts/payment-rows.service';
import type { RefundRow } from './refunds/refunds.service';

/**
 * What the product that owns an order does when payments learn something about its money. Payments owns the
 * attempt and the refund at the provider; the order (seats, tickets, stream, its own refund policy) stays with
 * its product, which registers here (payments cannot import it: the dependency points the other way).
 */
export interface PaymentTarget {
  /**
   * A payment of the order was confirmed; the caller holds the payment's row lock and has marked it
   * `succeeded`. Counts it on the order, or refunds it (duplicate, late payment, order cancelled). Answers
   * whether it arrived after its order stopped waiting.
   */
  paymentSucceeded(trx: Transaction<DB>, ctx: AppContext, scope: Scope, payment: PaymentRow): Promise<{ late: boolean }>;
  /**
   * Optional, for many confirmations at once: of several `pending` payments of one scope whose provider
   * confirmed their whole amount (locked by the caller), those whose orders this product can pay together in
   * the caller's transaction (`ids`; it locks their orders), and `pay`, called once the caller has marked exactly
   * those payments `succeeded`, which counts them as `paymentSucceeded` would, none of them late. The others
   * are left untouched, for the caller to settle one by one.
   */
  paymentsSucceededTogether?(trx: Transaction<DB>, ctx: AppContext, scope: Scope, payments: readonly PaymentRow[]): Promise<TogetherPlan>;
  /** A refund that was `pending` settled (`succeeded` or `failed`); the caller holds the refund's row lock. */
  refundSettled(trx: Transaction<DB>, ctx: AppContext, scope: Scope, refund: RefundRow): Promise<void>;
}

/** The payments a product takes together, and how it counts them once they are `succeeded`. */
export interface TogetherPlan {
  ids: ReadonlySet<string>;
  pay(succeeded: readonly PaymentRow[]): Promise<void>;
}

let target: PaymentTarget | undefined;

/** Called by the orders' product when its module is set up. */
export function registerPaymentTarget(t: PaymentTarget): void {
  target = t;
}

export function paymentTarget(): PaymentTarget {
  if (!target) throw new Error('no product takes payments: is ticketing in the module list?');
  return target;
}
