import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { newId } from '../../src/core/ids';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import * as daraja from '../kit/fakes/daraja-fake';
import { PAYSTACK_LIVE_SECRET_KEY, PAYSTACK_SECRET_KEY, PaystackFake } from '../kit/fakes/paystack-fake';
import { bookingBody, bucketsOf, pk, seedEvent, sk, type Tenant } from '../ticketing/booking-fixtures';
import { eventsOf, pendingBooking } from '../ticketing/payments-fixtures';

const mpesaFake = new daraja.DarajaFake();
const paystackFake = new PaystackFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '10000' };
beforeAll(async () => {
  env.MPESA_API_URL = await mpesaFake.start();
  env.PAYSTACK_API_URL = await paystackFake.start();
});
afterAll(async () => {
  await Promise.all([mpesaFake.stop(), paystackFake.stop()]);
});
const t = useTestServer(env);

const mpesaBody = (over: Record<string, unknown> = {}) => ({
  type: 'mpesa',
  name: 'Paybill',
  shortcode: daraja.DARAJA_SHORTCODE,
  shortcode_type: 'paybill',
  consumer_key: daraja.DARAJA_CONSUMER_KEY,
  consumer_secret: daraja.DARAJA_CONSUMER_SECRET,
  passkey: daraja.DARAJA_PASSKEY,
  ...over,
});
const create = (tenant: Tenant, body: object, mode: 'test' | 'live' = 'test') => t.http().post('/v1/payments/provider_configs').set(sk(tenant, mode)).send(body);
const SECRETS = [daraja.DARAJA_CONSUMER_SECRET, daraja.DARAJA_PASSKEY, daraja.DARAJA_CONSUMER_KEY, PAYSTACK_SECRET_KEY, PAYSTACK_LIVE_SECRET_KEY];
const expectNoSecret = (text: string) => {
  for (const s of SECRETS) expect(text).not.toContain(s);
};

describe('POST /v1/payments/provider_configs', () => {
  it('verifies M-Pesa credentials with an OAuth call, seals the secrets and never returns them', async () => {
    const tenant = await t.tenant();
    const before = mpesaFake.requestsTo('/oauth/v1/generate').length;
    const res = await create(tenant, mpesaBody(), 'live');
    const config = expectStatus(res, 201).data;
    expect(config).toMatchObject({
      object: 'payment_provider_config',
      livemode: true,
      type: 'mpesa',
      name: 'Paybill',
      organization: null,
      methods: ['mobile_money'],
      account: { shortcode: daraja.DARAJA_SHORTCODE, shortcode_type: 'paybill' },
      capabilities: { refunds: false },
      secret_fields: ['consumer_key', 'consumer_secret', 'passkey'],
      status: 'active',
      last_error: null,
    });
    expect(config.id).toMatch(/^ppc_/);
    expect(config.webhook_url).toBe(`${t.ctx.config.baseUrl}/api/v1/payments/mpesa/webhooks/${config.id}`);
    expect(mpesaFake.requestsTo('/oauth/v1/generate').length).toBe(before + 1);
    expectNoSecret(res.text);
    const row = await t.ctx.db.selectFrom('payment_provider_configs').selectAll().where('id', '=', config.id).executeTakeFirstOrThrow();
    expectNoSecret(JSON.stringify(row));
    expectNoSecret((await t.http().get(`/v1/payments/provider_configs/${config.id}`).set(sk(tenant, 'live'))).text);
  });

  it('a refused credential is 422 payment_credentials_invalid naming the field, without echoing any secret', async () => {
    const tenant = await t.tenant();
    const res = await create(tenant, mpesaBody({ consumer_secret: 'wrongSecret0123' }));
    const err = expectError(res, 422, 'payment_credentials_invalid');
    expect(err).toMatchObject({ param: 'consumer_secret', details: { reason: 'rejected' } });
    expect(res.text).not.toContain('wrongSecret0123');
    expectNoSecret(res.text);
    expect(await t.ctx.db.selectFrom('payment_provider_configs').select('id').where('tenant_id', '=', tenant.tenant.id).execute()).toEqual([]);
  });

  it('checks the form first: a till needs its number, a Paystack key of the other mode is wrong_mode', async () => {
    const tenant = await t.tenant();
    expectError(await create(tenant, mpesaBody({ shortcode_type: 'till' })), 422, 'validation_failed', { param: 'till_number' });
    expectError(await create(tenant, mpesaBody({ shortcode: '12' })), 422, 'validation_failed');
    const wrong = expectError(await create(tenant, { type: 'paystack', name: 'P', secret_key: PAYSTACK_LIVE_SECRET_KEY }), 422, 'payment_credentials_invalid');
    expect(wrong).toMatchObject({ param: 'secret_key', details: { reason: 'wrong_mode' } });
    const paystack = expectStatus(await create(tenant, { type: 'paystack', name: 'P', secret_key: PAYSTACK_SECRET_KEY }), 201).data;
    expect(paystack).toMatchObject({ methods: ['card', 'mobile_money'], secret_fields: ['secret_key'] });
  });

  it('an outage at the provider is 502 provider_unavailable, and nothing is stored', async () => {
    const tenant = await t.tenant();
    // Credentials no token was cached for, so the check reaches the provider; each of its tries meets a 503.
    mpesaFake.apps.set('outageConsumerKey0123', 'outageSecret0123');
    mpesaFake.failNext('/oauth/v1/generate', { kind: 'status', status: 503 }, 3);
    expectError(await create(tenant, mpesaBody({ consumer_key: 'outageConsumerKey0123', consumer_secret: 'outageSecret0123' })), 502, 'provider_unavailable');
    expect(await t.ctx.db.selectFrom('payment_provider_configs').select('id').where('tenant_id', '=', tenant.tenant.id).execute()).toEqual([]);
  });
});

describe('reading, updating and deleting configurations', () => {
  it('lists with filters, retrieves, updates the name without a provider call and re-verifies a changed secret', async () => {
    const tenant = await t.tenant();
    const a = expectStatus(await create(tenant, mpesaBody()), 201).data;
    const b = expectStatus(await create(tenant, { type: 'paystack', name: 'Cards', secret_key: PAYSTACK_SECRET_KEY }), 201).data;
    const list = (q: Record<string, string> = {}) => t.http().get('/v1/payments/provider_configs').query(q).set(sk(tenant));
    expect(expectStatus(await list(), 200).data.map((c: any) => c.id)).toEqual([b.id, a.id]);
    expect(expectStatus(await list({ type: 'mpesa' }), 200).data.map((c: any) => c.id)).toEqual([a.id]);
    expect(expectStatus(await list({ status: 'failing' }), 200).data).toEqual([]);
    const calls = mpesaFake.requestsTo('/oauth/v1/generate').length;
    const renamed = expectStatus(await t.http().patch(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant)).send({ name: 'Main paybill' }), 200).data;
    expect(renamed.name).toBe('Main paybill');
    expect(mpesaFake.requestsTo('/oauth/v1/generate').length).toBe(calls);
    const refused = await t.http().patch(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant)).send({ consumer_secret: 'wrongAgain0123' });
    expectError(refused, 422, 'payment_credentials_invalid', { param: 'consumer_secret' });
    expect(refused.text).not.toContain('wrongAgain0123');
    expectStatus(await t.http().patch(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant)).send({ consumer_secret: daraja.DARAJA_CONSUMER_SECRET }), 200);
    expect(mpesaFake.requestsTo('/oauth/v1/generate').length).toBeGreaterThan(calls);
    expectError(await t.http().patch(`/v1/payments/provider_configs/${b.id}`).set(sk(tenant)).send({ passkey: 'x' }), 422, 'validation_failed', { param: 'passkey' });

    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/payments/provider_configs/${a.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant, 'live')), 404, 'resource_not_found');
    expectError(await t.http().delete(`/v1/payments/provider_configs/${a.id}`).set(sk(other)), 404, 'resource_not_found');
  });

  it('delete is refused while a settings list names the configuration (409 provider_config_in_use)', async () => {
    const tenant = await t.tenant();
    const a = expectStatus(await create(tenant, mpesaBody()), 201).data;
    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [a.id] }), 200);
    expectError(await t.http().delete(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant)), 409, 'provider_config_in_use');
    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [] }), 200);
    expect(expectStatus(await t.http().delete(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant)), 200).data).toEqual({ id: a.id, object: 'payment_provider_config', deleted: true });
    expectError(await t.http().get(`/v1/payments/provider_configs/${a.id}`).set(sk(tenant)), 404, 'resource_not_found');
  });
});

describe('payment settings', () => {
  it('orders the configurations; refuses unknown, repeated, failing and other-mode ones by position', async () => {
    const tenant = await t.tenant();
    const a = expectStatus(await create(tenant, mpesaBody()), 201).data;
    const live = expectStatus(await create(tenant, mpesaBody(), 'live'), 201).data;
    expect(expectStatus(await t.http().get('/v1/payments/settings').set(sk(tenant)), 200).data).toMatchObject({
      object: 'payment_settings',
      provider_configs: [],
      late_payment_policy: 'accept_if_available',
      updated_at: null,
    });
    const patch = (body: object) => t.http().patch('/v1/payments/settings').set(sk(tenant)).send(body);
    expect(expectStatus(await patch({ provider_configs: [a.id], late_payment_policy: 'refund' }), 200).data).toMatchObject({ provider_configs: [a.id], late_payment_policy: 'refund' });
    expectError(await patch({ provider_configs: [a.id, live.id] }), 422, 'validation_failed', { param: 'provider_configs.1' });
    expectError(await patch({ provider_configs: [a.id, a.id] }), 422, 'validation_failed', { param: 'provider_configs.1' });
    expectError(await patch({ provider_configs: ['ppc_nope'] }), 422, 'validation_failed', { param: 'provider_configs.0' });
    await t.ctx.db.updateTable('payment_provider_configs').set({ status: 'failing' }).where('id', '=', a.id).execute();
    expectError(await patch({ provider_configs: [a.id] }), 422, 'validation_failed', { param: 'provider_configs.0' });
    expectError(await patch({ late_payment_policy: 'keep' }), 422, 'validation_failed');
  });

  it('an organization may have its own list; a configuration restricted to it fits only there', async () => {
    const tenant = await t.tenant();
    const orgs = expectStatus(await t.http().get('/v1/organizations').set(sk(tenant)), 200).data;
    const org = orgs[0]?.id ?? expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Venue', handle: `venue_${Date.now() % 1e6}`, kind: 'venue' }), 201).data.id;
    const own = expectStatus(await create(tenant, mpesaBody({ organization: org })), 201).data;
    expect(own.organization).toBe(org);
    expectError(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [own.id] }), 422, 'validation_failed', { param: 'provider_configs.0' });
    const path = `/v1/organizations/${org}/payment_settings`;
    expect(expectStatus(await t.http().get(path).set(sk(tenant)), 200).data).toMatchObject({ object: 'organization_payment_settings', organization: org, provider_configs: null });
    expect(expectStatus(await t.http().patch(path).set(sk(tenant)).send({ provider_configs: [own.id] }), 200).data.provider_configs).toEqual([own.id]);
    expect(expectStatus(await t.http().patch(path).set(sk(tenant)).send({ provider_configs: null }), 200).data.provider_configs).toBeNull();
    expectError(await t.http().get(path).set(sk(await t.tenant('Other'))), 404, 'resource_not_found');
    expectError(await create(tenant, mpesaBody({ organization: 'org_nope' })), 404, 'resource_not_found');
  });
});

describe('live mode: which configuration serves a priced booking', () => {
  it('409 payments_not_configured without one; 503 payments_unavailable when every listed one is failing; nothing held', async () => {
    const tenant = await t.tenant();
    const priced = await seedEvent(t, tenant, { livemode: true, ticketTypes: [{ price: 50000, quantity: 3 }] });
    const book = () => t.http().post(`/v1/events/${priced.event.id}/book`).set(pk(tenant, 'live')).send(bookingBody(priced.ticketType.id));
    expectError(await book(), 409, 'payments_not_configured');
    const config = expectStatus(await create(tenant, mpesaBody(), 'live'), 201).data;
    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant, 'live')).send({ provider_configs: [config.id] }), 200);
    await t.ctx.db.updateTable('payment_provider_configs').set({ status: 'failing' }).where('id', '=', config.id).execute();
    expectError(await book(), 503, 'payments_unavailable');
    // An organization's own empty list is its own: it overrides the tenant's.
    const path = `/v1/organizations/${priced.event.organization_id}/payment_settings`;
    expectStatus(await t.http().patch(path).set(sk(tenant, 'live')).send({ provider_configs: [] }), 200);
    expectError(await book(), 409, 'payments_not_configured');
    expect(await bucketsOf(t, priced.event.id)).toMatchObject({ [`t:${priced.ticketType.id}`]: { held: 0, sold: 0 } });
  });
});

describe('a configuration the provider stops accepting', () => {
  it('becomes failing when reconciliation meets refused credentials; payments.provider_config.failing; a verified PATCH makes it active', async () => {
    const tenant = await t.tenant();
    const paymentId = newId('payment');
    mpesaFake.apps.set('revokedConsumerKey0123', 'revokedSecret0123');
    const config = expectStatus(await create(tenant, mpesaBody({ consumer_key: 'revokedConsumerKey0123', consumer_secret: 'revokedSecret0123' })), 201).data;
    const b = await pendingBooking(t, tenant);
    const order = await t.ctx.db.selectFrom('orders').selectAll().where('id', '=', b.booking.id).executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('payments')
      .values({
        id: paymentId,
        tenant_id: order.tenant_id,
        livemode: false,
        order_id: order.id,
        checkout_session_id: null,
        organization_id: order.organization_id,
        method: 'mobile_money',
        amount: 1500,
        currency: 'KES',
        status: 'pending',
        failure_code: null,
        payer_hint: '0000',
        provider: 'mpesa',
        provider_config_id: config.id,
        provider_reference: 'ws_CO_unknown_to_the_fake',
        next_check_at: new Date(0),
      })
      .execute();
    mpesaFake.apps.delete('revokedConsumerKey0123');
    mpesaFake.expireTokens();
    await reconcileDuePayments(t.ctx);
    const failing = expectStatus(await t.http().get(`/v1/payments/provider_configs/${config.id}`).set(sk(tenant)), 200).data;
    expect(failing).toMatchObject({ status: 'failing', last_error: { code: 'credentials_refused' } });
    expectNoSecret(JSON.stringify(failing));
    expect((await eventsOf(t, tenant, 'payments.provider_config.failing')).map((e) => e.data.object.id)).toEqual([config.id]);
    const payment = expectStatus(await t.http().get(`/v1/payments/${paymentId}`).set(sk(tenant)), 200).data;
    expect(payment.status).toBe('pending');
    mpesaFake.apps.set('revokedConsumerKey0123', 'newSecret0123');
    const fixed = expectStatus(await t.http().patch(`/v1/payments/provider_configs/${config.id}`).set(sk(tenant)).send({ consumer_secret: 'newSecret0123' }), 200).data;
    expect(fixed).toMatchObject({ status: 'active', last_error: null });
  });
});
