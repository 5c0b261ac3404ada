import { sql, type Selectable, type Transaction } from 'kysely';
import type { CheckoutSession } from '@svc/contract';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import { eventFromJson, ticketTypeFromJson, type EventRow, type TicketTypeRow } from '../booking/catalogue-reads';
import { checkoutUrl, insertCheckoutSession, isCheckoutSessionId } from '../booking/checkout-sessions';
import type { OrderRow } from '../orders/order-rows.service';
import type { CheckoutSessionsTable } from '../../../db/ticketing.schema';

export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;

/** A session by its id alone, in either mode: the id is the credential of the public checkout page. */
export async function findSession(db: Executor, id: string): Promise<CheckoutSessionRow | undefined> {
  if (!isCheckoutSessionId(id)) return undefined;
  return db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization of the session's order (a ticket order's is its event's): its brand dresses the page. */
export async function sessionOrganization(db: Executor, session: CheckoutSessionRow): Promise<string | null> {
  const row = await db.selectFrom('orders').select('organization_id').where('id', '=', session.order_id).where('tenant_id', '=', session.tenant_id).executeTakeFirst();
  return row?.organization_id ?? null;
}

export const scopeOfSession = (s: CheckoutSessionRow): Scope => ({ tenantId: s.tenant_id, livemode: s.livemode });

/** An order locked for a payment: a ticket order with its event and ticket type, any other kind without. */
export type LockedForPayment = { order: OrderRow; event: EventRow; ticketType: TicketTypeRow } | { order: OrderRow; event: null; ticketType: null };

/**
 * The session's order, locked (`FOR UPDATE` of the order alone: the event and ticket type rows are shared by
 * every payment), with its event and ticket type when it is a ticket order, in one statement.
 */
export async function lockOrderWithCatalogue(trx: Transaction<DB>, orderId: string): Promise<LockedForPayment> {
  const row = await trx
    .selectFrom('orders as o')
    .leftJoin('ticketed_events as e', 'e.id', 'o.event_id')
    .leftJoin('ticket_types as t', 't.id', 'o.ticket_type_id')
    .selectAll('o')
    .select([sql<Record<string, unknown> | null>`to_json(e)`.as('catalogue_event'), sql<Record<string, unknown> | null>`to_json(t)`.as('catalogue_ticket_type')])
    .where('o.id', '=', orderId)
    .forUpdate('o')
    .executeTakeFirstOrThrow();
  const { catalogue_event, catalogue_ticket_type, ...order } = row;
  if (!catalogue_event || !catalogue_ticket_type) return { order, event: null, ticketType: null };
  return { order, event: eventFromJson(catalogue_event), ticketType: ticketTypeFromJson(catalogue_ticket_type) };
}

/**
 * `lockOrderWithCatalogue` for several orders in one statement, locked in id order (as every batch of them
 * takes them, so two batches never wait for each other crosswise); answers them by id.
 */
export async function lockOrdersWithCatalogue(trx: Transaction<DB>, orderIds: readonly string[]): Promise<Map<string, { order: OrderRow; event: EventRow; ticketType: TicketTypeRow }>> {
  if (orderIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('orders as o')
    .innerJoin('ticketed_events as e', 'e.id', 'o.event_id')
    .innerJoin('ticket_types as t', 't.id', 'o.ticket_type_id')
    .selectAll('o')
    .select([sql<Record<string, unknown>>`to_json(e)`.as('catalogue_event'), sql<Record<string, unknown>>`to_json(t)`.as('catalogue_ticket_type')])
    .where('o.id', 'in', [...orderIds])
    .orderBy('o.id')
    .forUpdate('o')
    .execute();
  return new Map(
    rows.map(({ catalogue_event, catalogue_ticket_type, ...order }) => [
      order.id,
      { order, event: eventFromJson(catalogue_event), ticketType: ticketTypeFromJson(catalogue_ticket_type) },
    ]),
  );
}

/** The session with the order summary the page shows: no buyer details. */
export async function describeSession(db: Executor, session: CheckoutSessionRow, baseUrl: string): Promise<Omit<CheckoutSession, 'methods' | 'latest_payment' | 'redirect_to'>> {
  const o = await db
    .selectFrom('orders as o')
    .innerJoin('organizations as g', 'g.id', 'o.organization_id')
    .leftJoin('ticketed_events as e', 'e.id', 'o.event_id')
    .leftJoin('ticket_types as t', 't.id', 'o.ticket_type_id')
    .select([
      'o.id', 'o.code', 'o.status', 'o.kind', 'o.quantity', 'o.amount_total', 'o.amount_discount', 'o.amount_paid', 'o.expires_at',
      'g.id as organization_id', 'g.name as organization_name',
      'e.name as event_name', 'e.starts_at as event_starts_at', 'e.venue as event_venue', 't.name as ticket_type_name',
    ])
    .where('o.id', '=', session.order_id)
    .where('o.tenant_id', '=', session.tenant_id)
    .executeTakeFirstOrThrow();
  const lines = await db
    .selectFrom('line_items')
    .select(['description', 'quantity', 'amount_total'])
    .where('order_id', '=', o.id)
    .where('tenant_id', '=', session.tenant_id)
    .orderBy('position')
    .execute();
  return {
    id: session.id,
    object: 'checkout_session',
    livemode: session.livemode,
    status: session.status,
    amount: session.amount,
    currency: session.currency,
    url: checkoutUrl(baseUrl, session.id),
    expires_at: new Date(session.expires_at).toISOString(),
    order: {
      id: o.id,
      code: o.code,
      status: o.status,
      kind: o.kind,
      organization: { id: o.organization_id, name: o.organization_name },
      event:
        o.kind === 'ticket' && o.event_name !== null && o.event_starts_at !== null
          ? { name: o.event_name, starts_at: new Date(o.event_starts_at).toISOString(), venue: o.event_venue ?? null }
          : null,
      ticket_type: o.kind === 'ticket' && o.ticket_type_name !== null ? { name: o.ticket_type_name } : null,
      line_items: lines,
      quantity: o.quantity,
      amount_total: o.amount_total,
      amount_discount: o.amount_discount,
      amount_paid: o.amount_paid,
      amount_due: Math.max(0, o.amount_total - o.amount_paid),
      expires_at: o.expires_at === null ? null : new Date(o.expires_at).toISOString(),
    },
  };
}


/**
 * A new session for `amount` of an order (made as booking makes its own); any open one of the same order is
 * marked `expired` first, so an order has one payable session at a time.
 */
export async function openSession(
  trx: Transaction<DB>,
  scope: Scope,
  s: { orderId: string; amount: number; currency: string; redirectUrl: string | null; expiresAt: Date },
): Promise<string> {
  await scoped(trx, scope).updateTable('checkout_sessions').set({ status: 'expired' }).where('order_id', '=', s.orderId).where('status', '=', 'open').execute();
  return insertCheckoutSession(trx, scope, s);
}
