import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { findSession } from '../../src/modules/ticketing/checkout/checkout-sessions.repository';
import { ALONE, payConfirmations, payTogether, type PayItem } from '../../src/modules/ticketing/checkout/pay-session.service';
import { attendee, bookingBody, bookOk, bucketsOf, seedEvent, sk, type Tenant } from './booking-fixtures';
import { card, eventsOf, getOrder, pay, sessionOf } from './payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const CARD = '4242424242424242';

/** A published event streaming a new live stream, with one priced ticket type and room for 50. */
async function streamedEvent(tenant: Tenant, seed: Parameters<typeof seedEvent>[2] = {}) {
  const stream = expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data;
  const seeded = await seedEvent(t, tenant, { capacity: 50, live_stream: stream.id, ticketTypes: [{ price: 1500 }], ...seed });
  return { ...seeded, stream };
}

async function book(tenant: Tenant, eventId: string, body: Record<string, unknown>) {
  const { booking, payment } = await bookOk(t, tenant, eventId, body);
  return { booking, session: sessionOf(payment) };
}

async function itemOf(session: string, cardNumber = CARD): Promise<PayItem> {
  return { session: (await findSession(t.ctx.db, session))!, input: card(cardNumber), payer: cardNumber, request: null };
}

const countWhere = async (table: 'payments' | 'entitlements' | 'messages', column: 'order_id' | 'source_ref', value: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(t.ctx.db)).rows[0]!.n);

describe('confirmations paid together', () => {
  it('pays each order once in one transaction: payments, tickets, holders, entitlements, messages, events, seats and rollups', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, stream } = await streamedEvent(tenant);
    const shared = attendee();
    const bookings = [
      await book(tenant, event.id, bookingBody(ticketType.id, 1)),
      await book(tenant, event.id, bookingBody(ticketType.id, 2)),
      // The same attendee in two orders: one customer, an entitlement for each order's code.
      await book(tenant, event.id, bookingBody(ticketType.id, 1, { attendees: [shared] })),
      await book(tenant, event.id, bookingBody(ticketType.id, 1, { attendees: [shared] })),
      // An attendee without email: the buyer's customer holds the ticket.
      await book(tenant, event.id, bookingBody(ticketType.id, 1, { attendees: [{ ...attendee(), email: null }] })),
    ];
    // Each confirmation's request, as its route saw it: the events of its order carry it.
    const items = await Promise.all(bookings.map(async (b, i) => ({ ...(await itemOf(b.session)), request: { id: `req-together-${i}`, idempotency_key: null } })));
    const answers = await payTogether(t.ctx, items);

    for (const [i, answer] of answers.entries()) {
      expect(answer).not.toBe(ALONE);
      if (answer === ALONE) continue;
      expect(answer.payment).toMatchObject({ status: 'succeeded', order: bookings[i]!.booking.id, amount: bookings[i]!.booking.amount_total, payer_hint: '4242' });
    }
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 6 }, [`t:${ticketType.id}`]: { held: 0, sold: 6 } });
    const paidEvents = await eventsOf(t, tenant, 'events.order.paid');
    const grantEvents = await eventsOf(t, tenant, 'access.entitlement.granted');
    expect(grantEvents).toHaveLength(6);
    for (const [i, { booking, session }] of bookings.entries()) {
      const order = await getOrder(t, tenant, booking.id);
      expect(order).toMatchObject({ status: 'paid', amount_paid: booking.amount_total, amount_due: 0 });
      expect(await countWhere('payments', 'order_id', booking.id)).toBe(1);
      expect((await t.ctx.db.selectFrom('checkout_sessions').select('status').where('id', '=', session).executeTakeFirstOrThrow()).status).toBe('complete');
      // Its event once, showing the order as it is read afterwards.
      const own = paidEvents.filter((e) => e.data.object.id === booking.id);
      expect(own).toHaveLength(1);
      expect(own[0]!.data.object).toEqual(order);
      expect((own[0] as any).request).toEqual({ id: `req-together-${i}`, idempotency_key: null });
      const tickets = await t.ctx.db.selectFrom('tickets').selectAll().where('order_id', '=', booking.id).execute();
      expect(tickets).toHaveLength(booking.quantity);
      const entitlements = await t.ctx.db.selectFrom('entitlements').selectAll().where('source_ref', '=', booking.code).execute();
      expect(entitlements).toHaveLength(booking.quantity);
      for (const ticket of tickets) {
        expect(ticket.status).toBe('valid');
        // Its ticket message is on its way (the attendee's email, else the buyer's).
        expect(ticket.ticket_delivery_status).toBe('queued');
        const held = entitlements.find((e) => e.id === ticket.entitlement_id)!;
        expect(held).toMatchObject({ customer: ticket.customer_id, source: 'ticket', resource_type: 'ls', resource_id: stream.id, status: 'active' });
      }
      const grants = grantEvents.filter((e) => e.data.object.source_ref === booking.code);
      expect(grants).toHaveLength(booking.quantity);
      for (const g of grants) expect((g as any).request).toEqual({ id: `req-together-${i}`, idempotency_key: null });
      // A ticket message per attendee and the buyer's receipt.
      const messages = await sql<{ template: string }>`select template from messages where ${booking.id} = any(related)`.execute(t.ctx.db);
      expect(messages.rows.map((m) => m.template).sort()).toEqual([...Array(booking.quantity).fill('ticket'), 'order_receipt'].sort());
    }
    const [third, fourth] = await Promise.all([2, 3].map((i) => t.ctx.db.selectFrom('tickets').select('customer_id').where('order_id', '=', bookings[i]!.booking.id).executeTakeFirstOrThrow()));
    expect(third!.customer_id).toBe(fourth!.customer_id);
    const sales = await sql<{ tickets_sold: number; orders_paid: number; gross: string }>`
      select tickets_sold, orders_paid, gross from event_daily_sales where event_id = ${event.id}::uuid`.execute(t.ctx.db);
    expect(sales.rows).toHaveLength(1);
    expect({ ...sales.rows[0], gross: Number(sales.rows[0]!.gross) }).toEqual({ tickets_sold: 6, orders_paid: 5, gross: 6 * 1500 });
    const feed = await sql<{ quantity: number }>`select quantity from activity_items where event_id = ${event.id}::uuid and type = 'purchase'`.execute(t.ctx.db);
    expect(feed.rows.map((f) => f.quantity).sort()).toEqual([1, 1, 1, 1, 2]);

    // Paid again, through the route: each answers as it always has.
    for (const { session } of bookings) expectError(await pay(t, session, card(CARD)), 409, 'checkout_session_complete');
  });

  it('writes each ticket row once when paying, together and alone: valid, its holder and its delivery queued', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await streamedEvent(tenant, { coupons: [{ code: 'TENOFF', discount_type: 'percent', value: 10 }] });
    const together = [await book(tenant, event.id, bookingBody(ticketType.id, 2)), await book(tenant, event.id, bookingBody(ticketType.id, 1))];
    // A coupon's order is paid alone (markOrderPaid), through the route.
    const alone = await book(tenant, event.id, bookingBody(ticketType.id, 2, { coupon_code: 'TENOFF' }));
    await sql`create table ticket_row_writes (ticket_id text, tenant_id text)`.execute(t.ctx.db);
    await sql`create function count_ticket_row_writes() returns trigger language plpgsql as $$
      begin insert into ticket_row_writes values (new.id, new.tenant_id); return null; end $$`.execute(t.ctx.db);
    await sql`create trigger count_ticket_row_writes after update on tickets for each row execute function count_ticket_row_writes()`.execute(t.ctx.db);
    try {
      const answers = await payTogether(t.ctx, await Promise.all(together.map((b) => itemOf(b.session))));
      expect(answers.filter((a) => a === ALONE)).toHaveLength(0);
      expectStatus(await pay(t, alone.session, card(CARD)), 200);
      const writes = await sql<{ ticket_id: string; n: string }>`
        select ticket_id, count(*) as n from ticket_row_writes where tenant_id = ${tenant.tenant.id} group by ticket_id`.execute(t.ctx.db);
      expect(writes.rows).toHaveLength(5);
      expect(writes.rows.every((w) => Number(w.n) === 1)).toBe(true);
    } finally {
      await sql`drop trigger count_ticket_row_writes on tickets`.execute(t.ctx.db);
      await sql`drop function count_ticket_row_writes()`.execute(t.ctx.db);
      await sql`drop table ticket_row_writes`.execute(t.ctx.db);
    }
    const tickets = await t.ctx.db
      .selectFrom('tickets')
      .select(['status', 'customer_id', 'entitlement_id', 'ticket_delivery_status'])
      .where('order_id', 'in', [...together, alone].map((b) => b.booking.id))
      .execute();
    expect(tickets).toHaveLength(5);
    for (const ticket of tickets) {
      expect(ticket).toMatchObject({ status: 'valid', ticket_delivery_status: 'queued' });
      expect(ticket.customer_id).not.toBeNull();
      expect(ticket.entitlement_id).not.toBeNull();
    }
  });

  it('writes nothing for what it does not pay plainly, and leaves it to be paid alone with the answer it always had', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await streamedEvent(tenant, {
      coupons: [{ code: 'HALF', discount_type: 'percent', value: 50 }],
    });
    const plain = await book(tenant, event.id, bookingBody(ticketType.id, 1));
    const paid = await book(tenant, event.id, bookingBody(ticketType.id, 1));
    expectStatus(await pay(t, paid.session, card(CARD)), 200);
    const coupon = await book(tenant, event.id, bookingBody(ticketType.id, 1, { coupon_code: 'HALF' }));
    const expired = await book(tenant, event.id, bookingBody(ticketType.id, 1));
    await t.ctx.db.updateTable('checkout_sessions').set({ status: 'expired' }).where('id', '=', expired.session).execute();

    const items = await Promise.all([plain, paid, coupon, expired, plain].map((b) => itemOf(b.session)));
    const answers = await payTogether(t.ctx, items);
    expect(answers[0]).not.toBe(ALONE);
    // A repeat, a coupon, a session no longer open, and a second confirmation of an order in the same batch.
    expect(answers.slice(1)).toEqual([ALONE, ALONE, ALONE, ALONE]);
    expect(await countWhere('payments', 'order_id', paid.booking.id)).toBe(1);
    expect(await countWhere('payments', 'order_id', coupon.booking.id)).toBe(0);
    expect(await countWhere('payments', 'order_id', expired.booking.id)).toBe(0);
    expect(await countWhere('payments', 'order_id', plain.booking.id)).toBe(1);
    expect((await getOrder(t, tenant, coupon.booking.id)).status).toBe('pending');

    // Alone, each gets today's answer.
    expectError(await pay(t, paid.session, card(CARD)), 409, 'checkout_session_complete');
    expectError(await pay(t, plain.session, card(CARD)), 409, 'checkout_session_complete');
    expectError(await pay(t, expired.session, card(CARD)), 409, 'checkout_session_expired');
    expectStatus(await pay(t, coupon.session, card(CARD)), 200);
    expect(await getOrder(t, tenant, coupon.booking.id)).toMatchObject({ status: 'paid', amount_paid: coupon.booking.amount_total });
  });

  it('pays the confirmations of several tenants arriving together, each tenant in its own transaction', async () => {
    const [first, second] = [await t.tenant(), await t.tenant()];
    const bookings = [];
    for (const tenant of [first!, second!]) {
      const { event, ticketType } = await streamedEvent(tenant);
      bookings.push({ tenant, event, ...(await book(tenant, event.id, bookingBody(ticketType.id, 1))) });
    }
    const answers = await payConfirmations(t.ctx, await Promise.all(bookings.map((b) => itemOf(b.session))));
    expect(answers.filter((a) => a === ALONE)).toHaveLength(0);
    for (const b of bookings) {
      expect(await getOrder(t, b.tenant, b.booking.id)).toMatchObject({ status: 'paid', amount_paid: b.booking.amount_total });
      expect(await bucketsOf(t, b.event.id)).toMatchObject({ [`e:${b.event.id}`]: { held: 0, sold: 1 } });
      expect(await countWhere('entitlements', 'source_ref', b.booking.code)).toBe(1);
    }
  });

  it('pays each alone when the transaction fails, so one bad confirmation cannot fail the others', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await streamedEvent(tenant);
    const good = await book(tenant, event.id, bookingBody(ticketType.id, 1));
    const bad = await book(tenant, event.id, bookingBody(ticketType.id, 1));
    const fn = `refuse_${bad.booking.code.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
    await sql
      .raw(
        `create function ${fn}() returns trigger language plpgsql as $$ begin if new.order_id = '${bad.booking.id}' then raise exception 'refused'; end if; return new; end $$;
         create trigger ${fn} before insert on payments for each row execute function ${fn}();`,
      )
      .execute(t.ctx.db);
    try {
      const answers = await payConfirmations(t.ctx, await Promise.all([good, bad].map((b) => itemOf(b.session))));
      expect(answers).toEqual([ALONE, ALONE]);
      expect(await countWhere('payments', 'order_id', good.booking.id)).toBe(0);
      expect((await getOrder(t, tenant, good.booking.id)).status).toBe('pending');
      const [paidGood, paidBad] = await Promise.all([pay(t, good.session, card(CARD)), pay(t, bad.session, card(CARD))]);
      expectStatus(paidGood, 200);
      expect(paidBad.status).toBe(500);
      expect((await getOrder(t, tenant, good.booking.id)).status).toBe('paid');
      expect((await getOrder(t, tenant, bad.booking.id)).status).toBe('pending');
    } finally {
      await sql.raw(`drop trigger ${fn} on payments; drop function ${fn}();`).execute(t.ctx.db);
    }
  });

  it('through the route, many confirmations at once and their repeats: each session paid once, every other answer 409', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await streamedEvent(tenant);
    const bookings = [];
    for (let i = 0; i < 12; i++) bookings.push(await book(tenant, event.id, bookingBody(ticketType.id, 1)));
    // Each session twice at once.
    const answers = await Promise.all(bookings.flatMap((b) => [pay(t, b.session, card(CARD)), pay(t, b.session, card(CARD))]));
    for (let i = 0; i < bookings.length; i++) {
      const pair = [answers[2 * i]!, answers[2 * i + 1]!];
      expect(pair.map((r) => r.status).sort()).toEqual([200, 409]);
      expectError(pair.find((r) => r.status === 409)!, 409, 'checkout_session_complete');
      expect(await countWhere('payments', 'order_id', bookings[i]!.booking.id)).toBe(1);
      expect(await countWhere('entitlements', 'source_ref', bookings[i]!.booking.code)).toBe(1);
      expect((await getOrder(t, tenant, bookings[i]!.booking.id)).status).toBe('paid');
    }
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 0, sold: 12 } });
    expect((await eventsOf(t, tenant, 'events.order.paid')).length).toBe(12);
  });
});
