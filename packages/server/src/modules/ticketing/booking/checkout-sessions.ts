import type { Insertable, Transaction } from 'kysely';
import { randomToken } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import type { CheckoutSessionsTable } from '../../../db/ticketing.schema';

/**
 * A checkout session's id is its only credential (the checkout page and its API are public), so it is
 * `cs_` and 32 random base62 characters (about 190 bits), not a time-ordered id.
 */
export const newCheckoutSessionId = () => `cs_${randomToken(32)}`;
export const isCheckoutSessionId = (id: string) => /^cs_[0-9A-Za-z]{32}$/.test(id);

export const checkoutUrl = (baseUrl: string, id: string) => `${baseUrl.replace(/\/$/, '')}/checkout/${id}`;

export interface NewCheckoutSession {
  orderId: string;
  amount: number;
  currency: string;
  redirectUrl: string | null;
  expiresAt: Date;
}

/** A new session's row (its id drawn here), for `insertCheckoutSession` or to insert alongside another statement. */
export function checkoutSessionRow(scope: Scope, s: NewCheckoutSession): Insertable<CheckoutSessionsTable> & { id: string } {
  return {
    id: newCheckoutSessionId(),
    tenant_id: scope.tenantId,
    livemode: scope.livemode,
    order_id: s.orderId,
    amount: s.amount,
    currency: s.currency,
    redirect_url: s.redirectUrl,
    expires_at: s.expiresAt,
  };
}

export async function insertCheckoutSession(trx: Transaction<DB>, scope: Scope, s: NewCheckoutSession): Promise<string> {
  const row = checkoutSessionRow(scope, s);
  await trx.insertInto('checkout_sessions').values(row).execute();
  return row.id;
}
