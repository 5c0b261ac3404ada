import { describe, expect, it } from 'vitest';
import { approveDueCommissions } from '../../src/modules/promoters/ledger/approve-commissions.job';
import { bearer, useTestServer } from '../harness';
import { signInByEmail } from '../identity/identity-fixtures';
import { expectError, expectStatus } from '../kit/expect';
import { bookingBody, bookOk, pk, seedEvent } from '../ticketing/booking-fixtures';
import { card, getOrder, pay, sessionOf } from '../ticketing/payments-fixtures';
import { newOrder, seedOrganization, testKinds } from '../orders/order-kinds-fixtures';
import { product } from '../commerce/commerce-fixtures';
import { orderBody, placeOrder } from '../commerce/orders-fixtures';
import { assign, commissionsOf, createPromoter, paidOrder, payout, refund, sk, trackingCode, uniqueEmail, type Tenant } from './promoters-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const DAY = 86_400_000;

/** An event at KES 1,000 a ticket and a promoter assigned to it at 10 % with code `code`. */
async function setUp(tenant: Tenant, code: string, rule: object = { type: 'percent', basis_points: 1000 }) {
  const seeded = await seedEvent(t, tenant, { ticketTypes: [{ price: 100_000 }, { price: 50_000 }] });
  const promoter = await createPromoter(t, tenant, seeded.organization);
  const assignment = await assign(t, tenant, promoter.id, { target: { type: 'event', id: seeded.event.id }, commission: rule });
  const tracking = await trackingCode(t, tenant, promoter.id, code);
  return { ...seeded, promoter, assignment, tracking };
}

async function approveAll(eventEndsAt: Date | string) {
  t.ctx.clock = () => new Date(new Date(eventEndsAt).getTime() + 8 * DAY);
  try {
    return await approveDueCommissions(t.ctx);
  } finally {
    t.ctx.clock = undefined;
  }
}

describe('promoters, assignments and tracking codes', () => {
  it('creates, reads, lists and updates a promoter; keeps it to its tenant and environment', async () => {
    const tenant = await t.tenant();
    const { organization } = await seedEvent(t, tenant);
    const p = await createPromoter(t, tenant, organization, { name: 'Campus Rep', phone: '+254712000001', external_id: 'rep-1', metadata: { campus: 'UoN' } });
    expect(p).toMatchObject({ object: 'promoter', organization, kind: 'person', name: 'Campus Rep', status: 'active', customer: null, balances: [], external_id: 'rep-1', metadata: { campus: 'UoN' } });
    expect(p.id).toMatch(/^prm_/);
    expect(expectStatus(await t.http().get(`/v1/promoters/${p.id}`).set(sk(tenant)), 200).data).toEqual(p);
    expect(expectStatus(await t.http().get('/v1/promoters/external/rep-1').set(sk(tenant)), 200).data.id).toBe(p.id);
    expect(expectStatus(await t.http().get('/v1/promoters').query({ organization }).set(sk(tenant)), 200).data.map((x: any) => x.id)).toEqual([p.id]);
    const updated = expectStatus(await t.http().patch(`/v1/promoters/${p.id}`).set(sk(tenant)).send({ status: 'disabled', name: 'Rep' }), 200).data;
    expect(updated).toMatchObject({ status: 'disabled', name: 'Rep' });
    expect(expectStatus(await t.http().get('/v1/promoters').query({ status: 'active' }).set(sk(tenant)), 200).data).toEqual([]);

    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/promoters/${p.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().patch(`/v1/promoters/${p.id}`).set(sk(other)).send({ name: 'x' }), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/promoters/${p.id}`).set(bearer(tenant.keys.live.secret)), 404, 'resource_not_found');
    expectError(await t.http().post('/v1/promoters').set(sk(other)).send({ organization, name: 'X', email: uniqueEmail() }), 422, 'validation_failed', { param: 'organization' });
    expectError(await t.http().post('/v1/promoters').set(sk(tenant)).send({ organization, name: 'X', email: uniqueEmail(), external_id: 'rep-1' }), 409, 'external_id_taken');
    expectError(await t.http().post('/v1/promoters').set(sk(tenant)).send({ organization, name: 'No contact' }), 422, 'validation_failed', { param: 'email' });
    expectError(await t.http().post('/v1/promoters').set(sk(tenant)).send({ organization, name: 'X', phone: '0712' }), 422, 'validation_failed');
  });

  it('one active assignment per target; targets of the promoter\'s organization only; ended assignments may be made again', async () => {
    const tenant = await t.tenant();
    const { event, promoter, assignment } = await setUp(tenant, 'ONEACTIVE');
    expect(assignment).toMatchObject({ object: 'promoter_assignment', promoter: promoter.id, target: { type: 'event', id: event.id }, commission: { type: 'percent', basis_points: 1000, amount: null, max_per_order: null }, active: true });
    const again = await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'event', id: event.id }, commission: { type: 'fixed', amount: 100 } });
    expectError(again, 409, 'assignment_exists');
    const foreign = await seedEvent(t, tenant);
    expectError(await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'event', id: foreign.event.id }, commission: { type: 'fixed', amount: 100 } }), 422, 'validation_failed', { param: 'target.id' });
    expectError(await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'event', id: 'nope' }, commission: { type: 'fixed', amount: 100 } }), 422, 'validation_failed');
    expectError(await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'event', id: event.id }, commission: { type: 'percent', basis_points: 10_001 } }), 422, 'validation_failed');
    const ended = expectStatus(await t.http().patch(`/v1/promoters/${promoter.id}/assignments/${assignment.id}`).set(sk(tenant)).send({ active: false }), 200).data;
    expect(ended.active).toBe(false);
    expectStatus(await t.http().post(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)).send({ target: { type: 'event', id: event.id }, commission: { type: 'fixed', amount: 100 } }), 201);
    expectError(await t.http().patch(`/v1/promoters/${promoter.id}/assignments/${assignment.id}`).set(sk(tenant)).send({ active: true }), 409, 'assignment_exists');
    expect(expectStatus(await t.http().get(`/v1/promoters/${promoter.id}/assignments`).set(sk(tenant)), 200).data).toHaveLength(2);
  });

  it('codes are unique without case, and built into links by the settings\' template', async () => {
    const tenant = await t.tenant();
    const { promoter, tracking, event } = await setUp(tenant, 'Wanjiku');
    expect(tracking).toMatchObject({ object: 'tracking_code', code: 'Wanjiku', clicks: 0, orders: 0, url: null, active: true });
    expectError(await t.http().post(`/v1/promoters/${promoter.id}/tracking_codes`).set(sk(tenant)).send({ code: 'WANJIKU' }), 409, 'tracking_code_taken');
    expectError(await t.http().post(`/v1/promoters/${promoter.id}/tracking_codes`).set(sk(tenant)).send({ code: 'no spaces' }), 422, 'validation_failed');
    const settings = expectStatus(await t.http().patch('/v1/promoters/settings').set(sk(tenant)).send({ link_template: 'https://tickets.example.com/e/{event}?ref={code}', refund_window_days: 3 }), 200).data;
    expect(settings).toMatchObject({ object: 'promoter_settings', attribution_window_days: 30, refund_window_days: 3, self_referral: 'ignore' });
    const targeted = expectStatus(await t.http().post(`/v1/promoters/${promoter.id}/tracking_codes`).set(sk(tenant)).send({ code: 'WANJIKU-SHOW', target: { type: 'event', id: event.id } }), 201).data;
    expect(targeted.url).toBe(`https://tickets.example.com/e/${event.id}?ref=WANJIKU-SHOW`);
    expectError(await t.http().patch('/v1/promoters/settings').set(sk(tenant)).send({ link_template: 'http://insecure.example/{code}' }), 422, 'validation_failed');
    expectError(await t.http().patch('/v1/promoters/settings').set(sk(tenant)).send({ attribution_window_days: 91 }), 422, 'validation_failed');
  });
});

describe('attribution at booking', () => {
  it('ignores unknown, inactive and other events\' codes, and disabled promoters: the sale goes on', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter, tracking } = await setUp(tenant, 'IGNORED');
    const other = await seedEvent(t, tenant);
    expect((await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'x' })).attribution).toBeNull();
    expect((await paidOrder(t, tenant, event.id, ticketType.id, 1, { referral: 'not-a-token' })).attribution).toBeNull();
    // The code's promoter has no assignment for the other event.
    expect((await paidOrder(t, tenant, other.event.id, other.ticketType.id, 1, { ref: 'IGNORED' })).attribution).toBeNull();
    expectStatus(await t.http().patch(`/v1/promoters/${promoter.id}/tracking_codes/${tracking.id}`).set(sk(tenant)).send({ active: false }), 200);
    expect((await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'IGNORED' })).attribution).toBeNull();
    expectStatus(await t.http().patch(`/v1/promoters/${promoter.id}/tracking_codes/${tracking.id}`).set(sk(tenant)).send({ active: true }), 200);
    expectStatus(await t.http().patch(`/v1/promoters/${promoter.id}`).set(sk(tenant)).send({ status: 'disabled' }), 200);
    expect((await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'IGNORED' })).attribution).toBeNull();
    expectStatus(await t.http().patch(`/v1/promoters/${promoter.id}`).set(sk(tenant)).send({ status: 'active' }), 200);
    expect((await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'IGNORED' })).attribution).toMatchObject({ promoter: promoter.id });
    // Another tenant's code means nothing here.
    const stranger = await t.tenant('Stranger');
    const theirs = await seedEvent(t, stranger);
    expect((await paidOrder(t, stranger, theirs.event.id, theirs.ticketType.id, 1, { ref: 'IGNORED' })).attribution).toBeNull();
  });

  it('a public read with ?ref counts one click per visitor and day and answers a referral token; the booking keeps the touch', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter, tracking } = await setUp(tenant, 'CLICKS');
    const read = (ua: string, ref = 'clicks') => t.http().get(`/v1/events/${event.slug}`).query({ ref }).set(pk(tenant)).set('user-agent', ua);
    const first = expectStatus(await read('phone-a'), 200);
    expect(first.data.id).toBe(event.id);
    expect(first.referral).toMatchObject({ token: expect.any(String), expires_at: expect.any(String) });
    expectStatus(await read('phone-a'), 200);
    expectStatus(await read('phone-b'), 200);
    expect(expectStatus(await read('phone-c', 'NOSUCH'), 200).referral).toBeUndefined();
    expect(expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 200).referral).toBeUndefined();
    const codes = expectStatus(await t.http().get(`/v1/promoters/${promoter.id}/tracking_codes`).set(sk(tenant)), 200).data;
    expect(codes.map((c: any) => [c.id, c.clicks])).toEqual([[tracking.id, 2]]);

    const order = await paidOrder(t, tenant, event.id, ticketType.id, 1, { referral: first.referral.token });
    expect(order.attribution).toMatchObject({ promoter: promoter.id, tracking_code: tracking.id, source: 'link' });
    // Past the attribution window the token attributes nothing.
    expectStatus(await t.http().patch('/v1/promoters/settings').set(sk(tenant)).send({ attribution_window_days: 1 }), 200);
    t.ctx.clock = () => new Date(Date.now() + 2 * DAY);
    try {
      const late = await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 1, { referral: first.referral.token }));
      expect(late.booking.attribution).toBeNull();
    } finally {
      t.ctx.clock = undefined;
    }
  });

  it('limits an event assignment to its ticket types, and an event assignment wins over the organization\'s', async () => {
    const tenant = await t.tenant();
    const seeded = await seedEvent(t, tenant, { ticketTypes: [{ price: 100_000 }, { price: 50_000 }] });
    const promoter = await createPromoter(t, tenant, seeded.organization);
    await trackingCode(t, tenant, promoter.id, 'TYPES');
    const vip = await assign(t, tenant, promoter.id, { target: { type: 'event', id: seeded.event.id }, ticket_type_ids: [seeded.ticketTypes[0]!.id], commission: { type: 'fixed', amount: 5_000 } });
    const orgWide = await assign(t, tenant, promoter.id, { target: { type: 'organization', id: seeded.organization }, commission: { type: 'percent', basis_points: 500 } });
    const a = await paidOrder(t, tenant, seeded.event.id, seeded.ticketTypes[0]!.id, 2, { ref: 'TYPES' });
    const b = await paidOrder(t, tenant, seeded.event.id, seeded.ticketTypes[1]!.id, 2, { ref: 'TYPES' });
    expect(a.attribution.assignment).toBe(vip.id);
    expect(b.attribution.assignment).toBe(orgWide.id);
    expect((await commissionsOf(t, tenant, { order: a.id }))[0]).toMatchObject({ amount: 10_000, assignment: vip.id });
    expect((await commissionsOf(t, tenant, { order: b.id }))[0]).toMatchObject({ amount: 5_000, assignment: orgWide.id });
  });

  it('caps a commission at max_per_order', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await setUp(tenant, 'CAPPED', { type: 'percent', basis_points: 2000, max_per_order: 25_000 });
    const order = await paidOrder(t, tenant, event.id, ticketType.id, 3, { ref: 'CAPPED' });
    expect((await commissionsOf(t, tenant, { order: order.id }))[0]).toMatchObject({ amount: 25_000 });
  });

  it('self-referral earns nothing unless the settings allow it', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter } = await setUp(tenant, 'SELFIE');
    const session = await signInByEmail(t, tenant, promoter.email);
    const asPromoter = { ...bearer(session.access_token), 'X-Tenant-Code': tenant.tenant.code };
    // The promoter's customer is linked at their first look at their own view.
    expectStatus(await t.http().get('/v1/promoter/profiles').set(asPromoter), 200);
    const own = await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'SELFIE' }, asPromoter);
    expect(own.attribution).toBeNull();
    expectStatus(await t.http().patch('/v1/promoters/settings').set(sk(tenant)).send({ self_referral: 'allow' }), 200);
    expect((await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'SELFIE' }, asPromoter)).attribution).toMatchObject({ promoter: promoter.id });
  });
});

describe('the commission ledger', () => {
  it('reverses a partial refund in proportion, and approves only what remains', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter } = await setUp(tenant, 'PARTIAL');
    const order = await paidOrder(t, tenant, event.id, ticketType.id, 3, { ref: 'PARTIAL' });
    expectStatus(await refund(t, tenant, order.id, { amount: 100_000 }), 201);
    const entries = await commissionsOf(t, tenant, { order: order.id });
    expect(entries.map((c) => [c.type, c.amount, c.status])).toEqual([
      ['reversal', -10_000, 'pending'],
      ['commission', 30_000, 'pending'],
    ]);
    await approveAll(event.ends_at);
    const promoterNow = expectStatus(await t.http().get(`/v1/promoters/${promoter.id}`).set(sk(tenant)), 200).data;
    expect(promoterNow.balances).toEqual([{ currency: 'KES', pending: 0, approved: 20_000 }]);
  });

  it('a refund after payout carries a negative balance into the next payout', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter } = await setUp(tenant, 'CARRY');
    const first = await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'CARRY' });
    const second = await paidOrder(t, tenant, event.id, ticketType.id, 2, { ref: 'CARRY' });
    await approveAll(event.ends_at);
    const paid = expectStatus(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'CASH' }), 201).data;
    expect(paid.amount).toBe(30_000);
    // The first order is refunded after its commission was paid: the reversal is approved at once.
    expectStatus(await refund(t, tenant, first.id), 201);
    const reversal = (await commissionsOf(t, tenant, { order: first.id, type: 'reversal' }))[0]!;
    expect(reversal).toMatchObject({ amount: -10_000, status: 'approved', payout: null });
    expect((await commissionsOf(t, tenant, { order: first.id, type: 'commission' }))[0]).toMatchObject({ status: 'paid', payout: paid.id });
    // Alone it is no payable balance.
    expectError(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'CASH-2' }), 409, 'no_payable_commissions');
    // A new sale is paid out less the reversal.
    await paidOrder(t, tenant, event.id, ticketType.id, 3, { ref: 'CARRY' });
    await approveAll(event.ends_at);
    const next = expectStatus(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'CASH-3' }), 201).data;
    expect(next.amount).toBe(20_000);
    expect((await commissionsOf(t, tenant, { payout: next.id })).map((c) => c.amount).sort((a, b) => a - b)).toEqual([-10_000, 30_000]);
    void second;
  });

  it('the test helper approves one order\'s entries now; a fully refunded order\'s entries stay reversed', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await setUp(tenant, 'HELPER');
    const order = await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'HELPER' });
    const entry = (await commissionsOf(t, tenant, { order: order.id }))[0]!;
    const approved = expectStatus(await t.http().post(`/v1/test_helpers/commissions/${entry.id}/approve`).set(sk(tenant)), 200).data;
    expect(approved).toMatchObject({ id: entry.id, status: 'approved' });
    expectError(await t.http().post(`/v1/test_helpers/commissions/${entry.id}/approve`).set(bearer(tenant.keys.live.secret)), 403, 'live_mode_unavailable');
    expectError(await t.http().post('/v1/test_helpers/commissions/com_nope/approve').set(sk(tenant)), 404, 'resource_not_found');
  });
});

describe('payouts', () => {
  it('needs an Idempotency-Key, a reference for manual, KES and a +254 phone for M-Pesa; nothing to pay is 409', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter } = await setUp(tenant, 'PAYOUTS');
    expectError(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'x' }), 409, 'no_payable_commissions');
    await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'PAYOUTS' });
    expectError(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'x' }), 409, 'no_payable_commissions');
    await approveAll(event.ends_at);
    expectError(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'x' }, null), 400, 'idempotency_key_required');
    expectError(await payout(t, tenant, promoter.id, { method: 'manual' }), 422, 'validation_failed', { param: 'reference' });
    expectError(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 422, 'payout_method_unavailable', { param: 'phone' });
    expectError(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c', phone: '+254712345678', currency: 'USD' }), 422, 'payout_method_unavailable', { param: 'currency' });
    const other = await t.tenant('Other');
    expectError(await payout(t, other, promoter.id, { method: 'manual', reference: 'x' }), 404, 'resource_not_found');
    const done = expectStatus(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'MPESA-QX1' }), 201).data;
    expect(done.id).toMatch(/^po_/);
    expectStatus(await t.http().get(`/v1/payouts/${done.id}`).set(sk(tenant)), 200);
    expectError(await t.http().get(`/v1/payouts/${done.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/payouts/${done.id}`).set(bearer(tenant.keys.live.secret)), 404, 'resource_not_found');
    expect(expectStatus(await t.http().get('/v1/payouts').query({ promoter: promoter.id }).set(sk(tenant)), 200).data.map((p: any) => p.id)).toEqual([done.id]);
  });

  it('two payouts racing for one balance pay it once', async () => {
    const tenant = await t.tenant();
    const { event, ticketType, promoter } = await setUp(tenant, 'RACE');
    for (let i = 0; i < 3; i++) await paidOrder(t, tenant, event.id, ticketType.id, 1, { ref: 'RACE' });
    await approveAll(event.ends_at);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => payout(t, tenant, promoter.id, { method: 'manual', reference: `R${i}` })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409)) expect(r.body.error.code).toBe('no_payable_commissions');
    const payouts = expectStatus(await t.http().get('/v1/payouts').query({ promoter: promoter.id }).set(sk(tenant)), 200).data;
    expect(payouts.map((p: any) => p.amount)).toEqual([30_000]);
    const entries = await commissionsOf(t, tenant, { promoter: promoter.id });
    expect(entries.every((e) => e.payout === payouts[0].id && e.status === 'paid')).toBe(true);
  });
});

describe('any kind of order', () => {
  it('POST /v1/orders with a ref attributes the product order to the promoter; an unknown code is ignored', async () => {
    const tenant = await t.tenant();
    const organization = await seedOrganization(t, tenant);
    const promoter = await createPromoter(t, tenant, organization);
    await assign(t, tenant, promoter.id, { target: { type: 'organization', id: organization }, commission: { type: 'percent', basis_points: 1000 } });
    await trackingCode(t, tenant, promoter.id, 'SHIRTS');
    const tee = await product(t, tenant, organization);
    const attributed = expectStatus(await placeOrder(t, tenant, orderBody(tee.variants[0].id, 1, 'ref-1', { ref: 'shirts' })), 201).data;
    expect(attributed.attribution).toMatchObject({ promoter: promoter.id });
    const plain = expectStatus(await placeOrder(t, tenant, orderBody(tee.variants[0].id, 1, 'ref-2', { ref: 'NO-SUCH-CODE' })), 201).data;
    expect(plain.attribution).toBeNull();
  });

  it('attributes a product order through its ref: an organization assignment covers its lines, net without shipping, approved after the refund window', async () => {
    const tenant = await t.tenant();
    testKinds();
    const organization = await seedOrganization(t, tenant);
    const promoter = await createPromoter(t, tenant, organization);
    await assign(t, tenant, promoter.id, { target: { type: 'organization', id: organization }, commission: { type: 'percent', basis_points: 1000 } });
    await trackingCode(t, tenant, promoter.id, 'MERCH');
    const created = await newOrder(t, tenant, organization, { referral: { ref: 'merch' } });
    expect(created.order.attribution).toMatchObject({ promoter: promoter.id, source: 'link' });
    expectStatus(await pay(t, sessionOf(created.checkoutUrl!), card('4242424242424242')), 200);
    const [entry] = await commissionsOf(t, tenant, { order: created.order.id });
    // 10 % of 2 × 1000 + 500; the 300 of shipping earns nothing.
    expect(entry).toMatchObject({ type: 'commission', amount: 250, status: 'pending' });
    const paidAt = new Date((await getOrder(t, tenant, created.order.id)).paid_at).getTime();
    expect(new Date(entry!.available_at).getTime()).toBe(paidAt + 7 * DAY);
    // A partial refund of an amount reverses in proportion to what was paid.
    expectStatus(await refund(t, tenant, created.order.id, { amount: 1400 }), 201);
    expect((await commissionsOf(t, tenant, { order: created.order.id, type: 'reversal' }))[0]).toMatchObject({ amount: -125, status: 'pending' });
  });
});
