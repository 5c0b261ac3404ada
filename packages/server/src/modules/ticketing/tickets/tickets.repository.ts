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

/** `setTicketStatus` for the tickets of several orders, in one statement. */
export async function setTicketStatusOfOrders(db: Executor, scope: Scope, orderIds: readonly string[], from: readonly TicketRow['status'][], to: TicketRow['status']) {
  if (orderIds.length === 0) return [];
  return scoped(db, scope)
    .updateTable('tickets')
    .set({ status: to, updated_at: new Date() })
    .where('order_id', 'in', orderIds)
    .where('status', 'in', from)
    .returningAll()
    .execute();
}

export async function setTicketHolder(db: Executor, scope: Scope, id: string, customerId: string, entitlementId: string | null) {
  await scoped(db, scope).updateTable('tickets').set({ customer_id: customerId, entitlement_id: entitlementId, updated_at: new Date() }).where('id', '=', id).execute();
}

/** Sets the holder (and entitlement) of several tickets in one statement; answers the tickets as updated. */
export async function setTicketHolders(
  db: Executor,
  scope: Scope,
  holders: ReadonlyArray<{ id: string; customerId: string; entitlementId: string | null }>,
): Promise<TicketRow[]> {
  if (holders.length === 0) return [];
  const { rows } = await sql<TicketRow>`
    update tickets t set customer_id = h.customer_id, entitlement_id = h.entitlement_id, updated_at = now()
    from unnest(${holders.map((h) => h.id)}::text[], ${holders.map((h) => h.customerId)}::text[], ${holders.map((h) => h.entitlementId)}::text[])
      as h(id, customer_id, entitlement_id)
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
