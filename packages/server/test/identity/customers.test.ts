import { describe, expect, it } from 'vitest';
import { createStream, grant, tenant as fastTenant } from '../access/access-fixtures';
import { bearer, useTestServer } from '../harness';
import { expectError, expectOk, signInByPhone } from './identity-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('customers', () => {
  it('creates, reads, filters, updates and finds by external id', async () => {
    const tenant = await t.tenant();
    const sk = bearer(tenant.keys.test.secret);
    const onlyExternal = expectOk(await t.http().post('/v1/customers').set(sk).send({ external_id: 'crm-1' }), 201).data;
    expect(onlyExternal).toMatchObject({ object: 'customer', external_id: 'crm-1', email: null, phone: null, name: null, person: null, livemode: false, metadata: {} });
    expect(onlyExternal.id).toMatch(/^cus_/);
    expectError(await t.http().post('/v1/customers').set(sk).send({ external_id: 'crm-1' }), 409, 'external_id_taken');
    const ann = expectOk(await t.http().post('/v1/customers').set(sk).send({ email: 'Ann@Example.test', phone: '+254711000111', name: 'Ann', metadata: { tier: 'gold' } }), 201).data;
    expect(ann.email).toBe('ann@example.test');
    expect(expectOk(await t.http().get('/v1/customers').query({ email: 'ann@example.test' }).set(sk)).data.map((c: { id: string }) => c.id)).toEqual([ann.id]);
    expect(expectOk(await t.http().get('/v1/customers').query({ phone: '+254711000111' }).set(sk)).data).toHaveLength(1);
    const page = expectOk(await t.http().get('/v1/customers').query({ limit: 1 }).set(sk));
    expect(page.data[0].id).toBe(ann.id);
    expect(page.meta.pagination.has_more).toBe(true);
    expect(expectOk(await t.http().get('/v1/customers/external/crm-1').set(sk)).data.id).toBe(onlyExternal.id);
    const patched = expectOk(await t.http().patch(`/v1/customers/${ann.id}`).set(sk).send({ name: null, external_id: 'crm-2' })).data;
    expect(patched).toMatchObject({ name: null, external_id: 'crm-2' });
    expectError(await t.http().patch(`/v1/customers/${ann.id}`).set(sk).send({ phone: '0711' }), 422, 'validation_failed');
    expectError(await t.http().get('/v1/customers/cus_nope').set(sk), 404, 'resource_not_found');
    // Another tenant and the other environment see none of it.
    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/customers/${ann.id}`).set(bearer(other.keys.test.secret)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/customers/${ann.id}`).set(bearer(tenant.keys.live.secret)), 404, 'resource_not_found');
  });

  it('takes customers:read and customers:write on restricted keys', async () => {
    const tenant = await t.tenant();
    const sk = bearer(tenant.keys.test.secret);
    const read = expectOk(await t.http().post('/v1/keys').set(sk).send({ type: 'restricted', scopes: ['customers:read'] }), 201).data.secret;
    expectOk(await t.http().get('/v1/customers').set(bearer(read)));
    const refused = expectError(await t.http().post('/v1/customers').set(bearer(read)).send({ name: 'x' }), 403, 'missing_scope');
    expect(refused.details.required_scope).toBe('customers:write');
    expectError(await t.http().get('/v1/customers').set('Svc-Publishable-Key', tenant.keys.test.publishable), 403, 'insufficient_permissions');
  });

  it('revokes the customer\'s entitlements when the customer is deleted', async () => {
    const tenant = await fastTenant(t);
    const sk = tenant.keys.test.secret;
    const customer = expectOk(await t.http().post('/v1/customers').set(bearer(sk)).send({ name: 'Viewer' }), 201).data;
    const stream = await createStream(t, sk);
    const entitlement = await grant(t, sk, { customer: customer.id, resource: { type: 'ls', id: stream.id } });
    const deleted = expectOk(await t.http().delete(`/v1/customers/${customer.id}`).set(bearer(sk))).data;
    expect(deleted).toEqual({ id: customer.id, object: 'customer', deleted: true });
    const after = expectOk(await t.http().get(`/v1/access/entitlements/${entitlement.id}`).set(bearer(sk))).data;
    expect(after.status).toBe('revoked');
    expectError(await t.http().get(`/v1/customers/${customer.id}`).set(bearer(sk)), 404, 'resource_not_found');
  });
});

describe('customer tokens for signed-in people', () => {
  it('opens a playback session through Access with the publishable key; the access token alone does not', async () => {
    const tenant = await fastTenant(t);
    const sk = tenant.keys.test.secret;
    const pk = tenant.keys.test.publishable;
    const session = await signInByPhone(t, tenant);
    const stream = await createStream(t, sk);
    await grant(t, sk, { customer: session.user.customer, resource: { type: 'ls', id: stream.id } });

    const issued = expectOk(await t.http().post('/auth/v1/customer_token').set('Svc-Publishable-Key', pk).set(bearer(session.access_token))).data;
    expect(new Date(issued.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const [, payload] = issued.token.split('.');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({ sub: session.user.customer, aud: 'svc' });

    const opened = await t.http().post('/v1/access/sessions').set('Svc-Publishable-Key', pk).set(bearer(issued.token)).send({ resource: stream.id, device_id: 'phone' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    // A user token alone never opens a session.
    const alone = await t.http().post('/v1/access/sessions').set('Svc-Publishable-Key', pk).set(bearer(session.access_token)).send({ resource: stream.id, device_id: 'tv' });
    expect(alone.status).toBe(401);
    expect((await t.http().post('/v1/access/sessions').set(bearer(session.access_token)).send({ resource: stream.id, device_id: 'tv' })).body.error.code).toBe('insufficient_permissions');

    // The managed key is one per tenant and environment; another tenant's publishable key is refused.
    expectOk(await t.http().post('/auth/v1/customer_token').set('Svc-Publishable-Key', pk).set(bearer(session.access_token)));
    const managed = await t.ctx.db.selectFrom('customer_token_keys').select('id').where('tenant_id', '=', tenant.tenant.id).where('managed', '=', true).execute();
    expect(managed).toHaveLength(1);
    const other = await t.tenant('Other');
    expectError(await t.http().post('/auth/v1/customer_token').set('Svc-Publishable-Key', other.keys.test.publishable).set(bearer(session.access_token)), 401, 'tenant_mismatch');
    expectError(await t.http().post('/auth/v1/customer_token').set('Svc-Publishable-Key', pk), 401, 'invalid_access_token');
  });
});
