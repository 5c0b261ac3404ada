import type { CursorPageQuery, FulfillmentStatus, Order } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { emitEvent } from '../../../core/events/emit-event';
import { isIdOf } from '../../../core/ids';
import type { Scope } from '../../../core/scope';
import type { OrderKind, OrderStatus } from '../../../db/ticketing.schema';
import { giveUpHostedAttempts } from '../../payments';
import { findEventByRef } from '../booking/catalogue-reads';
import type { OrganizerCaller } from '../organizer/organizer-access';
import { readableOrderKinds, requireOrderAccess } from './order-access';
import { nowOf, releaseOrder } from './order-transitions';
import { releaseKindOrder } from './kind-transitions';
import { orderEventType, registeredOrderKind } from './order-kinds';
import * as repo from './orders.repository';
import { presentOrder, presentOrders } from './orders.serializer';

/**
 * The order, if the caller may act on it: a secret key on every order, a restricted key on the kinds its scopes
 * cover, a member on the kinds their permissions cover in the order's organization.
 */
async function getRow(ctx: AppContext, caller: OrganizerCaller, id: string, level: 'read' | 'write' = 'read') {
  const row = isIdOf('order', id) ? await repo.findOrder(ctx.db, caller.scope, id) : undefined;
  if (!row) throw ApiError.notFound('order', id);
  await requireOrderAccess(ctx, caller, row, level);
  return row;
}

export const getOrder = async (ctx: AppContext, caller: OrganizerCaller, id: string) => presentOrder(ctx.db, caller.scope, await getRow(ctx, caller, id), ctx);

export async function getOrderByExternalId(ctx: AppContext, caller: OrganizerCaller, externalId: string): Promise<Order> {
  const row = await repo.findOrderBy(ctx.db, caller.scope, 'external_id', externalId);
  if (!row) throw ApiError.notFound('order with external_id', externalId);
  await requireOrderAccess(ctx, caller, row, 'read');
  return presentOrder(ctx.db, caller.scope, row, ctx);
}

export interface ListOrdersQuery {
  kind?: OrderKind;
  organization?: string;
  event?: string;
  status?: OrderStatus;
  fulfillment_status?: FulfillmentStatus;
  customer?: string;
  created?: repo.OrderFilters['created'];
}

export async function listOrders(ctx: AppContext, caller: OrganizerCaller, query: ListOrdersQuery, page: CursorPageQuery) {
  const scope = caller.scope;
  const kinds = await readableOrderKinds(ctx, caller);
  // A secret key (or a member of the whole tenant for every kind) sees every order: no condition at all.
  const everything = kinds.size === 3 && [...kinds.values()].every((orgs) => orgs === null);
  const readable = everything ? undefined : [...kinds].map(([kind, organizations]) => ({ kind, organizations }));
  let eventId: string | undefined;
  if (query.event) {
    const event = await findEventByRef(ctx.db, scope, query.event);
    // An unknown event filters to nothing, as any other filter value that matches nothing.
    eventId = event?.id ?? '00000000-0000-0000-0000-000000000000';
  }
  // Fulfilment is commerce's: it names the orders in that status (none when no module sells products).
  const fulfillment = query.fulfillment_status ? (registeredOrderKind('product')?.inFulfillmentStatus?.(scope, query.fulfillment_status) ?? null) : undefined;
  const filters = { eventId, readable, kind: query.kind, organization: query.organization, status: query.status, fulfillment, customer: query.customer, created: query.created };
  const result = await repo.listOrders(ctx.db, scope, filters, page);
  return { ...result, data: await presentOrders(ctx.db, scope, result.data, ctx) };
}

const invalidState = (status: string, action: string) =>
  ApiError.of('INVALID_STATE', { message: `A ${status} order cannot be ${action}; only a pending order can.` });

/**
 * Ends a pending order (cancel, or expire once `expires_at` has passed; `force` expires it now): one conditional
 * update on its status decides, then its seats, coupon use and tickets are released and the event recorded.
 * Answers `null` when the order was not pending (or not yet due).
 */
async function endPendingOrder(ctx: AppContext, scope: Scope, id: string, to: 'expired' | 'cancelled', force = false): Promise<Order | null> {
  const now = nowOf(ctx);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const before = await repo.findOrder(trx, scope, id, { forUpdate: true });
    if (!before || before.status !== 'pending') return null;
    if (to === 'expired' && !force && (!before.expires_at || before.expires_at.getTime() > now.getTime())) return null;
    const moved = await repo.transitionOrder(trx, scope, id, { status: ['pending'] }, to === 'expired' ? { status: 'expired', expired_at: now } : { status: 'cancelled', cancelled_at: now });
    // A ticket order gives back its seats, coupon and tickets; another kind's module gives back what it held.
    const released = before.kind === 'ticket' ? await releaseOrder(trx, ctx, scope, id) : moved!;
    if (before.kind !== 'ticket') await releaseKindOrder(trx, ctx, scope, released, to);
    await trx.updateTable('checkout_sessions').set({ status: 'expired' }).where('order_id', '=', id).where('status', '=', 'open').execute();
    const order = await presentOrder(trx, scope, released);
    await emitEvent(trx, scope, { type: orderEventType(before.kind, to), subject: id, object: order, previousAttributes: { status: 'pending' } });
    return order;
  });
  // A provider's hosted page of the order is given up after the commit (no provider call holds the order's lock).
  if (ended) await giveUpHostedAttempts(ctx, scope, id);
  return ended;
}

export async function cancelOrder(ctx: AppContext, caller: OrganizerCaller, id: string): Promise<Order> {
  const scope = caller.scope;
  const row = await getRow(ctx, caller, id, 'write');
  const order = await endPendingOrder(ctx, scope, id, 'cancelled');
  if (!order) throw invalidState((await repo.findOrder(ctx.db, scope, id))?.status ?? row.status, 'cancelled');
  return order;
}

/** The test helper: expires a pending order now, as its `expires_at` would. */
export async function expireOrderNow(ctx: AppContext, caller: OrganizerCaller, id: string): Promise<Order> {
  const scope = caller.scope;
  const row = await getRow(ctx, caller, id, 'write');
  const order = await endPendingOrder(ctx, scope, id, 'expired', true);
  if (!order) throw invalidState((await repo.findOrder(ctx.db, scope, id))?.status ?? row.status, 'expired');
  return order;
}

/** Expires the order if it is still pending and due; safe to run twice (the job and the sweep). */
export const expireOrderIfDue = (ctx: AppContext, scope: Scope, id: string) => endPendingOrder(ctx, scope, id, 'expired');
