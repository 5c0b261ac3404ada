import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError } from '../kit/expect';
import { ACCESS_TOKEN_SHAPED, call, restrictedKey, tenantRoutes, type TenantRoute } from '../kit/route-matrix';

/**
 * Every tenant route of the contract, generated from its metadata, tried with every credential kind it must
 * refuse. Authentication runs before validation and the handler, so unknown ids and empty bodies suffice.
 */
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

let tenant: Awaited<ReturnType<typeof t.tenant>>;
let other: Awaited<ReturnType<typeof t.tenant>>;
let noProducts: Awaited<ReturnType<typeof t.tenant>>;
let restricted: string;
let restrictedElsewhere: string;
beforeAll(async () => {
  tenant = await t.tenant('Matrix');
  other = await t.tenant('Other');
  noProducts = await t.tenant('Nothing on', []);
  restricted = await restrictedKey(t, tenant.keys.test.secret);
  restrictedElsewhere = await restrictedKey(t, tenant.keys.test.secret, ['insights:read']);
});

const takes = (route: TenantRoute, kind: string) => (route.access.credentials as readonly string[]).includes(kind);

describe.each(tenantRoutes.map((r) => [r.name, r] as const))('%s', (_name, route) => {
  it('refuses a request without credentials, with only a tenant header, and with an access token', async () => {
    expectError(await call(t, route, {}), 401, 'api_key_missing');
    // Sign-in routes take the tenant header alone; elsewhere it names a tenant but proves nothing.
    if (!takes(route, 'tenant-header')) expectError(await call(t, route, { 'X-Tenant-Code': tenant.tenant.id }), 401, 'api_key_missing');
    expectError(await call(t, route, bearer(ACCESS_TOKEN_SHAPED)), 401, takes(route, 'user') ? 'invalid_access_token' : 'api_key_invalid');
  });

  it('refuses the key kinds it does not list', async () => {
    if (!takes(route, 'publishable')) {
      expectError(await call(t, route, { 'Svc-Publishable-Key': tenant.keys.test.publishable }), 403, 'insufficient_permissions');
      expectError(await call(t, route, bearer(tenant.keys.test.publishable)), 403, 'insufficient_permissions');
    }
    if (!takes(route, 'restricted')) expectError(await call(t, route, bearer(restricted)), 403, 'insufficient_permissions');
    if (!takes(route, 'secret')) expectError(await call(t, route, bearer(tenant.keys.test.secret)), 403, 'insufficient_permissions');
  });

  it('refuses a restricted key without its scope', async () => {
    if (!takes(route, 'restricted')) return;
    const error = expectError(await call(t, route, bearer(restrictedElsewhere)), 403, 'missing_scope');
    expect(error.details).toMatchObject({ required_scope: route.access.scope });
  });

  it('refuses a tenant header that names another tenant than the key', async () => {
    const key = takes(route, 'secret') ? tenant.keys.test.secret : restricted;
    expectError(await call(t, route, { ...bearer(key), 'Svc-Tenant': other.tenant.id }), 400, 'tenant_mismatch');
  });

  it('refuses the environment and the tenant products it does not serve', async () => {
    // Routes that take only a signed-in person are covered beside their product (test/identity).
    if (!takes(route, 'secret') && !takes(route, 'publishable')) return;
    const key = takes(route, 'secret') ? 'secret' : 'publishable';
    if (route.access.liveMode === false) expectError(await call(t, route, bearer(tenant.keys.live[key])), 403, 'live_mode_unavailable');
    if (route.access.testMode === false) expectError(await call(t, route, bearer(tenant.keys.test[key])), 403, 'test_mode_unavailable');
    if (route.access.product) expectError(await call(t, route, bearer(noProducts.keys.test[key])), 403, 'product_not_enabled');
  });
});

it('covers every tenant route of the contract', () => {
  expect(tenantRoutes.length).toBeGreaterThan(60);
});
