import { sql, type Insertable, type QueryCreator, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { CursorPageQuery } from '@svc/contract';
import { paginate } from '../../../core/pagination';
import { scoped, type Scope } from '../../../core/scope';
import type { Executor } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { OrderKind, OrdersTable, OrderStatus } from '../../../db/ticketing.schema';
import { literal } from '../../../db/literal';

export type OrderRow = Selectable<OrdersTable>;
export type NewOrder = Omit<Insertable<OrdersTable>, 'tenant_id' | 'livemode'>;

export async function insertOrder(db: Executor, scope: Scope, order: NewOrder): Promise<OrderRow> {
  return scoped(db, scope).insertInto('orders', order).returningAll().executeTakeFirstOrThrow();
}

/** Inserts the order unless another order of the tenant has its code (then answers `undefined`). */
export async function insertOrderIfCodeFree(db: Executor, scope: Scope, order: NewOrder): Promise<OrderRow | undefined> {
  return scoped(db, scope)
    .insertInto('orders', order)
    .onConflict((oc) => oc.columns(['tenant_id', 'livemode', 'code']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** `insertOrderIfCodeFree` for several orders in one statement: answers the rows inserted (not those whose code was taken). */
export async function insertOrdersIfCodesFree(db: Pick<QueryCreator<DB>, 'insertInto'>, scope: Scope, orders: readonly NewOrder[]): Promise<OrderRow[]> {
  if (orders.length === 0) return [];
  return db
    .insertInto('orders')
    .values(orders.map((o) => ({ ...o, tenant_id: scope.tenantId, livemode: scope.livemode })))
    .onConflict((oc) => oc.columns(['tenant_id', 'livemode', 'code']).doNothing())
    .returningAll()
    .execute();
}

export async function findOrder(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = scoped(db, scope).selectFrom('orders').selectAll().where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Orders by id (a page of another module's rows keyed by order), in no particular order. */
export async function findOrdersByIds(db: Executor, scope: Scope, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return scoped(db, scope).selectFrom('orders').selectAll().where('id', 'in', [...ids]).execute();
}

export const findOrderBy = (db: Executor, scope: Scope, column: 'code' | 'external_id', value: string) =>
  scoped(db, scope).selectFrom('orders').selectAll().where(column, '=', value).executeTakeFirst();

/**
 * One conditional update: the order changes only while it is in one of `from` (and matches `where`), so of
 * two racing transitions exactly one gets the row back.
 */
export async function transitionOrder(
  db: Executor,
  scope: Scope,
  id: string,
  where: { status?: readonly OrderStatus[]; seats_state?: OrderRow['seats_state']; coupon_state?: NonNullable<OrderRow['coupon_state']> },
  changes: Updateable<OrdersTable>,
): Promise<OrderRow | undefined> {
  let q = scoped(db, scope).updateTable('orders').set({ ...changes, updated_at: new Date() }).where('id', '=', id);
  if (where.status) q = q.where('status', 'in', where.status);
  if (where.seats_state) q = q.where('seats_state', '=', where.seats_state);
  if (where.coupon_state) q = q.where('coupon_state', '=', where.coupon_state);
  return q.returningAll().executeTakeFirst();
}

export interface OrderFilters {
  eventId?: string;
  /**
   * The kinds the caller may see, each in every organization (`null`) or in those listed (a member's); absent:
   * every order.
   */
  readable?: readonly { kind: OrderKind; organizations: readonly string[] | null }[];
  kind?: OrderKind;
  organization?: string;
  status?: OrderStatus;
  /** The ids of the orders in the fulfilment status asked for, as a subquery; `null`: none can be. */
  fulfillment?: RawBuilder<unknown> | null;
  customer?: string;
  created?: { gt?: string; gte?: string; lt?: string; lte?: string };
}

export async function listOrders(db: Executor, scope: Scope, filters: OrderFilters, page: CursorPageQuery) {
  let q = scoped(db, scope).selectFrom('orders').selectAll();
  const readable = filters.readable?.filter((r) => !r.organizations || r.organizations.length);
  if (readable) {
    q = readable.length
      ? q.where((eb) =>
          eb.or(readable.map((r) => (r.organizations ? eb.and([eb('kind', '=', r.kind), eb('organization_id', 'in', r.organizations)]) : eb('kind', '=', r.kind)))),
        )
      : q.where(sql<boolean>`false`);
  }
  if (filters.kind) q = q.where('kind', '=', filters.kind);
  if (filters.organization) q = q.where('organization_id', '=', filters.organization);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.fulfillment !== undefined) q = q.where(filters.fulfillment ? sql<boolean>`orders.id in (${filters.fulfillment})` : sql<boolean>`false`);
  if (filters.customer) q = q.where('customer_id', '=', filters.customer);
  const c = filters.created;
  if (c?.gt) q = q.where('created_at', '>', new Date(c.gt));
  if (c?.gte) q = q.where('created_at', '>=', new Date(c.gte));
  if (c?.lt) q = q.where('created_at', '<', new Date(c.lt));
  if (c?.lte) q = q.where('created_at', '<=', new Date(c.lte));
  // One event's orders are paged over `orders_event_id`, with the event bounded there.
  return paginate(q, 'orders.id', page, undefined, filters.eventId ? { column: 'orders.event_id', value: filters.eventId } : undefined);
}

/** Pending orders whose hold has run out, oldest first: the sweep's work. */
export const duePendingOrders = (db: Executor, now: Date, limit: number) =>
  db
    .selectFrom('orders')
    .select(['id', 'tenant_id', 'livemode'])
    .where('status', '=', literal('pending'))
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
