import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { seedEvent } from '../ticketing/booking-fixtures';
import { assign, createPromoter, paidOrder, refund, sk, trackingCode, type Tenant } from './promoters-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
let n = 0;

const analytics = async (tenant: Tenant, path: string, query: Record<string, string>) => expectStatus(await t.http().get(`/v1/organizer/analytics${path}`).query(query).set(sk(tenant)), 200).data;

describe('organizer analytics filtered by promoter', () => {
  it('counts only the orders a promoter brought: tickets, revenue, events, ticket types and coupons; a refund takes its order back', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, organization } = await seedEvent(t, tenant, { capacity: 20, ticketTypes: [{ price: 100_000 }] });
    const [amina, brian] = [await createPromoter(t, tenant, organization, { name: 'Amina' }), await createPromoter(t, tenant, organization, { name: 'Brian' })];
    const codes: string[] = [];
    for (const p of [amina, brian]) {
      await assign(t, tenant, p.id, { target: { type: 'event', id: event.id }, commission: { type: 'percent', basis_points: 1000 } });
      codes.push(`AN${Date.now() % 1e6}${n++}`);
      await trackingCode(t, tenant, p.id, codes.at(-1)!);
    }
    expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/coupons`).set(sk(tenant)).send({ code: 'AMINA-OFF', discount_type: 'percent', value: 10, promoter: amina.id }), 201);
    const first = await paidOrder(t, tenant, event.id, ticketType.id, 2, { ref: codes[0] });
    await paidOrder(t, tenant, event.id, ticketType.id, 1, { coupon_code: 'AMINA-OFF' });
    await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: codes[1] });
    await paidOrder(t, tenant, event.id, ticketType.id, 3);

    const overview = (promoter?: string) => analytics(tenant, '', { organization, ...(promoter && { promoter }) });
    const all = await overview();
    expect(all.stats.tickets_sold.value).toBe(7);
    const aminas = await overview(amina.id);
    expect(aminas.stats.tickets_sold.value).toBe(3);
    // 2 × 1,000 + 900, in major units.
    expect(aminas.stats.total_revenue.value).toBe(2_900);
    expect(aminas.top_events).toMatchObject([{ id: event.id, tickets_sold: 3 }]);
    expect((await overview(brian.id)).stats.tickets_sold.value).toBe(1);
    // Page views stay the event's.
    expect(aminas.stats.page_views.value).toBe(all.stats.page_views.value);
    const events = await analytics(tenant, '/events', { organization, promoter: amina.id });
    expect(JSON.stringify(events)).toContain(event.id);
    const conversions = await analytics(tenant, '/conversions', { organization, promoter: amina.id });
    expect(JSON.stringify(conversions)).toContain('AMINA-OFF');
    expect(JSON.stringify(await analytics(tenant, '/conversions', { organization, promoter: brian.id }))).not.toContain('AMINA-OFF');

    // A full refund takes its tickets and order out of the promoter's figures (the answer is kept five minutes: a new period reads again).
    expectStatus(await refund(t, tenant, first.id), 201);
    expect((await analytics(tenant, '', { organization, promoter: amina.id, period: '29d' })).stats.tickets_sold.value).toBe(1);
  });

  it('a promoter of another organization, tenant or environment is 404', async () => {
    const tenant = await t.tenant();
    const { organization } = await seedEvent(t, tenant);
    const elsewhere = await createPromoter(t, tenant, (await seedEvent(t, tenant)).organization);
    const other = await t.tenant('Other');
    const foreign = await createPromoter(t, other, (await seedEvent(t, other)).organization);
    for (const promoter of [elsewhere.id, foreign.id, 'prm_unknown']) {
      expectError(await t.http().get('/v1/organizer/analytics').query({ organization, promoter }).set(sk(tenant)), 404, 'resource_not_found');
    }
  });
});
