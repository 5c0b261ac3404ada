import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { advance, newPhone, signInByPhone } from '../identity/identity-fixtures';
import { makeOrganization, makePublishedEvent, sk, signedInMember } from './catalogue-fixtures';
import { analyticsKit } from './analytics-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const { roomyTenant, at, setClock, buy, seed, get } = analyticsKit(t);

describe('organizer analytics: the cache and who sees what', () => {
  it('keeps an answer for five minutes per organization, period and compare', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, {}, { price: 1000 });
    await buy(tenant, event.slug, ticketType.id, at(0, 9), ['k@example.test']);
    setClock(at(0, 12));
    const read = async (query: Record<string, string>) =>
      expectStatus(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, ...query }), 200).data.stats.tickets_sold.value;
    expect(await read({ period: '7d' })).toBe(1);
    await buy(tenant, event.slug, ticketType.id, at(0, 10), ['l@example.test']);
    setClock(at(0, 12));
    expect(await read({ period: '7d' })).toBe(1);
    expect(await read({ period: '7d', compare: 'true' })).toBe(2);
    expect(await read({ period: '8d' })).toBe(2);
    // A kept answer is sent as the very bytes and headers of the first, for a key and for a member.
    const owner = await signedInMember(t, tenant, org.id, 'owner');
    for (const [who, query] of [[sk(tenant), { organization: org.id, period: '9d' }], [owner, { period: '9d' }]] as const) {
      const first = await get('/v1/organizer/analytics/events', who, query);
      const kept = await get('/v1/organizer/analytics/events', who, query);
      expect([first.status, kept.status]).toEqual([200, 200]);
      expect(kept.text).toBe(first.text);
      expect([kept.headers['content-type'], kept.headers['content-length']]).toEqual(['application/json; charset=utf-8', String(Buffer.byteLength(first.text))]);
    }
    // A kept answer is the tenant's and environment's: another tenant's key naming the organization still gets 422.
    const other = await roomyTenant();
    expectError(await get('/v1/organizer/analytics', sk(other), { organization: org.id, period: '7d' }), 422, 'validation_failed');
  });

  it('shows revenue only to owners, admins, tenant owners and secret keys', async () => {
    const { tenant, org } = await seed();
    const restricted = bearer(expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes: ['events:read'] }), 201).data.secret);
    const owner = await signedInMember(t, tenant, org.id, 'owner');
    const admin = await signedInMember(t, tenant, org.id, 'admin');
    const manager = await signedInMember(t, tenant, org.id, 'manager');
    const viewer = await signedInMember(t, tenant, org.id, 'viewer');
    const finance = await signedInMember(t, tenant, org.id, 'finance');
    for (const [who, sees] of [[owner, true], [admin, true], [manager, false], [viewer, false], [finance, false], [restricted, false]] as const) {
      const query: Record<string, string> = who === restricted ? { organization: org.id } : {};
      const overview = expectStatus(await get('/v1/organizer/analytics', who, query), 200).data;
      expect('total_revenue' in overview.stats).toBe(sees);
      expect('sales_trend' in overview).toBe(sees);
      expect(overview.top_events.every((e: object) => 'revenue' in e)).toBe(sees);
      expect(overview.stats.tickets_sold.value).toBe(6);
      const events = expectStatus(await get('/v1/organizer/analytics/events', who, query), 200).data;
      expect(events.every((e: object) => 'revenue' in e)).toBe(sees);
      const revenue = await get('/v1/organizer/analytics/revenue', who, query);
      if (sees) expectStatus(revenue, 200);
      else expectError(revenue, 403, 'missing_permission');
    }
    // Tenant staff: owners see revenue, viewers do not; both name the organization.
    for (const [role, sees] of [['owner', true], ['viewer', false]] as const) {
      const phone = newPhone();
      expectStatus(await t.http().post('/v1/members').set(sk(tenant)).send({ phone, role }), 201);
      advance(t, 61_000);
      const staff = { ...bearer((await signInByPhone(t, tenant, phone)).access_token), 'X-Tenant-Code': tenant.tenant.code };
      const overview = expectStatus(await get('/v1/organizer/analytics', staff, { organization: org.id }), 200).data;
      expect('total_revenue' in overview.stats).toBe(sees);
    }
  });

  it('refuses bad periods (422), a missing organization (422), strangers (403) and anonymous callers (401)', async () => {
    const tenant = await roomyTenant();
    const org = await makeOrganization(t, tenant);
    const other = await makeOrganization(t, tenant);
    for (const period of ['0d', '366d', '30', '30x', 'd', '1000d', '-1d', '7w']) {
      expectError(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, period }), 422, 'validation_failed');
    }
    expectError(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, compare: 'maybe' }), 422, 'validation_failed');
    expectStatus(await get('/v1/organizer/analytics', sk(tenant), { organization: org.id, period: '365d' }), 200);
    expectError(await get('/v1/organizer/analytics/audience', sk(tenant)), 422, 'validation_failed', { param: 'organization' });
    expectError(await get('/v1/organizer/analytics/tickets', sk(tenant), { organization: org.id, event_id: '00000000-0000-4000-8000-000000000000' }), 404, 'resource_not_found');
    const viewer = await signedInMember(t, tenant, org.id, 'viewer');
    expectStatus(await get('/v1/organizer/analytics', viewer), 200);
    expectError(await get('/v1/organizer/analytics', viewer, { organization: other.id }), 403, 'missing_permission');
    for (const path of ['', '/revenue', '/tickets', '/events', '/audience', '/conversions']) {
      expectError(await t.http().get(`/v1/organizer/analytics${path}`).set('X-Tenant-Code', tenant.tenant.code), 401, 'api_key_missing');
      expectError(await t.http().get(`/v1/organizer/analytics${path}`), 401, 'api_key_missing');
    }
  });
});
