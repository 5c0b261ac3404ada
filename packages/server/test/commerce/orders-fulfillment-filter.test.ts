import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { attendees, bookAs, pk, seedEvent } from '../ticketing/booking-fixtures';
import { product, sk, type Tenant } from './commerce-fixtures';
import { address, orderBody, payOrder, placeOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const list = (tenant: Tenant, query: Record<string, string | number>) => t.http().get('/v1/orders').query(query).set(sk(tenant));
/** The ids of a `200` list page, in order. */
const ids = async (request: PromiseLike<Response>) => (expectStatus(await request, 200).data as { id: string }[]).map((o) => o.id);

describe('GET /v1/orders?fulfillment_status=', () => {
  it('lists the product orders and bookings with add-ons in a fulfilment status, with the other filters and pages', async () => {
    const tenant = await t.tenant('FulfilFilter');
    const show = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }] });
    const variant = (await product(t, tenant, show.organization, { variants: [{ name: 'Tee', sku: 'FLT-1', price: 1000, stock: 50 }] })).variants[0].id;
    const paid: { id: string }[] = [];
    for (const i of [1, 2, 3]) {
      const order = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, `flt${i}`)), 201).data;
      await payOrder(t, order);
      paid.push(order);
    }
    const pending = expectStatus(await placeOrder(t, tenant, orderBody(variant, 1, 'flt-pending')), 201).data;
    const booking = async (extra: Record<string, unknown>) =>
      expectStatus(
        await bookAs(t, pk(tenant), show.event.id, { ticket_id: show.ticketType.id, quantity: 1, buyer_name: 'Wanjiku', buyer_email: 'w@example.test', attendees: attendees(1), ...extra }),
        201,
      ).data.booking;
    const withShirt = await booking({ add_ons: [{ variant, quantity: 1 }], shipping_address: address });
    const ticketOnly = await booking({});
    expectStatus(await t.http().post(`/v1/orders/${paid[0]!.id}/fulfillment`).set(sk(tenant)).send({ status: 'fulfilled' }), 200);
    expectStatus(await t.http().post(`/v1/orders/${paid[1]!.id}/fulfillment`).set(sk(tenant)).send({ status: 'shipped', carrier: 'G4S', tracking_number: 'T-1' }), 200);

    // Newest first; a ticket order without add-ons has no fulfilment and never matches.
    expect(await ids(list(tenant, { fulfillment_status: 'unfulfilled' }))).toEqual([withShirt.id, pending.id, paid[2]!.id]);
    expect(await ids(list(tenant, { fulfillment_status: 'shipped' }))).toEqual([paid[1]!.id]);
    expect(await ids(list(tenant, { fulfillment_status: 'delivered' }))).toEqual([]);
    expect(await ids(list(tenant, { fulfillment_status: 'unfulfilled', status: 'paid' }))).toEqual([paid[2]!.id]);
    expect(await ids(list(tenant, { fulfillment_status: 'unfulfilled', kind: 'ticket' }))).toEqual([withShirt.id]);
    expect(await ids(list(tenant, { fulfillment_status: 'unfulfilled', organization: 'org_none' }))).toEqual([]);
    expect(await ids(list(tenant, {}))).toContain(ticketOnly.id);

    // Pages: two, then the rest after the last id of the first.
    const first = expectStatus(await list(tenant, { fulfillment_status: 'unfulfilled', limit: 2 }), 200);
    expect(first.data.map((o: { id: string }) => o.id)).toEqual([withShirt.id, pending.id]);
    expect(first.meta.pagination.has_more).toBe(true);
    expect(await ids(list(tenant, { fulfillment_status: 'unfulfilled', limit: 2, starting_after: pending.id }))).toEqual([paid[2]!.id]);

    // Another tenant's orders in the same status are never listed; an unknown status is 422.
    const other = await t.tenant('FulfilFilterOther');
    expect(await ids(list(other, { fulfillment_status: 'unfulfilled' }))).toEqual([]);
    expectError(await list(tenant, { fulfillment_status: 'lost' }), 422, 'validation_failed');
  });
});
