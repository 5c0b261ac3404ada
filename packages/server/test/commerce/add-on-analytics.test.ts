import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { attendees, bookAs, pk, seedEvent } from '../ticketing/booking-fixtures';
import { product, sk } from './commerce-fixtures';
import { address, payOrder, refundOrder } from './orders-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

const get = (path: string, tenant: Parameters<typeof sk>[0], query: Record<string, string>) => t.http().get(path).query(query).set(sk(tenant));

describe('organizer analytics of bookings with add-ons', () => {
  it('counts the ticket line as ticket revenue and the add-ons (lines and shipping) apart, refunds included', async () => {
    const tenant = await t.tenant('AddonFigures');
    const show = await seedEvent(t, tenant, { ticketTypes: [{ price: 1500 }] });
    expectStatus(await t.http().patch(`/v1/organizations/${show.organization}/commerce_settings`).set(sk(tenant)).send({ shipping_fee: 300 }), 200);
    const tee = (await product(t, tenant, show.organization, { variants: [{ name: 'Black / M', sku: 'FIG-M', price: 2500, stock: 5 }] })).variants[0].id;
    const booked = await bookAs(t, pk(tenant), show.event.id, {
      ticket_id: show.ticketType.id,
      quantity: 1,
      buyer_name: 'Wanjiku',
      buyer_email: 'wanjiku@example.test',
      attendees: attendees(1),
      add_ons: [{ variant: tee, quantity: 1 }],
      shipping_address: address,
    });
    const { booking, payment } = expectStatus(booked, 201).data;
    await payOrder(t, { checkout_url: payment });
    const q = (period: string) => ({ organization: show.organization, period });

    // Paid 4300: the ticket 1500; the shirt 2500 and its shipping 300.
    const overview = expectStatus(await get('/v1/organizer/analytics', tenant, q('7d')), 200).data;
    expect(overview.stats.total_revenue).toMatchObject({ value: 15 });
    expect(overview.stats.add_on_revenue).toMatchObject({ value: 28, currency: 'KES' });
    expect(overview.top_events[0]).toMatchObject({ tickets_sold: 1, revenue: 15 });
    const revenue = expectStatus(await get('/v1/organizer/analytics/revenue', tenant, q('7d')), 200);
    expect(revenue.data).toEqual([{ date: expect.any(String), revenue: 15, add_on_revenue: 28, currency: 'KES' }]);
    expect(revenue.meta).toMatchObject({ total_revenue: 15, total_add_on_revenue: 28 });
    const events = expectStatus(await get('/v1/organizer/analytics/events', tenant, q('7d')), 200).data;
    expect(events[0]).toMatchObject({ event_id: show.event.id, revenue: 15, add_on_revenue: 28 });
    expect(expectStatus(await get('/v1/organizer/analytics/audience', tenant, q('7d')), 200).data.avg_ticket_price).toBe(15);

    // The shirt refunded by its line: its 2500 leaves the add-ons' figure; the ticket's stays whole.
    const shirtLine = booking.line_items.find((l: { kind: string }) => l.kind === 'product');
    expectStatus(await refundOrder(t, tenant, booking.id, { line_items: [{ id: shirtLine.id, quantity: 1 }] }), 201);
    const after = expectStatus(await get('/v1/organizer/analytics', tenant, q('8d')), 200).data;
    expect(after.stats.total_revenue.value).toBe(15);
    expect(after.stats.add_on_revenue.value).toBe(3);

    // The rest refunded by amount alone (1800: the ticket and the shipping): everything is back.
    expectStatus(await refundOrder(t, tenant, booking.id, {}), 201);
    const none = expectStatus(await get('/v1/organizer/analytics/revenue', tenant, q('9d')), 200).meta;
    expect(none).toMatchObject({ total_revenue: 0, total_add_on_revenue: 0 });
  });
});
