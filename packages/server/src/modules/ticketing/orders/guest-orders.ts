import { scoped } from '../../../core/scope';
import type { SignInListener } from '../../identity';
import { addOnsOf, registeredOrderKind } from './order-kinds';

/**
 * A buyer's orders are theirs once they sign in (products-api § 3.1, issue: guest checkout): orders of this
 * tenant and environment made without a customer, whose buyer email or phone is the one the person just
 * proved, take their customer. Orders of another customer, tenant or environment are never touched. The module
 * of each kind then passes what those orders granted (commerce: digital goods, of ticket orders' add-ons too),
 * in the same transaction.
 */
export const claimGuestOrders: SignInListener = async (trx, scope, person) => {
  const claimed = await scoped(trx, scope)
    .updateTable('orders')
    .set({ customer_id: person.customerId, updated_at: new Date() })
    .where('customer_id', 'is', null)
    .where(person.kind === 'email' ? 'buyer_email' : 'buyer_phone', '=', person.value)
    .returningAll()
    .execute();
  for (const kind of ['product', 'subscription'] as const) {
    const orders = claimed.filter((o) => o.kind === kind || (kind === 'product' && addOnsOf(o)));
    const handler = orders.length ? registeredOrderKind(kind) : undefined;
    if (handler?.claimed) await handler.claimed(trx, scope, person.customerId, orders);
  }
};
