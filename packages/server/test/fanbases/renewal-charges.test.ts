import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { renewalCharge, sendRenewalCharge } from '../../src/modules/fanbases/subscriptions/renewal-charge.job';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { PAYSTACK_SECRET_KEY, PaystackFake } from '../kit/fakes/paystack-fake';
import { AUTHENTICATION_REQUIRED_CARD, STRIPE_SECRET_KEY, StripeFake } from '../kit/fakes/stripe-fake';
import { makeChecksDue, payLive, paystackConfig, stripeConfig } from '../payments/live-checkout-fixtures';
import { advance, allowed, refusedSoon, creatorFanbase, entitlementsOf, eventTypes, getSubscription, liveStream, signIn, sk, subscribeTo, tier, type Tenant } from './fanbases-fixtures';

const stripe = new StripeFake();
const paystack = new PaystackFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '100000' };
beforeAll(async () => {
  env.STRIPE_API_URL = await stripe.start();
  env.PAYSTACK_API_URL = await paystack.start();
});
afterAll(() => Promise.all([stripe.stop(), paystack.stop()]));
const t = useTestServer(env);

type Provider = 'stripe' | 'paystack';
// Sandbox configurations, listed in the test mode's settings (test mode uses them instead of the simulator).
const configOf = { stripe: { ...stripeConfig, secret_key: STRIPE_SECRET_KEY }, paystack: { ...paystackConfig, secret_key: PAYSTACK_SECRET_KEY } };

/** A fan's subscription whose first order was paid by `card` on the provider's hosted page. */
async function cardSubscription(tenant: Tenant, handle: string, provider: Provider, card = '4242424242424242') {
  const { fanbase } = await creatorFanbase(t, tenant, handle, { currency: 'KES', grace_period_days: 7 });
  const stream = await liveStream(t, tenant);
  const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50_000, interval: 'month', grants: [{ type: 'ls', id: stream }] });
  const config = expectStatus(await t.http().post('/v1/payments/provider_configs').set(sk(tenant)).send(configOf[provider]), 201).data;
  expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [config.id] }), 200);
  const fan = await signIn(t, tenant);
  const created = expectStatus(await subscribeTo(t, fan.auth, handle, { tier: gold.id }), 201).data;
  const session = created.checkout_url.slice(created.checkout_url.lastIndexOf('/') + 1);
  const started = expectStatus(await payLive(t, session, { method: 'card' }), 200).data;
  if (provider === 'stripe') stripe.complete(started.payment.provider_reference, card);
  else paystack.complete(started.payment.provider_reference, card);
  await makeChecksDue(t);
  await reconcileDuePayments(t.ctx);
  return { fan, stream, first: started.payment.id as string, sub: await getSubscription(t, tenant, created.id) };
}

/** The charge job the renewal step queued for the subscription (run by hand: no job runner in these tests). */
async function queuedCharges(id: string) {
  const { rows } = await sql<{ data: any }>`select data from pgboss.job where name = ${renewalCharge.name} and data->>'subscription' = ${id} order by created_on`.execute(t.ctx.db);
  return rows.map((r) => r.data as { tenant_id: string; livemode: boolean; subscription: string; order: string; key: string });
}

const paymentsOf = async (tenant: Tenant, order: string) => expectStatus(await t.http().get('/v1/payments').query({ order }).set(sk(tenant)), 200).data;
const messages = async (tenant: Tenant, sub: string, template: string) =>
  expectStatus(await t.http().get('/v1/messages').query({ related: sub, template }).set(sk(tenant)), 200).data as unknown[];

describe('automatic renewal by the card kept at activation', () => {
  it('Stripe: keeps the card, charges it off-session at the period end, and renews with the entitlement extended', async () => {
    const tenant = await t.tenant();
    const { fan, stream, first, sub } = await cardSubscription(tenant, 'auto.stripe', 'stripe');
    expect(sub).toMatchObject({ status: 'active', renewal: { mode: 'automatic' } });
    expect(stripe.requestsTo('/v1/checkout/sessions').at(-1)!.raw).toContain('payment_intent_data[setup_future_usage]=off_session');

    // The kept reference is sealed, and shown nowhere.
    const [row] = (await sql<{ saved_method_sealed: string }>`select saved_method_sealed from payments where id = ${first}`.execute(t.ctx.db)).rows;
    const pm = [...stripe.state.methods.values()].at(-1)!;
    expect(row!.saved_method_sealed).toEqual(expect.any(String));
    expect(row!.saved_method_sealed).not.toContain(pm.id);
    const shown = JSON.stringify([await paymentsOf(tenant, sub.latest_order), await getSubscription(t, tenant, sub.id), (await t.http().get('/v1/events').query({ limit: 100 }).set(sk(tenant))).body]);
    expect(shown).not.toContain(pm.id);
    expect(shown).not.toContain(pm.customer);

    // The renewal notice opens nothing: the card is charged at the period end.
    expect(await advance(t, tenant, sub.id, 'renewal_notice')).toMatchObject({ latest_order: sub.latest_order, renewal: { attempts: 0 } });
    const opened = await advance(t, tenant, sub.id, 'period_end');
    expect(opened).toMatchObject({ status: 'active', renewal: { mode: 'automatic', attempts: 1 } });
    const [charge] = await queuedCharges(sub.id);
    expect(charge).toMatchObject({ order: opened.latest_order, key: `renewal:${opened.latest_order}:1` });

    // A job run twice at once (a retry racing the first) charges once.
    await Promise.all([sendRenewalCharge(t.ctx, charge!), sendRenewalCharge(t.ctx, charge!)]);
    await sendRenewalCharge(t.ctx, charge!);
    const intents = stripe.requestsTo('/v1/payment_intents').filter((r) => r.method === 'POST');
    expect(new Set(intents.map((r) => r.headers['idempotency-key']))).toEqual(new Set([charge!.key]));
    // The first payment's PaymentIntent and one renewal charge.
    expect([...stripe.state.intents.values()].filter((i) => i.paymentMethod === pm.id)).toHaveLength(2);
    expect(intents.at(-1)!.raw).toContain('off_session=true');
    expect(intents.at(-1)!.raw).toContain('confirm=true');
    expect(await paymentsOf(tenant, opened.latest_order)).toMatchObject([{ status: 'succeeded', provider: 'stripe', method: 'card' }]);

    const renewed = await getSubscription(t, tenant, sub.id);
    expect(renewed).toMatchObject({ status: 'active', checkout_url: null, renewal: { mode: 'automatic', attempts: 0 } });
    expect(renewed.current_period_start).toBe(sub.current_period_end);
    expect((await eventTypes(t, tenant, 'fanbases.subscription.*')).filter((e) => e === 'fanbases.subscription.renewed')).toHaveLength(1);
    const ent = (await entitlementsOf(t, tenant, fan.customer)).find((e) => e.source_ref === sub.id)!;
    expect(new Date(ent.ends_at!).getTime()).toBe(new Date(renewed.current_period_end).getTime() + 7 * 86_400_000);
    expect(await allowed(t, tenant, fan.customer, stream)).toBe(true);
    // No fan action was asked for.
    expect(await messages(tenant, sub.id, 'subscription_renewal')).toHaveLength(0);
  });

  it('Stripe: a charge that needs authentication fails declined; grace, past_due, the fan told, then expired', async () => {
    const tenant = await t.tenant();
    const { fan, stream, sub } = await cardSubscription(tenant, 'auto.decline', 'stripe', AUTHENTICATION_REQUIRED_CARD);
    expect(sub.renewal.mode).toBe('automatic');
    const opened = await advance(t, tenant, sub.id, 'period_end');
    const [charge] = await queuedCharges(sub.id);
    await sendRenewalCharge(t.ctx, charge!);
    expect(await paymentsOf(tenant, opened.latest_order)).toMatchObject([{ status: 'failed', failure_code: 'declined' }]);

    const due = await getSubscription(t, tenant, sub.id);
    expect(due).toMatchObject({ status: 'past_due', checkout_url: expect.any(String) });
    expect(new Date(due.grace_ends_at).getTime()).toBe(new Date(sub.current_period_end).getTime() + 7 * 86_400_000);
    expect(await messages(tenant, sub.id, 'subscription_renewal_failed')).toHaveLength(1);
    expect((await eventTypes(t, tenant, 'fanbases.subscription.*')).filter((e) => e === 'fanbases.subscription.past_due')).toHaveLength(1);
    expect(await allowed(t, tenant, fan.customer, stream)).toBe(true);

    expect(await advance(t, tenant, sub.id, 'grace_end')).toMatchObject({ status: 'expired' });
    await refusedSoon(t, tenant, fan.customer, stream);
  });

  it('Paystack: keeps the reusable authorization, charges it with charge_authorization and renews only once verified', async () => {
    const tenant = await t.tenant();
    const { sub } = await cardSubscription(tenant, 'auto.paystack', 'paystack');
    expect(sub).toMatchObject({ status: 'active', renewal: { mode: 'automatic' } });
    const opened = await advance(t, tenant, sub.id, 'period_end');
    const [charge] = await queuedCharges(sub.id);
    await sendRenewalCharge(t.ctx, charge!);
    await sendRenewalCharge(t.ctx, charge!);

    const charged = paystack.requestsTo('/transaction/charge_authorization');
    expect(charged).toHaveLength(1);
    const [payment] = await paymentsOf(tenant, opened.latest_order);
    const body = charged[0]!.json as Record<string, unknown>;
    expect(body).toMatchObject({ amount: 50_000, currency: 'KES', reference: payment.id.replace(/_/g, '-'), authorization_code: expect.stringMatching(/^AUTH_/) });
    expect(body.email).toEqual(expect.stringContaining('@'));
    // Paid only after the provider's own confirmation.
    const verified = paystack.requests.findIndex((r) => r.path === `/transaction/verify/${body.reference}`);
    expect(verified).toBeGreaterThan(paystack.requests.indexOf(charged[0]!));
    expect(payment).toMatchObject({ status: 'succeeded', provider: 'paystack' });
    expect(JSON.stringify(await getSubscription(t, tenant, sub.id))).not.toContain(String(body.authorization_code));
    expect(await getSubscription(t, tenant, sub.id)).toMatchObject({ status: 'active', current_period_start: sub.current_period_end });
  });

  it('a configuration whose kept card renews a subscription is not deleted: 409 provider_config_in_use with the count, until it stops renewing', async () => {
    const tenant = await t.tenant();
    const { sub } = await cardSubscription(tenant, 'auto.delete', 'stripe');
    const [first] = await paymentsOf(tenant, sub.latest_order);
    // Not listed in the settings any more, nothing pending: only the subscription depends on it.
    expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [] }), 200);
    const refused = await t.http().delete(`/v1/payments/provider_configs/${first.provider_config}`).set(sk(tenant));
    expectError(refused, 409, 'provider_config_in_use');
    expect(refused.body.error.details).toEqual({ subscriptions: 1 });
    expect(refused.body.error.message).toContain('(1)');

    // Set to end at its period end, it charges nothing more.
    expectStatus(await t.http().post(`/v1/subscriptions/${sub.id}/cancel`).set(sk(tenant)).send({ at_period_end: true }), 200);
    expectStatus(await t.http().delete(`/v1/payments/provider_configs/${first.provider_config}`).set(sk(tenant)), 200);
  });
});
