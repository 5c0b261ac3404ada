import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError } from '../kit/expect';
import { bookAs, bookingBody, bucketsOf, seedEvent, sk, type Tenant } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

async function busyTenant(): Promise<Tenant> {
  const tenant = await t.tenant();
  await t.ctx.db.updateTable('tenants').set({ rate_limit_secret: 100_000 }).where('id', '=', tenant.tenant.id).execute();
  return tenant;
}

describe('capacity under concurrent bookings', () => {
  it('200 concurrent bookings for the last 10 seats make exactly 10 orders; the others answer 409 sold_out', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 50, ticketTypes: [{ price: 1000, quantity: 30 }] });
    // 20 of the type's 30 seats are gone already: 10 are left.
    await t.ctx.db.updateTable('capacity_buckets').set({ sold: 20 }).where('id', 'in', [`t:${ticketType.id}`, `e:${event.id}`]).execute();
    const answers = await Promise.all(Array.from({ length: 200 }, () => bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 1))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of answers.filter((r) => r.status !== 201)) expectError(r, 409, 'sold_out');
    const orders = await t.ctx.db.selectFrom('orders').select('id').where('event_id', '=', event.id).execute();
    expect(orders).toHaveLength(10);
    const tickets = await t.ctx.db.selectFrom('tickets').select('id').where('event_id', '=', event.id).execute();
    expect(tickets).toHaveLength(10);
    const buckets = await bucketsOf(t, event.id);
    expect(buckets[`t:${ticketType.id}`]).toMatchObject({ held: tickets.length, sold: 20 });
    expect(buckets[`e:${event.id}`]).toMatchObject({ held: tickets.length, sold: 20 });
  });

  it('when the event is the bucket that fills, concurrent bookings take no more than its room and both buckets count only the orders made', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, { capacity: 30, ticketTypes: [{ price: 1000, quantity: 100 }] });
    await t.ctx.db.updateTable('capacity_buckets').set({ sold: 24 }).where('id', '=', `e:${event.id}`).execute();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 1 + (i % 2)))));
    for (const r of answers.filter((r) => r.status !== 201)) expectError(r, 409, 'sold_out');
    const tickets = await t.ctx.db.selectFrom('tickets').select('id').where('event_id', '=', event.id).execute();
    expect(tickets.length).toBeLessThanOrEqual(6);
    const buckets = await bucketsOf(t, event.id);
    expect(buckets[`e:${event.id}`]).toMatchObject({ held: tickets.length, sold: 24 });
    expect(buckets[`t:${ticketType.id}`]).toMatchObject({ held: tickets.length, sold: 0 });
  });

  it('reserves coupon uses the same way: 40 concurrent bookings with a coupon of 4 uses give 4 discounted orders', async () => {
    const tenant = await busyTenant();
    const { event, ticketType } = await seedEvent(t, tenant, {
      ticketTypes: [{ price: 1000 }],
      coupons: [{ code: 'FEW', discount_type: 'fixed', value: 100, max_uses: 4 }],
    });
    const answers = await Promise.all(Array.from({ length: 40 }, () => bookAs(t, sk(tenant), event.slug, bookingBody(ticketType.id, 1, { coupon_code: 'few' }))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(4);
    for (const r of answers.filter((r) => r.status !== 201)) expectError(r, 422, 'coupon_invalid', { reason: 'used_up' });
    const coupon = await t.ctx.db.selectFrom('coupons').selectAll().where('event_id', '=', event.id).executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({ uses_held: 4, uses_redeemed: 0 });
    // The refused bookings held nothing.
    expect((await bucketsOf(t, event.id))[`e:${event.id}`]).toMatchObject({ held: 4, sold: 0 });
  });
});
