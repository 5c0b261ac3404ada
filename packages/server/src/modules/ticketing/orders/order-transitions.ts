import type { Order } from '@svc/contract';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../../core/context';
import { emitPreparedEvents, envelopeOf, type PreparedEvent } from '../../../core/events/emit-event';
import { scoped, type Scope } from '../../../core/scope';
import type { DB } from '../../../db/schema';
import { findEventById, findTicketType, type EventRow, type TicketTypeRow } from '../booking/catalogue-reads';
import { releaseSeats, sellHeldSeats, sellHeldSeatsOfOrders, takeSoldSeats } from '../capacity/capacity-buckets';
import { redeemHeldCouponUse, releaseCouponUse, takeRedeemedCouponUse } from '../capacity/coupon-uses';
import { lockTicketsOfOrders, setTicketStatus, type TicketRow } from '../tickets/ticket-rows.service';
import { onOrderPaid, onOrdersPaid } from '../analytics/order-hooks';
import { orderPaid, ticketItemsOf } from './order-listeners';
import { uncountSale } from '../analytics/rollups';
import { seatsFreed } from '../public/public-event-changed';
import { issuePaidTickets, issuePaidTicketsOfOrders, revokeTicketHolders } from './order-holders';
import { writePaidOrderMessages, writePaidOrdersMessages } from './order-messages';
import { findOrder, transitionOrder, type OrderRow } from './orders.repository';
import { addOnsOf, type ReleaseReason } from './order-kinds';
import { ticketLineItem } from './line-items.repository';
import { presentOrder, serializeOrder } from './orders.serializer';

export const nowOf = (ctx: Pick<AppContext, 'clock'>) => (ctx.clock ? ctx.clock() : new Date());

export type MarkPaidResult =
  | { outcome: 'paid'; order: Order }
  /** The order was expired and its seats (or its add-ons' stock, `reason: out_of_stock`) went to others meanwhile: the caller refunds the payment. */
  | { outcome: 'seats_unavailable'; order: Order; reason?: string }
  /** Paid already, cancelled or refunded: nothing changed. */
  | { outcome: 'not_payable'; order: Order };

/**
 * The order's seats move from held to sold, or (a payment after expiry) are taken again if there is room.
 * Held seats answer `'move_held'`: the caller moves them in the buckets as its last statement, because those
 * rows are shared by every payment of the event and their lock lasts until the commit.
 */
async function sellSeats(trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<boolean | 'move_held'> {
  if (await transitionOrder(trx, scope, order.id, { seats_state: 'held' }, { seats_state: 'sold' })) return 'move_held';
  if (await transitionOrder(trx, scope, order.id, { seats_state: 'released' }, { seats_state: 'sold' })) {
    if (await takeSoldSeats(trx, order.bucket_ids, order.seats)) return true;
    await transitionOrder(trx, scope, order.id, { seats_state: 'sold' }, { seats_state: 'released' });
    return false;
  }
  return order.seats_state === 'sold';
}

/** The coupon use is redeemed; one released by an expiry is taken again when a use is left (else the price stands). */
async function redeemCoupon(trx: Transaction<DB>, scope: Scope, order: OrderRow): Promise<void> {
  if (!order.coupon_id) return;
  if (await transitionOrder(trx, scope, order.id, { coupon_state: 'held' }, { coupon_state: 'redeemed' })) {
    await redeemHeldCouponUse(trx, order.coupon_id);
  } else if (order.coupon_state === 'released' && (await takeRedeemedCouponUse(trx, order.coupon_id))) {
    await transitionOrder(trx, scope, order.id, { coupon_state: 'released' }, { coupon_state: 'redeemed' });
  }
}

/** What a caller that has locked the order (and read its catalogue) already knows: markOrderPaid reads none of it again. */
export interface LockedOrder {
  /** The order's row as it is now, locked by the caller's transaction (`FOR UPDATE`). */
  order: OrderRow;
  event: EventRow;
  ticketType: TicketTypeRow;
}

/**
 * The order as shown from the tickets just written (all of them: an unpaid order's tickets all become valid) and
 * its line (nothing of an order being paid was refunded yet, so the line is as booking wrote it).
 */
async function shownOrder(trx: Transaction<DB>, scope: Scope, paid: OrderRow, tickets: readonly TicketRow[], ticketType: TicketTypeRow): Promise<Order> {
  if (paid.coupon_id || tickets.length !== paid.seats || paid.amount_add_ons !== null) return presentOrder(trx, scope, paid);
  return serializeOrder(paid, [...tickets].sort((a, b) => a.position - b.position), null, [ticketLineItem(paid, ticketType.name)]);
}

/**
 * Marks an order paid inside the caller's transaction (the payment's confirmation, or a booking with nothing
 * due): seats sold, coupon redeemed, tickets valid, each attendee's customer and stream entitlement, the ticket
 * messages and receipt, and `events.order.paid`. The order row is locked first (here, or by the caller that
 * passes it as `locked`), so concurrent calls take turns and only one of them pays it. `amountPaid` defaults to
 * the whole total.
 */
export async function markOrderPaid(
  trx: Transaction<DB>,
  ctx: AppContext,
  scope: Scope,
  orderId: string,
  opts: { amountPaid?: number; locked?: LockedOrder } = {},
): Promise<MarkPaidResult> {
  const now = nowOf(ctx);
  const order = opts.locked?.order ?? (await findOrder(trx, scope, orderId, { forUpdate: true }));
  if (!order) throw new Error(`markOrderPaid: no order ${orderId}`);
  if (order.status !== 'pending' && order.status !== 'expired') return { outcome: 'not_payable', order: await presentOrder(trx, scope, order) };
  const paidValues = { status: 'paid' as const, paid_at: now, expired_at: null, amount_paid: opts.amountPaid ?? order.amount_total };
  // Held seats (every order paid in time) become sold with the status, in one conditional update.
  let paid =
    order.seats_state === 'held'
      ? await transitionOrder(trx, scope, order.id, { status: ['pending', 'expired'], seats_state: 'held' }, { ...paidValues, seats_state: 'sold' })
      : undefined;
  let moveHeld = paid !== undefined;
  if (!paid) {
    const sold = await sellSeats(trx, scope, order);
    if (!sold) return { outcome: 'seats_unavailable', order: await presentOrder(trx, scope, order) };
    moveHeld = sold === 'move_held';
    // A late payment takes the add-ons' stock again too; if it is gone, the seats just taken go back.
    const addOns = addOnsOf(order);
    if (addOns?.lateTakeBack && order.status === 'expired') {
      const answer = await addOns.lateTakeBack(trx, ctx, scope, order);
      if (answer !== true) {
        if (await transitionOrder(trx, scope, order.id, { seats_state: 'sold' }, { seats_state: 'released' })) await releaseSeats(trx, order.bucket_ids, order.seats, 'sold');
        return { outcome: 'seats_unavailable', order: await presentOrder(trx, scope, order), reason: answer };
      }
    }
    // Buckets before the coupon, as a booking takes them, so two transactions never wait for each other crosswise.
    if (!moveHeld) await redeemCoupon(trx, scope, order);
    paid = (await transitionOrder(trx, scope, order.id, { status: ['pending', 'expired'] }, paidValues))!;
  }
  const unpaid = await lockTicketsOfOrders(trx, scope, [order.id], ['pending_payment', 'void']);
  const event = opts.locked?.event ?? (await findEventById(trx, scope, order.event_id!))!;
  const ticketType = opts.locked?.ticketType ?? (await findTicketType(trx, scope, order.event_id!, order.ticket_type_id!))!;
  const holders = await issuePaidTickets(trx, scope, paid, unpaid, event, ticketType, now);
  // Add-ons: stock sold, digital items granted (their variants are locked before the event's buckets, below).
  await addOnsOf(paid)?.paid(trx, ctx, scope, paid);
  await writePaidOrderMessages(trx, scope, ctx, paid, holders.tickets, event, ticketType);
  const shown = await shownOrder(trx, scope, paid, holders.tickets, ticketType);
  // The stream's grants and the order's event in one statement.
  await emitPreparedEvents(trx, [
    ...holders.events,
    { scope, envelope: envelopeOf(scope, { type: 'events.order.paid', subject: paid.id, object: shown, previousAttributes: { status: order.status } }) },
  ]);
  // Held to sold cannot fail (the room was counted at the hold) and leaves held + sold unchanged, so it waits
  // until here, and so do the rollups (one row per event, ticket type and day, updated by every payment): a
  // confirmation then keeps the event's hot rows locked only until its commit. Buckets, rollups, then the
  // coupon: the order releaseOrder takes them in, so the two never wait for each other crosswise.
  if (moveHeld) await sellHeldSeats(trx, order.bucket_ids, order.seats);
  await onOrderPaid(trx, paid, holders.tickets);
  if (moveHeld) await redeemCoupon(trx, scope, order);
  await orderPaid(trx, scope, paid, () => ticketItemsOf(paid, event.ends_at));
  return { outcome: 'paid', order: shown };
}

/** The request an event is recorded for (its envelope's `request`): a batch records each order's for its own. */
export type EventRequest = PreparedEvent['envelope']['request'];

/**
 * `markOrderPaid` for several orders of one scope paid together, in the statements one order takes: each is
 * pending, its seats held, without a coupon, locked by the caller with its event and ticket type, and its
 * payment (counted here: `amount_paid` becomes the total) pays all that is due. Status, amount and seats in
 * one update; the tickets, holders, messages, events, the seats moved (summed per bucket) and the rollups each
 * one statement for all of them. Throws if an order was not in that state, for the caller to roll back.
 * Answers each order as shown, in the same order; each order's events carry `requests[i]`.
 */
export async function markHeldOrdersPaid(
  trx: Transaction<DB>,
  ctx: Pick<AppContext, 'secrets' | 'clock' | 'whitelabel'>,
  scope: Scope,
  locked: readonly LockedOrder[],
  requests: readonly EventRequest[],
): Promise<Order[]> {
  if (locked.length === 0) return [];
  const now = nowOf(ctx);
  const rows = await scoped(trx, scope)
    .updateTable('orders')
    .set((eb) => ({ status: 'paid' as const, paid_at: now, expired_at: null, amount_paid: eb.ref('amount_total'), seats_state: 'sold' as const, updated_at: new Date() }))
    .where('id', 'in', locked.map((l) => l.order.id))
    .where('status', '=', 'pending')
    .where('seats_state', '=', 'held')
    .where('coupon_id', 'is', null)
    .where('amount_add_ons', 'is', null)
    .returningAll()
    .execute();
  if (rows.length !== locked.length) throw new Error('markHeldOrdersPaid: an order is not pending with its seats held');
  const paidById = new Map(rows.map((r) => [r.id, r]));
  const unpaid = await lockTicketsOfOrders(trx, scope, locked.map((l) => l.order.id), ['pending_payment', 'void']);
  const ticketsOf = new Map<string, TicketRow[]>();
  for (const t of unpaid) {
    const list = ticketsOf.get(t.order_id) ?? [];
    list.push(t);
    ticketsOf.set(t.order_id, list);
  }
  const orders = locked.map((l) => ({
    order: paidById.get(l.order.id)!,
    tickets: (ticketsOf.get(l.order.id) ?? []).sort((a, b) => a.position - b.position),
    event: l.event,
    ticketType: l.ticketType,
  }));
  const holders = await issuePaidTicketsOfOrders(trx, scope, orders, now);
  await writePaidOrdersMessages(trx, scope, ctx, orders.map((o, i) => ({ ...o, tickets: holders[i]!.tickets })));
  const shown: Order[] = [];
  for (const [i, o] of orders.entries()) shown.push(await shownOrder(trx, scope, o.order, holders[i]!.tickets, o.ticketType));
  const withRequest = (e: PreparedEvent, i: number): PreparedEvent => ({ ...e, envelope: { ...e.envelope, request: requests[i] ?? null } });
  await emitPreparedEvents(trx, [
    ...holders.flatMap((h, i) => h.events.map((e) => withRequest(e, i))),
    ...orders.map((o, i) =>
      withRequest({ scope, envelope: envelopeOf(scope, { type: 'events.order.paid', subject: o.order.id, object: shown[i]!, previousAttributes: { status: 'pending' } }) }, i),
    ),
  ]);
  // Buckets, then rollups, last (as markOrderPaid).
  await sellHeldSeatsOfOrders(trx, orders.map((o) => o.order));
  await onOrdersPaid(trx, orders.map((o, i) => ({ paid: o.order, tickets: holders[i]!.tickets })));
  for (const o of orders) await orderPaid(trx, scope, o.order, () => ticketItemsOf(o.order, o.event.ends_at));
  return shown;
}

/**
 * Gives back what an order took, inside the caller's transaction, each part at most once (conditional updates
 * on the order): its add-ons (stock held, grants), seats (held or sold), the coupon use, the tickets (void) and
 * the stream entitlements (revoked).
 * The caller has moved the order's status already (expired, cancelled, refunded); this does not change it.
 */
export async function releaseOrder(trx: Transaction<DB>, ctx: AppContext, scope: Scope, orderId: string): Promise<OrderRow> {
  const now = nowOf(ctx);
  const order = await findOrder(trx, scope, orderId, { forUpdate: true });
  if (!order) throw new Error(`releaseOrder: no order ${orderId}`);
  // Add-ons first: a booking locks their variants before the event's buckets, and so does this.
  await addOnsOf(order)?.released(trx, ctx, scope, order, order.status as ReleaseReason);
  for (const from of ['held', 'sold'] as const) {
    if (await transitionOrder(trx, scope, order.id, { seats_state: from }, { seats_state: 'released' })) {
      await releaseSeats(trx, order.bucket_ids, order.seats, from);
      seatsFreed(ctx, order.event_id!);
      if (from === 'sold') await uncountSale(trx, order);
    }
  }
  if (order.coupon_id) {
    for (const from of ['held', 'redeemed'] as const) {
      if (await transitionOrder(trx, scope, order.id, { coupon_state: from }, { coupon_state: 'released' })) {
        await releaseCouponUse(trx, order.coupon_id, from);
      }
    }
  }
  await setTicketStatus(trx, scope, order.id, ['pending_payment', 'valid'], 'void');
  await revokeTicketHolders(trx, scope, order, now);
  return (await findOrder(trx, scope, orderId))!;
}
