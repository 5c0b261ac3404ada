import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { restrictedKey } from '../kit/route-matrix';
import { creatorFanbase, creatorOrg, orgMember, sk, staffMember, tier } from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('fanbases', () => {
  it('one per organization, with the defaults of § 2.1; the organizer reads, lists and updates it', async () => {
    const tenant = await t.tenant();
    const org = await creatorOrg(t, tenant, 'fb.one');
    const created = expectStatus(
      await t.http().post('/v1/fanbases').set(sk(tenant)).send({ organization: org.id, name: 'One fans', external_id: 'fb-1', metadata: { crm: 'x' } }),
      201,
    ).data;
    expect(created).toMatchObject({
      object: 'fanbase',
      livemode: false,
      organization: org.id,
      name: 'One fans',
      description: null,
      status: 'active',
      currency: 'KES',
      grace_period_days: 7,
      renewal_notice_hours: 24,
      member_count: 0,
      subscriber_count: 0,
      external_id: 'fb-1',
    });
    expect(created.id).toMatch(/^fan_/);
    expectError(await t.http().post('/v1/fanbases').set(sk(tenant)).send({ organization: org.id, name: 'Again' }), 409, 'fanbase_exists');
    expectError(await t.http().post('/v1/fanbases').set(sk(tenant)).send({ organization: org.id, name: 'x', grace_period_days: 31 }), 422, 'validation_failed');

    expect(expectStatus(await t.http().get(`/v1/fanbases/${created.id}`).set(sk(tenant)), 200).data.id).toBe(created.id);
    expect(expectStatus(await t.http().get('/v1/fanbases/external/fb-1').set(sk(tenant)), 200).data.id).toBe(created.id);
    expect(expectStatus(await t.http().get('/v1/fanbases').query({ 'metadata[crm]': 'x' }).set(sk(tenant)), 200).data.map((f: { id: string }) => f.id)).toEqual([created.id]);
    expect(expectStatus(await t.http().get('/v1/fanbases').query({ status: 'archived' }).set(sk(tenant)), 200).data).toEqual([]);
    const archived = expectStatus(await t.http().patch(`/v1/fanbases/${created.id}`).set(sk(tenant)).send({ status: 'archived', grace_period_days: 3 }), 200).data;
    expect(archived).toMatchObject({ status: 'archived', grace_period_days: 3 });
    expectError(await t.http().patch(`/v1/fanbases/${created.id}`).set(sk(tenant)).send({ organization: org.id }), 422, 'validation_failed');

    const events = expectStatus(await t.http().get('/v1/events').query({ type: 'fanbases.fanbase.created' }).set(sk(tenant)), 200).data;
    expect(events.map((e: { subject: string }) => e.subject)).toEqual([created.id]);

    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/fanbases/${created.id}`).set(sk(other)), 404, 'resource_not_found');
  });

  it('keys need fanbases scopes; members need the permission in the fanbase\'s organization', async () => {
    const tenant = await t.tenant();
    const { org, fanbase } = await creatorFanbase(t, tenant, 'fb.perm');
    const { fanbase: elsewhere } = await creatorFanbase(t, tenant, 'fb.elsewhere');
    const reader = await restrictedKey(t, tenant.keys.test.secret, ['fanbases:read']);
    expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}`).set(bearer(reader)), 200);
    expectError(await t.http().patch(`/v1/fanbases/${fanbase.id}`).set(bearer(reader)).send({ name: 'x' }), 403, 'missing_scope');
    const events = await restrictedKey(t, tenant.keys.test.secret, ['events:write']);
    expectError(await t.http().get(`/v1/fanbases/${fanbase.id}`).set(bearer(events)), 403, 'missing_scope');

    const manager = await orgMember(t, tenant, org.id, 'manager');
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}`).set(manager.auth).send({ description: 'By the manager' }), 200);
    expectError(await t.http().get(`/v1/fanbases/${elsewhere.id}`).set(manager.auth), 403, 'missing_permission');
    expect(expectStatus(await t.http().get('/v1/fanbases').set(manager.auth), 200).data.map((f: { id: string }) => f.id)).toEqual([fanbase.id]);
    const finance = await orgMember(t, tenant, org.id, 'finance');
    expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/members`).set(finance.auth), 200);
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/tiers`).set(finance.auth).send({ name: 'x', price: 0 }), 403, 'missing_permission');
    const checkin = await orgMember(t, tenant, org.id, 'checkin');
    expectError(await t.http().get(`/v1/fanbases/${fanbase.id}`).set(checkin.auth), 403, 'missing_permission');
    const support = await staffMember(t, tenant, 'support');
    expect(expectStatus(await t.http().get('/v1/fanbases').set(support.auth), 200).data).toHaveLength(2);
    expectError(await t.http().patch(`/v1/fanbases/${fanbase.id}`).set(support.auth).send({ name: 'x' }), 403, 'missing_permission');
  });
});

describe('membership tiers', () => {
  it('free or paid by interval, in the fanbase\'s currency; one published free tier', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'tiers.one', { currency: 'USD' });
    const free = await tier(t, tenant, fanbase.id, { name: 'Free', price: 0, benefits: ['News'] });
    expect(free).toMatchObject({ object: 'membership_tier', fanbase: fanbase.id, price: 0, currency: 'USD', interval: null, status: 'published', benefits: ['News'], grants: [], limits: null, member_count: 0 });
    expect(free.id).toMatch(/^mtr_/);
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/tiers`).set(sk(tenant)).send({ name: 'Free 2', price: 0, status: 'published' }), 409, 'free_tier_exists');
    const draftFree = await tier(t, tenant, fanbase.id, { name: 'Free draft', price: 0, status: 'draft' });
    expectError(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${draftFree.id}`).set(sk(tenant)).send({ status: 'published' }), 409, 'free_tier_exists');
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${free.id}`).set(sk(tenant)).send({ status: 'archived' }), 200);
    expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${draftFree.id}`).set(sk(tenant)).send({ status: 'published' }), 200);

    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/tiers`).set(sk(tenant)).send({ name: 'Paid', price: 500 }), 422, 'validation_failed', { param: 'interval' });
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/tiers`).set(sk(tenant)).send({ name: 'Free month', price: 0, interval: 'month' }), 422, 'validation_failed', { param: 'interval' });
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/tiers`).set(sk(tenant)).send({ name: 'Bad', price: 100, interval: 'month', grants: [{ type: 'ls', id: 'ast_x' }] }), 422, 'validation_failed', { param: 'grants.0.id' });
    expectError(await t.http().post(`/v1/fanbases/${fanbase.id}/tiers`).set(sk(tenant)).send({ name: 'x', price: 100, interval: 'week' }), 422, 'validation_failed');
    const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 100_000, interval: 'month', position: 2, max_members: 10, limits: { max_concurrent_sessions: 2 } });
    expect(gold).toMatchObject({ interval: 'month', price: 100_000, max_members: 10, position: 2, limits: { max_concurrent_sessions: 2 } });
    const repriced = expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${gold.id}`).set(sk(tenant)).send({ price: 120_000, interval: 'year' }), 200).data;
    expect(repriced).toMatchObject({ price: 120_000, interval: 'year' });
    const listed = expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/tiers`).query({ status: 'published' }).set(sk(tenant)), 200).data;
    expect(listed.map((x: { id: string }) => x.id).sort()).toEqual([draftFree.id, gold.id].sort());
    expect(expectStatus(await t.http().get(`/v1/fanbases/${fanbase.id}/tiers/${gold.id}`).set(sk(tenant)), 200).data.id).toBe(gold.id);
    expectError(await t.http().get(`/v1/fanbases/${fanbase.id}/tiers/mtr_unknown`).set(sk(tenant)), 404, 'resource_not_found');
  });

  it('a tier\'s interval is fixed once it has had a subscription', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'tiers.fixed');
    const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 1000, interval: 'month' });
    await t.ctx.db.updateTable('membership_tiers').set({ subscribed_at: new Date() }).where('id', '=', gold.id).execute();
    expectError(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${gold.id}`).set(sk(tenant)).send({ interval: 'year' }), 422, 'validation_failed', { param: 'interval' });
    expect(expectStatus(await t.http().patch(`/v1/fanbases/${fanbase.id}/tiers/${gold.id}`).set(sk(tenant)).send({ price: 2000 }), 200).data.price).toBe(2000);
  });
});
