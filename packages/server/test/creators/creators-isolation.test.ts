import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { call, tenantRoutes } from '../kit/route-matrix';
import { admin, content, creatorOrg, makePublic, readyAsset, submit, type Tenant } from './creators-fixtures';

/**
 * The creators' reads of one object (the isolation matrix leaves them here: they are named by handle and slug):
 * found with the owner's test key, `404` to another tenant's key and to the owner's live key.
 */
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

let owner: Tenant;
let stranger: Tenant;
const values = { org: 'isolated', content: 'isolated-drop', slug: 'isolated' };
beforeAll(async () => {
  owner = await t.tenant('Owner');
  stranger = await t.tenant('Stranger');
  await creatorOrg(t, owner, 'isolated');
  await makePublic(t, owner, 'isolated');
  const made = await content(t, owner, 'isolated', { title: 'Isolated drop', items: [await readyAsset(t, owner)] });
  await submit(t, owner, 'isolated', made.slug);
  expectStatus(await admin(t, owner, made.slug, 'approve'), 200);
  // The stranger has a capsule with the same handle: handles and slugs are per tenant and environment.
  await creatorOrg(t, stranger, 'other.handle');
});

const reads = tenantRoutes.filter((r) => r.method === 'get' && /^\/v1\/(creator\/orgs|tenant\/admin\/plus|plus|public\/capsules)\//.test(r.path) && r.params.length > 0);

describe.each(reads.map((r) => [r.name, r] as const))('%s', (_name, route) => {
  it('finds the object with its own key, and answers 404 to another tenant and to the other environment', async () => {
    expectStatus(await call(t, route, bearer(owner.keys.test.secret), values), 200);
    expectError(await call(t, route, bearer(stranger.keys.test.secret), values), 404, 'resource_not_found');
    expectError(await call(t, route, bearer(owner.keys.live.secret), values), 404, 'resource_not_found');
  });
});

it('tries every creators read of one object', () => {
  expect(reads.map((r) => r.path).sort()).toEqual([
    '/v1/creator/orgs/:org/capsule-profile',
    '/v1/creator/orgs/:org/contents',
    '/v1/creator/orgs/:org/contents/:content',
    '/v1/creator/orgs/:org/readiness',
    '/v1/plus/contents/:content',
    '/v1/public/capsules/:slug',
    '/v1/tenant/admin/plus/approvals/:content',
  ]);
});
