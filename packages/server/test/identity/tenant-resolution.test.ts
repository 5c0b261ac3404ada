import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectOk, signInByPhone } from './identity-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '1000' });

describe('tenant codes', () => {
  it('come from the name by default, can be chosen and changed, and are unique', async () => {
    const created = expectOk(await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Café Olé Live!' }), 201).data;
    expect(created.tenant.code).toBe('cafe-ole-live');
    const twin = expectOk(await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Cafe Ole Live' }), 201).data;
    expect(twin.tenant.code).toMatch(/^cafe-ole-live-[a-z0-9]{5}$/);
    const chosen = expectOk(await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'X', code: 'acme-live' }), 201).data;
    expect(chosen.tenant.code).toBe('acme-live');
    expectError(await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Y', code: 'acme-live' }), 409, 'tenant_code_taken');
    expectError(await t.http().post('/v1/operator/tenants').set(t.operator).send({ name: 'Y', code: 'Bad Code' }), 422, 'validation_failed');
    const patched = expectOk(await t.http().patch(`/v1/operator/tenants/${chosen.tenant.id}`).set(t.operator).send({ code: 'acme-2' })).data;
    expect(patched.code).toBe('acme-2');
    expectError(await t.http().patch(`/v1/operator/tenants/${twin.tenant.id}`).set(t.operator).send({ code: 'acme-2' }), 409, 'tenant_code_taken');
    expect(expectOk(await t.http().get(`/v1/operator/tenants/${chosen.tenant.id}`).set(t.operator)).data.code).toBe('acme-2');
  });
});

describe('request-to-tenant resolution', () => {
  it('takes the tenant header alone as a code or a ten_ id, in live mode', async () => {
    const tenant = await t.tenant('Header Co');
    // Sign-in in live mode has no SMS provider yet: the header resolved, and the channel is unavailable.
    for (const header of ['X-Tenant-Code', 'Svc-Tenant']) {
      for (const value of [tenant.tenant.code, tenant.tenant.id]) {
        const res = await t.http().post('/auth/v1/otp').set(header, value).send({ phone: '+254700000001' });
        expectError(res, 503, 'channel_unavailable');
      }
    }
    expectError(await t.http().post('/auth/v1/otp').set('X-Tenant-Code', 'no-such-tenant').send({ phone: '+254700000001' }), 404, 'tenant_not_found');
    expectError(await t.http().post('/auth/v1/otp').set('Svc-Tenant', 'ten_01h00000000000000000000000').send({ phone: '+254700000001' }), 404, 'tenant_not_found');
    // A route that needs a credential is not opened by the header alone: it names a tenant but proves nothing.
    expectError(await t.http().get('/v1/customers').set('X-Tenant-Code', tenant.tenant.code), 401, 'api_key_missing');
  });

  it('lets a key decide, and refuses a header that contradicts it with 400', async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    expectOk(await t.http().get('/v1/customers').set(bearer(a.keys.test.secret)).set('X-Tenant-Code', a.tenant.code));
    expectError(await t.http().get('/v1/customers').set(bearer(a.keys.test.secret)).set('X-Tenant-Code', b.tenant.code), 400, 'tenant_mismatch');
    expectError(await t.http().get('/v1/customers').set(bearer(a.keys.test.secret)).set('Svc-Tenant', 'unknown-code'), 400, 'tenant_mismatch');
    const pk = { 'Svc-Publishable-Key': a.keys.test.publishable };
    expectError(await t.http().post('/auth/v1/otp').set(pk).set('Svc-Tenant', b.tenant.id).send({ phone: '+254700000002' }), 400, 'tenant_mismatch');
    // The publishable key comes before the header and gives its own environment (test).
    expectOk(await t.http().post('/auth/v1/otp').set(pk).set('Svc-Tenant', a.tenant.code).send({ phone: '+254700000003' }));
  });

  it('lets an access token decide by its tid, and refuses a differing header with 401', async () => {
    const a = await t.tenant('A');
    const b = await t.tenant('B');
    const s = await signInByPhone(t, a);
    expectOk(await t.http().get('/auth/v1/user').set(bearer(s.access_token)));
    expectOk(await t.http().get('/auth/v1/user').set(bearer(s.access_token)).set('X-Tenant-Code', a.tenant.code));
    const res = await t.http().get('/auth/v1/user').set(bearer(s.access_token)).set('X-Tenant-Code', b.tenant.code);
    const err = expectError(res, 401, 'tenant_mismatch');
    expect(err.type).toBe('authentication_error');
    expectError(await t.http().get('/auth/v1/user').set(bearer(s.access_token)).set('Svc-Tenant', 'nobody'), 401, 'tenant_mismatch');
    // A route that takes only keys refuses a signed-in person.
    expectError(await t.http().get('/v1/messages').set(bearer(s.access_token)), 403, 'insufficient_permissions');
  });
});
