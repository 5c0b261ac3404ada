import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/core/auth/api-key-secret';
import { callbackAddress } from '../../src/modules/payments';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import * as daraja from '../kit/fakes/daraja-fake';
import { PAYSTACK_LIVE_SECRET_KEY, PaystackFake } from '../kit/fakes/paystack-fake';
import { sk, type Tenant } from '../ticketing/booking-fixtures';

const mpesaFake = new daraja.DarajaFake();
const paystackFake = new PaystackFake();
const env: Record<string, string> = {};
beforeAll(async () => {
  env.MPESA_API_URL = await mpesaFake.start();
  env.PAYSTACK_API_URL = await paystackFake.start();
});
afterAll(async () => {
  await Promise.all([mpesaFake.stop(), paystackFake.stop()]);
});
const t = useTestServer(env);

const mpesaConfig = async (tenant: Tenant) =>
  expectStatus(
    await t.http().post('/v1/payments/provider_configs').set(sk(tenant, 'live')).send({
      type: 'mpesa',
      name: 'Paybill',
      shortcode: daraja.DARAJA_SHORTCODE,
      shortcode_type: 'paybill',
      consumer_key: daraja.DARAJA_CONSUMER_KEY,
      consumer_secret: daraja.DARAJA_CONSUMER_SECRET,
      passkey: daraja.DARAJA_PASSKEY,
    }),
    201,
  ).data;
const scopeOf = (tenant: Tenant) => ({ tenantId: tenant.tenant.id, livemode: true });

describe('callbackAddress', () => {
  it('gives M-Pesa a per-operation address whose token is stored only hashed, tied to the operation and configuration', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(tenant);
    const a = await callbackAddress(t.ctx, t.ctx.db, scopeOf(tenant), { configId: config.id, providerType: 'mpesa', operation: { payment: 'pay_a' } });
    const b = await callbackAddress(t.ctx, t.ctx.db, scopeOf(tenant), { configId: config.id, providerType: 'mpesa', operation: { refund: 're_b' } });
    const prefix = `${t.ctx.config.baseUrl}/api/v1/payments/mpesa/webhooks/${config.id}/`;
    expect(a.startsWith(prefix)).toBe(true);
    const token = a.slice(prefix.length);
    expect(token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(b).not.toBe(a);
    const rows = await t.ctx.db.selectFrom('payment_callback_tokens').selectAll().where('provider_config_id', '=', config.id).orderBy('subject_id').execute();
    expect(rows.map((r) => [r.subject_type, r.subject_id])).toEqual([
      ['payment', 'pay_a'],
      ['refund', 're_b'],
    ]);
    expect(rows.find((r) => r.subject_id === 'pay_a')!.token_hash).toBe(hashSecret(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('gives Paystack and Stripe the configuration webhook address, and writes nothing', async () => {
    const tenant = await t.tenant();
    const config = expectStatus(
      await t.http().post('/v1/payments/provider_configs').set(sk(tenant, 'live')).send({ type: 'paystack', name: 'Cards', secret_key: PAYSTACK_LIVE_SECRET_KEY }),
      201,
    ).data;
    const url = await callbackAddress(t.ctx, t.ctx.db, scopeOf(tenant), { configId: config.id, providerType: 'paystack', operation: { payment: 'pay_x' } });
    expect(url).toBe(`${t.ctx.config.baseUrl}/api/v1/payments/paystack/webhooks/${config.id}`);
    expect(url).toBe(config.webhook_url);
    expect(await t.ctx.db.selectFrom('payment_callback_tokens').selectAll().where('provider_config_id', '=', config.id).execute()).toEqual([]);
  });

  it('refuses a configuration of another tenant or environment', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(tenant);
    const other = await t.tenant('Other');
    await expect(callbackAddress(t.ctx, t.ctx.db, scopeOf(other), { configId: config.id, providerType: 'mpesa', operation: { payment: 'pay_a' } })).rejects.toThrow();
    await expect(
      callbackAddress(t.ctx, t.ctx.db, { ...scopeOf(tenant), livemode: false }, { configId: config.id, providerType: 'mpesa', operation: { payment: 'pay_a' } }),
    ).rejects.toThrow();
  });
});
