import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MAGIC_PAYERS } from '@svc/contract';
import { renewalCharge, sendRenewalCharge } from '../../src/modules/fanbases/subscriptions/renewal-charge.job';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { advance, allowed, refusedSoon, creatorFanbase, eventTypes, getSubscription, liveStream, payCheckout, signIn, sk, subscribeTo, tier, type Tenant } from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

/** A test-mode subscription whose first order the simulator's page paid with `card` (or a phone). */
async function simulatorSubscription(tenant: Tenant, handle: string, card?: string) {
  const { fanbase } = await creatorFanbase(t, tenant, handle, { currency: 'KES', grace_period_days: 7 });
  const stream = await liveStream(t, tenant);
  const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50_000, interval: 'month', grants: [{ type: 'ls', id: stream }] });
  const fan = await signIn(t, tenant);
  const created = expectStatus(await subscribeTo(t, fan.auth, handle, { tier: gold.id }), 201).data;
  const first = await payCheckout(t, created.checkout_url, card);
  return { fan, stream, first: first.payment.id as string, sub: await getSubscription(t, tenant, created.id) };
}

/** The charge jobs the renewal queued for the subscription (run by hand: no job runner in these tests). */
async function queuedCharges(id: string) {
  const { rows } = await sql<{ data: any }>`select data from pgboss.job where name = ${renewalCharge.name} and data->>'subscription' = ${id} order by created_on`.execute(t.ctx.db);
  return rows.map((r) => r.data as { tenant_id: string; livemode: boolean; subscription: string; order: string; key: string });
}

const paymentsOf = async (tenant: Tenant, order: string) => expectStatus(await t.http().get('/v1/payments').query({ order }).set(sk(tenant)), 200).data;
const messages = async (tenant: Tenant, sub: string, template: string) =>
  expectStatus(await t.http().get('/v1/messages').query({ related: sub, template }).set(sk(tenant)), 200).data as unknown[];

describe('test mode: a simulator card is a saved card', () => {
  it('a subscription paid by a simulator card renews automatically at the period end, charged once by the renewal key', async () => {
    const tenant = await t.tenant();
    const { first, sub } = await simulatorSubscription(tenant, 'sim.auto', MAGIC_PAYERS.succeeds[1]);
    expect(sub).toMatchObject({ status: 'active', renewal: { mode: 'automatic' } });
    const [row] = (await sql<{ saved_method_sealed: string | null }>`select saved_method_sealed from payments where id = ${first}`.execute(t.ctx.db)).rows;
    expect(row!.saved_method_sealed).toEqual(expect.any(String));

    // As with Stripe: nothing at the renewal notice, the order and its charge at the period end.
    expect(await advance(t, tenant, sub.id, 'renewal_notice')).toMatchObject({ latest_order: sub.latest_order, renewal: { attempts: 0 } });
    const opened = await advance(t, tenant, sub.id, 'period_end');
    expect(opened).toMatchObject({ status: 'active', renewal: { mode: 'automatic', attempts: 1 } });
    const charges = await queuedCharges(sub.id);
    expect(charges).toEqual([expect.objectContaining({ order: opened.latest_order, key: `renewal:${opened.latest_order}:1`, livemode: false })]);

    // A job run twice at once, then once more, is one attempt.
    await Promise.all([sendRenewalCharge(t.ctx, charges[0]!), sendRenewalCharge(t.ctx, charges[0]!)]);
    await sendRenewalCharge(t.ctx, charges[0]!);
    const payments = await paymentsOf(tenant, opened.latest_order);
    expect(payments).toMatchObject([{ status: 'succeeded', provider: 'simulated', provider_config: null, method: 'card', payer_hint: '4242' }]);
    const renewed = await getSubscription(t, tenant, sub.id);
    expect(renewed).toMatchObject({ status: 'active', checkout_url: null, renewal: { mode: 'automatic', attempts: 0 } });
    expect(renewed.current_period_start).toBe(sub.current_period_end);
    expect((await eventTypes(t, tenant, 'fanbases.subscription.*')).filter((e) => e === 'fanbases.subscription.renewed')).toHaveLength(1);
    expect(await messages(tenant, sub.id, 'subscription_renewal')).toHaveLength(0);
  });

  it(`the magic card ${MAGIC_PAYERS.renewalDeclined[0]} pays at first, and its renewal is declined: past_due with grace, the fan told, then expired`, async () => {
    const tenant = await t.tenant();
    const { fan, stream, sub } = await simulatorSubscription(tenant, 'sim.decline', MAGIC_PAYERS.renewalDeclined[0]);
    expect(sub).toMatchObject({ status: 'active', renewal: { mode: 'automatic' } });
    const opened = await advance(t, tenant, sub.id, 'period_end');
    const [charge] = await queuedCharges(sub.id);
    expect(charge!.key).toBe(`renewal:${opened.latest_order}:1`);
    await sendRenewalCharge(t.ctx, charge!);
    expect(await paymentsOf(tenant, opened.latest_order)).toMatchObject([{ status: 'failed', failure_code: 'declined', provider: 'simulated' }]);

    const due = await getSubscription(t, tenant, sub.id);
    expect(due).toMatchObject({ status: 'past_due', checkout_url: expect.any(String) });
    expect(new Date(due.grace_ends_at).getTime()).toBe(new Date(sub.current_period_end).getTime() + 7 * 86_400_000);
    expect(await messages(tenant, sub.id, 'subscription_renewal_failed')).toHaveLength(1);
    expect(await allowed(t, tenant, fan.customer, stream)).toBe(true);
    expect(await advance(t, tenant, sub.id, 'grace_end')).toMatchObject({ status: 'expired' });
    await refusedSoon(t, tenant, fan.customer, stream);
  });

  it('a phone payment keeps nothing: its subscription renews by prompt', async () => {
    const tenant = await t.tenant();
    const { first, sub } = await simulatorSubscription(tenant, 'sim.phone');
    expect(sub.renewal.mode).toBe('prompt');
    const [row] = (await sql<{ saved_method_sealed: string | null }>`select saved_method_sealed from payments where id = ${first}`.execute(t.ctx.db)).rows;
    expect(row!.saved_method_sealed).toBeNull();
  });
});

describe('renewing early', () => {
  it('POST /renew on an automatic subscription charges the kept card at once, once, even when called twice at once', async () => {
    const tenant = await t.tenant();
    const { fan, sub } = await simulatorSubscription(tenant, 'sim.early', MAGIC_PAYERS.succeeds[1]);
    const renew = () => t.http().post(`/v1/fan/subscriptions/${sub.id}/renew`).set(fan.auth);
    const answers = await Promise.all([renew(), renew()]);
    for (const a of answers) expectStatus(a, 200);
    const charges = await queuedCharges(sub.id);
    expect(charges).toHaveLength(1);
    const order = charges[0]!.order;
    expect(charges[0]!.key).toBe(`renewal:${order}:1`);
    await Promise.all([sendRenewalCharge(t.ctx, charges[0]!), sendRenewalCharge(t.ctx, charges[0]!)]);
    expect(await paymentsOf(tenant, order)).toMatchObject([{ status: 'succeeded', method: 'card' }]);

    // Paid before its period: the next period still starts at the old end.
    const renewed = await getSubscription(t, tenant, sub.id);
    expect(renewed).toMatchObject({ status: 'active', latest_order: order, renewal: { mode: 'automatic', attempts: 0 } });
    expect(renewed.current_period_start).toBe(sub.current_period_end);
    expect((await eventTypes(t, tenant, 'fanbases.subscription.*')).filter((e) => e === 'fanbases.subscription.renewed')).toHaveLength(1);
  });
});
