import { expect } from 'vitest';
import { bearer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { creatorOrg, sk, type Tenant } from '../creators/creators-fixtures';

export { creatorOrg, header, makePublic, orgMember, pk, signIn, sk, staffMember, type Tenant } from '../creators/creators-fixtures';

/** A creator organization whose capsule is public and lets fans join and subscribe, with its fanbase. */
export async function creatorFanbase(t: TestServer, tenant: Tenant, handle: string, body: Record<string, unknown> = {}) {
  const org = await creatorOrg(t, tenant, handle);
  expectStatus(await t.http().patch(`/v1/creator/orgs/${handle}/capsule-profile`).set(sk(tenant)).send({ is_public: true, join_enabled: true, subscription_enabled: true }), 200);
  const fanbase = expectStatus(await t.http().post('/v1/fanbases').set(sk(tenant)).send({ organization: org.id, name: `${handle} fans`, ...body }), 201).data;
  return { org, fanbase };
}

export async function tier(t: TestServer, tenant: Tenant, fanbase: string, body: Record<string, unknown>) {
  return expectStatus(await t.http().post(`/v1/fanbases/${fanbase}/tiers`).set(sk(tenant)).send({ name: 'Tier', status: 'published', ...body }), 201).data;
}

export async function liveStream(t: TestServer, tenant: Tenant) {
  return expectStatus(await t.http().post('/v1/streams/live_streams').set(sk(tenant)).send({}), 201).data.id as string;
}

/** The customer's entitlements, newest first. */
export async function entitlementsOf(t: TestServer, tenant: Tenant, customer: string) {
  return expectStatus(await t.http().get('/v1/access/entitlements').query({ customer, limit: 100 }).set(sk(tenant)), 200).data as Array<{
    id: string;
    source: string;
    source_ref: string;
    status: string;
    ends_at: string | null;
    resource: { type: string; id: string };
  }>;
}

/** A publishable key with a customer token for the signed-in person (the `customer` credential of SDKs). */
export async function customerTokenAuth(t: TestServer, tenant: Tenant, accessToken: string) {
  const issued = expectStatus(await t.http().post('/auth/v1/customer_token').set('Svc-Publishable-Key', tenant.keys.test.publishable).set(bearer(accessToken)), 200).data;
  return { 'Svc-Publishable-Key': tenant.keys.test.publishable, ...bearer(issued.token) };
}

/** Whether the access check lets the customer use the live stream now. */
export async function allowed(t: TestServer, tenant: Tenant, customer: string, stream: string) {
  return expectStatus(await t.http().post('/v1/access/check').set(sk(tenant)).send({ customer, resource: { type: 'ls', id: stream } }), 200).data.allowed as boolean;
}

/**
 * Waits for access to be refused. A revocation made by a subscription's change (a job, or the test helper that
 * runs one) reaches the access cache by its transaction's notification, a moment after it commits.
 */
export const refusedSoon = (t: TestServer, tenant: Tenant, customer: string, stream: string) =>
  expect.poll(() => allowed(t, tenant, customer, stream), { timeout: 10_000 }).toBe(false);

/** Subscribes the signed-in fan to a tier (with an `Idempotency-Key`), answering the raw response. */
export const subscribeTo = (t: TestServer, auth: Record<string, string>, fanbase: string, body: Record<string, unknown>, key = `sub-${Math.random()}`) =>
  t.http().post(`/v1/public/fanbases/${fanbase}/subscriptions`).set(auth).set('Idempotency-Key', key).send(body);

/**
 * Pays a checkout page's session through the simulator: by default with its good phone (a subscription paid so
 * renews by prompt), or with `card` (kept as a saved card: the subscription renews automatically).
 */
export async function payCheckout(t: TestServer, checkoutUrl: string, card?: string) {
  const session = checkoutUrl.slice(checkoutUrl.lastIndexOf('/') + 1);
  const body = card ? { method: 'card', card_number: card } : { method: 'mobile_money', phone: '+254711000000' };
  return expectStatus(await t.http().post(`/v1/checkout/sessions/${session}/pay`).send(body), 200).data;
}

export const getSubscription = async (t: TestServer, tenant: Tenant, id: string) => expectStatus(await t.http().get(`/v1/subscriptions/${id}`).set(sk(tenant)), 200).data;

export const advance = async (t: TestServer, tenant: Tenant, id: string, to: string) =>
  expectStatus(await t.http().post(`/v1/test_helpers/subscriptions/${id}/advance`).set(sk(tenant)).send({ to }), 200).data;

export const eventTypes = async (t: TestServer, tenant: Tenant, type: string) =>
  (expectStatus(await t.http().get('/v1/events').query({ type, limit: 100 }).set(sk(tenant)), 200).data as Array<{ type: string }>).map((e) => e.type).reverse();
