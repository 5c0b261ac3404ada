import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { bookingBody, bookOk, pk, seedEvent } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const payloadOf = (tenant: Awaited<ReturnType<typeof t.tenant>>, event: string, query: object, headers = pk(tenant)) =>
  t.http().get(`/v1/events/${event}/book/payload`).query(query).set(headers);

describe('GET /v1/events/{event}/book/payload', () => {
  it('describes a bookable ticket: fields, attendee slots (quantity × admits), window and the expected body', async () => {
    const tenant = await t.tenant();
    const saleEnds = new Date(Date.now() + 86_400_000);
    const { event, ticketType } = await seedEvent(t, tenant, {
      ticketTypes: [{ price: 1200, admits: 2, sale_ends_at: saleEnds, extra_fields: [{ id: 'f1', name: 'diet', type: 'text', required: false, options: null }] }],
      coupons: [{ code: 'X', discount_type: 'fixed', value: 1 }],
    });
    const data = expectStatus(await payloadOf(tenant, event.slug, { ticket_id: ticketType.id, quantity: 3 }), 200).data;
    expect(data).toMatchObject({
      ticket: { id: ticketType.id, name: 'Ticket 1', pricing_mode: 'fixed', price: 1200, flexipay_min_price: null, flexipay_max_price: null, allow_pay_later: false },
      quantity: 3,
      attendee_slots: 6,
      extra_fields: [{ id: 'f1', name: 'diet', type: 'text', required: false, options: null }],
      supports_coupon: true,
      bookable: true,
      bookable_reason: null,
      sale_window: { start_sale_at: null, end_sale_at: saleEnds.toISOString() },
    });
    expect(data.attendee_fields.map((f: { name: string }) => f.name)).toEqual(['first_name', 'last_name', 'email', 'phone']);
    expect(data.expected_payload).toMatchObject({ ticket_id: ticketType.id, quantity: 3, event_slot_id: null });
    expect(data.expected_payload.attendees).toHaveLength(6);
    expect(data.expected_payload).not.toHaveProperty('amount');
    // The tenant header alone (live mode) reads live events only.
    expectError(await payloadOf(tenant, event.slug, { ticket_id: ticketType.id, quantity: 1 }, { 'X-Tenant-Code': tenant.tenant.code } as never), 404, 'resource_not_found');
  });

  it('asks name-your-price bookings for `amount`, and says why a ticket is not bookable', async () => {
    const tenant = await t.tenant();
    const { event, ticketTypes } = await seedEvent(t, tenant, {
      capacity: 2,
      ticketTypes: [{ pricing_mode: 'name_your_price', price: null, flexipay_min_price: 300, flexipay_max_price: null }, { status: 'paused' }, { max_per_order: 2 }],
    });
    const nyp = expectStatus(await payloadOf(tenant, event.id, { ticket_id: ticketTypes[0]!.id, quantity: 1 }), 200).data;
    expect(nyp.expected_payload.amount).toBe(300);
    expect(nyp.ticket).toMatchObject({ pricing_mode: 'name_your_price', flexipay_min_price: 300 });
    const paused = expectStatus(await payloadOf(tenant, event.slug, { ticket_id: ticketTypes[1]!.id, quantity: 1 }), 200).data;
    expect(paused).toMatchObject({ bookable: false, bookable_reason: { code: 'ticket_paused' } });
    expect(paused.bookable_reason.message).toEqual(expect.any(String));
    const tooMany = expectStatus(await payloadOf(tenant, event.slug, { ticket_id: ticketTypes[2]!.id, quantity: 3 }), 200).data;
    expect(tooMany.bookable_reason.code).toBe('quantity_out_of_range');
    await bookOk(t, tenant, event.slug, bookingBody(ticketTypes[2]!.id, 2));
    const full = expectStatus(await payloadOf(tenant, event.slug, { ticket_id: ticketTypes[2]!.id, quantity: 1 }), 200).data;
    expect(full).toMatchObject({ bookable: false, bookable_reason: { code: 'sold_out' } });
    expectError(await payloadOf(tenant, event.slug, { ticket_id: ticketTypes[2]!.id }), 422, 'validation_failed', { param: 'quantity' });
    expectError(await payloadOf(tenant, event.slug, { ticket_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }), 404, 'resource_not_found', { param: 'ticket_id' });
    expectError(await payloadOf(tenant, 'nope', { ticket_id: ticketTypes[2]!.id, quantity: 1 }), 404, 'resource_not_found');
    const other = await t.tenant('Other');
    expectError(await payloadOf(other, event.slug, { ticket_id: ticketTypes[2]!.id, quantity: 1 }), 404, 'resource_not_found');
  });
});
