import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { makeOrganization, makePublishedEvent, signedInMember } from './catalogue-fixtures';
import { bookAs, bookingBody, bookOk, pk, sk } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('booking an event made through the organizer routes', () => {
  it('books against the catalogue\'s buckets and coupons, and shows the orders to the organization\'s members only', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const otherOrg = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, { capacity: 3 }, { price: 2000, quantity: 2 });
    expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/coupons`).set(sk(tenant)).send({ code: 'Friends', discount_type: 'percent', value: 25 }), 201);
    const payload = expectStatus(await t.http().get(`/v1/events/${event.slug}/book/payload`).query({ ticket_id: ticketType.id, quantity: 2 }).set(pk(tenant)), 200).data;
    expect(payload).toMatchObject({ bookable: true, supports_coupon: true, attendee_slots: 2 });
    const { booking } = await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2, { coupon_code: 'FRIENDS' }));
    expect(booking).toMatchObject({ amount_total: 3000, amount_discount: 1000, coupon: 'Friends', status: 'pending' });
    expectError(await bookAs(t, pk(tenant), event.slug, bookingBody(ticketType.id, 1)), 409, 'sold_out');
    // The public page sees the ticket sold out while the seats are held.
    const shown = expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 200).data;
    expect(JSON.stringify(shown)).toContain('sold_out');
    expect(JSON.stringify(shown)).not.toContain('buyer@example.test');
    // The catalogue refuses to shrink below what is held.
    expectError(await t.http().patch(`/v1/organizer/events/${event.id}`).set(sk(tenant)).send({ capacity: 1 }), 422, 'validation_failed', { param: 'capacity' });

    const viewer = await signedInMember(t, tenant, org.id, 'viewer');
    const stranger = await signedInMember(t, tenant, otherOrg.id, 'owner');
    expect(expectStatus(await t.http().get('/v1/orders').set(viewer), 200).data.map((o: { id: string }) => o.id)).toEqual([booking.id]);
    expect(expectStatus(await t.http().get('/v1/orders').set(stranger), 200).data).toEqual([]);
    expectStatus(await t.http().get(`/v1/orders/${booking.id}`).set(viewer), 200);
    expectError(await t.http().get(`/v1/orders/${booking.id}`).set(stranger), 403, 'missing_permission');
    // Cancelling needs events:write in the order's organization.
    expectError(await t.http().post(`/v1/orders/${booking.id}/cancel`).set(viewer), 403, 'missing_permission');
    const manager = await signedInMember(t, tenant, org.id, 'manager');
    expect(expectStatus(await t.http().post(`/v1/orders/${booking.id}/cancel`).set(manager), 200).data.status).toBe('cancelled');
    await bookOk(t, tenant, event.slug, bookingBody(ticketType.id, 2));
  });
});
