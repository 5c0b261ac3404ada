import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { jobsRan } from '../kit/jobs';
import { syncTier, syncTierJob } from '../../src/modules/fanbases/tiers/sync-tier.job';
import { creatorFanbase, customerTokenAuth, entitlementsOf, liveStream, pk, signIn, sk, tier } from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

beforeAll(async () => {
  t.ctx.jobs.register({ ...syncTierJob(t.ctx), work: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start();
});

describe('joining and leaving', () => {
  it('joining is idempotent, leaving twice changes nothing, joining again reactivates the same membership', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'join.one');
    const fan = await signIn(t, tenant);
    const joined = expectStatus(await t.http().post('/v1/public/fanbases/join.one/join').set(fan.auth), 201).data;
    expect(joined).toMatchObject({ object: 'membership', fanbase: fanbase.id, customer: fan.customer, status: 'active', source: 'join', tier: null, subscription: null, left_at: null });
    expect(joined.id).toMatch(/^fmb_/);
    const again = expectStatus(await t.http().post(`/v1/public/fanbases/${fanbase.id}/join`).set(fan.auth), 200).data;
    expect(again).toEqual(joined);
    expect(expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}`).set(sk(tenant)), 200).data.member_count).toBe(1);

    const left = expectStatus(await t.http().delete('/v1/public/fanbases/join.one/join').set(fan.auth), 200).data;
    expect(left).toMatchObject({ id: joined.id, status: 'left' });
    expect(left.left_at).not.toBeNull();
    expect(expectStatus(await t.http().delete('/v1/public/fanbases/join.one/join').set(fan.auth), 200).data).toEqual(left);
    const back = expectStatus(await t.http().post('/v1/public/fanbases/join.one/join').set(fan.auth), 201).data;
    expect(back).toMatchObject({ id: joined.id, status: 'active', left_at: null });
    expect(new Date(back.joined_at).getTime()).toBeGreaterThan(new Date(joined.joined_at).getTime());

    const types = expectStatus(await t.http().get('/v1/events').query({ type: 'fanbases.membership.*' }).set(sk(tenant)), 200).data.map((e: { type: string }) => e.type);
    expect(types).toEqual(['fanbases.membership.joined', 'fanbases.membership.left', 'fanbases.membership.joined']);

    // A publishable key with a customer token is the same customer.
    const viaToken = await customerTokenAuth(t, tenant, fan.token);
    expect(expectStatus(await t.http().post('/v1/public/fanbases/join.one/join').set(viaToken), 200).data.id).toBe(joined.id);
    expect(expectStatus(await t.http().get('/v1/fan/memberships').set(viaToken), 200).data.map((m: { id: string }) => m.id)).toEqual([joined.id]);
  });

  it('closed fanbases refuse joins; strangers and keys are refused', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'join.closed');
    const fan = await signIn(t, tenant);
    expectStatus(await t.http().patch('/v1/creator/orgs/join.closed/capsule-profile').set(sk(tenant)).send({ join_enabled: false }), 200);
    expectError(await t.http().post('/v1/public/fanbases/join.closed/join').set(fan.auth), 409, 'fanbase_closed');
    expectStatus(await t.http().patch('/v1/creator/orgs/join.closed/capsule-profile').set(sk(tenant)).send({ join_enabled: true }), 200);
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}`).set(sk(tenant)).send({ status: 'archived' }), 200);
    expectError(await t.http().post('/v1/public/fanbases/join.closed/join').set(fan.auth), 409, 'fanbase_closed');
    expectError(await t.http().post('/v1/public/fanbases/nobody/join').set(fan.auth), 404, 'resource_not_found');
    expectError(await t.http().delete('/v1/public/fanbases/join.closed/join').set(fan.auth), 404, 'resource_not_found');
    expectError(await t.http().post('/v1/public/fanbases/join.closed/join').set(sk(tenant)), 403, 'insufficient_permissions');
    expectError(await t.http().post('/v1/public/fanbases/join.closed/join').set(pk(tenant)), 401, 'invalid_customer_token');
  });
});

describe('entitlements of members', () => {
  it('the published free tier grants every active member (source membership_tier), revoked on leaving, back on rejoining', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'ent.free');
    const early = await signIn(t, tenant);
    expectStatus(await t.http().post('/v1/public/fanbases/ent.free/join').set(early.auth), 201);
    const stream = await liveStream(t, tenant);
    const free = await tier(t, tenant, fanbase.id, { name: 'Free', price: 0, grants: [{ type: 'ls', id: stream }] });
    await jobsRan(t, syncTier, { tier: free.id });
    const [earlyGrant] = await entitlementsOf(t, tenant, early.customer);
    expect(earlyGrant).toMatchObject({ source: 'membership_tier', status: 'active', ends_at: null, resource: { type: 'ls', id: stream } });
    const earlyMember = expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)), 200).data[0];
    expect(earlyMember.tier).toBe(free.id);
    expect(earlyGrant!.source_ref).toBe(earlyMember.id);

    const fan = await signIn(t, tenant);
    const m = expectStatus(await t.http().post('/v1/public/fanbases/ent.free/join').set(fan.auth), 201).data;
    expect(m.tier).toBe(free.id);
    expect((await entitlementsOf(t, tenant, fan.customer)).map((e) => [e.source, e.source_ref, e.status])).toEqual([['membership_tier', m.id, 'active']]);
    const check = await t.http().post('/v1/access/check').set(sk(tenant)).send({ customer: fan.customer, resource: { type: 'ls', id: stream } });
    expect(check.body.data.allowed, JSON.stringify(check.body)).toBe(true);

    expectStatus(await t.http().delete('/v1/public/fanbases/ent.free/join').set(fan.auth), 200);
    expect((await entitlementsOf(t, tenant, fan.customer)).map((e) => e.status)).toEqual(['revoked']);
    expectStatus(await t.http().post('/v1/public/fanbases/ent.free/join').set(fan.auth), 201);
    expect((await entitlementsOf(t, tenant, fan.customer)).map((e) => e.status)).toEqual(['active']);

    // Archiving the free tier takes its grants from every member.
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${free.id}`).set(sk(tenant)).send({ status: 'archived' }), 200);
    await jobsRan(t, syncTier, { tier: free.id });
    expect((await entitlementsOf(t, tenant, fan.customer)).map((e) => e.status)).toEqual(['revoked']);
    expect(expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members/${m.id}`).set(sk(tenant)), 200).data.tier).toBeNull();
  });

  it('comp members get their tier\'s grants (source comp) until ends_at; removal revokes them', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'ent.comp');
    const stream = await liveStream(t, tenant);
    const vip = await tier(t, tenant, fanbase.id, { name: 'VIP', price: 50_000, interval: 'month', grants: [{ type: 'ls', id: stream }], limits: { max_views: 3 } });
    const fan = await signIn(t, tenant);
    const endsAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: 'cus_nobody', tier: vip.id }), 404, 'resource_not_found');
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: fan.customer, ends_at: new Date(Date.now() - 1000).toISOString() }), 422, 'validation_failed');
    const comp = expectStatus(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: fan.customer, tier: vip.id, ends_at: endsAt }), 201).data;
    expect(comp).toMatchObject({ source: 'comp', tier: vip.id, status: 'active', ends_at: endsAt });
    const [granted] = await entitlementsOf(t, tenant, fan.customer);
    expect(granted).toMatchObject({ source: 'comp', source_ref: comp.id, status: 'active', ends_at: endsAt });
    expect(expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/tiers/${vip.id}`).set(sk(tenant)), 200).data.member_count).toBe(1);

    const removed = expectStatus(await t.http().delete(`/v1/fanbases/${fanbase.id}/members/${comp.id}`).set(sk(tenant)), 200).data;
    expect(removed).toMatchObject({ status: 'left', tier: null });
    expect((await entitlementsOf(t, tenant, fan.customer)).map((e) => e.status)).toEqual(['revoked']);
    const events = expectStatus(await t.http().get('/v1/events').query({ type: 'fanbases.membership.*' }).set(sk(tenant)), 200).data;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['fanbases.membership.left', 'fanbases.membership.joined']);
  });
});

describe('the member list', () => {
  it('filters, searches, expands the customer and exports CSV', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'list.one');
    const vip = await tier(t, tenant, fanbase.id, { name: 'VIP', price: 100, interval: 'month' });
    const a = await signIn(t, tenant);
    const b = await signIn(t, tenant);
    const ma = expectStatus(await t.http().post('/v1/public/fanbases/list.one/join').set(a.auth), 201).data;
    const mb = expectStatus(await t.http().post(`/v1/fanbases/${fanbase.id}/members`).set(sk(tenant)).send({ customer: b.customer, tier: vip.id, metadata: { vip: 'yes' } }), 201).data;
    const ids = async (query: Record<string, string>) =>
      expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).query(query).set(sk(tenant)), 200).data.map((m: { id: string }) => m.id);
    expect(await ids({})).toEqual([mb.id, ma.id]);
    expect(await ids({ source: 'comp' })).toEqual([mb.id]);
    expect(await ids({ tier: vip.id })).toEqual([mb.id]);
    expect(await ids({ 'metadata[vip]': 'yes' })).toEqual([mb.id]);
    expect(await ids({ search: a.phone.slice(-8) })).toEqual([ma.id]);
    expect(await ids({ status: 'left' })).toEqual([]);
    expect(await ids({ subscription_status: 'active' })).toEqual([]);
    const expanded = expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).query({ 'expand[]': 'customer', source: 'join' }).set(sk(tenant)), 200).data[0];
    expect(expanded.customer).toMatchObject({ id: a.customer, object: 'customer', phone: a.phone });
    expectError(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).query({ 'expand[]': 'tier' }).set(sk(tenant)), 400, 'invalid_expand_path');

    const csv = await t.http().get(`/v1/fanbases/${fanbase.id}/members/export`).set(sk(tenant));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('membership_id,customer,email,phone,name,status,tier,source,subscription,subscription_status,joined_at,left_at');
    expect(lines).toHaveLength(3);
    // A phone's `+` would start a formula in a spreadsheet: the cell is text.
    expect(lines[1]).toContain(`${ma.id},${a.customer},,'${a.phone},,active,,join,,,`);
    const comps = (await t.http().get(`/v1/fanbases/${fanbase.id}/members/export`).query({ source: 'comp' }).set(sk(tenant))).text.trim().split('\n');
    expect(comps).toHaveLength(2);
  });
});

describe('the public fanbase and the capsule', () => {
  it('shows published tiers (available, no counts), the viewer\'s membership, and the capsule\'s viewer_state and audience', async () => {
    const tenant = await t.tenant();
    const { org, fanbase } = await creatorFanbase(t, tenant, 'pub.one');
    const free = await tier(t, tenant, fanbase.id, { name: 'Free', price: 0, position: 1 });
    const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 1000, interval: 'month', position: 2, max_members: 5 });
    await tier(t, tenant, fanbase.id, { name: 'Draft', price: 5000, interval: 'year', status: 'draft' });
    const fan = await signIn(t, tenant);
    const follower = await signIn(t, tenant);

    const before = expectStatus(await t.http().get('/v1/public/capsules/pub.one').set(fan.auth), 200).data;
    expect(before.capsule.fanbase).toBe(fanbase.id);
    expect(before.viewer_state).toEqual({ is_following: false, is_subscribed: false, subscription_plan_id: null, joined_at: null });
    expect(before.availability).toMatchObject({ join_enabled: true, subscription_enabled: true });
    expect(before.stats.audience_count).toBe(0);

    const m = expectStatus(await t.http().post('/v1/public/fanbases/pub.one/join').set(fan.auth), 201).data;
    expectStatus(await t.http().post('/v1/public/capsules/pub.one/follow').set(follower.auth), 200);
    expectStatus(await t.http().post('/v1/public/capsules/pub.one/follow').set(fan.auth), 200);
    const after = expectStatus(await t.http().get('/v1/public/capsules/pub.one').set(fan.auth), 200).data;
    expect(after.viewer_state).toMatchObject({ is_following: true, is_subscribed: false, joined_at: m.joined_at });
    expect(after.stats.audience_count).toBe(2);
    expect(after.social_proof.audience_count).toBe(2);

    const pub = expectStatus(await t.http().get(`/v1/public/fanbases/${fanbase.id}`).set(fan.auth), 200).data;
    expect(pub).toMatchObject({ id: fanbase.id, organization: { id: org.id, handle: 'pub.one' }, join_enabled: true, subscription_enabled: true, membership: { id: m.id, status: 'active', tier: free.id } });
    expect(pub.tiers).toEqual([
      { id: free.id, object: 'membership_tier', name: 'Free', description: null, price: 0, currency: 'KES', interval: null, benefits: [], position: 1, available: true },
      { id: gold.id, object: 'membership_tier', name: 'Gold', description: null, price: 1000, currency: 'KES', interval: 'month', benefits: [], position: 2, available: true },
    ]);
    const anonymous = expectStatus(await t.http().get('/v1/public/fanbases/pub.one').set(pk(tenant)), 200).data;
    expect(anonymous.membership).toBeNull();

    // An archived fanbase shows, closed; the capsule's switches follow it.
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}`).set(sk(tenant)).send({ status: 'archived' }), 200);
    const closed = expectStatus(await t.http().get('/v1/public/fanbases/pub.one').set(pk(tenant)), 200).data;
    expect(closed).toMatchObject({ status: 'archived', join_enabled: false, subscription_enabled: false });
    expect(closed.tiers.map((x: { available: boolean }) => x.available)).toEqual([false, false]);
    const capsule = expectStatus(await t.http().get('/v1/public/capsules/pub.one').set(pk(tenant)), 200).data;
    expect(capsule.availability).toMatchObject({ join_enabled: false, subscription_enabled: false });
  });

  it('a capsule without a fanbase has none, and its joins and subscriptions lead nowhere', async () => {
    const tenant = await t.tenant();
    const org = expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'No fans', handle: 'pub.none', kind: 'creator' }), 201).data;
    expectStatus(await t.http().patch('/v1/creator/orgs/pub.none/capsule-profile').set(sk(tenant)).send({ is_public: true, join_enabled: true, subscription_enabled: true }), 200);
    const capsule = expectStatus(await t.http().get('/v1/public/capsules/pub.none').set(pk(tenant)), 200).data;
    expect(org.id).toMatch(/^org_/);
    expect(capsule.capsule.fanbase).toBeNull();
    expect(capsule.availability).toMatchObject({ join_enabled: false, subscription_enabled: false });
  });
});
