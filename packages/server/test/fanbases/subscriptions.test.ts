import { beforeAll, describe, expect, it } from 'vitest';
import { renewDue } from '../../src/modules/fanbases/subscriptions/renew-subscriptions';
import { syncTier, syncTierJob } from '../../src/modules/fanbases/tiers/sync-tier.job';
import { useTestServer } from '../harness';
import { jobsRan } from '../kit/jobs';
import { expectError, expectStatus } from '../kit/expect';
import {
  advance,
  allowed,
  refusedSoon,
  creatorFanbase,
  entitlementsOf,
  eventTypes,
  getSubscription,
  liveStream,
  payCheckout,
  signIn,
  sk,
  subscribeTo,
  tier,
  type Tenant,
} from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
const DAY = 86_400_000;

beforeAll(async () => {
  t.ctx.jobs.register({ ...syncTierJob(t.ctx), work: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start();
});

async function goldFanbase(tenant: Tenant, handle: string, tierBody: Record<string, unknown> = {}) {
  const { org, fanbase } = await creatorFanbase(t, tenant, handle);
  const stream = await liveStream(t, tenant);
  const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50_000, interval: 'month', grants: [{ type: 'ls', id: stream }], ...tierBody });
  return { org, fanbase, stream, gold };
}

/** A fan subscribed to the tier and paid: an `active` subscription. */
async function activeSubscription(tenant: Tenant, handle: string, tierId: string) {
  const fan = await signIn(t, tenant);
  const created = expectStatus(await subscribeTo(t, fan.auth, handle, { tier: tierId }), 201).data;
  await payCheckout(t, created.checkout_url);
  return { fan, sub: await getSubscription(t, tenant, created.id) };
}

const capsuleOf = async (handle: string, auth: Record<string, string>) => expectStatus(await t.http().get(`/v1/public/capsules/${handle}`).set(auth), 200).data;

describe('subscribing', () => {
  it('a fan subscribes, pays, is renewed by the test clock, fails a renewal, keeps access through the grace and loses it at expiry', async () => {
    const tenant = await t.tenant();
    const { fanbase, stream, gold } = await goldFanbase(tenant, 'sub.life');
    const fan = await signIn(t, tenant);
    expectStatus(await t.http().post('/v1/public/fanbases/sub.life/join').set(fan.auth), 201);

    const res = await subscribeTo(t, fan.auth, 'sub.life', { tier: gold.id, phone: '+254712345678' }, 'first-key');
    const created = expectStatus(res, 201).data;
    expect(created).toMatchObject({
      object: 'subscription',
      fanbase: fanbase.id,
      tier: gold.id,
      customer: fan.customer,
      status: 'incomplete',
      amount: 50_000,
      currency: 'KES',
      interval: 'month',
      current_period_start: null,
      current_period_end: null,
      cancel_at_period_end: false,
      renewal: { mode: 'prompt', phone_hint: '••••5678', attempts: 0 },
    });
    expect(created.id).toMatch(/^sub_/);
    expect(created.latest_order).toMatch(/^ord_/);
    expect(created.checkout_url).toMatch(/\/checkout\/cs_/);
    expect(expectStatus(await subscribeTo(t, fan.auth, 'sub.life', { tier: gold.id, phone: '+254712345678' }, 'first-key'), 201).data.id).toBe(created.id);
    expectError(await subscribeTo(t, fan.auth, 'sub.life', { tier: gold.id }), 409, 'already_subscribed');
    const order = expectStatus(await t.http().get(`/v1/orders/${created.latest_order}`).set(sk(tenant)), 200).data;
    expect(order).toMatchObject({ kind: 'subscription', subscription: created.id, amount_total: 50_000, status: 'pending' });
    expect((await capsuleOf('sub.life', fan.auth)).viewer_state.is_subscribed).toBe(false);
    await refusedSoon(t, tenant, fan.customer, stream);

    // Paid: active for a calendar month, the stream granted until the period end plus the grace.
    await payCheckout(t, created.checkout_url);
    const active = await getSubscription(t, tenant, created.id);
    expect(active).toMatchObject({ status: 'active', checkout_url: null, latest_order: created.latest_order });
    const end = new Date(active.current_period_end).getTime();
    expect(end - new Date(active.current_period_start).getTime()).toBeGreaterThanOrEqual(28 * DAY);
    const [grant] = await entitlementsOf(t, tenant, fan.customer);
    expect(grant).toMatchObject({ source: 'subscription', source_ref: created.id, status: 'active', resource: { type: 'ls', id: stream } });
    expect(new Date(grant!.ends_at!).getTime()).toBe(end + 7 * DAY);
    expect(await allowed(t, tenant, fan.customer, stream)).toBe(true);
    const capsule = await capsuleOf('sub.life', fan.auth);
    expect(capsule.viewer_state).toMatchObject({ is_subscribed: true, subscription_plan_id: gold.id });
    const member = expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)), 200).data[0];
    expect(member).toMatchObject({ tier: gold.id, subscription: created.id, source: 'join' });
    expect(expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}`).set(sk(tenant)), 200).data.subscriber_count).toBe(1);
    const receipts = expectStatus(await t.http().get('/v1/messages').query({ related: created.id }).set(sk(tenant)), 200).data;
    expect(receipts.map((m: { template: string }) => m.template)).toContain('subscription_receipt');

    // The renewal notice opens the next period's order and tells the fan where to pay; paying renews.
    const noticed = await advance(t, tenant, created.id, 'renewal_notice');
    expect(noticed).toMatchObject({ status: 'active', renewal: { attempts: 1 } });
    expect(noticed.latest_order).not.toBe(created.latest_order);
    expect(noticed.checkout_url).toMatch(/\/checkout\/cs_/);
    expect(await advance(t, tenant, created.id, 'renewal_notice')).toMatchObject({ latest_order: noticed.latest_order, renewal: { attempts: 1 } });
    const reminders = expectStatus(await t.http().get('/v1/messages').query({ related: created.id, template: 'subscription_renewal' }).set(sk(tenant)), 200).data;
    expect(reminders[0].body).toContain(noticed.checkout_url);
    await payCheckout(t, noticed.checkout_url);
    const renewed = await getSubscription(t, tenant, created.id);
    expect(renewed).toMatchObject({ status: 'active', current_period_start: active.current_period_end, renewal: { attempts: 0 }, checkout_url: null });
    const renewedEnd = new Date(renewed.current_period_end).getTime();
    expect((await entitlementsOf(t, tenant, fan.customer))[0]!.ends_at).toBe(new Date(renewedEnd + 7 * DAY).toISOString());

    // The next renewal goes unpaid: past due at the period end (access kept), expired at the grace end.
    const pastDue = await advance(t, tenant, created.id, 'period_end');
    expect(pastDue).toMatchObject({ status: 'past_due', grace_ends_at: new Date(renewedEnd + 7 * DAY).toISOString() });
    expect(await allowed(t, tenant, fan.customer, stream)).toBe(true);
    expect((await capsuleOf('sub.life', fan.auth)).viewer_state.is_subscribed).toBe(true);
    const expired = await advance(t, tenant, created.id, 'grace_end');
    expect(expired).toMatchObject({ status: 'expired' });
    expect(expired.ended_at).not.toBeNull();
    await refusedSoon(t, tenant, fan.customer, stream);
    expect((await entitlementsOf(t, tenant, fan.customer))[0]!.status).toBe('expired');
    expect((await capsuleOf('sub.life', fan.auth)).viewer_state).toMatchObject({ is_subscribed: false, subscription_plan_id: null });
    expect(expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members/${member.id}`).set(sk(tenant)), 200).data).toMatchObject({ tier: null, subscription: null, status: 'active' });
    expectError(await t.http().post(`/v1/test_helpers/subscriptions/${created.id}/advance`).set(sk(tenant)).send({ to: 'period_end' }), 409, 'invalid_state_transition');

    expect(await eventTypes(t, tenant, 'fanbases.subscription.*')).toEqual([
      'fanbases.subscription.created',
      'fanbases.subscription.activated',
      'fanbases.subscription.renewed',
      'fanbases.subscription.past_due',
      'fanbases.subscription.expired',
    ]);
    expect(await eventTypes(t, tenant, 'fanbases.order.*')).toEqual(['fanbases.order.created', 'fanbases.order.paid', 'fanbases.order.created', 'fanbases.order.paid', 'fanbases.order.created']);
  });

  it('refuses tiers that cannot be taken, closed fanbases, and requests without an Idempotency-Key', async () => {
    const tenant = await t.tenant();
    const { fanbase, gold } = await goldFanbase(tenant, 'sub.refuse', { max_members: 1 });
    const free = await tier(t, tenant, fanbase.id, { name: 'Free', price: 0 });
    const draft = await tier(t, tenant, fanbase.id, { name: 'Draft', price: 100, interval: 'year', status: 'draft' });
    const old = await tier(t, tenant, fanbase.id, { name: 'Old', price: 100, interval: 'year', status: 'archived' });
    const fan = await signIn(t, tenant);
    expectError(await subscribeTo(t, fan.auth, 'sub.refuse', { tier: free.id }), 422, 'tier_unavailable', { reason: 'free_tier' });
    expectError(await subscribeTo(t, fan.auth, 'sub.refuse', { tier: draft.id }), 422, 'tier_unavailable', { reason: 'not_published' });
    expectError(await subscribeTo(t, fan.auth, 'sub.refuse', { tier: old.id }), 422, 'tier_unavailable', { reason: 'archived' });
    expectError(await subscribeTo(t, fan.auth, 'sub.refuse', { tier: 'mtr_unknown' }), 404, 'resource_not_found');
    expectError(await t.http().post('/v1/public/fanbases/sub.refuse/subscriptions').set(fan.auth).send({ tier: gold.id }), 400, 'idempotency_key_required');
    expectStatus(await subscribeTo(t, fan.auth, 'sub.refuse', { tier: gold.id }), 201);
    const other = await signIn(t, tenant);
    expectError(await subscribeTo(t, other.auth, 'sub.refuse', { tier: gold.id }), 422, 'tier_unavailable', { reason: 'full' });
    expectStatus(await t.http().patch('/v1/creator/orgs/sub.refuse/capsule-profile').set(sk(tenant)).send({ subscription_enabled: false }), 200);
    const third = await tier(t, tenant, fanbase.id, { name: 'Silver', price: 100, interval: 'month' });
    expectError(await subscribeTo(t, other.auth, 'sub.refuse', { tier: third.id }), 409, 'fanbase_closed');
    // The tier has had a subscription: its interval is fixed.
    expectError(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${gold.id}`).set(sk(tenant)).send({ interval: 'year' }), 422, 'validation_failed', { param: 'interval' });
  });

  it('a first order that expires unpaid expires the subscription', async () => {
    const tenant = await t.tenant();
    const { gold } = await goldFanbase(tenant, 'sub.unpaid');
    const fan = await signIn(t, tenant);
    const created = expectStatus(await subscribeTo(t, fan.auth, 'sub.unpaid', { tier: gold.id }), 201).data;
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${created.latest_order}/expire`).set(sk(tenant)), 200);
    expect(await getSubscription(t, tenant, created.id)).toMatchObject({ status: 'expired', checkout_url: null });
    // Free to subscribe again.
    expectStatus(await subscribeTo(t, fan.auth, 'sub.unpaid', { tier: gold.id }), 201);
  });
});

describe('the renewal job', () => {
  it('works off the subscriptions due at its moment; two runs racing for one period make one renewal order', async () => {
    const tenant = await t.tenant();
    const { gold } = await goldFanbase(tenant, 'sub.job');
    const { sub } = await activeSubscription(tenant, 'sub.job', gold.id);
    expect(new Date(sub.renewal.next_attempt_at).getTime()).toBe(new Date(sub.current_period_end).getTime() - 24 * 3_600_000);
    const before = new Date(new Date(sub.renewal.next_attempt_at).getTime() - 60_000);
    await renewDue(t.ctx, before);
    expect((await getSubscription(t, tenant, sub.id)).renewal.attempts).toBe(0);
    const due = new Date(new Date(sub.renewal.next_attempt_at).getTime() + 60_000);
    await Promise.all([renewDue(t.ctx, due), renewDue(t.ctx, due), advance(t, tenant, sub.id, 'renewal_notice')]);
    const renewing = await getSubscription(t, tenant, sub.id);
    expect(renewing.renewal).toMatchObject({ attempts: 1, next_attempt_at: sub.current_period_end });
    const orders = await t.ctx.db.selectFrom('orders').select('id').where('subscription_id', '=', sub.id).execute();
    expect(orders).toHaveLength(2);
  });
});

describe('tier changes', () => {
  it("a change of a tier's grants reaches its subscribers: new resources granted to the period's end, removed ones revoked", async () => {
    const tenant = await t.tenant();
    const { fanbase, stream, gold } = await goldFanbase(tenant, 'sub.grants');
    const { fan, sub } = await activeSubscription(tenant, 'sub.grants', gold.id);
    const encore = await liveStream(t, tenant);
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${gold.id}`).set(sk(tenant)).send({ grants: [{ type: 'ls', id: encore }] }), 200);
    await jobsRan(t, syncTier, { tier: gold.id });
    await refusedSoon(t, tenant, fan.customer, stream);
    expect(await allowed(t, tenant, fan.customer, encore)).toBe(true);
    const granted = (await entitlementsOf(t, tenant, fan.customer)).find((e) => e.resource.id === encore)!;
    expect(granted).toMatchObject({ source: 'subscription', source_ref: sub.id, ends_at: new Date(new Date(sub.current_period_end).getTime() + 7 * DAY).toISOString() });
  });
});

describe('cancelling', () => {
  it('fans cancel at the period end and may resume; at the period end it is cancelled and access ends', async () => {
    const tenant = await t.tenant();
    const { stream, gold } = await goldFanbase(tenant, 'sub.cancel');
    const { fan, sub } = await activeSubscription(tenant, 'sub.cancel', gold.id);
    const cancelling = expectStatus(await t.http().post(`/v1/fan/subscriptions/${sub.id}/cancel`).set(fan.auth), 200).data;
    expect(cancelling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancellation_reason: 'customer' });
    expect(expectStatus(await t.http().post(`/v1/fan/subscriptions/${sub.id}/resume`).set(fan.auth), 200).data).toMatchObject({ cancel_at_period_end: false, cancellation_reason: null });
    expectStatus(await t.http().post(`/v1/fan/subscriptions/${sub.id}/cancel`).set(fan.auth), 200);
    expect(await allowed(t, tenant, fan.customer, stream)).toBe(true);
    expectError(await t.http().delete('/v1/public/fanbases/sub.cancel/join').set(fan.auth), 409, 'subscription_active');
    const cancelled = await advance(t, tenant, sub.id, 'period_end');
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellation_reason: 'customer' });
    await refusedSoon(t, tenant, fan.customer, stream);
    expect((await entitlementsOf(t, tenant, fan.customer))[0]!.status).toBe('revoked');
    expect(expectStatus(await t.http().post(`/v1/fan/subscriptions/${sub.id}/cancel`).set(fan.auth), 200).data.status).toBe('cancelled');
    expectError(await t.http().post(`/v1/fan/subscriptions/${sub.id}/resume`).set(fan.auth), 409, 'invalid_state_transition');
    expectStatus(await t.http().delete('/v1/public/fanbases/sub.cancel/join').set(fan.auth), 200);
    expect(await eventTypes(t, tenant, 'fanbases.subscription.*')).toEqual([
      'fanbases.subscription.created',
      'fanbases.subscription.activated',
      'fanbases.subscription.updated',
      'fanbases.subscription.updated',
      'fanbases.subscription.updated',
      'fanbases.subscription.cancelled',
    ]);
  });

  it('organizers cancel now; removing the member cancels it; a full refund cancels it', async () => {
    const tenant = await t.tenant();
    const { fanbase, stream, gold } = await goldFanbase(tenant, 'sub.org');
    const first = await activeSubscription(tenant, 'sub.org', gold.id);
    const now = expectStatus(await t.http().post(`/v1/subscriptions/${first.sub.id}/cancel`).set(sk(tenant)).send({ at_period_end: false }), 200).data;
    expect(now).toMatchObject({ status: 'cancelled', cancellation_reason: 'organizer' });
    await refusedSoon(t, tenant, first.fan.customer, stream);

    const second = await activeSubscription(tenant, 'sub.org', gold.id);
    const members = expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).query({ subscription_status: 'active' }).set(sk(tenant)), 200).data;
    expect(members.map((m: { customer: string }) => m.customer)).toEqual([second.fan.customer]);
    expectStatus(await t.http().delete(`/v1/fanbases/${fanbase.id}/members/${members[0].id}`).set(sk(tenant)), 200);
    expect(await getSubscription(t, tenant, second.sub.id)).toMatchObject({ status: 'cancelled', cancellation_reason: 'member_removed' });
    await refusedSoon(t, tenant, second.fan.customer, stream);

    const third = await activeSubscription(tenant, 'sub.org', gold.id);
    expectStatus(await t.http().post(`/v1/orders/${third.sub.latest_order}/refunds`).set(sk(tenant)).set('Idempotency-Key', `refund-${third.sub.id}`).send({}), 201);
    expect(await getSubscription(t, tenant, third.sub.id)).toMatchObject({ status: 'cancelled', cancellation_reason: 'refund' });
    await refusedSoon(t, tenant, third.fan.customer, stream);
  });
});

describe('fan routes', () => {
  it('act only on the caller\'s own subscriptions: another\'s is 404', async () => {
    const tenant = await t.tenant();
    const { fanbase, gold } = await goldFanbase(tenant, 'sub.own');
    const silver = await tier(t, tenant, fanbase.id, { name: 'Silver', price: 20_000, interval: 'month' });
    const { fan, sub } = await activeSubscription(tenant, 'sub.own', gold.id);
    const stranger = await signIn(t, tenant);
    for (const action of ['cancel', 'resume', 'renew']) {
      expectError(await t.http().post(`/v1/fan/subscriptions/${sub.id}/${action}`).set(stranger.auth), 404, 'resource_not_found');
    }
    expectError(await t.http().post(`/v1/fan/subscriptions/${sub.id}/change_tier`).set(stranger.auth).send({ tier: silver.id }), 404, 'resource_not_found');
    expect(expectStatus(await t.http().get('/v1/fan/subscriptions').set(stranger.auth), 200).data).toEqual([]);
    // Another tenant's key, and the same tenant's live key, find nothing.
    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/subscriptions/${sub.id}`).set(sk(other)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/subscriptions/${sub.id}`).set({ authorization: `Bearer ${tenant.keys.live.secret}` }), 404, 'resource_not_found');
    expect(expectStatus(await t.http().get('/v1/subscriptions').query({ fanbase: fanbase.id }).set(sk(tenant)), 200).data.map((x: { id: string }) => x.id)).toEqual([sub.id]);
    expect(expectStatus(await t.http().get('/v1/subscriptions').set(sk(other)), 200).data).toEqual([]);
    expect(expectStatus(await t.http().get('/v1/fan/subscriptions').set(fan.auth), 200).data.map((s: { id: string }) => s.id)).toEqual([sub.id]);

    // A change of tier waits for the next period; renewing early opens that period's order at the new price.
    expect(expectStatus(await t.http().post(`/v1/fan/subscriptions/${sub.id}/change_tier`).set(fan.auth).send({ tier: silver.id }), 200).data).toMatchObject({ tier: gold.id, pending_tier: silver.id });
    const renewing = expectStatus(await t.http().post(`/v1/fan/subscriptions/${sub.id}/renew`).set(fan.auth), 200).data;
    expect(renewing.renewal.attempts).toBe(1);
    expect(expectStatus(await t.http().get(`/v1/orders/${renewing.latest_order}`).set(sk(tenant)), 200).data.amount_total).toBe(20_000);
    await payCheckout(t, renewing.checkout_url);
    expect(await getSubscription(t, tenant, sub.id)).toMatchObject({ status: 'active', tier: silver.id, pending_tier: null, amount: 20_000 });
  });
});
