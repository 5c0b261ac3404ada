import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bookAs, bookingBody, bookOk, bucketsOf, pk, seedEvent, sk } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('POST /v1/events/{event}/book', () => {
  it('books a priced ticket in test mode: a pending order, seats held, a checkout URL', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 100, ticketTypes: [{ price: 2500, quantity: 10 }] });
    const { booking, payment } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2));
    expect(booking).toMatchObject({
      object: 'order',
      status: 'pending',
      event: event.id,
      ticket_type: ticketType.id,
      quantity: 2,
      amount_total: 5000,
      amount_discount: 0,
      amount_paid: 0,
      amount_due: 5000,
      currency: 'KES',
      pay_later: false,
      buyer: { name: 'Buyer One', email: 'buyer@example.test', phone: null },
    });
    expect(booking.id).toMatch(/^ord_/);
    expect(booking.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(booking.attendees).toHaveLength(2);
    expect(booking.attendees[0].ticket).toMatchObject({ status: 'pending_payment' });
    expect(booking.attendees[0].ticket.id).toMatch(/^tkt_/);
    expect(new Date(booking.expires_at).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(payment).toMatch(/\/checkout\/cs_[0-9A-Za-z]{32}$/);
    const buckets = await bucketsOf(t, event.id);
    expect(buckets[`e:${event.id}`]).toMatchObject({ held: 2, sold: 0 });
    expect(buckets[`t:${ticketType.id}`]).toMatchObject({ held: 2, sold: 0 });
    const session = await t.ctx.db.selectFrom('checkout_sessions').selectAll().where('order_id', '=', booking.id).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ amount: 5000, currency: 'KES', status: 'open' });
  });
});
