import { sql } from 'kysely';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ItemFailure } from '../../src/core/batcher';
import { ApiError } from '../../src/core/errors';
import { ALONE, bookGroups, type BookItem, type Booked } from '../../src/modules/ticketing/booking/book-together';
import { loadBookingTarget } from '../../src/modules/ticketing/booking/booking-target';
import * as secrets from '../../src/modules/ticketing/tickets/ticket-secrets';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { attendees, bookAs, bookingBody, bucketsOf, pk, seedEvent, sk, type Tenant } from './booking-fixtures';
import { eventsOf, sessionOf } from './payments-fixtures';
import { stopTwoInstances, twoInstances } from './two-instances';

vi.mock('../../src/modules/ticketing/tickets/ticket-secrets', async (original) => {
  const actual = await original<typeof import('../../src/modules/ticketing/tickets/ticket-secrets')>();
  return { ...actual, newOrderCode: vi.fn(actual.newOrderCode) };
});

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

afterEach(() => vi.mocked(secrets.newOrderCode).mockClear());

async function busyTenant(): Promise<Tenant> {
  const tenant = await t.tenant();
  await t.ctx.db.updateTable('tenants').set({ rate_limit_secret: 100_000, rate_limit_publishable: 100_000 }).where('id', '=', tenant.tenant.id).execute();
  return tenant;
}

/** The transaction that wrote each order (PostgreSQL's `xmin`), by order id. */
async function writersOf(eventId: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ id: string; xmin: string }>`select id, xmin::text as xmin from orders where event_id = ${eventId}::uuid`.execute(t.ctx.db);
  return new Map(rows.map((r) => [r.id, r.xmin]));
}

/** A booking of `quantity` tickets as `book` hands it to the group, priced at 1000 a ticket, paid at checkout. */
async function itemOf(tenant: Tenant, slug: string, ticketType: string, quantity: number, extra: { external_id?: string } = {}): Promise<BookItem> {
  const scope = { tenantId: tenant.tenant.id, livemode: false };
  const body = { ...bookingBody(ticketType, quantity), ...extra };
  const target = await loadBookingTarget(t.ctx.db, scope, slug, body);
  return {
    scope,
    request: {
      t: target,
      body,
      buyer: { name: 'Amina Kamau', email: 'amina@example.test', phone: null, customerId: null },
      priced: { total: 1000 * quantity, discount: 0, coupon: null, payLater: false, expiresAt: new Date(Date.now() + 15 * 60_000) },
    },
  };
}

/** The feed's `event_sold_out` items of the event. */
const soldOutReports = async (eventId: string) =>
  (await sql<{ type: string }>`select type from activity_items where event_id = ${eventId}::uuid and type = 'event_sold_out'`.execute(t.ctx.db)).rows;

const orderCount = async (eventId: string) => (await writersOf(eventId)).size;

describe('bookings arriving together', () => {
  it('are taken in shared transactions, each with its own order, tickets, checkout session, expiry job and event', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 100, ticketTypes: [{ price: 1000, max_per_order: 4 }] });
    const bodies = Array.from({ length: 30 }, (_, i) => bookingBody(ticketType.id, 1 + (i % 3), { attendees: attendees(1 + (i % 3)) }));
    const answers = await Promise.all(bodies.map((body) => bookAs(t, pk(tenant), event.slug, body)));
    const bookings = answers.map((r) => expectStatus(r, 201).data);
    const writers = await writersOf(event.id);
    expect(writers.size).toBe(30);
    // Fewer transactions than orders: bookings were written together.
    expect(new Set(writers.values()).size).toBeLessThan(30);

    for (const [i, { booking, payment }] of bookings.entries()) {
      const quantity = 1 + (i % 3);
      expect(booking).toMatchObject({ status: 'pending', quantity, amount_total: 1000 * quantity, coupon: null });
      expect(booking.attendees.map((a: { first_name: string; email: string }) => [a.first_name, a.email])).toEqual(
        bodies[i]!.attendees.map((a) => [a.first_name, a.email.toLowerCase()]),
      );
      const session = await t.ctx.db.selectFrom('checkout_sessions').selectAll().where('id', '=', sessionOf(payment)).executeTakeFirstOrThrow();
      expect(session).toMatchObject({ order_id: booking.id, amount: booking.amount_total, status: 'open' });
      const tickets = await t.ctx.db.selectFrom('tickets').select(['id', 'position', 'status']).where('order_id', '=', booking.id).orderBy('position').execute();
      expect(tickets.map((x) => x.id)).toEqual(booking.attendees.map((a: { ticket: { id: string } }) => a.ticket.id));
    }
    expect(new Set(bookings.map((b) => b.booking.code)).size).toBe(30);
    const jobs = await sql<{ order_id: string }>`
      select data->>'order_id' as order_id from pgboss.job
      where name = 'ticketing-expire-order' and data->>'order_id' = any(${bookings.map((b) => b.booking.id)}::text[])`.execute(t.ctx.db);
    expect(jobs.rows.map((j) => j.order_id).sort()).toEqual(bookings.map((b) => b.booking.id).sort());
    // One event per order, naming the request that made it.
    const created = (await eventsOf(t, tenant, 'events.order.created')).filter((e) => e.data.object.event === event.id);
    expect(created.map((e) => [e.data.object.id, e.request?.id]).sort()).toEqual(bookings.map((b, i) => [b.booking.id, answers[i]!.headers['request-id']]).sort());
    const seats = bookings.reduce((n, b) => n + b.booking.quantity, 0);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: seats, sold: 0 }, [`t:${ticketType.id}`]: { held: seats, sold: 0 } });
  });

  it('give seats in arrival order, each all or none: one without room is refused sold_out and a smaller one after it still fits', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 20, ticketTypes: [{ price: 1000, quantity: 10, max_per_order: 4 }] });
    await t.ctx.db.updateTable('capacity_buckets').set({ sold: 5 }).where('id', 'in', [`t:${ticketType.id}`, `e:${event.id}`]).execute();
    const items = [await itemOf(tenant, event.slug, ticketType.id, 4), await itemOf(tenant, event.slug, ticketType.id, 3), await itemOf(tenant, event.slug, ticketType.id, 1)];
    const [first, second, third] = await bookGroups(t.ctx, items);
    expect((first as Booked).booking.quantity).toBe(4);
    expect(second).toBeInstanceOf(ItemFailure);
    expect(((second as ItemFailure).error as ApiError).code).toBe('sold_out');
    expect((third as Booked).booking.quantity).toBe(1);
    const writers = await writersOf(event.id);
    expect([...writers.keys()].sort()).toEqual([(first as Booked).booking.id, (third as Booked).booking.id].sort());
    expect(new Set(writers.values()).size).toBe(1);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`t:${ticketType.id}`]: { held: 5, sold: 5 }, [`e:${event.id}`]: { held: 5, sold: 5 } });
    // The event's own bucket still has room: it is not reported sold out.
    const soldOut = await soldOutReports(event.id);
    expect(soldOut).toHaveLength(0);
  });

  it('that take the event’s last seat report it sold out once', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 3, ticketTypes: [{ price: 1000, max_per_order: 4 }] });
    const results = await bookGroups(t.ctx, [await itemOf(tenant, event.slug, ticketType.id, 2), await itemOf(tenant, event.slug, ticketType.id, 1), await itemOf(tenant, event.slug, ticketType.id, 1)]);
    expect(results.map((r) => (r instanceof ItemFailure ? (r.error as ApiError).code : 'taken'))).toEqual(['taken', 'taken', 'sold_out']);
    const soldOut = await soldOutReports(event.id);
    expect(soldOut).toHaveLength(1);
  });

  it('write nothing when one of them fails, and are then each taken alone: only that one is refused', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 50, ticketTypes: [{ price: 1000, max_per_order: 4 }] });
    expectStatus(await bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 1, { external_id: 'crm-1' })), 201);
    const items = [await itemOf(tenant, event.slug, ticketType.id, 1), await itemOf(tenant, event.slug, ticketType.id, 2, { external_id: 'crm-1' })];
    expect(await bookGroups(t.ctx, items)).toEqual([ALONE, ALONE]);
    expect(await orderCount(event.id)).toBe(1);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 1 } });

    // Through the route, the same bookings at once: the duplicate is refused, the others are taken.
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 1))),
      bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 2, { external_id: 'crm-1' })),
    ]);
    for (const r of answers.slice(0, 6)) expectStatus(r, 201);
    expectError(answers[6]!, 409, 'external_id_taken');
    expect(await orderCount(event.id)).toBe(7);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 7 } });
  });

  it('draw a new code for an order whose code another order of the tenant has', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 50, ticketTypes: [{ price: 1000, max_per_order: 4 }] });
    const existing = expectStatus(await bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 1)), 201).data.booking;
    vi.mocked(secrets.newOrderCode).mockReturnValueOnce(existing.code);
    const results = await bookGroups(t.ctx, [await itemOf(tenant, event.slug, ticketType.id, 1), await itemOf(tenant, event.slug, ticketType.id, 1)]);
    const codes = results.map((r) => (r as Booked).booking.code);
    expect(codes).not.toContain(existing.code);
    expect(new Set(codes).size).toBe(2);
    expect(await orderCount(event.id)).toBe(3);
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 3 } });
  });

  it('on two server instances at once never take more seats than are left', async () => {
    const { t: first, second, tenant } = await twoInstances();
    try {
      const { event, ticketType } = await seedEvent(first, tenant, { capacity: 100, ticketTypes: [{ price: 1000, quantity: 30, max_per_order: 4 }] });
      await first.ctx.db.updateTable('capacity_buckets').set({ sold: 20 }).where('id', 'in', [`t:${ticketType.id}`, `e:${event.id}`]).execute();
      const apps = [first.app, second.app];
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => request(apps[i % 2]!).post(`/v1/events/${event.slug}/book`).set(pk(tenant)).send(bookingBody(ticketType.id, 1 + (i % 2)))),
      );
      for (const r of answers.filter((r) => r.status !== 201)) expectError(r, 409, 'sold_out');
      const seats = answers.reduce((n, r, i) => n + (r.status === 201 ? 1 + (i % 2) : 0), 0);
      const tickets = await first.ctx.db.selectFrom('tickets').select('id').where('event_id', '=', event.id).execute();
      expect(tickets).toHaveLength(seats);
      expect(seats).toBeLessThanOrEqual(10);
      // A 1-ticket booking fits whenever a seat is left: every one of the 10 seats went.
      expect(seats).toBe(10);
      expect(await bucketsOf(first, event.id)).toMatchObject({ [`t:${ticketType.id}`]: { held: 10, sold: 20 } });
    } finally {
      await stopTwoInstances(first, second);
    }
  });
});
