import { beforeAll, describe, expect, it } from 'vitest';
import { promotersModule } from '../../src/modules/promoters';
import { approveDueCommissions } from '../../src/modules/promoters/ledger/approve-commissions.job';
import { simulatedPayoutJobType } from '../../src/modules/promoters/payouts/simulated-payout.job';
import { bearer, useTestServer } from '../harness';
import { signInByEmail, signInByPhone } from '../identity/identity-fixtures';
import { expectStatus } from '../kit/expect';
import { jobsRan } from '../kit/jobs';
import { seedEvent } from '../ticketing/booking-fixtures';
import { eventsOf, getOrder } from '../ticketing/payments-fixtures';
import { assign, commissionsOf, createPromoter, paidOrder, payout, refund, sk, trackingCode, uniquePhone } from './promoters-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const DAY = 86_400_000;

beforeAll(async () => {
  for (const job of promotersModule.jobs!(t.ctx)) if (job.name === simulatedPayoutJobType.name) t.ctx.jobs.register(job);
  await t.ctx.jobs.start();
});

describe('promoters, end to end in test mode', () => {
  it('two promoters at 10 % and KES 100 per ticket: attribution, a refund reversed, approval, a manual and a simulated M-Pesa payout, and each sees only their own', async () => {
    const tenant = await t.tenant();
    // KES 1,000 a ticket.
    const { event, organization, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 100_000 }] });
    const amina = await createPromoter(t, tenant, organization, { name: 'Amina' });
    const brian = await createPromoter(t, tenant, organization, { name: 'Brian', email: null, phone: uniquePhone() });
    const aminaRule = await assign(t, tenant, amina.id, { target: { type: 'event', id: event.id }, commission: { type: 'percent', basis_points: 1000 } });
    const brianRule = await assign(t, tenant, brian.id, { target: { type: 'event', id: event.id }, commission: { type: 'fixed', amount: 10_000 } });
    const aminaCode = await trackingCode(t, tenant, amina.id, 'AMINA10');
    const brianCode = await trackingCode(t, tenant, brian.id, 'brian-ke');

    // Fans book through both codes (codes compare without case); an unknown code never blocks a sale.
    const a1 = await paidOrder(t, tenant, event.id, ticketType.id, 2, { ref: 'amina10' });
    const b1 = await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'BRIAN-KE' });
    const b2 = await paidOrder(t, tenant, event.id, ticketType.id, 3, { ref: 'brian-ke' });
    const none = await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'NOBODY' });
    expect(a1.attribution).toMatchObject({ promoter: amina.id, tracking_code: aminaCode.id, assignment: aminaRule.id, source: 'link' });
    expect((await getOrder(t, tenant, b1.id)).attribution).toMatchObject({ promoter: brian.id, assignment: brianRule.id });
    expect(none.attribution).toBeNull();

    // Commissions: 10 % of KES 2,000; KES 100 × 1; KES 100 × 3.
    expect((await commissionsOf(t, tenant, { order: a1.id })).map((c) => [c.type, c.amount, c.status])).toEqual([['commission', 20_000, 'pending']]);
    expect((await commissionsOf(t, tenant, { promoter: brian.id })).map((c) => c.amount).sort()).toEqual([10_000, 30_000]);
    expect(await commissionsOf(t, tenant, { order: none.id })).toEqual([]);

    // B2 is refunded in full: its reversal brings the order's entries to 0 and both are reversed.
    expectStatus(await refund(t, tenant, b2.id), 201);
    const b2Entries = await commissionsOf(t, tenant, { order: b2.id });
    expect(b2Entries.map((c) => [c.type, c.amount, c.status])).toEqual([
      ['reversal', -30_000, 'reversed'],
      ['commission', 30_000, 'reversed'],
    ]);
    expect(b2Entries[0]!.reverses).toBe(b2Entries[1]!.id);
    expect((await eventsOf(t, tenant, 'promoters.commission.reversed')).length).toBe(2);

    // After the event and the refund window, the job approves what is still owed.
    const end = new Date(event.ends_at).getTime();
    t.ctx.clock = () => new Date(end + 6 * DAY);
    expect(await approveDueCommissions(t.ctx)).toBe(0);
    t.ctx.clock = () => new Date(end + 7 * DAY + 1000);
    expect(await approveDueCommissions(t.ctx)).toBe(2);
    t.ctx.clock = undefined;
    expect((await commissionsOf(t, tenant, { status: 'approved' })).map((c) => c.order).sort()).toEqual([a1.id, b1.id].sort());

    // A manual payout for Amina, a simulated M-Pesa payout for Brian.
    const manual = expectStatus(await payout(t, tenant, amina.id, { method: 'manual', reference: 'EQUITY-7781' }), 201).data;
    expect(manual).toMatchObject({ object: 'payout', promoter: amina.id, amount: 20_000, currency: 'KES', method: 'manual', status: 'paid', reference: 'EQUITY-7781' });
    const mpesa = expectStatus(await payout(t, tenant, brian.id, { method: 'mpesa_b2c' }), 201).data;
    expect(mpesa).toMatchObject({ method: 'mpesa_b2c', status: 'pending', amount: 10_000 });
    await jobsRan(t, simulatedPayoutJobType, { payout_id: mpesa.id });
    const settled = expectStatus(await t.http().get(`/v1/payouts/${mpesa.id}`).set(sk(tenant)), 200).data;
    expect(settled).toMatchObject({ status: 'paid', reference: expect.stringMatching(/^SIM/) });
    expect((await commissionsOf(t, tenant, { status: 'paid' })).map((c) => c.payout).sort()).toEqual([manual.id, mpesa.id].sort());
    expect((await eventsOf(t, tenant, 'promoters.payout.paid')).length).toBe(2);

    // Each promoter signs in (linked by the verified email or phone) and sees only their own figures.
    const aminaSession = await signInByEmail(t, tenant, amina.email);
    const brianSession = await signInByPhone(t, tenant, brian.phone);
    const as = (s: { access_token: string }) => ({ ...bearer(s.access_token), 'X-Tenant-Code': tenant.tenant.code });
    const view = async (s: { access_token: string }, path: string) => expectStatus(await t.http().get(`/v1/promoter/${path}`).set(as(s)), 200).data;
    expect((await view(aminaSession, 'profiles')).map((p: any) => [p.id, p.organization.id])).toEqual([[amina.id, organization]]);
    expect((await view(aminaSession, 'tracking_codes')).map((c: any) => [c.code, c.orders])).toEqual([['AMINA10', 1]]);
    expect((await view(aminaSession, 'sales')).map((s: any) => [s.order.id, s.items, s.net, s.commission])).toEqual([[a1.id, 2, 200_000, 20_000]]);
    expect(JSON.stringify(await view(aminaSession, 'sales'))).not.toContain('buyer@example.test');
    expect((await view(aminaSession, 'commissions')).map((c: any) => c.promoter)).toEqual([amina.id]);
    expect((await view(aminaSession, 'payouts')).map((p: any) => p.id)).toEqual([manual.id]);
    expect((await view(brianSession, 'profiles')).map((p: any) => p.id)).toEqual([brian.id]);
    expect((await view(brianSession, 'commissions')).every((c: any) => c.promoter === brian.id)).toBe(true);
    expect((await view(brianSession, 'payouts')).map((p: any) => p.id)).toEqual([mpesa.id]);
    // Asking for the other's figures by id answers nothing.
    expect(await view(brianSession, `commissions?promoter=${amina.id}`)).toEqual([]);
    expect(await view(brianSession, `sales?promoter=${amina.id}`)).toEqual([]);

    // The leaderboard and its CSV.
    const board = expectStatus(await t.http().get('/v1/promoters/report').query({ event: event.id }).set(sk(tenant)), 200).data;
    expect(board.map((r: any) => [r.promoter.name, r.orders, r.net, r.commission])).toEqual([
      ['Brian', 2, 400_000, { pending: 0, approved: 0, paid: 10_000, reversed: 30_000 }],
      ['Amina', 1, 200_000, { pending: 0, approved: 0, paid: 20_000, reversed: 0 }],
    ]);
    const csv = await t.http().get('/v1/promoters/report/export').query({ event: event.id }).set(sk(tenant));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\n')[1]).toBe(`${brian.id},Brian,0,2,4,400000,400000,0,0,10000,30000,KES`);
    void brianCode;
  });
});
