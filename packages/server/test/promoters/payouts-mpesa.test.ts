import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDuePayouts, sendPayout } from '../../src/modules/promoters/payouts/provider-payouts';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { DarajaFake, DARAJA_B2C_SHORTCODE, DARAJA_INITIATOR, DARAJA_INITIATOR_PASSWORD, REVERSAL_FAILS_PHONE } from '../kit/fakes/daraja-fake';
import { listenForCallbacks, mpesaConfig } from '../payments/inbound-fixtures';
import { applyInbox, inboxOf } from '../payments/inbound-kit';
import { seedEvent } from '../ticketing/booking-fixtures';
import { eventsOf } from '../ticketing/payments-fixtures';
import { assign, commissionsOf, createPromoter, paidOrder, payout, sk, trackingCode, type Tenant } from './promoters-fixtures';

const daraja = new DarajaFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '10000' };
beforeAll(async () => {
  env.MPESA_API_URL = await daraja.start();
  env.MPESA_SANDBOX_SECURITY_CERTIFICATE = daraja.certificatePem;
});
afterAll(() => daraja.stop());
const t = useTestServer(env);
// Daraja posts the B2C result to the payout's own address on the app's port.
listenForCallbacks(t);

const HOUR = 3_600_000;
const scopeOf = (tenant: Tenant) => ({ tenantId: tenant.tenant.id, livemode: false });
let codes = 0;

/**
 * A promoter (paid at `phone`) with an approved balance of KES 100 per order from `orders` paid orders of
 * KES 1,000, and a test-mode M-Pesa configuration that can pay out, listed in the tenant's payment settings.
 */
async function approvedBalance(orders = 1, phone = '+254711000000', b2c = true) {
  const tenant = await t.tenant();
  const seeded = await seedEvent(t, tenant, { capacity: 20, ticketTypes: [{ price: 100_000 }] });
  const promoter = await createPromoter(t, tenant, seeded.organization, { phone });
  await assign(t, tenant, promoter.id, { target: { type: 'event', id: seeded.event.id }, commission: { type: 'percent', basis_points: 1000 } });
  const code = `B2C${Date.now() % 1e6}${codes++}`;
  await trackingCode(t, tenant, promoter.id, code);
  // Card payments through the simulator first: the M-Pesa configuration listed below would serve checkout.
  for (let i = 0; i < orders; i++) await paidOrder(t, tenant, seeded.event.id, seeded.ticketType.id, 1, { ref: code });
  for (const entry of await commissionsOf(t, tenant, { promoter: promoter.id })) {
    expectStatus(await t.http().post(`/v1/test_helpers/commissions/${entry.id}/approve`).set(sk(tenant)), 200);
  }
  const config = await mpesaConfig(t, tenant, { initiator_name: DARAJA_INITIATOR, initiator_password: DARAJA_INITIATOR_PASSWORD, ...(b2c && { b2c_shortcode: DARAJA_B2C_SHORTCODE }) });
  expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [config.id] }), 200);
  return { tenant, promoter, config, organization: seeded.organization };
}

const getPayout = async (tenant: Tenant, id: string) => expectStatus(await t.http().get(`/v1/payouts/${id}`).set(sk(tenant)), 200).data;
const b2cRequestsOf = (payoutId: string) => daraja.requestsTo('/mpesa/b2c/v3/paymentrequest').filter((r) => (r.json as { OriginatorConversationID?: string }).OriginatorConversationID === payoutId);

async function inboxHolds(configId: string, n: number): Promise<void> {
  const end = Date.now() + 10_000;
  while ((await inboxOf(t, configId)).length < n) {
    if (Date.now() > end) throw new Error(`the inbox of ${configId} never held ${n} notifications`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every pending payout's check is due now, as an hour passing would make it. */
const makePayoutChecksDue = () => t.ctx.db.updateTable('payouts').set({ next_check_at: new Date(Date.now() - 1000) }).where('status', '=', 'pending').where('next_check_at', 'is not', null).execute();

describe('M-Pesa B2C payouts through the organization\'s configuration', () => {
  it('sends one B2C request; the result at the payout\'s own address makes it and its entries paid with the receipt; a repeated result changes nothing', async () => {
    const { tenant, promoter, config } = await approvedBalance(2);
    const created = expectStatus(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 201).data;
    expect(created).toMatchObject({ method: 'mpesa_b2c', status: 'pending', amount: 20_000, currency: 'KES', provider_config: config.id });
    // The job sends it after the commit; run twice, it still sends once.
    await Promise.all([sendPayout(t.ctx, scopeOf(tenant), created.id), sendPayout(t.ctx, scopeOf(tenant), created.id)]);
    const [request, ...more] = b2cRequestsOf(created.id);
    expect(more).toEqual([]);
    expect(request!.json).toMatchObject({ InitiatorName: DARAJA_INITIATOR, CommandID: 'BusinessPayment', Amount: 200, PartyA: DARAJA_B2C_SHORTCODE, PartyB: '254711000000' });
    const resultUrl = (request!.json as { ResultURL: string }).ResultURL;
    expect(resultUrl).toMatch(new RegExp(`/api/v1/payments/mpesa/webhooks/${config.id}/[A-Za-z0-9_-]{32}$`));

    await inboxHolds(config.id, 1);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'pending' });
    expect(await applyInbox(t, config.id)).toEqual(['paid']);
    const receipt = daraja.b2cPayments.get(created.id)!.transactionId;
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'paid', reference: receipt, failure_code: null });
    const entries = await commissionsOf(t, tenant, { promoter: promoter.id });
    expect(entries.map((e) => [e.status, e.payout])).toEqual([['paid', created.id], ['paid', created.id]]);

    // Daraja repeats its result, then a forged failure arrives at the same address: nothing moves.
    const delivery = daraja.deliveries.find((d) => d.url === resultUrl)!;
    await daraja.resend(delivery);
    const failed = JSON.parse(delivery.body);
    failed.Result.ResultCode = 1;
    failed.Result.ResultDesc = 'The balance is insufficient for the transaction.';
    delete failed.Result.ResultParameters;
    expect((await t.http().post(new URL(resultUrl).pathname).set('content-type', 'application/json').send(JSON.stringify(failed))).status).toBe(200);
    expect(await inboxOf(t, config.id)).toHaveLength(2);
    expect(await applyInbox(t, config.id)).toEqual(['unchanged']);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'paid', reference: receipt });
    expect((await eventsOf(t, tenant, 'promoters.payout.paid')).length).toBe(1);
    expectError(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 409, 'no_payable_commissions');
  });

  it('a failed B2C result fails the payout and makes its entries payable again', async () => {
    const { tenant, promoter, config } = await approvedBalance(1, `+${REVERSAL_FAILS_PHONE}`);
    const created = expectStatus(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 201).data;
    await sendPayout(t.ctx, scopeOf(tenant), created.id);
    await inboxHolds(config.id, 1);
    expect(await applyInbox(t, config.id)).toEqual(['failed']);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds', reference: null });
    const entries = await commissionsOf(t, tenant, { promoter: promoter.id });
    expect(entries.map((e) => [e.status, e.payout])).toEqual([['approved', null]]);
    expect((await eventsOf(t, tenant, 'promoters.payout.failed')).length).toBe(1);
    const manual = expectStatus(await payout(t, tenant, promoter.id, { method: 'manual', reference: 'BANK-1' }), 201).data;
    expect(manual).toMatchObject({ status: 'paid', amount: 10_000 });
  });

  it('a result that never comes: Transaction Status is asked once the check is due, and its answer settles the payout once', async () => {
    const { tenant, promoter, config } = await approvedBalance();
    daraja.loseB2cResults = true;
    let created: Record<string, any>;
    try {
      created = expectStatus(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 201).data;
      await sendPayout(t.ctx, scopeOf(tenant), created.id);
    } finally {
      daraja.loseB2cResults = false;
    }
    // Not due yet: nothing is asked.
    await checkDuePayouts(t.ctx);
    const statusQueries = () => daraja.requestsTo('/mpesa/transactionstatus/v1/query').filter((r) => (r.json as { OriginalConversationID?: string }).OriginalConversationID === created.id);
    expect(statusQueries()).toEqual([]);
    await makePayoutChecksDue();
    await checkDuePayouts(t.ctx);
    expect(statusQueries()).toHaveLength(1);
    await inboxHolds(config.id, 1);
    expect(await applyInbox(t, config.id)).toEqual(['paid']);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'paid', reference: daraja.b2cPayments.get(created.id)!.transactionId });
    expect(b2cRequestsOf(created.id)).toHaveLength(1);
  });

  it('a B2C request answered by an outage is never sent again: Transaction Status finds it paid', async () => {
    const { tenant, promoter, config } = await approvedBalance();
    daraja.b2cAnswersUnavailable = true;
    let created: Record<string, any>;
    try {
      created = expectStatus(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 201).data;
      await sendPayout(t.ctx, scopeOf(tenant), created.id);
    } finally {
      daraja.b2cAnswersUnavailable = false;
    }
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'pending' });
    // Its own result still came; lost or not, the payout settles from either, once.
    await inboxHolds(config.id, 1);
    await makePayoutChecksDue();
    await checkDuePayouts(t.ctx);
    await inboxHolds(config.id, 2);
    expect((await applyInbox(t, config.id)).sort()).toEqual(['paid', 'unchanged']);
    expect(b2cRequestsOf(created.id)).toHaveLength(1);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'paid' });
  });

  it('a status query that finds nothing decides nothing; 72 hours without a result fail the payout and free its entries', async () => {
    const { tenant, promoter, config } = await approvedBalance();
    const created = expectStatus(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 201).data;
    // A configuration a pending payout waits on stays.
    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [] }), 200);
    expectError(await t.http().delete(`/v1/payments/provider_configs/${config.id}`).set(sk(tenant)), 409, 'provider_config_in_use');
    // Taken for sending, but the request never reached Daraja (the process stopped).
    await t.ctx.db.updateTable('payouts').set({ sent_at: new Date() }).where('id', '=', created.id).execute();
    await makePayoutChecksDue();
    await checkDuePayouts(t.ctx);
    await inboxHolds(config.id, 1);
    expect(await applyInbox(t, config.id)).toEqual(['pending']);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'pending' });

    await t.ctx.db.updateTable('payouts').set({ created_at: new Date(Date.now() - 73 * HOUR) }).where('id', '=', created.id).execute();
    await makePayoutChecksDue();
    await checkDuePayouts(t.ctx);
    expect(await getPayout(tenant, created.id)).toMatchObject({ status: 'failed', failure_code: 'timeout' });
    expectStatus(await t.http().delete(`/v1/payments/provider_configs/${config.id}`).set(sk(tenant)), 200);
    expect((await commissionsOf(t, tenant, { promoter: promoter.id })).map((e) => [e.status, e.payout])).toEqual([['approved', null]]);
    expect(b2cRequestsOf(created.id)).toEqual([]);
  });

  it('two M-Pesa payouts racing for one balance: one is made, and it sends one request', async () => {
    const { tenant, promoter, config } = await approvedBalance(3);
    const answers = await Promise.all(Array.from({ length: 5 }, () => payout(t, tenant, promoter.id, { method: 'mpesa_b2c' })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const made = answers.find((r) => r.status === 201)!.body.data;
    await Promise.all([sendPayout(t.ctx, scopeOf(tenant), made.id), sendPayout(t.ctx, scopeOf(tenant), made.id), checkDuePayouts(t.ctx)]);
    expect(b2cRequestsOf(made.id)).toHaveLength(1);
    await inboxHolds(config.id, 1);
    await applyInbox(t, config.id);
    expect(await getPayout(tenant, made.id)).toMatchObject({ status: 'paid', amount: 30_000 });
  });

  it('without a configuration that can pay out: the one named is refused, and live mode answers 422', async () => {
    const { tenant, promoter, config } = await approvedBalance(1, '+254711000000', false);
    expectError(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c', provider_config: config.id }), 422, 'payout_method_unavailable', { param: 'provider_config' });
    // Test mode without one: the simulator answers.
    expect(expectStatus(await payout(t, tenant, promoter.id, { method: 'mpesa_b2c' }), 201).data).toMatchObject({ status: 'pending', provider_config: null });
    const { organization } = await seedEvent(t, tenant, { livemode: true });
    const res = await t.http().post('/v1/promoters').set(sk(tenant, 'live')).send({ organization, name: 'Live', phone: '+254711000000' });
    const live = expectStatus(res, 201).data;
    expectError(await payout(t, tenant, live.id, { method: 'mpesa_b2c' }, undefined, 'live'), 422, 'payout_method_unavailable', { param: 'method' });
  });
});
