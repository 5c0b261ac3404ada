import type { Order } from '@svc/contract';
import type { AppContext } from '../../../core/context';
import { Batcher, ItemFailure, runByGroup } from '../../../core/batcher';
import { ApiError } from '../../../core/errors';
import { emitPreparedEvents, envelopeOf } from '../../../core/events/emit-event';
import type { Scope } from '../../../core/scope';
import { sendInTransaction, type TransactionalJob } from '../../../jobs/send-in-transaction';
import { recordIfSoldOut } from '../activity/activity-items';
import { holdLockedSeats, lockBuckets, type HeldBucket } from '../capacity/capacity-buckets';
import { insertOrdersIfCodesFree, type OrderRow } from '../orders/order-rows.service';
import { ticketLineItem, ticketLineItemRow } from '../orders/order-rows.service';
import { serializeOrder } from '../orders/orders.serializer';
import { newOrderCode } from '../tickets/ticket-secrets';
import { insertTickets, type TicketRow } from '../tickets/ticket-rows.service';
import { linkBaseOf } from '../../../core/branding';
import { checkoutUrl } from './checkout-sessions';
import { expiryJobOf, orderRowOf, sessionRowOf, ticketRowsOf, type BookingRequest } from './new-order';

export type Booked = { booking: Order; payment: string | [] };

/** Answered for a booking the group leaves to be taken alone (having written nothing for it). */
export const ALONE = Symbol('alone');

export interface BookItem {
  /** The booking's own scope, with its request (its event carries the request's id). */
  scope: Scope;
  request: BookingRequest;
}

// One batch per server (its pool, secrets and clock), as payments and session opens are batched per pool.
const batches = new WeakMap<AppContext, Batcher<BookItem, Booked | typeof ALONE>>();

/**
 * Takes a booking that holds seats and opens a checkout (or is paid later) with the others arriving meanwhile:
 * in a rush the bookings of one ticket type wait for each other's bucket rows anyway, and together each table is
 * written once for all of them. Answers `ALONE` when the booking must be taken in a transaction of its own.
 */
export function bookTogether(ctx: AppContext, scope: Scope, request: BookingRequest): Promise<Booked | typeof ALONE> {
  let batch = batches.get(ctx);
  if (!batch) {
    batch = new Batcher((items: BookItem[]) => bookGroups(ctx, items), { maxItems: 100, maxConcurrent: 2 });
    batches.set(ctx, batch);
  }
  return batch.add({ scope, request });
}

const scopeKey = (s: Scope) => `${s.tenantId} ${s.livemode}`;

/**
 * The bookings arriving together, one transaction per tenant and mode. A transaction that fails (a deadlock,
 * any one booking's fault such as a taken `external_id`) writes nothing, and each of its bookings is then taken
 * alone, so one cannot fail the others.
 */
export function bookGroups(ctx: AppContext, items: BookItem[]): Promise<Array<Booked | typeof ALONE | ItemFailure>> {
  return runByGroup<BookItem, Booked | typeof ALONE | ItemFailure>(
    items,
    (item) => scopeKey(item.scope),
    (group) => takeTogether(ctx, group),
    (err, group) => {
      ctx.log.warn({ err: (err as Error).message, bookings: group.length }, 'bookings taken together failed; taking each alone');
      return ALONE;
    },
  );
}

/**
 * Bookings of one tenant and mode in one transaction. Their buckets are locked first and the bookings given
 * seats in arrival order, each all or none as alone; one without room is refused `sold_out` and writes nothing.
 * Then the seats, the orders, the tickets with the checkout sessions, the expiry jobs and the events go in,
 * each in one statement for all of them.
 */
export async function takeTogether(ctx: AppContext, items: BookItem[]): Promise<Array<Booked | ItemFailure>> {
  const scope = items[0]!.scope;
  // Links use the organization's (else the tenant's) custom domain serving checkout.
  const linkBases = await Promise.all(items.map(({ request }) => linkBaseOf(ctx, scope, request.t.event.organization_id, 'checkout')));
  return ctx.db.transaction().execute(async (trx) => {
    const orders = items.map(({ request }) => orderRowOf(request));
    const locked = await lockBuckets(trx, orders.flatMap((o) => o.bucket_ids));
    const room = new Map(locked.map((b) => [b.id, { ...b }]));
    const taken = new Set<number>();
    const seats = new Map<string, number>();
    orders.forEach((o, i) => {
      const buckets = o.bucket_ids.map((id) => room.get(id));
      if (!buckets.every((b) => b && (b.capacity === null || b.held + b.sold + o.seats <= b.capacity))) return;
      for (const b of buckets) {
        b!.held += o.seats;
        seats.set(b!.id, (seats.get(b!.id) ?? 0) + o.seats);
      }
      taken.add(i);
    });
    const refused = () => new ItemFailure(ApiError.of('sold_out', { param: 'quantity' }));
    if (taken.size === 0) return items.map(refused);

    const rows = await insertOrders(trx.with('held_seats', () => holdLockedSeats(seats)), trx, scope, orders.filter((_, i) => taken.has(i)));
    const sessions = new Map<number, ReturnType<typeof sessionRowOf>>();
    const jobs: TransactionalJob[] = [];
    const newTickets = [...taken].flatMap((i) => {
      const order = rows.get(orders[i]!.id)!;
      sessions.set(i, sessionRowOf(scope, items[i]!.request, order));
      const expiry = expiryJobOf(scope, items[i]!.request, order.id);
      if (expiry) jobs.push(expiry);
      return ticketRowsOf(ctx, items[i]!.request, order.id);
    });
    const sessionRows = [...sessions.values()].filter((s) => s !== null);
    // Each order's line goes in with the tickets and sessions, in one statement.
    const lineRows = [...taken].map((i) => ticketLineItemRow(rows.get(orders[i]!.id)!, items[i]!.request.t.ticketType.name));
    const withLines = trx.with('new_line_items', (q) => q.insertInto('line_items').values(lineRows).returning('id'));
    const tickets = await insertTickets(
      sessionRows.length ? withLines.with('new_checkout_sessions', (q) => q.insertInto('checkout_sessions').values(sessionRows).returning('id')) : withLines,
      scope,
      newTickets,
    );
    await sendInTransaction(trx, jobs);

    const ticketsOf = new Map<string, TicketRow[]>();
    for (const ticket of tickets) ticketsOf.set(ticket.order_id, [...(ticketsOf.get(ticket.order_id) ?? []), ticket]);
    const answers = items.map((item, i): Booked | ItemFailure => {
      if (!taken.has(i)) return refused();
      const order = rows.get(orders[i]!.id)!;
      const session = sessions.get(i);
      const url = session ? checkoutUrl(linkBases[i]!, session.id) : null;
      const line = ticketLineItem(order, items[i]!.request.t.ticketType.name);
      const booking = serializeOrder(order, (ticketsOf.get(order.id) ?? []).sort((a, b) => a.position - b.position), null, [line], { checkoutUrl: url });
      return { booking, payment: url ?? [] };
    });
    await emitPreparedEvents(
      trx,
      [...taken].map((i) => {
        const { booking } = answers[i] as Booked;
        return { scope: items[i]!.scope, envelope: envelopeOf(items[i]!.scope, { type: 'events.order.created', subject: booking.id, object: booking }) };
      }),
    );
    await recordSoldOutEvents(trx, [...rows.values()], room);
    return answers;
  });
}

/**
 * Inserts the orders (the first statement carrying the seats' update), drawing a new code for any whose code
 * another order of the tenant has; answers the rows by id.
 */
async function insertOrders(
  first: Parameters<typeof insertOrdersIfCodesFree>[0],
  trx: Parameters<typeof insertOrdersIfCodesFree>[0],
  scope: Scope,
  orders: ReturnType<typeof orderRowOf>[],
): Promise<Map<string, OrderRow>> {
  const rows = new Map<string, OrderRow>();
  let pending = orders;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error('bookings taken together: no free order code');
    const values = attempt === 0 ? pending : pending.map((o) => ({ ...o, code: newOrderCode() }));
    for (const row of await insertOrdersIfCodesFree(attempt === 0 ? first : trx, scope, values)) rows.set(row.id, row);
    pending = pending.filter((o) => !rows.has(o.id));
  }
  return rows;
}

/** An event whose last seat went in this transaction is reported sold out, as a booking alone reports it. */
async function recordSoldOutEvents(trx: Parameters<typeof recordIfSoldOut>[0], orders: OrderRow[], room: Map<string, HeldBucket>): Promise<void> {
  const byEvent = new Map(orders.map((o) => [o.event_id, o]));
  for (const order of byEvent.values()) await recordIfSoldOut(trx, order, [...room.values()]);
}
