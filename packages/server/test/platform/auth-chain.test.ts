import { describe, expect, it } from 'vitest';
import type { TenantCredential } from '@svc/contract';
import { resolveTenantCaller } from '../../src/core/auth/authenticate';
import type { RequestCredentials, TenantRouteAccess } from '../../src/core/auth/credential-resolver';
import type { ApiError } from '../../src/core/errors';
import type { UserPrincipal } from '../../src/core/principal';
import { bearer, useTestServer } from '../harness';

const t = useTestServer();

const access = (credentials: TenantCredential[], extra: Partial<TenantRouteAccess> = {}): TenantRouteAccess => ({
  auth: 'tenant',
  credentials,
  scope: 'events:read',
  ...extra,
});
const sent = (c: Partial<RequestCredentials>): RequestCredentials => ({
  bearer: undefined,
  publishable: undefined,
  tenantHeader: undefined,
  environment: undefined,
  ip: '127.0.0.1',
  ...c,
});
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2ln';

async function refusal(p: Promise<unknown>): Promise<{ code: string; status: number }> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as ApiError | undefined;
  expect(err, 'the chain should have refused').toBeDefined();
  return { code: err!.code, status: err!.status };
}

describe('The credential resolver chain', () => {
  it('refuses an access token with invalid_access_token on a route that takes people, until identity verifies them', async () => {
    expect(await refusal(resolveTenantCaller(t.ctx, sent({ bearer: JWT }), access(['secret', 'user'])))).toEqual({
      code: 'invalid_access_token',
      status: 401,
    });
    // Routes of keys only answer a JWT as they always did.
    expect((await refusal(resolveTenantCaller(t.ctx, sent({ bearer: JWT }), access(['secret'])))).code).toBe('api_key_invalid');
  });

  it('asks the installed access-token resolver, then checks the route and its permission', async () => {
    const { tenant } = await t.tenant();
    const person = (permissions: string[]): UserPrincipal => ({
      kind: 'user',
      tenant: { id: tenant.id, products: ['events', 'streams'], rateLimits: { secret: 100, publishable: 100 } },
      scope: { tenantId: tenant.id, livemode: true, permissions },
      userId: 'usr_1',
      customerId: null,
      sessionId: 'ses_1',
    });
    let permissions = ['events:write'];
    const installed = t.ctx.auth.userTokens;
    t.ctx.auth.userTokens = { verify: async () => person(permissions) };
    try {
      const user = await resolveTenantCaller(t.ctx, sent({ bearer: JWT }), access(['user'], { permission: 'events:write' }));
      expect(user).toMatchObject({ kind: 'user', userId: 'usr_1' });
      permissions = [];
      expect(await refusal(resolveTenantCaller(t.ctx, sent({ bearer: JWT }), access(['user'], { permission: 'events:write' })))).toEqual({
        code: 'missing_permission',
        status: 403,
      });
      expect((await refusal(resolveTenantCaller(t.ctx, sent({ bearer: JWT }), access(['secret'])))).code).toBe('insufficient_permissions');
      expect(
        (await refusal(resolveTenantCaller(t.ctx, sent({ bearer: JWT, tenantHeader: 'ten_01jz0000000000000000000000' }), access(['user'])))).code,
      ).toBe('tenant_mismatch');
    } finally {
      t.ctx.auth.userTokens = installed;
    }
  });

  it('takes a tenant header alone in live mode on routes that take it, and only there', async () => {
    const { tenant } = await t.tenant();
    const caller = await resolveTenantCaller(t.ctx, sent({ tenantHeader: tenant.id }), access(['publishable', 'tenant-header']));
    expect(caller).toMatchObject({ kind: 'tenant-header', scope: { tenantId: tenant.id, livemode: true } });
    expect(await refusal(resolveTenantCaller(t.ctx, sent({ tenantHeader: tenant.id }), access(['secret'])))).toEqual({
      code: 'api_key_missing',
      status: 401,
    });
    const unknown = await refusal(resolveTenantCaller(t.ctx, sent({ tenantHeader: 'ten_01jz0000000000000000000000' }), access(['tenant-header'])));
    expect(unknown).toEqual({ code: 'tenant_not_found', status: 404 });
    // A code is unknown until the identity module installs the lookup.
    const installed = t.ctx.auth.tenantCodes;
    t.ctx.auth.tenantCodes = undefined;
    expect((await refusal(resolveTenantCaller(t.ctx, sent({ tenantHeader: 'acme' }), access(['tenant-header'])))).code).toBe('tenant_not_found');
    t.ctx.auth.tenantCodes = { tenantIdForCode: async (code) => (code === 'acme' ? tenant.id : undefined) };
    try {
      expect(await resolveTenantCaller(t.ctx, sent({ tenantHeader: 'acme' }), access(['tenant-header']))).toMatchObject({ tenant: { id: tenant.id } });
    } finally {
      t.ctx.auth.tenantCodes = installed;
    }
  });

  it('answers 400 tenant_mismatch over HTTP when a tenant header contradicts the key', async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const res = await t.http().get('/v1/keys').set(bearer(a.keys.test.secret)).set('X-Tenant-Code', b.tenant.id);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('tenant_mismatch');
    const same = await t.http().get('/v1/keys').set(bearer(a.keys.test.secret)).set('Svc-Tenant', a.tenant.id);
    expect(same.status).toBe(200);
  });
});
