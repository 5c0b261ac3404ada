import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { call, tenantRoutes, type TenantRoute } from '../kit/route-matrix';
import { configBody, FakeVideoAccount, useFakeAccountApi } from '../streams/account-fixtures';

/**
 * Every read of one object, generated from the contract: an object of one tenant's test environment is found
 * with its key, and is `404` to another tenant's key and to the same tenant's live key.
 */
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

type Tenant = Awaited<ReturnType<typeof t.tenant>>;
let owner: Tenant;
let stranger: Tenant;
const post = async (path: string, body: object, headers: Record<string, string> = {}) =>
  expectStatus(await t.http().post(path).set(bearer(owner.keys.test.secret)).set(headers).send(body), 201).data as { id: string };

/** The object each read path prefix reads, made by the owner; `external_id` is `ext-1` where the object has one. */
const made: Record<string, { id: string; external_id?: string }> = {};
// Provider configurations are checked on the account when made: a local fake of it.
const account = new FakeVideoAccount();
afterAll(() => account.stop());
beforeAll(async () => {
  await account.start();
  useFakeAccountApi(t, account);
  owner = await t.tenant('Owner');
  stranger = await t.tenant('Stranger');
  const stream = await post('/v1/streams/live_streams', { external_id: 'ext-1' });
  made['/v1/streams/live_streams'] = { id: stream.id, external_id: 'ext-1' };
  made['/v1/keys'] = { id: (await post('/v1/keys', { type: 'publishable', external_id: 'ext-1' })).id, external_id: 'ext-1' };
  made['/v1/webhook_endpoints'] = {
    id: (await post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:4999/hooks', enabled_events: ['*'], external_id: 'ext-1' })).id,
    external_id: 'ext-1',
  };
  made['/v1/streams/assets'] = { id: (await post('/v1/streams/assets', { url: 'https://93.184.216.34/a.mp4', external_id: 'ext-1' })).id, external_id: 'ext-1' };
  made['/v1/streams/uploads'] = { id: (await post('/v1/streams/uploads', { cors_origin: '*' })).id };
  made['/v1/streams/provider_configs'] = { id: (await post('/v1/streams/provider_configs', configBody(account))).id };
  const entitlement = await post('/v1/access/entitlements', { customer: 'c-1', resource: { type: 'ls', id: stream.id }, external_id: 'ext-1' }, { 'Idempotency-Key': randomUUID() });
  made['/v1/access/entitlements'] = { id: entitlement.id, external_id: 'ext-1' };
  made['/v1/customers'] = { id: (await post('/v1/customers', { external_id: 'ext-1' })).id, external_id: 'ext-1' };
  made['/v1/organizations'] = { id: (await post('/v1/organizations', { name: 'Org', handle: 'org_1', kind: 'brand', external_id: 'ext-1' })).id };
  made['/v1/domains'] = { id: (await post('/v1/domains', { hostname: 'isolation.example' })).id };
  const organizer = await post('/v1/organizations', { name: 'Organizer', handle: 'organizer_1', kind: 'brand' });
  const ticketed = await post('/v1/organizer/events', { organization: organizer.id, name: 'Show', starts_at: '2030-01-01T18:00:00Z', ends_at: '2030-01-01T20:00:00Z' });
  made['/v1/organizer/events'] = { id: ticketed.id };
  const promoter = await post('/v1/promoters', { organization: organizer.id, name: 'Amina', email: 'amina@example.test', external_id: 'ext-1' });
  made['/v1/promoters'] = { id: promoter.id, external_id: 'ext-1' };
  const member = await post('/v1/members', { email: 'staff@example.test', role: 'viewer' });
  const messages = expectStatus(await t.http().get('/v1/messages').query({ related: member.id }).set(bearer(owner.keys.test.secret)), 200).data as Array<{ id: string }>;
  made['/v1/messages'] = { id: messages[0]!.id };
  const creator = await post('/v1/organizations', { name: 'Creator', handle: 'creator_1', kind: 'creator' });
  const fanbase = await post('/v1/fanbases', { organization: creator.id, name: 'Fans', external_id: 'ext-1' });
  made['/v1/fanbases'] = { id: fanbase.id, external_id: 'ext-1' };
  made['/v1/public/fanbases'] = { id: fanbase.id };
  const events = expectStatus(await t.http().get('/v1/events').set(bearer(owner.keys.test.secret)), 200).data as Array<{ id: string }>;
  made['/v1/events'] = { id: events[0]!.id };
  const shop = await post('/v1/organizations', { name: 'Shop', handle: 'shop_1', kind: 'brand' });
  const product = await post('/v1/commerce/products', {
    organization: shop.id,
    kind: 'physical',
    name: 'Tee',
    status: 'published',
    external_id: 'ext-1',
    variants: [{ name: 'M', sku: 'ISO-TEE-M', price: 100 }],
  });
  made['/v1/commerce/products'] = { id: product.id, external_id: 'ext-1' };
  made['/v1/public/products'] = { id: product.id };
});

/** Reads of one object whose object these tests make; the others are covered beside their resources. */
const COVERED_ELSEWHERE = [
  '/v1/streams/clips/:id',
  '/v1/streams/moments/:id',
  '/v1/streams/assets/:id/moments',
  '/v1/webhook_endpoints/:id/attempts',
  // Creators: by handle and slug (test/creators/creators-isolation.test.ts).
  '/v1/creator/orgs/:org/capsule-profile',
  '/v1/creator/orgs/:org/readiness',
  '/v1/creator/orgs/:org/contents',
  '/v1/tenant/admin/plus/approvals/:content',
  '/v1/plus/contents/:content',
  '/v1/public/capsules/:slug',
  // Orders need a catalogue event: test/ticketing/tickets.test.ts ("keeps orders to their tenant and environment").
  '/v1/events/:event/book/payload',
  '/v1/orders/:id',
  '/v1/orders/external/:external_id',
  '/v1/creator/bookings/:code',
  // A paid order's refunds: test/ticketing/refunds.test.ts ("refuses more than is left to refund").
  '/v1/orders/:id/refunds',
  // A request's log row: test/platform/request-logs.test.ts ("answers 404 for … another tenant's, or the other environment's").
  '/v1/request_logs/:id',
  // Payments and refunds need a paid order: test/payments/payments-read.test.ts; configurations are verified at a
  // provider's fake: test/payments/provider-configs.test.ts.
  '/v1/payments/:id',
  '/v1/refunds/:id',
  '/v1/payments/provider_configs/:id',
  // A subscription needs a paid tier and a customer: test/fanbases/subscriptions.test.ts ("act only on the caller's own").
  '/v1/subscriptions/:id',
  // A payout needs an approved commission: test/promoters/promoters.test.ts ("keeps promoters … to their tenant").
  '/v1/payouts/:id',
];
const reads = tenantRoutes.filter((r) => r.method === 'get' && r.params.length === 1 && !COVERED_ELSEWHERE.includes(r.path));

const objectOf = (route: TenantRoute) => {
  const prefix = Object.keys(made).find((p) => route.path.startsWith(`${p}/`));
  if (!prefix) throw new Error(`no object is made for ${route.name}: add it to the isolation matrix`);
  const object = made[prefix]!;
  return route.params[0] === 'external_id' ? { external_id: object.external_id! } : { [route.params[0]!]: object.id };
};

describe.each(reads.map((r) => [r.name, r] as const))('%s', (_name, route) => {
  it('finds the object with its own key, and answers 404 to another tenant and to the other environment', async () => {
    const values = objectOf(route);
    expectStatus(await call(t, route, bearer(owner.keys.test.secret), values), 200);
    expectError(await call(t, route, bearer(stranger.keys.test.secret), values), 404, 'resource_not_found');
    expectError(await call(t, route, bearer(owner.keys.live.secret), values), 404, 'resource_not_found');
  });
});

it('tries every read of one object', () => {
  expect(reads.length).toBeGreaterThanOrEqual(10);
});
