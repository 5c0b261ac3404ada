import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import { renewalPrompt, renewalPromptJob, sendRenewalPrompt } from '../../src/modules/fanbases/subscriptions/renewal-prompt.job';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { DarajaFake } from '../kit/fakes/daraja-fake';
import { until } from '../kit/fakes/fake-provider';
import { jobsRan } from '../kit/jobs';
import { makeChecksDue, mpesaConfig } from '../payments/live-checkout-fixtures';
import { advance, creatorFanbase, eventTypes, getSubscription, payCheckout, signIn, sk, subscribeTo, tier, type Tenant } from './fanbases-fixtures';

const mpesa = new DarajaFake();
const env: Record<string, string> = { SVC_RATE_LIMIT_PUBLIC: '100000' };
beforeAll(async () => {
  env.MPESA_API_URL = await mpesa.start();
  env.MPESA_SECURITY_CERTIFICATE = mpesa.certificatePem;
});
afterAll(() => mpesa.stop());
const t = useTestServer(env);

beforeAll(async () => {
  t.ctx.jobs.register({ ...renewalPromptJob(t.ctx), work: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start();
});

/** A fixed-offset zone whose local hour is `hour` now (the prompt window is 08:00–20:00 there). */
function zoneAtHour(hour: number): string {
  const offset = ((hour - new Date().getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/**
 * A fan's active subscription (paid with the simulator), after which the tenant's test mode lists an M-Pesa
 * configuration (the Daraja fake): renewals of the organization now prompt the phone.
 */
async function mpesaSubscription(tenant: Tenant, handle: string, phone: string, localHour = 12) {
  const { org, fanbase } = await creatorFanbase(t, tenant, handle, { currency: 'KES' });
  expectStatus(await t.http().patch(`/v1/organizations/${org.id}`).set(sk(tenant)).send({ timezone: zoneAtHour(localHour) }), 200);
  const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50_000, interval: 'month' });
  const fan = await signIn(t, tenant);
  const created = expectStatus(await subscribeTo(t, fan.auth, handle, { tier: gold.id, phone }), 201).data;
  await payCheckout(t, created.checkout_url);
  const config = expectStatus(await t.http().post('/v1/payments/provider_configs').set(sk(tenant)).send(mpesaConfig), 201).data;
  expectStatus(await t.http().patch('/v1/payments/settings').set(sk(tenant)).send({ provider_configs: [config.id] }), 200);
  return { fan, sub: await getSubscription(t, tenant, created.id) };
}

const orderCode = async (tenant: Tenant, id: string) => expectStatus(await t.http().get(`/v1/orders/${id}`).set(sk(tenant)), 200).data.code as string;
const pushesFor = (code: string) => mpesa.requestsTo('/mpesa/stkpush/v1/processrequest').filter((r) => (r.json as { AccountReference: string }).AccountReference === code);

describe('M-Pesa renewals prompt the phone', () => {
  it('the renewal notice sends an STK push for the renewal order; the approved prompt renews the subscription once', async () => {
    const tenant = await t.tenant();
    const { sub } = await mpesaSubscription(tenant, 'prompt.one', '+254711000000');
    const notice = await advance(t, tenant, sub.id, 'renewal_notice');
    expect(notice.latest_order).not.toBe(sub.latest_order);
    const code = await orderCode(tenant, notice.latest_order);
    await until(() => pushesFor(code).length > 0);
    const push = [...mpesa.stk.values()].find((p) => p.accountReference === code)!;
    expect(push).toMatchObject({ phone: '254711000000', amountKes: 500 });

    // The same step again, and the job again with its key: still one prompt.
    expect((await advance(t, tenant, sub.id, 'renewal_notice')).latest_order).toBe(notice.latest_order);
    await jobsRan(t, renewalPrompt, { subscription: sub.id });
    const [queued] = (await sql<{ data: any }>`select data from pgboss.job where name = ${renewalPrompt.name} and data->>'subscription' = ${sub.id}`.execute(t.ctx.db)).rows;
    await sendRenewalPrompt(t.ctx, queued!.data);
    expect(pushesFor(code)).toHaveLength(1);

    await until(() => push.result !== null);
    await makeChecksDue(t);
    await reconcileDuePayments(t.ctx);
    const renewed = await getSubscription(t, tenant, sub.id);
    expect(renewed).toMatchObject({ status: 'active', checkout_url: null });
    expect(new Date(renewed.current_period_start).getTime()).toBe(new Date(sub.current_period_end).getTime());
    expect((await eventTypes(t, tenant, 'fanbases.subscription.*')).filter((e) => e === 'fanbases.subscription.renewed')).toHaveLength(1);
    const payments = expectStatus(await t.http().get('/v1/payments').query({ order: notice.latest_order }).set(sk(tenant)), 200).data;
    expect(payments).toMatchObject([{ status: 'succeeded', provider: 'mpesa', method: 'mobile_money' }]);
  });

  it('a declined prompt stops the period\'s prompts, while the reminders continue', async () => {
    const tenant = await t.tenant();
    const { sub } = await mpesaSubscription(tenant, 'prompt.two', '+254711000004');
    const notice = await advance(t, tenant, sub.id, 'renewal_notice');
    const code = await orderCode(tenant, notice.latest_order);
    await until(() => pushesFor(code).length > 0);
    const push = [...mpesa.stk.values()].find((p) => p.accountReference === code)!;
    await until(() => push.result !== null);
    await makeChecksDue(t);
    await reconcileDuePayments(t.ctx);
    expect(expectStatus(await t.http().get('/v1/payments').query({ order: notice.latest_order }).set(sk(tenant)), 200).data).toMatchObject([{ status: 'failed', failure_code: 'cancelled_by_user' }]);

    expect(await advance(t, tenant, sub.id, 'period_end')).toMatchObject({ status: 'past_due' });
    await jobsRan(t, renewalPrompt, { subscription: sub.id, key: `renewal:${notice.latest_order}:2` });
    expect(pushesFor(code)).toHaveLength(1);
    const reminders = expectStatus(await t.http().get('/v1/messages').query({ related: sub.id, template: 'subscription_renewal' }).set(sk(tenant)), 200).data;
    expect(reminders.length).toBeGreaterThanOrEqual(2);
  });

  it('waits for 08:00 in the organization\'s time zone at night; the simulator never prompts', async () => {
    const tenant = await t.tenant();
    const { sub } = await mpesaSubscription(tenant, 'prompt.night', '+254711000000', 2);
    await advance(t, tenant, sub.id, 'renewal_notice');
    const [job] = (await sql<{ start_after: Date }>`select start_after from pgboss.job where name = ${renewalPrompt.name} and data->>'subscription' = ${sub.id}`.execute(t.ctx.db)).rows;
    const waitHours = (new Date(job!.start_after).getTime() - Date.now()) / 3_600_000;
    expect(waitHours).toBeGreaterThan(4.9);
    expect(waitHours).toBeLessThan(6.1);

    const other = await t.tenant();
    const { fanbase } = await creatorFanbase(t, other, 'prompt.sim', { currency: 'KES' });
    const gold = await tier(t, other, fanbase.id, { name: 'Gold', price: 50_000, interval: 'month' });
    const fan = await signIn(t, other);
    const created = expectStatus(await subscribeTo(t, fan.auth, 'prompt.sim', { tier: gold.id, phone: '+254711000000' }), 201).data;
    await payCheckout(t, created.checkout_url);
    expect((await advance(t, other, created.id, 'renewal_notice')).checkout_url).toEqual(expect.any(String));
    const none = await sql<{ n: string }>`select count(*) as n from pgboss.job where name = ${renewalPrompt.name} and data->>'subscription' = ${created.id}`.execute(t.ctx.db);
    expect(Number(none.rows[0]!.n)).toBe(0);
  });
});
