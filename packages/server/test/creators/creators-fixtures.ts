import { expect } from 'vitest';
import { activateMembers, customerForUser, findOrCreateUser } from '../../src/modules/identity/sign-in/people';
import { startSession } from '../../src/modules/identity/auth/sessions.service';
import { bearer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { newPhone } from '../identity/identity-fixtures';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

export const sk = (tenant: Tenant) => bearer(tenant.keys.test.secret);
export const pk = (tenant: Tenant) => ({ 'Svc-Publishable-Key': tenant.keys.test.publishable });
export const header = (tenant: Tenant) => ({ 'X-Tenant-Code': tenant.tenant.code });

/**
 * A person signed in to the tenant's test environment with this phone: what verifying a code does (the person,
 * their customer, their invitations made active, a session), without spending the sign-in send limits, which
 * the identity tests cover. Answers the access token and the ids.
 */
export async function signIn(t: TestServer, tenant: Tenant, phone = newPhone()) {
  const destination = { kind: 'phone' as const, value: phone, key: `phone:${phone}` };
  const scope = { tenantId: tenant.tenant.id, livemode: false };
  const session = await t.ctx.db.transaction().execute(async (trx) => {
    const user = await findOrCreateUser(trx, destination);
    const customerId = await customerForUser(trx, scope, user.id, destination);
    await activateMembers(trx, scope.tenantId, user.id, destination);
    return startSession(t.ctx, trx, scope, { userId: user.id, phone: user.phone, email: user.email, customerId }, 'otp');
  });
  return { token: session.access_token, userId: session.user.id, customer: session.user.customer, phone, auth: bearer(session.access_token) };
}

/** A creator organization (its handle is the capsule's slug). */
export async function creatorOrg(t: TestServer, tenant: Tenant, handle: string, name = 'Nyashinski') {
  return expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name, handle, kind: 'creator' }), 201).data as { id: string; handle: string };
}

/** A member of the organization with `role`, signed in. */
export async function orgMember(t: TestServer, tenant: Tenant, orgId: string, role: string) {
  const phone = newPhone();
  const member = expectStatus(await t.http().post(`/v1/organizations/${orgId}/members`).set(sk(tenant)).send({ phone, role }), 201).data;
  return { ...(await signIn(t, tenant, phone)), memberId: member.id as string };
}

/** A tenant staff member with `role`, signed in. */
export async function staffMember(t: TestServer, tenant: Tenant, role: string) {
  const phone = newPhone();
  expectStatus(await t.http().post('/v1/members').set(sk(tenant)).send({ phone, role }), 201);
  return signIn(t, tenant, phone);
}

/** A Streams asset of the test environment, made ready (with a public playback id unless `signed`). */
export async function readyAsset(t: TestServer, tenant: Tenant, policy: 'public' | 'signed' = 'public') {
  const asset = expectStatus(await t.http().post('/v1/streams/assets').set(sk(tenant)).send({ url: 'https://93.184.216.34/a.mp4', playback_policy: policy }), 201).data;
  expectStatus(await t.http().post(`/v1/test_helpers/assets/${asset.id}/simulate`).set(sk(tenant)).send({ event: 'ready', duration: 30 }), 200);
  return asset.id as string;
}

/** A Streams asset still preparing. */
export async function preparingAsset(t: TestServer, tenant: Tenant) {
  const asset = expectStatus(await t.http().post('/v1/streams/assets').set(sk(tenant)).send({ url: 'https://93.184.216.34/b.mp4' }), 201).data;
  expect(asset.status).toBe('preparing');
  return asset.id as string;
}

/** Content made by the creator routes with a secret key; `status` walks it there through the real routes. */
export async function content(t: TestServer, tenant: Tenant, handle: string, body: Record<string, unknown>) {
  return expectStatus(await t.http().post(`/v1/creator/orgs/${handle}/contents`).set(sk(tenant)).send({ type: 'drop', ...body }), 201).data as {
    id: string;
    slug: string;
    status: string;
  };
}

/** Content walked to `status` through the real routes. */
export async function contentIn(t: TestServer, tenant: Tenant, handle: string, status: string, body: Record<string, unknown>) {
  const made = await content(t, tenant, handle, body);
  if (status === 'draft') return made;
  await submit(t, tenant, handle, made.slug);
  if (status === 'changes_requested') expectStatus(await admin(t, tenant, made.slug, 'request-changes', { message: 'x' }), 200);
  if (status === 'rejected') expectStatus(await admin(t, tenant, made.slug, 'reject', { reason: 'x' }), 200);
  if (status === 'published') expectStatus(await admin(t, tenant, made.slug, 'approve'), 200);
  return made;
}

export const submit = async (t: TestServer, tenant: Tenant, handle: string, slug: string) =>
  expectStatus(await t.http().post(`/v1/creator/orgs/${handle}/contents/${slug}/submit`).set(sk(tenant)), 200).data;

export const admin = (t: TestServer, tenant: Tenant, slug: string, action: string, body: object = {}) =>
  t.http().post(action === 'publish' ? `/v1/tenant/admin/plus/contents/${slug}/publish` : `/v1/tenant/admin/plus/approvals/${slug}/${action}`).set(sk(tenant)).send(body);

/** Makes the capsule public (and so its published content readable by anyone). */
export const makePublic = async (t: TestServer, tenant: Tenant, handle: string) =>
  expectStatus(await t.http().patch(`/v1/creator/orgs/${handle}/capsule-profile`).set(sk(tenant)).send({ is_public: true }), 200).data;
