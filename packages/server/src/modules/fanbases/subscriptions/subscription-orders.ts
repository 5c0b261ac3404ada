import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { Scope } from '../../../core/scope';
import type { SubscriptionRow, TierRow } from '../../../db/fanbases.schema';
import type { DB } from '../../../db/schema';
import { findCustomer } from '../../identity';
import { createOrder, type PreparedOrder } from '../../ticketing';

/** How long a first order waits to be paid before the subscription expires unpaid. */
export const FIRST_ORDER_MINUTES = 60;

const intervalName = { month: 'monthly', year: 'yearly', one_time: 'one-time' } as const;
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * A `subscription` order for one period of the subscription (products-api § 3.1), made by ticketing in the
 * caller's transaction with its checkout session: the first order (no period yet) or a renewal's.
 */
export async function createSubscriptionOrder(
  trx: Transaction<DB>,
  ctx: AppContext,
  scope: Scope,
  sub: SubscriptionRow,
  tier: TierRow,
  period: { start: Date | null; end: Date | null; amount: number; expiresAt: Date; redirectUrl?: string | null },
  prepared: PreparedOrder,
) {
  const customer = await findCustomer(trx, scope, sub.customer);
  const label = period.start && period.end ? `${day(period.start)} to ${day(period.end)}` : intervalName[sub.interval];
  return createOrder(trx, ctx, scope, {
    kind: 'subscription',
    organizationId: sub.organization_id,
    currency: sub.currency,
    buyer: { name: customer?.name ?? null, email: customer?.email ?? null, phone: customer?.phone ?? sub.phone ?? null },
    customerId: sub.customer,
    lineItems: [
      {
        description: `${tier.name} (${label})`,
        quantity: 1,
        unitAmount: period.amount,
        subscription: { subscription: sub.id, tier: tier.id, period_start: period.start?.toISOString() ?? null, period_end: period.end?.toISOString() ?? null },
      },
    ],
    expiresAt: period.expiresAt,
    redirectUrl: period.redirectUrl ?? null,
    subscriptionId: sub.id,
    prepared,
  });
}
