import { scoped } from '../../../core/scope';
import type { SignInListener } from '../../identity';

/**
 * A buyer's orders are theirs once they sign in (products-api § 3.1, issue: guest checkout): orders of this
 * tenant and environment made without a customer, whose buyer email or phone is the one the person just
 * proved, take their customer. Orders of another customer, tenant or environment are never touched.
 */
export const claimGuestOrders: SignInListener = async (db, scope, person) => {
  await scoped(db, scope)
    .updateTable('orders')
    .set({ customer_id: person.customerId, updated_at: new Date() })
    .where('customer_id', 'is', null)
    .where(person.kind === 'email' ? 'buyer_email' : 'buyer_phone', '=', person.value)
    .execute();
};
