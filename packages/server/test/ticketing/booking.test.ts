import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { signInByEmail } from '../identity/identity-fixtures';
import { attendees, bookAs, bookingBody, bookOk, bucketsOf, pk, seedEvent, sk } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const HOUR = 3600_000;

describe('POST /v1/events/{event}/book', () => {
  it('books a priced ticket in test mode: a pending order, seats held, a checkout URL', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 100, ticketTypes: [{ price: 2500, quantity: 10 }] });
    const { booking, payment } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { redirect_url: 'https://shop.example.test/done' }));
    expect(booking).toMatchObject({
      object: 'order',
      livemode: false,
      status: 'pending',
      event: event.id,
      ticket_type: ticketType.id,
      event_slot: null,
      quantity: 2,
      amount_total: 5000,
      amount_discount: 0,
      amount_paid: 0,
      amount_due: 5000,
      currency: 'KES',
      pay_later: false,
      coupon: null,
      buyer: { name: 'Buyer One', email: 'buyer@example.test', phone: null },
      redirect_url: 'https://shop.example.test/done',
    });
    expect(booking.id).toMatch(/^ord_/);
    expect(booking.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(booking.attendees).toHaveLength(2);
    expect(booking.attendees[0].ticket).toMatchObject({ status: 'pending_payment' });
    expect(booking.attendees[0].ticket.id).toMatch(/^tkt_/);
    expect(JSON.stringify(booking)).not.toMatch(/secret/);
    expect(new Date(booking.expires_at).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(payment).toMatch(/\/checkout\/cs_[0-9A-Za-z]{32}$/);
    const buckets = await bucketsOf(t, event.id);
    expect(buckets[`e:${event.id}`]).toMatchObject({ held: 2, sold: 0 });
    expect(buckets[`t:${ticketType.id}`]).toMatchObject({ held: 2, sold: 0 });
    const session = await t.ctx.db.selectFrom('checkout_sessions').selectAll().where('order_id', '=', booking.id).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ id: (payment as string).split('/').pop(), amount: 5000, currency: 'KES', status: 'open', redirect_url: 'https://shop.example.test/done' });
    expect(session.expires_at.toISOString()).toBe(booking.expires_at);
    // The ticket secrets are stored hashed and sealed, never in the clear.
    const tickets = await t.ctx.db.selectFrom('tickets').selectAll().where('order_id', '=', booking.id).execute();
    expect(tickets[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tickets[0]!.secret_sealed).toMatch(/^v1\./);
    const created = expectStatus(await t.http().get('/v1/events').query({ type: 'events.order.created' }).set(sk(tenant)), 200).data;
    expect(created[0].data.object).toMatchObject({ id: booking.id, status: 'pending' });
    // The expiry job waits for the order's expires_at.
    const { rows } = await import('kysely').then(({ sql }) =>
      sql<{ start_after: Date }>`select start_after from pgboss.job where name = 'ticketing-expire-order' and data->>'order_id' = ${booking.id}`.execute(t.ctx.db),
    );
    expect(rows[0]!.start_after.toISOString()).toBe(booking.expires_at);
  });

  it('takes a signed-in customer as the buyer when the buyer fields are left out', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 1000 }] });
    const session = await signInByEmail(t, tenant);
    const res = await bookAs(t, bearer(session.access_token), event.slug, { ticket_id: ticketType.id, quantity: 1, attendees: attendees(1) });
    const { booking } = expectStatus(res, 201).data;
    expect(booking).toMatchObject({ customer: session.user.customer, buyer: { email: session.user.email } });
  });

  it('takes the tenant header alone in live mode; a priced live booking without a payment configuration answers 409 payments_not_configured', async () => {
    const tenant = await t.tenant();
    const free = await seedEvent(t, tenant, { livemode: true, ticketTypes: [{ price: 0 }] });
    const header = { 'X-Tenant-Code': tenant.tenant.code };
    const { booking, payment } = expectStatus(await bookAs(t, header, free.event.slug, bookingBody(free.ticketType.id)), 201).data;
    expect(booking).toMatchObject({ livemode: true, status: 'paid' });
    expect(payment).toEqual([]);
    const priced = await seedEvent(t, tenant, { livemode: true, ticketTypes: [{ price: 500, quantity: 3 }] });
    const err = expectError(await bookAs(t, header, priced.event.slug, bookingBody(priced.ticketType.id)), 409, 'payments_not_configured');
    expect(err.type).toBe('invalid_request_error');
    expectError(await bookAs(t, pk(tenant, 'live'), priced.event.slug, bookingBody(priced.ticketType.id)), 409, 'payments_not_configured');
    expect(await bucketsOf(t, priced.event.id)).toMatchObject({ [`t:${priced.ticketType.id}`]: { held: 0, sold: 0 } });
    // The test-mode event is not the live one.
    expectError(await bookAs(t, pk(tenant), priced.event.slug, bookingBody(priced.ticketType.id)), 404, 'resource_not_found');
  });

  it('prices a name-your-price ticket from `amount` within its bounds (422 param amount)', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, {
      ticketTypes: [{ pricing_mode: 'name_your_price', price: null, flexipay_min_price: 500, flexipay_max_price: 5000 }],
    });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id)), 422, 'validation_failed', { param: 'amount' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { amount: 499 })), 422, 'validation_failed', { param: 'amount' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { amount: 5001 })), 422, 'validation_failed', { param: 'amount' });
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { amount: 750 }));
    expect(booking.amount_total).toBe(1500);
    const unbounded = await seedEvent(t, tenant, { ticketTypes: [{ pricing_mode: 'name_your_price', price: null, flexipay_min_price: 0 }] });
    const huge = bookingBody(unbounded.ticketType.id, 2, { amount: 2_000_000_000 });
    expectError(await bookAs(t, pk(tenant), unbounded.event.slug, huge), 422, 'validation_failed', { param: 'quantity' });
    expectError(await bookAs(t, pk(tenant), unbounded.event.slug, { ...huge, amount: 2_000_000_001 }), 422, 'validation_failed', { param: 'amount' });
  });

  it('applies a coupon (case-insensitive), reserves its uses, and answers 422 coupon_invalid for a bad one', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, {
      ticketTypes: [{ price: 2000 }],
      coupons: [
        { code: 'HALF', discount_type: 'percent', value: 50, max_uses: 1 },
        { code: 'OFF300', discount_type: 'fixed', value: 300 },
        { code: 'OTHER', discount_type: 'fixed', value: 300, ticket_type_ids: ['00000000-0000-4000-8000-000000000000'] },
      ],
    });
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { coupon_code: 'half' }));
    expect(booking).toMatchObject({ amount_total: 2000, amount_discount: 2000, coupon: 'HALF' });
    const used = expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { coupon_code: 'HALF' })), 422, 'coupon_invalid', { param: 'coupon_code' });
    expect(used.details).toEqual({ reason: 'used_up' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { coupon_code: 'NOPE' })), 422, 'coupon_invalid', { reason: 'unknown' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { coupon_code: 'OTHER' })), 422, 'coupon_invalid', { reason: 'not_applicable' });
    expect((await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1, { coupon_code: 'off300' }))).booking.amount_total).toBe(1700);
    // Expiry gives the held use back.
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${booking.id}/expire`).set(sk(tenant)), 200);
    const coupon = await t.ctx.db.selectFrom('coupons').selectAll().where('code', '=', 'HALF').where('event_id', '=', event.id).executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({ uses_held: 0, uses_redeemed: 0 });
    await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1, { coupon_code: 'HALF' }));
  });

  it('refuses what cannot be booked now with 422 not_bookable and the reason', async () => {
    const tenant = await t.tenant();
    const now = Date.now();
    const draft = await seedEvent(t, tenant, { status: 'draft' });
    expectError(await bookAs(t, pk(tenant), draft.event.slug, bookingBody(draft.ticketType.id)), 422, 'not_bookable', { reason: 'event_not_published' });
    const ended = await seedEvent(t, tenant, { starts_at: new Date(now - 3 * HOUR), ends_at: new Date(now - HOUR) });
    expectError(await bookAs(t, pk(tenant), ended.event.slug, bookingBody(ended.ticketType.id)), 422, 'not_bookable', { reason: 'event_ended' });
    const { event, ticketTypes } = await seedEvent(t, tenant, {
      ticketTypes: [
        { status: 'paused' },
        { sale_starts_at: new Date(now + HOUR) },
        { sale_ends_at: new Date(now - HOUR) },
        { min_per_order: 2, max_per_order: 3 },
      ],
    });
    const reasons = ['ticket_paused', 'sale_not_started', 'sale_ended'];
    for (const [i, reason] of reasons.entries()) {
      expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketTypes[i]!.id)), 422, 'not_bookable', { reason });
    }
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketTypes[3]!.id, 1)), 422, 'not_bookable', { reason: 'quantity_out_of_range', param: 'quantity' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketTypes[3]!.id, 4)), 422, 'not_bookable', { reason: 'quantity_out_of_range' });
    const slotted = await seedEvent(t, tenant, { slots: [{ capacity: 5 }] });
    expectError(await bookAs(t, pk(tenant), slotted.event.slug, bookingBody(slotted.ticketType.id)), 422, 'not_bookable', { reason: 'slot_required', param: 'event_slot_id' });
  });

  it('checks attendees, extra fields, pay-later, external ids and unknown objects', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, ticketTypes } = await seedEvent(t, tenant, {
      ticketTypes: [
        { admits: 2, extra_fields: [{ id: 'f1', name: 'size', type: 'select', required: true, options: ['S', 'M'] }] },
        { allow_pay_later: true, price: 4000 },
      ],
    });
    const two = (extra: object) => attendees(2).map((a) => ({ ...a, extra_data: extra }));
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { attendees: two({ size: 'M' }).slice(0, 1) })), 422, 'validation_failed', { param: 'attendees' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { attendees: two({}) })), 422, 'validation_failed', { param: 'attendees.0.extra_data.size' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { attendees: two({ size: 'XL' }) })), 422, 'validation_failed', { param: 'attendees.0.extra_data.size' });
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 1, { attendees: two({ size: 'S' }) }));
    expect(booking.attendees).toHaveLength(2);
    expect(booking.attendees[1].extra_data).toEqual({ size: 'S' });
    expect(await bucketsOf(t, event.id)).toMatchObject({ [`e:${event.id}`]: { held: 2 } });

    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { pay_later: true, attendees: two({ size: 'S' }) })), 422, 'validation_failed', { param: 'pay_later' });
    const later = await bookOk(t, tenant, event.slug, bookingBody(ticketTypes[1]!.id, 1, { pay_later: true }));
    expect(later).toMatchObject({ payment: [], booking: { status: 'pending', pay_later: true, amount_due: 4000 } });
    expect(later.booking.expires_at).toBe(new Date(event.starts_at).toISOString());

    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketTypes[1]!.id, 1, { external_id: 'x-1' })), 422, 'validation_failed', { param: 'external_id' });
    const keyed = expectStatus(await bookAs(t, sk(tenant), event.slug, bookingBody(ticketTypes[1]!.id, 1, { external_id: 'x-1', metadata: { crm: '7' } })), 201).data.booking;
    expect(keyed).toMatchObject({ external_id: 'x-1', metadata: { crm: '7' } });
    expectError(await bookAs(t, sk(tenant), event.slug, bookingBody(ticketTypes[1]!.id, 1, { external_id: 'x-1' })), 409, 'external_id_taken');

    expectError(await bookAs(t, pk(tenant), 'no-such-event', bookingBody(ticketType.id)), 404, 'resource_not_found', { param: 'event' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody('00000000-0000-4000-8000-000000000000')), 404, 'resource_not_found', { param: 'ticket_id' });
    expectError(await bookAs(t, pk(tenant), event.slug, { ...bookingBody(ticketTypes[1]!.id), event_slot_id: '00000000-0000-4000-8000-000000000000' }), 404, 'resource_not_found', { param: 'event_slot_id' });
    expectError(await bookAs(t, pk(tenant), event.slug, { ...bookingBody(ticketTypes[1]!.id), buyer_email: undefined }), 422, 'validation_failed', { param: 'buyer_email' });
    expectError(await bookAs(t, pk(tenant), event.slug, { ...bookingBody(ticketTypes[1]!.id), quantity: 0 }), 422, 'validation_failed', { param: 'quantity' });
    expectError(await bookAs(t, {}, event.slug, bookingBody(ticketTypes[1]!.id)), 401, 'api_key_missing');
  });

  it('holds seats per slot: the slot, the event, and the ticket type within the slot (made on first booking)', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, slots } = await seedEvent(t, tenant, { capacity: 10, slots: [{ capacity: 3 }, { capacity: null }], ticketTypes: [{ quantity: 2 }] });
    const [a, b] = slots;
    await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { event_slot_id: a!.id }));
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1, { event_slot_id: a!.id })), 409, 'sold_out');
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { event_slot_id: b!.id }));
    expect(booking.event_slot).toBe(b!.id);
    const buckets = await bucketsOf(t, event.id);
    expect(buckets[`ts:${ticketType.id}:${a!.id}`]).toMatchObject({ capacity: 2, held: 2 });
    expect(buckets[`s:${a!.id}`]).toMatchObject({ capacity: 3, held: 2 });
    expect(buckets[`t:${ticketType.id}`]).toMatchObject({ capacity: null, held: 4 });
    expect(buckets[`e:${event.id}`]).toMatchObject({ held: 4 });
  });
});
