import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { seedEvent } from '../ticketing/booking-fixtures';
import { getOrder } from '../ticketing/payments-fixtures';
import { assign, commissionsOf, createPromoter, paidOrder, sk, trackingCode } from './promoters-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
let n = 0;

describe('promoter-bound coupons', () => {
  it('a coupon bound to a promoter attributes the booking to them (over a ref code), with their commission; unbound, it attributes nothing', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, organization } = await seedEvent(t, tenant, { capacity: 10, ticketTypes: [{ price: 100_000 }] });
    const amina = await createPromoter(t, tenant, organization, { name: 'Amina' });
    const brian = await createPromoter(t, tenant, organization, { name: 'Brian' });
    for (const p of [amina, brian]) await assign(t, tenant, p.id, { target: { type: 'event', id: event.id }, commission: { type: 'percent', basis_points: 1000 } });
    const code = `BRIAN${Date.now() % 1e6}${n++}`;
    await trackingCode(t, tenant, brian.id, code);
    const coupons = `/v1/organizer/events/${event.id}/coupons`;
    const coupon = expectStatus(await t.http().post(coupons).set(sk(tenant)).send({ code: 'AMINA-OFF', discount_type: 'percent', value: 10, promoter: amina.id }), 201).data;
    expect(coupon).toMatchObject({ code: 'AMINA-OFF', promoter: amina.id });

    // The coupon is the latest touch: it wins over the ref code sent beside it.
    const order = await paidOrder(t, tenant, event.id, ticketType.id, 1, { coupon_code: 'AMINA-OFF', ref: code });
    expect((await getOrder(t, tenant, order.id)).attribution).toMatchObject({ promoter: amina.id, source: 'coupon', tracking_code: null });
    expect((await commissionsOf(t, tenant, { promoter: amina.id })).map((e) => [e.type, e.amount, e.order])).toEqual([['commission', 9_000, order.id]]);

    const unbound = expectStatus(await t.http().patch(`${coupons}/${coupon.id}`).set(sk(tenant)).send({ promoter: null }), 200).data;
    expect(unbound.promoter).toBeNull();
    const plain = await paidOrder(t, tenant, event.id, ticketType.id, 1, { coupon_code: 'AMINA-OFF' });
    expect((await getOrder(t, tenant, plain.id)).attribution).toBeNull();
    // Rebound by update; a rule change elsewhere leaves the binding.
    expect(expectStatus(await t.http().patch(`${coupons}/${coupon.id}`).set(sk(tenant)).send({ promoter: brian.id }), 200).data.promoter).toBe(brian.id);
    expect(expectStatus(await t.http().patch(`${coupons}/${coupon.id}`).set(sk(tenant)).send({ value: 20 }), 200).data.promoter).toBe(brian.id);
    const listed = expectStatus(await t.http().get(coupons).set(sk(tenant)), 200).data;
    expect(listed.map((c: any) => c.promoter)).toEqual([brian.id]);
  });

  it('binds only a promoter of the event\'s organization, of this tenant and environment', async () => {
    const tenant = await t.tenant();
    const { event } = await seedEvent(t, tenant);
    const elsewhere = await seedEvent(t, tenant);
    const stranger = await createPromoter(t, tenant, elsewhere.organization);
    const other = await t.tenant('Other');
    const foreign = await createPromoter(t, other, (await seedEvent(t, other)).organization);
    const coupons = `/v1/organizer/events/${event.id}/coupons`;
    for (const promoter of [stranger.id, foreign.id, 'prm_unknown']) {
      expectError(await t.http().post(coupons).set(sk(tenant)).send({ code: `X${n++}`, discount_type: 'fixed', value: 100, promoter }), 422, 'validation_failed', { param: 'promoter' });
    }
    const plain = expectStatus(await t.http().post(coupons).set(sk(tenant)).send({ code: `P${n++}`, discount_type: 'fixed', value: 100 }), 201).data;
    expect(plain.promoter).toBeNull();
    expectError(await t.http().patch(`${coupons}/${plain.id}`).set(sk(tenant)).send({ promoter: stranger.id }), 422, 'validation_failed', { param: 'promoter' });
  });
});
