import { sql } from 'kysely';
import type { AppContext } from '../../../core/context';
import type { UserPrincipal } from '../../../core/principal';
import { nowOf } from '../orders/order-transitions';

/**
 * The signed-in customer's figures: events with a valid ticket of theirs (as attendee or buyer), upcoming until
 * they end; valid tickets for those upcoming events; and what their orders paid minus what was refunded.
 * Read from their own rows (a customer's orders and tickets are few; the indexes on `customer_id` find them).
 */
export async function attendeeDashboard(ctx: AppContext, principal: UserPrincipal) {
  const empty = { upcoming_events: 0, past_events: 0, active_tickets: 0, total_spent: 0, currency: 'KES' };
  const customer = principal.customerId;
  if (!customer) return empty;
  const { tenantId, livemode } = principal.scope;
  const now = nowOf(ctx);
  const { rows } = await sql<{ upcoming: string; past: string; active: string }>`
    select count(distinct t.event_id) filter (where e.ends_at > ${now}) as upcoming,
      count(distinct t.event_id) filter (where e.ends_at <= ${now}) as past,
      count(*) filter (where e.ends_at > ${now}) as active
    from tickets t join orders o on o.id = t.order_id join ticketed_events e on e.id = t.event_id
    where t.tenant_id = ${tenantId} and t.livemode = ${livemode} and t.status = 'valid'
      and (t.customer_id = ${customer} or o.customer_id = ${customer})`.execute(ctx.db);
  const spent = await sql<{ spent: string | null }>`
    select sum(amount_paid - amount_refunded) as spent from orders
    where tenant_id = ${tenantId} and livemode = ${livemode} and customer_id = ${customer}`.execute(ctx.db);
  const r = rows[0]!;
  return {
    upcoming_events: Number(r.upcoming),
    past_events: Number(r.past),
    active_tickets: Number(r.active),
    total_spent: Number(spent.rows[0]?.spent ?? 0) / 100,
    currency: 'KES',
  };
}
