import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { advance, expectError, expectOk, newPhone, signInByPhone, type Tenant } from './identity-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '1000' });
const sk = (tenant: Tenant) => bearer(tenant.keys.test.secret);

/** A staff member with `role`, signed in: answers their access token and member id. */
async function staffMember(tenant: Tenant, role: string) {
  const phone = newPhone();
  const invited = expectOk(await t.http().post('/v1/members').set(sk(tenant)).send({ phone, role }), 201).data;
  expect(invited).toMatchObject({ object: 'member', status: 'invited', role, phone, person: null, organization: null });
  advance(t, 61_000);
  const session = await signInByPhone(t, tenant, phone);
  return { token: session.access_token, id: invited.id as string, userId: session.user.id };
}

describe('tenant staff', () => {
  it('invites by message, becomes active on first sign-in, and lists memberships on the user', async () => {
    const tenant = await t.tenant();
    const owner = await staffMember(tenant, 'owner');
    const messages = expectOk(await t.http().get('/v1/messages').query({ related: owner.id }).set(sk(tenant))).data;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ template: 'member_invitation', channel: 'sms', status: 'captured' });
    const list = expectOk(await t.http().get('/v1/members').set(sk(tenant))).data;
    expect(list[0]).toMatchObject({ id: owner.id, status: 'active', person: owner.userId });
    const me = expectOk(await t.http().get('/auth/v1/user').set(bearer(owner.token))).data;
    expect(me.memberships).toEqual([{ member: owner.id, organization: null, role: 'owner', status: 'active' }]);
    expectError(await t.http().post('/v1/members').set(sk(tenant)).send({ phone: list[0].phone, role: 'viewer' }), 409, 'member_exists');
  });

  it('lets a signed-in owner or admin call member routes with the tenant header, and refuses roles without the permission', async () => {
    const tenant = await t.tenant();
    const owner = await staffMember(tenant, 'owner');
    const viewer = await staffMember(tenant, 'viewer');
    const header = { 'X-Tenant-Code': tenant.tenant.code };
    const added = expectOk(await t.http().post('/v1/members').set(bearer(owner.token)).set(header).send({ email: 'ops@example.test', role: 'support' }), 201).data;
    expect(added.status).toBe('invited');
    expectOk(await t.http().get('/v1/members').set(bearer(viewer.token)).set(header));
    const refused = expectError(await t.http().post('/v1/members').set(bearer(viewer.token)).set(header).send({ email: 'x@example.test', role: 'viewer' }), 403, 'missing_permission');
    expect(refused.type).toBe('permission_error');
    expect(refused.details.required_permission).toBe('members:write');
    // A person who is not a member holds no permission.
    advance(t, 61_000);
    const stranger = await signInByPhone(t, tenant);
    expectError(await t.http().get('/v1/members').set(bearer(stranger.access_token)).set(header), 403, 'missing_permission');
    // Roles are read per request: promoting the viewer takes effect at once.
    expectOk(await t.http().patch(`/v1/members/${viewer.id}`).set(bearer(owner.token)).send({ role: 'admin' }));
    expectOk(await t.http().post('/v1/members').set(bearer(viewer.token)).set(header).send({ email: 'y@example.test', role: 'viewer' }), 201);
    expectOk(await t.http().patch(`/v1/members/${viewer.id}`).set(sk(tenant)).send({ role: 'developer' }));
    expectError(await t.http().delete(`/v1/members/${added.id}`).set(bearer(viewer.token)), 403, 'missing_permission');
  });

  it('keeps the last owner: no demotion, no removal (409), until another owner exists', async () => {
    const tenant = await t.tenant();
    const owner = await staffMember(tenant, 'owner');
    expectError(await t.http().patch(`/v1/members/${owner.id}`).set(bearer(owner.token)).send({ role: 'admin' }), 409, 'last_owner');
    expectError(await t.http().delete(`/v1/members/${owner.id}`).set(sk(tenant)), 409, 'last_owner');
    const second = expectOk(await t.http().post('/v1/members').set(sk(tenant)).send({ email: 'second@example.test', role: 'owner' }), 201).data;
    // Two demotions at once cannot both pass.
    const both = await Promise.all([
      t.http().patch(`/v1/members/${owner.id}`).set(sk(tenant)).send({ role: 'admin' }),
      t.http().patch(`/v1/members/${second.id}`).set(sk(tenant)).send({ role: 'admin' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('accepts a restricted key with platform:* and refuses one without', async () => {
    const tenant = await t.tenant();
    const rk = expectOk(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes: ['platform:*'] }), 201).data.secret;
    expectOk(await t.http().get('/v1/members').set(bearer(rk)));
    const other = expectOk(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes: ['streams:read'] }), 201).data.secret;
    expectError(await t.http().get('/v1/members').set(bearer(other)), 403, 'missing_scope');
  });
});

describe('organizations and their members', () => {
  it('creates with defaults, keeps handles unique per tenant and environment, and validates fields', async () => {
    const tenant = await t.tenant();
    const org = expectOk(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Sauti Sol', handle: 'sauti.sol', kind: 'creator' }), 201).data;
    expect(org).toMatchObject({ object: 'organization', handle: 'sauti.sol', kind: 'creator', timezone: 'Africa/Nairobi', currency: 'KES', livemode: false });
    expect(org.id).toMatch(/^org_/);
    expectError(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Other', handle: 'sauti.sol', kind: 'brand' }), 409, 'handle_taken');
    expectOk(await t.http().post('/v1/organizations').set(bearer(tenant.keys.live.secret)).send({ name: 'Live', handle: 'sauti.sol', kind: 'brand' }), 201);
    for (const bad of [{ handle: 'ab' }, { handle: 'Has-Caps' }, { kind: 'club' }, { timezone: 'Mars/Olympus' }, { currency: 'kes' }]) {
      expectError(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'X', handle: 'valid_one', kind: 'venue', ...bad }), 422, 'validation_failed');
    }
    const patched = expectOk(await t.http().patch(`/v1/organizations/${org.id}`).set(sk(tenant)).send({ timezone: 'Europe/London', currency: 'GBP' })).data;
    expect(patched).toMatchObject({ timezone: 'Europe/London', currency: 'GBP' });
    const other = await t.tenant('Other');
    expectError(await t.http().get(`/v1/organizations/${org.id}`).set(sk(other)), 404, 'resource_not_found');
  });

  it('invites organization members with organization roles and keeps the last owner', async () => {
    const tenant = await t.tenant();
    const org = expectOk(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'KICC', handle: 'kicc', kind: 'venue' }), 201).data;
    const owner = expectOk(await t.http().post(`/v1/organizations/${org.id}/members`).set(sk(tenant)).send({ email: 'boss@kicc.test', role: 'owner' }), 201).data;
    expect(owner).toMatchObject({ organization: org.id, status: 'invited', role: 'owner' });
    const gate = expectOk(await t.http().post(`/v1/organizations/${org.id}/members`).set(sk(tenant)).send({ phone: newPhone(), role: 'checkin' }), 201).data;
    expectError(await t.http().post(`/v1/organizations/${org.id}/members`).set(sk(tenant)).send({ email: 'x@kicc.test', role: 'developer' }), 422, 'validation_failed');
    expectError(await t.http().patch(`/v1/organizations/${org.id}/members/${owner.id}`).set(sk(tenant)).send({ role: 'manager' }), 409, 'last_owner');
    expectOk(await t.http().patch(`/v1/organizations/${org.id}/members/${gate.id}`).set(sk(tenant)).send({ role: 'owner' }));
    expectOk(await t.http().delete(`/v1/organizations/${org.id}/members/${owner.id}`).set(sk(tenant)));
    const list = expectOk(await t.http().get(`/v1/organizations/${org.id}/members`).set(sk(tenant))).data;
    expect(list.map((m: { id: string }) => m.id)).toEqual([gate.id]);
    // Tenant staff and organization members are separate lists.
    expect(expectOk(await t.http().get('/v1/members').set(sk(tenant))).data).toEqual([]);
  });

  it('lets an organization owner manage its own members, and nothing else', async () => {
    const tenant = await t.tenant();
    const header = { 'X-Tenant-Code': tenant.tenant.code };
    const mine = expectOk(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Mine', handle: 'mine', kind: 'creator' }), 201).data;
    const theirs = expectOk(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Theirs', handle: 'theirs', kind: 'brand' }), 201).data;
    const phone = newPhone();
    expectOk(await t.http().post(`/v1/organizations/${mine.id}/members`).set(sk(tenant)).send({ phone, role: 'owner' }), 201);
    const gatePhone = newPhone();
    expectOk(await t.http().post(`/v1/organizations/${mine.id}/members`).set(sk(tenant)).send({ phone: gatePhone, role: 'checkin' }), 201);
    advance(t, 61_000);
    const owner = await signInByPhone(t, tenant, phone);
    const added = await t.http().post(`/v1/organizations/${mine.id}/members`).set(bearer(owner.access_token)).set(header).send({ email: 'crew@example.test', role: 'manager' });
    expectOk(added, 201);
    expectOk(await t.http().get(`/v1/organizations/${mine.id}/members`).set(bearer(owner.access_token)).set(header));
    expectError(await t.http().get(`/v1/organizations/${theirs.id}/members`).set(bearer(owner.access_token)).set(header), 403, 'missing_permission');
    expectError(await t.http().get('/v1/members').set(bearer(owner.access_token)).set(header), 403, 'missing_permission');
    advance(t, 61_000);
    const gate = await signInByPhone(t, tenant, gatePhone);
    expectError(await t.http().get(`/v1/organizations/${mine.id}/members`).set(bearer(gate.access_token)).set(header), 403, 'missing_permission');
  });
});
