import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { advance, newPhone, signInByPhone } from '../identity/identity-fixtures';
import { eventBody, makeEvent, makeOrganization, sk, type Tenant } from './catalogue-fixtures';

const t = useTestServer();

/** A person signed in as a member of the organizations given, with those roles. */
async function member(tenant: Tenant, roles: Array<[string, string]>) {
  const phone = newPhone();
  for (const [org, role] of roles) expectStatus(await t.http().post(`/v1/organizations/${org}/members`).set(sk(tenant)).send({ phone, role }), 201);
  advance(t, 61_000);
  const session = await signInByPhone(t, tenant, phone);
  return { ...bearer(session.access_token), 'X-Tenant-Code': tenant.tenant.code };
}

describe('organization members', () => {
  it('write events of their organization as owner, admin or manager, and read them as finance, checkin or viewer', async () => {
    const tenant = await t.tenant();
    const mine = await makeOrganization(t, tenant);
    const theirs = await makeOrganization(t, tenant);
    const theirEvent = await makeEvent(t, tenant, theirs.id);
    const manager = await member(tenant, [[mine.id, 'manager']]);
    // One organization: it may be left out.
    const created = expectStatus(await t.http().post('/v1/organizer/events').set(manager).send(eventBody(mine.id, { organization: undefined })), 201).data;
    expect(created.organization).toBe(mine.id);
    expectStatus(await t.http().post(`/v1/organizer/events/${created.id}/ticket_types`).set(manager).send({ name: 'GA', pricing_mode: 'fixed', price: 0 }), 201);
    expectStatus(await t.http().post(`/v1/organizer/events/${created.slug}/publish`).set(manager), 200);
    expectError(await t.http().get(`/v1/organizer/events/${theirEvent.id}`).set(manager), 403, 'missing_permission');
    expectError(await t.http().post('/v1/organizer/events').set(manager).send(eventBody(theirs.id)), 403, 'missing_permission');
    const listed = expectStatus(await t.http().get('/v1/organizer/events').set(manager), 200).data;
    expect(listed.map((e: { id: string }) => e.id)).toEqual([created.id]);

    const viewer = await member(tenant, [[mine.id, 'checkin']]);
    expectStatus(await t.http().get(`/v1/organizer/events/${created.id}`).set(viewer), 200);
    expectStatus(await t.http().get(`/v1/organizer/events/${created.id}/ticket_types`).set(viewer), 200);
    const refused = expectError(await t.http().patch(`/v1/organizer/events/${created.id}`).set(viewer).send({ name: 'x' }), 403, 'missing_permission');
    expect(refused.details).toMatchObject({ required_permission: 'events:write' });
  });

  it('lose an organization\'s events at once when removed from it, though their roles were read before', async () => {
    const tenant = await t.tenant();
    const mine = await makeOrganization(t, tenant);
    const theirs = await makeOrganization(t, tenant);
    const theirEvent = await makeEvent(t, tenant, theirs.id);
    const phone = newPhone();
    expectStatus(await t.http().post(`/v1/organizations/${mine.id}/members`).set(sk(tenant)).send({ phone, role: 'manager' }), 201);
    const there = expectStatus(await t.http().post(`/v1/organizations/${theirs.id}/members`).set(sk(tenant)).send({ phone, role: 'viewer' }), 201).data;
    advance(t, 61_000);
    const session = await signInByPhone(t, tenant, phone);
    const person = { ...bearer(session.access_token), 'X-Tenant-Code': tenant.tenant.code };
    expectStatus(await t.http().get(`/v1/organizer/events/${theirEvent.id}`).set(person), 200);
    expectStatus(await t.http().get(`/v1/organizer/events/${theirEvent.id}`).set(person), 200);
    expectStatus(await t.http().delete(`/v1/organizations/${theirs.id}/members/${there.id}`).set(sk(tenant)), 200);
    // Still a manager of their own organization (the route's permission holds), but no longer a member of theirs.
    expectError(await t.http().get(`/v1/organizer/events/${theirEvent.id}`).set(person), 403, 'missing_permission');
  });

  it('name the organization when they belong to more than one', async () => {
    const tenant = await t.tenant();
    const a = await makeOrganization(t, tenant);
    const b = await makeOrganization(t, tenant);
    const both = await member(tenant, [[a.id, 'owner'], [b.id, 'admin']]);
    expectError(await t.http().post('/v1/organizer/events').set(both).send(eventBody(a.id, { organization: undefined })), 422, 'validation_failed', { param: 'organization' });
    expectStatus(await t.http().post('/v1/organizer/events').set(both).send(eventBody(b.id)), 201);
    const listed = expectStatus(await t.http().get('/v1/organizer/events').set(both), 200).data;
    expect(listed).toHaveLength(1);
  });

  it('as tenant staff reach every organization, and need its name', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id);
    const phone = newPhone();
    expectStatus(await t.http().post('/v1/members').set(sk(tenant)).send({ phone, role: 'viewer' }), 201);
    advance(t, 61_000);
    const staff = { ...bearer((await signInByPhone(t, tenant, phone)).access_token), 'X-Tenant-Code': tenant.tenant.code };
    expect(expectStatus(await t.http().get('/v1/organizer/events').set(staff), 200).data.map((e: { id: string }) => e.id)).toEqual([event.id]);
    expectError(await t.http().post('/v1/organizer/events').set(staff).send(eventBody(org.id)), 403, 'missing_permission');
  });
});
