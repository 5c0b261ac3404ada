import { sql, type Insertable, type QueryCreator, type Selectable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { TicketsTable } from '../../../db/ticketing.schema';

export type TicketRow = Selectable<TicketsTable>;
export type NewTicket = Omit<Insertable<TicketsTable>, 'tenant_id' | 'livemode'>;

/** `db` may carry a `with` clause: a statement that runs in the same round trip (booking's checkout session). */
export async function insertTickets(db: Pick<QueryCreator<DB>, 'insertInto'>, scope: Scope, tickets: readonly NewTicket[]): Promise<TicketRow[]> {
  if (tickets.length === 0) return [];
  return db
    .insertInto('tickets')
    .values(tickets.map((t) => ({ ...t, tenant_id: scope.tenantId, livemode: scope.livemode })))
    .returningAll()
    .execute();
}

export async function ticketsOfOrders(db: Executor, scope: Scope, orderIds: readonly string[]): Promise<TicketRow[]> {
  if (orderIds.length === 0) return [];
  return scoped(db, scope).selectFrom('tickets').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('position').execute();
}

export async function setTicketStatus(db: Executor, scope: Scope, orderId: string, from: readonly TicketRow['status'][], to: TicketRow['status']) {
  return scoped(db, scope)
    .updateTable('tickets')
    .set({ status: to, updated_at: new Date() })
    .where('order_id', '=', orderId)
    .where('status', 'in', from)
    .returningAll()
    .execute();
}

/** The tickets of orders being paid, locked until the caller's commit, in each order's attendee order. */
export async function lockTicketsOfOrders(db: Executor, scope: Scope, orderIds: readonly string[], status: readonly TicketRow['status'][]): Promise<TicketRow[]> {
  if (orderIds.length === 0) return [];
  return scoped(db, scope)
    .selectFrom('tickets')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .where('status', 'in', status)
    .orderBy('order_id')
    .orderBy('position')
    .forUpdate()
    .execute();
}

/** A ticket of a paid order as it becomes valid: its holder when it has one, and whether its message was written. */
export interface ValidTicket {
  id: string;
  holder: { customerId: string; entitlementId: string | null } | null;
  messageQueued: boolean;
}

/**
 * Paid tickets made valid, each row written once: the status, the holder (and entitlement) of those that have one,
 * and `ticket_delivery_status: queued` for those whose message was written. Answers the tickets as updated.
 */
export async function makeTicketsValid(db: Executor, scope: Scope, tickets: readonly ValidTicket[]): Promise<TicketRow[]> {
  if (tickets.length === 0) return [];
  const { rows } = await sql<TicketRow>`
    update tickets t set status = 'valid',
      customer_id = case when h.held then h.customer_id else t.customer_id end,
      entitlement_id = case when h.held then h.entitlement_id else t.entitlement_id end,
      ticket_delivery_status = case when h.queued then 'queued' else t.ticket_delivery_status end,
      updated_at = now()
    from unnest(${tickets.map((v) => v.id)}::text[], ${tickets.map((v) => v.holder !== null)}::boolean[],
                ${tickets.map((v) => v.holder?.customerId ?? null)}::text[], ${tickets.map((v) => v.holder?.entitlementId ?? null)}::text[],
                ${tickets.map((v) => v.messageQueued)}::boolean[])
      as h(id, held, customer_id, entitlement_id, queued)
    where t.tenant_id = ${scope.tenantId} and t.livemode = ${scope.livemode} and t.id = h.id
    returning t.*`.execute(db);
  return rows;
}

/** The tickets a customer holds (as attendee) or bought, newest first. */
export async function ticketsOfCustomer(db: Executor, scope: Scope, customerId: string, page: CursorPageQuery) {
  const q = scoped(db, scope)
    .selectFrom('tickets')
    .innerJoin('orders', 'orders.id', 'tickets.order_id')
    .selectAll('tickets')
    .select('orders.code as order_code')
    .where((eb) => eb.or([eb('tickets.customer_id', '=', customerId), eb('orders.customer_id', '=', customerId)]));
  return paginate(q, 'tickets.id', page);
}
