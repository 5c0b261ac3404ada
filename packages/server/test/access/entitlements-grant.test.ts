import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accessDeps } from '../../src/modules/access/access-deps';
import { expireDueEntitlements } from '../../src/modules/access/entitlements/expire-entitlements.job';
import {
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
} from './access-fixtures';

const t = useAccessTestServer();

const HASH = 'a'.repeat(64);
const post = (sk: string, body: object, key?: string | null) => postEntitlement(t, sk, body, key);

async function setup() {
  const created = await tenant(t);
  const sk = created.keys.test.secret;
  const stream = await createStream(t, sk);
  return { created, sk, stream, resource: { type: 'ls', id: stream.id } };
}

describe('POST /v1/access/entitlements', () => {
  it('grants an active entitlement with every field, 201 and access.entitlement.granted', async () => {
    const { created, sk, resource } = await setup();
    const body = {
      customer: 'cust-42',
      resource,
      source: 'payment',
      source_ref: 'pay_123',
      starts_at: '2020-01-01T00:00:00+03:00',
      ends_at: '2099-01-01T00:00:00Z',
      limits: { max_devices: 2, max_concurrent_sessions: 1, concurrency_policy: 'reject_new', max_views: 5, allowed_countries: ['KE'], allowed_domains: ['watch.example.com'] },
      external_id: 'order-42',
      metadata: { plan: 'gold' },
    };
    const ent = await grant(t, sk, body);
    expect(ent).toMatchObject({
      object: 'entitlement',
      livemode: false,
      customer: 'cust-42',
      contact_hash: null,
      resource,
      source: 'payment',
      source_ref: 'pay_123',
      starts_at: '2019-12-31T21:00:00.000Z',
      ends_at: '2099-01-01T00:00:00.000Z',
      limits: body.limits,
      status: 'active',
      external_id: 'order-42',
      metadata: { plan: 'gold' },
    });
    expect(ent.id).toMatch(/^ent_/);
    const events = await eventsOf(t, created.tenant.id, ent.id);
    expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted']);
    expect(events[0]!.data.object).toEqual(ent);
  });

  it('defaults source, limits and dates, and takes a contact hash instead of a customer', async () => {
    const { sk, resource } = await setup();
    const ent = await grant(t, sk, { contact_hash: HASH.toUpperCase(), resource });
    expect(ent).toMatchObject({
      customer: null,
      contact_hash: HASH,
      source: 'tenant_grant',
      source_ref: null,
      starts_at: null,
      ends_at: null,
      limits: { max_devices: null, max_concurrent_sessions: null, concurrency_policy: 'replace_oldest', max_views: null, allowed_countries: null, allowed_domains: null },
    });
  });

  it('requires an Idempotency-Key and replays the first answer for the same key', async () => {
    const { sk, resource } = await setup();
    expectError(await post(sk, { customer: 'c', resource }, null), 400, 'idempotency_key_required');
    const key = randomUUID();
    const first = expectStatus(await post(sk, { customer: 'c', resource }, key), 201);
    const replay = await post(sk, { customer: 'c', resource }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first);
  });

  it.each([
    ['neither customer nor contact_hash', {}],
    ['both customer and contact_hash', { customer: 'c', contact_hash: HASH }],
    ['a customer of 256 characters', { customer: 'x'.repeat(256) }],
    ['a contact hash that is not 64 hex', { contact_hash: 'z'.repeat(64) }],
    ['a resource type other than ls and ast', { customer: 'c', resource: { type: 'evt', id: 'evt_1' } }],
    ['an unknown source', { customer: 'c', source: 'gift' }],
    ['ends_at without an offset', { customer: 'c', ends_at: '2099-01-01T00:00:00' }],
    ['ends_at before starts_at', { customer: 'c', starts_at: '2099-01-02T00:00:00Z', ends_at: '2099-01-01T00:00:00Z' }],
    ['ends_at in the past', { customer: 'c', ends_at: '2001-01-01T00:00:00Z' }],
    ['a country in lower case', { customer: 'c', limits: { allowed_countries: ['ke'] } }],
    ['zero devices', { customer: 'c', limits: { max_devices: 0 } }],
    ['an unknown concurrency policy', { customer: 'c', limits: { concurrency_policy: 'queue' } }],
  ])('refuses %s with 422', async (_label, fields) => {
    const { sk, resource } = await setup();
    expectError(await post(sk, { resource, ...fields }), 422, 'validation_failed');
  });

  it('answers 404 for a resource that is not the caller\'s, or whose id does not match its type', async () => {
    const { sk, stream } = await setup();
    const other = await setup();
    const foreign = await post(sk, { customer: 'c', resource: { type: 'ls', id: other.stream.id } });
    expectError(foreign, 404, 'resource_not_found');
    expect(foreign.body.error.param).toBe('resource.id');
    expect(foreign.body.error.message).toContain(other.stream.id);
    expectError(await post(sk, { customer: 'c', resource: { type: 'ast', id: stream.id } }), 404, 'resource_not_found');
    expectStatus(await server(t, sk).delete(`/v1/streams/live_streams/${stream.id}`), 200);
    expectError(await post(sk, { customer: 'c', resource: { type: 'ls', id: stream.id } }), 404, 'resource_not_found');
    expectError(await post(sk, { customer: 'c', resource: { type: 'ls', id: 'ls_01jdzzzzzzzzzzzzzzzzzzzzzz' } }), 404, 'resource_not_found');
  });

  it('refuses an external_id another entitlement uses', async () => {
    const { sk, resource } = await setup();
    await grant(t, sk, { customer: 'a', resource, external_id: 'x-1' });
    expectError(await post(sk, { customer: 'b', resource, external_id: 'x-1' }), 409, 'external_id_taken');
  });
});

describe('repeat grants (state table)', () => {
  it('any status but revoked: the same source, source_ref, customer and resource answer 200 with the existing entitlement', async () => {
    const { sk, resource } = await setup();
    const body = { customer: 'c', resource, source: 'payment', source_ref: 'p1', metadata: { first: 'yes' } };
    const first = await grant(t, sk, body);
    const again = await grant(t, sk, { ...body, metadata: { second: 'yes' } }, 200);
    expect(again).toEqual(first);
    // A different source_ref, customer or source is another entitlement.
    expect((await grant(t, sk, { ...body, source_ref: 'p2' })).id).not.toBe(first.id);
    expect((await grant(t, sk, { ...body, customer: 'd' })).id).not.toBe(first.id);
    expect((await grant(t, sk, { ...body, source: 'comp' })).id).not.toBe(first.id);
    // Grants without a source_ref repeat too.
    const noRef = await grant(t, sk, { customer: 'e', resource });
    expect((await grant(t, sk, { customer: 'e', resource }, 200)).id).toBe(noRef.id);
    // A suspended one answers as it is.
    expectStatus(await server(t, sk).post(`/v1/access/entitlements/${first.id}/suspend`), 200);
    expect((await grant(t, sk, body, 200)).status).toBe('suspended');
  });

  it('revoked: a repeat grant is 409 entitlement_revoked', async () => {
    const { sk, resource } = await setup();
    const body = { customer: 'c', resource, source: 'payment', source_ref: 'p1' };
    const ent = await grant(t, sk, body);
    expectStatus(await server(t, sk).delete(`/v1/access/entitlements/${ent.id}`), 200);
    const res = await post(sk, body);
    expectError(res, 409, 'entitlement_revoked');
    expect(res.body.error.details.entitlement).toBe(ent.id);
  });

  it('any: a later ends_at extends it with access.entitlement.extended; an earlier or missing one changes nothing', async () => {
    const { created, sk, resource } = await setup();
    const body = { customer: 'c', resource, source: 'subscription', source_ref: 'sub_1', ends_at: '2090-01-01T00:00:00Z' };
    const ent = await grant(t, sk, body);
    const extended = await grant(t, sk, { ...body, ends_at: '2091-01-01T00:00:00Z' }, 200);
    expect(extended).toMatchObject({ id: ent.id, ends_at: '2091-01-01T00:00:00.000Z', status: 'active' });
    expect((await grant(t, sk, { ...body, ends_at: '2089-01-01T00:00:00Z' }, 200)).ends_at).toBe('2091-01-01T00:00:00.000Z');
    expect((await grant(t, sk, { customer: 'c', resource, source: 'subscription', source_ref: 'sub_1' }, 200)).ends_at).toBe(
      '2091-01-01T00:00:00.000Z',
    );
    const events = await eventsOf(t, created.tenant.id, ent.id);
    expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted', 'access.entitlement.extended']);
    expect(events[1]!.data.previous_attributes).toEqual({ ends_at: '2090-01-01T00:00:00.000Z' });
    expect(events[1]!.data.object.ends_at).toBe('2091-01-01T00:00:00.000Z');
  });

  it('an expired entitlement extended into the future is active again', async () => {
    const { created, sk, resource } = await setup();
    const start = now(t);
    const body = { customer: 'c', resource, source: 'subscription', source_ref: 'sub_2', ends_at: new Date(start.getTime() + 3600_000).toISOString() };
    const ent = await grant(t, sk, body);
    setClock(t, new Date(start.getTime() + 2 * 3600_000));
    expect(await expireDueEntitlements(accessDeps(t.ctx))).toBeGreaterThanOrEqual(1);
    const ends = new Date(start.getTime() + 5 * 3600_000).toISOString();
    const renewed = await grant(t, sk, { ...body, ends_at: ends }, 200);
    expect(renewed).toMatchObject({ id: ent.id, status: 'active', ends_at: ends });
    const events = await eventsOf(t, created.tenant.id, ent.id);
    expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted', 'access.entitlement.expired', 'access.entitlement.extended']);
    expect(events[2]!.data.previous_attributes).toEqual({ ends_at: body.ends_at, status: 'expired' });
  });

  it('two identical grants at once make one entitlement', async () => {
    const { created, sk, resource } = await setup();
    const body = { customer: 'racer', resource, source: 'payment', source_ref: 'pay_race' };
    const results = await Promise.all(Array.from({ length: 6 }, () => post(sk, body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const rows = await t.ctx.db.selectFrom('entitlements').select('id').where('tenant_id', '=', created.tenant.id).execute();
    expect(rows).toHaveLength(1);
    expect((await eventsOf(t, created.tenant.id, rows[0]!.id)).map((e) => e.type)).toEqual(['access.entitlement.granted']);
  });
});


/** New grants arriving together are written in one transaction (group commit); each still stands alone. */
describe('grants made at once', () => {
  it('each gets its own answer and its own event naming its request; a taken external_id or a missing resource fails only its grant', async () => {
    const { created, sk, resource } = await setup();
    const other = await setup();
    expectStatus(await post(sk, { customer: 'first', resource, external_id: 'order-1' }), 201);
    const bodies = Array.from({ length: 8 }, (_, i) => ({
      customer: `viewer-${i}`,
      resource: i === 5 ? other.resource : resource,
      ...(i === 3 && { external_id: 'order-1' }),
    }));
    const keys = bodies.map(() => randomUUID());
    const results = await Promise.all(bodies.map((body, i) => post(sk, body, keys[i])));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 409, 201, 404, 201, 201]);
    expectError(results[3]!, 409, 'external_id_taken');
    expectError(results[5]!, 404, 'resource_not_found');
    for (const [i, res] of results.entries()) {
      if (i === 3 || i === 5) continue;
      expect(res.body.data.customer).toBe(`viewer-${i}`);
      const events = await eventsOf(t, created.tenant.id, res.body.data.id);
      expect(events.map((e) => e.type)).toEqual(['access.entitlement.granted']);
      expect(events[0]!.request).toEqual({ id: res.headers['request-id'], idempotency_key: keys[i] });
      expect(events[0]!.data.object).toEqual(res.body.data);
    }
    const rows = await t.ctx.db.selectFrom('entitlements').select('customer').where('tenant_id', '=', created.tenant.id).execute();
    expect(rows.map((r) => r.customer).sort()).toEqual(['first', ...bodies.filter((_, i) => i !== 3 && i !== 5).map((b) => b.customer)].sort());
  });
});
