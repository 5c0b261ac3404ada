import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc } from '../src';
import { startServer, type RunningServer } from '@svc/server/testing';

let server: RunningServer;
let svc: Svc;
beforeAll(async () => {
  server = await startServer();
  const { keys } = await server.createTenant();
  svc = new Svc({ apiKey: keys.test.secret, baseUrl: server.url });
}, 60_000);
afterAll(() => server?.stop());

/** The checkout simulator's public route, as the page's script calls it (the magic card succeeds). */
async function pay(checkoutUrl: string) {
  const id = new URL(checkoutUrl).pathname.split('/').pop()!;
  const response = await fetch(`${server.url}/v1/checkout/sessions/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'card', card_number: '4242424242424242' }),
  });
  expect(response.status).toBe(200);
}

describe('ticketing through the SDK, against a running server', () => {
  it('runs the organizer catalogue, a booking, its payment, a refund and the event log apart', async () => {
    const organization = await svc.organizations.create({ name: 'Sauti Events', handle: 'sauti_sdk', kind: 'brand' });
    const stream = await svc.streams.liveStreams.create({});
    const event = await svc.events.create({
      organization: organization.id,
      name: 'Jazz Night',
      starts_at: new Date(Date.now() + 86_400_000).toISOString(),
      ends_at: new Date(Date.now() + 90_000_000).toISOString(),
      capacity: 50,
      live_stream: stream.id,
    });
    expect(event).toMatchObject({ object: 'ticketed_event', status: 'draft', live_stream: stream.id });
    const ticket = await svc.events.ticketTypes.create(event.id, { name: 'Regular', pricing_mode: 'fixed', price: 150_000 });
    const coupon = await svc.events.coupons.create(event.id, { code: 'FRIENDS', discount_type: 'percent', value: 10 });
    expect(coupon.code).toBe('FRIENDS');
    await expect(svc.events.ticketTypes.list(event.id)).resolves.toMatchObject({ data: [{ id: ticket.id }] });
    const published = await svc.events.publish(event.id);
    expect(published.status).toBe('published');
    expect((await svc.events.retrieve(event.id)).status).toBe('published');
    const mine: string[] = [];
    for await (const e of svc.events.list()) mine.push(e.id);
    expect(mine).toContain(event.id);

    // The same path, two readings: the log by default, published ticketed events on request.
    const listed = await svc.eventLog.list({ object: 'ticketed_event' });
    expect(listed.data.map((e) => e.object)).toEqual(['ticketed_event']);
    const log = await svc.eventLog.list({ type: 'events.event.published' });
    expect(log.data[0]).toMatchObject({ object: 'event', type: 'events.event.published' });

    const payload = await svc.booking.payload(event.slug, { ticket_id: ticket.id, quantity: 1 });
    expect(payload.bookable).toBe(true);
    const booked = await svc.booking.book(event.slug, {
      ticket_id: ticket.id,
      quantity: 1,
      buyer_name: 'Wanjiru K',
      buyer_email: 'buyer@example.com',
      attendees: [{ first_name: 'Wanjiru', last_name: 'K', email: 'buyer@example.com' }],
      external_id: 'shop-1',
    });
    expect(booked.booking.status).toBe('pending');
    expect(typeof booked.payment).toBe('string');
    await pay(booked.payment as string);

    const order = await svc.orders.retrieve(booked.booking.id);
    expect(order.status).toBe('paid');
    expect((await svc.orders.retrieveByExternalId('shop-1')).id).toBe(order.id);
    expect((await svc.orders.list()).data.map((o) => o.id)).toContain(order.id);

    const refund = await svc.orders.refunds.create(order.id, { amount: 50_000, reason: 'one guest cannot come' }, { idempotencyKey: `refund-${order.id}` });
    expect(refund).toMatchObject({ object: 'refund', amount: 50_000, status: 'succeeded' });
    expect((await svc.orders.refunds.list(order.id)).data.map((r) => r.id)).toEqual([refund.id]);

    // The receipt and the ticket were captured in test mode; one can be sent again.
    const messages = await svc.identity.messages.list({ related: order.id });
    expect(messages.data.length).toBeGreaterThan(0);
    const resent = await svc.identity.messages.resend(messages.data[0]!.id);
    expect(resent.id).not.toBe('');

    const cancelled = await svc.events.cancel(event.id);
    expect(cancelled.status).toBe('cancelled');
  });
});
