import { describe, expect, it } from 'vitest';
import { accessDeps } from '../../src/modules/access/access-deps';
import { expireDueEntitlements } from '../../src/modules/access/entitlements/expire-entitlements.job';
import {
  advance,
  postEntitlement,
  useAccessTestServer,
  createStream,
  eventsOf,
  expectError,
  expectStatus,
  grant,
  now,
  server,
  setClock,
  tenant,
  type Tenant,
} from './access-fixtures';

const t = useAccessTestServer();

const HASH = 'a'.repeat(64);
const post = (sk: string, body: object, key?: string | null) => postEntitlement(t, sk, body, key);
const check = (sk: string, body: object) => server(t, sk).post('/v1/access/check', body);

async function setup() {
  const created = await tenant(t);
  const sk = created.keys.test.secret;
  const stream = await createStream(t, sk);
  return { created, sk, stream, resource: { type: 'ls', id: stream.id } };
}

describe('revoke, suspend, resume (state table)', () => {
  async function granted() {
    const s = await setup();
    const ent = await grant(t, s.sk, { customer: 'c', resource: s.resource });
    const action = (path: string) => (path === 'revoke' ? server(t, s.sk).delete(`/v1/access/entitlements/${ent.id}`) : server(t, s.sk).post(`/v1/access/entitlements/${ent.id}/${path}`));
    const allowed = async () => (await check(s.sk, { customer: 'c', resource: s.resource })).body.data;
    return { ...s, ent, action, allowed };
  }

  it('active → revoked with access.entitlement.revoked; checks refused at once; final', async () => {
    const { created, ent, action, allowed } = await granted();
    const revoked = expectStatus(await action('revoke'), 200).data;
    expect(revoked).toMatchObject({ id: ent.id, status: 'revoked' });
    expect(await allowed()).toMatchObject({ allowed: false, reason: 'revoked', entitlement: { id: ent.id, status: 'revoked' } });
    expect(expectStatus(await action('revoke'), 200).data.status).toBe('revoked');
    expectError(await action('resume'), 409, 'invalid_state_transition');
    expectError(await action('suspend'), 409, 'invalid_state_transition');
    const events = await eventsOf(t, created.tenant.id, ent.id);
    expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted', 'access.entitlement.revoked']);
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'active' });
  });

  it('active → suspended → active with suspended and resumed events; repeats change nothing', async () => {
    const { created, ent, action, allowed } = await granted();
    expect(expectStatus(await action('resume'), 200).data.status).toBe('active');
    expect(expectStatus(await action('suspend'), 200).data.status).toBe('suspended');
    expect(await allowed()).toMatchObject({ allowed: false, reason: 'suspended' });
    expect(expectStatus(await action('suspend'), 200).data.status).toBe('suspended');
    expect(expectStatus(await action('resume'), 200).data.status).toBe('active');
    expect(await allowed()).toMatchObject({ allowed: true, reason: null });
    const events = await eventsOf(t, created.tenant.id, ent.id);
    expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted', 'access.entitlement.suspended', 'access.entitlement.resumed']);
    expect(events[1]!.data.previous_attributes).toEqual({ status: 'active' });
    expect(events[2]!.data.previous_attributes).toEqual({ status: 'suspended' });
  });

  it('a suspended entitlement can be revoked', async () => {
    const { action } = await granted();
    expectStatus(await action('suspend'), 200);
    expect(expectStatus(await action('revoke'), 200).data.status).toBe('revoked');
  });

  it('resuming after the end passed makes it expired, with access.entitlement.expired', async () => {
    const s = await setup();
    const ent = await grant(t, s.sk, { customer: 'c', resource: s.resource, ends_at: new Date(now(t).getTime() + 60_000).toISOString() });
    expectStatus(await server(t, s.sk).post(`/v1/access/entitlements/${ent.id}/suspend`), 200);
    advance(t, 120_000);
    expect(expectStatus(await server(t, s.sk).post(`/v1/access/entitlements/${ent.id}/resume`), 200).data.status).toBe('expired');
    expectError(await server(t, s.sk).post(`/v1/access/entitlements/${ent.id}/resume`), 409, 'invalid_state_transition');
    const types = (await eventsOf(t, s.created.tenant.id, ent.id)).map((e) => e.type);
    expect(types).toEqual(['access.entitlement.granted', 'access.entitlement.suspended', 'access.entitlement.expired']);
  });
});

describe('expiry', () => {
  it('active → expired when ends_at passes: reads say so at once, the sweep records it and emits access.entitlement.expired', async () => {
    const { created, sk, resource } = await setup();
    const start = now(t);
    const ent = await grant(t, sk, { customer: 'c', resource, ends_at: new Date(start.getTime() + 3600_000).toISOString() });
    const forever = await grant(t, sk, { customer: 'd', resource });
    setClock(t, new Date(start.getTime() + 3600_000 + 1));
    const read = expectStatus(await server(t, sk).get(`/v1/access/entitlements/${ent.id}`), 200).data;
    expect(read.status).toBe('expired');
    const active = expectStatus(await server(t, sk).get('/v1/access/entitlements?status=active'), 200).data.map((e: { id: string }) => e.id);
    expect(active).toEqual([forever.id]);
    const expired = expectStatus(await server(t, sk).get('/v1/access/entitlements?status=expired'), 200).data.map((e: { id: string }) => e.id);
    expect(expired).toEqual([ent.id]);
    expect((await check(sk, { customer: 'c', resource })).body.data).toMatchObject({ allowed: false, reason: 'expired' });
    expect((await eventsOf(t, created.tenant.id, ent.id)).map((e) => e.type)).toEqual(['access.entitlement.granted']);

    // The sweep covers every tenant; a second run finds nothing left.
    expect(await expireDueEntitlements(accessDeps(t.ctx))).toBeGreaterThanOrEqual(1);
    expect(await expireDueEntitlements(accessDeps(t.ctx))).toBe(0);
    const row = await t.ctx.db.selectFrom('entitlements').select('status').where('id', '=', ent.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    const events = await eventsOf(t, created.tenant.id, ent.id);
    expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted', 'access.entitlement.expired']);
    expect(events[1]!.data).toMatchObject({ object: { id: ent.id, status: 'expired' }, previous_attributes: { status: 'active' } });
    expectError(await server(t, sk).post(`/v1/access/entitlements/${ent.id}/suspend`), 409, 'invalid_state_transition');
  });

  it('the sweep leaves entitlements whose end has not come, and suspended ones', async () => {
    const { sk, resource } = await setup();
    const start = now(t);
    const later = await grant(t, sk, { customer: 'c', resource, ends_at: new Date(start.getTime() + 7200_000).toISOString() });
    const paused = await grant(t, sk, { customer: 'd', resource, ends_at: new Date(start.getTime() + 60_000).toISOString() });
    expectStatus(await server(t, sk).post(`/v1/access/entitlements/${paused.id}/suspend`), 200);
    setClock(t, new Date(start.getTime() + 3600_000));
    await expireDueEntitlements(accessDeps(t.ctx));
    expect(expectStatus(await server(t, sk).get(`/v1/access/entitlements/${later.id}`), 200).data.status).toBe('active');
    expect(expectStatus(await server(t, sk).get(`/v1/access/entitlements/${paused.id}`), 200).data.status).toBe('suspended');
  });
});

describe('POST /v1/access/check', () => {
  it('answers every reason of the spec', async () => {
    const { sk, resource } = await setup();
    const start = now(t);
    // Held still until the grants are made: on a loaded machine they can take longer than the 1 s entitlement lasts.
    setClock(t, start);
    const body = (customer: string, extra: object = {}) => ({ customer, resource, ...extra });
    await grant(t, sk, { customer: 'ok', resource });
    await grant(t, sk, { customer: 'later', resource, starts_at: new Date(start.getTime() + 3600_000).toISOString() });
    await grant(t, sk, { customer: 'ending', resource, ends_at: new Date(start.getTime() + 1000).toISOString() });
    await grant(t, sk, { customer: 'geo', resource, limits: { allowed_countries: ['KE', 'UG'] } });
    await grant(t, sk, { customer: 'site', resource, limits: { allowed_domains: ['watch.example.com'] } });

    const result = async (b: object) => expectStatus(await check(sk, b), 200).data;
    const allowed = await result(body('ok'));
    expect(allowed).toMatchObject({ allowed: true, reason: null, entitlement: { customer: 'ok', status: 'active' } });
    expect(await result(body('nobody'))).toEqual({ allowed: false, reason: 'no_entitlement', entitlement: null });
    expect(await result(body('later'))).toMatchObject({ allowed: false, reason: 'not_started' });
    expect(await result(body('geo', { country: 'KE' }))).toMatchObject({ allowed: true });
    expect(await result(body('geo', { country: 'TZ' }))).toMatchObject({ allowed: false, reason: 'country_not_allowed' });
    expect(await result(body('geo'))).toMatchObject({ allowed: false, reason: 'country_not_allowed' });
    expect(await result(body('site', { domain: 'watch.example.com' }))).toMatchObject({ allowed: true });
    expect(await result(body('site', { domain: 'www.watch.example.com' }))).toMatchObject({ allowed: false, reason: 'domain_not_allowed' });
    expect(await result(body('site'))).toMatchObject({ allowed: false, reason: 'domain_not_allowed' });
    advance(t, 2000);
    expect(await result(body('ending'))).toMatchObject({ allowed: false, reason: 'expired', entitlement: { status: 'expired' } });
    expect(await result({ contact_hash: HASH, resource })).toMatchObject({ reason: 'no_entitlement' });
    expectError(await check(sk, { resource }), 422, 'validation_failed');
  });

  it('uses the entitlement that lets the customer in when there are several', async () => {
    const { sk, resource } = await setup();
    const old = await grant(t, sk, { customer: 'c', resource, source_ref: 'a' });
    const fresh = await grant(t, sk, { customer: 'c', resource, source_ref: 'b' });
    expectStatus(await server(t, sk).delete(`/v1/access/entitlements/${fresh.id}`), 200);
    expect(expectStatus(await check(sk, { customer: 'c', resource }), 200).data).toMatchObject({ allowed: true, entitlement: { id: old.id } });
  });
});

describe('reads', () => {
  it('lists by customer newest first with cursor pagination, gets by id and by external id', async () => {
    const { sk, stream, resource } = await setup();
    const other = await createStream(t, sk);
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await grant(t, sk, { customer: 'lister', resource: i === 2 ? { type: 'ls', id: other.id } : resource, source_ref: `r${i}`, external_id: `ext-${i}` }));
    await grant(t, sk, { customer: 'someone-else', resource });
    const page1 = expectStatus(await server(t, sk).get('/v1/access/entitlements?customer=lister&limit=2'), 200);
    expect(page1.data.map((e: { id: string }) => e.id)).toEqual([mine[2]!.id, mine[1]!.id]);
    expect(page1.meta.pagination).toMatchObject({ limit: 2, has_more: true });
    const page2 = expectStatus(await server(t, sk).get(`/v1/access/entitlements?customer=lister&limit=2&cursor=${page1.meta.pagination.next_cursor}`), 200);
    expect(page2.data.map((e: { id: string }) => e.id)).toEqual([mine[0]!.id]);
    expect(page2.meta.pagination.has_more).toBe(false);
    const byResource = expectStatus(await server(t, sk).get(`/v1/access/entitlements?customer=lister&resource=${stream.id}`), 200);
    expect(byResource.data).toHaveLength(2);
    expect(expectStatus(await server(t, sk).get(`/v1/access/entitlements/${mine[1]!.id}`), 200).data).toEqual(mine[1]);
    expect(expectStatus(await server(t, sk).get('/v1/access/entitlements/external/ext-2'), 200).data).toEqual(mine[2]);
    expectError(await server(t, sk).get('/v1/access/entitlements/external/nope'), 404, 'resource_not_found');
    expectError(await server(t, sk).get('/v1/access/entitlements/ls_123'), 404, 'resource_not_found');
  });

  it('keeps tenants and environments apart', async () => {
    const a = await setup();
    const ent = await grant(t, a.sk, { customer: 'c', resource: a.resource });
    const b: Tenant = await tenant(t);
    for (const key of [b.keys.test.secret, a.created.keys.live.secret]) {
      expectError(await server(t, key).get(`/v1/access/entitlements/${ent.id}`), 404, 'resource_not_found');
      expectError(await server(t, key).delete(`/v1/access/entitlements/${ent.id}`), 404, 'resource_not_found');
      expectError(await server(t, key).post(`/v1/access/entitlements/${ent.id}/suspend`), 404, 'resource_not_found');
      expect(expectStatus(await server(t, key).get('/v1/access/entitlements?customer=c'), 200).data).toEqual([]);
      expect(expectStatus(await check(key, { customer: 'c', resource: a.resource }), 200).data.reason).toBe('no_entitlement');
    }
  });

  it('checks restricted keys\' scopes: access:read reads and checks, access:write grants', async () => {
    const { sk, resource } = await setup();
    const make = async (scopes: string[]) => expectStatus(await server(t, sk).post('/v1/keys', { type: 'restricted', scopes }), 201).data.secret as string;
    const reader = await make(['access:read']);
    const writer = await make(['access:write']);
    const streamsOnly = await make(['streams:write']);
    expectStatus(await server(t, reader).get('/v1/access/entitlements'), 200);
    expectStatus(await check(reader, { customer: 'c', resource }), 200);
    expectError(await post(reader, { customer: 'c', resource }), 403, 'missing_scope');
    const ent = await grant(t, writer, { customer: 'c', resource });
    expectStatus(await server(t, writer).post(`/v1/access/entitlements/${ent.id}/suspend`), 200);
    expectError(await server(t, streamsOnly).get('/v1/access/entitlements'), 403, 'missing_scope');
    expectError(await check(streamsOnly, { customer: 'c', resource }), 403, 'missing_scope');
  });
});
