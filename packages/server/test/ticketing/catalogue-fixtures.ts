import { bearer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { advance, newPhone, signInByPhone } from '../identity/identity-fixtures';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

export const sk = (tenant: Tenant, mode: 'test' | 'live' = 'test') => bearer(tenant.keys[mode].secret);

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** An organization of the tenant's test environment, made with its secret key. */
export async function makeOrganization(t: TestServer, tenant: Tenant, fields: Record<string, unknown> = {}) {
  const handle = `org_${Math.random().toString(36).slice(2, 10)}`;
  const res = await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'Sauti Events', handle, kind: 'brand', ...fields });
  return expectStatus(res, 201).data as { id: string; timezone: string };
}

/** A body for `POST /v1/organizer/events`: a week from now, for two hours. */
export const eventBody = (organization: string, fields: Record<string, unknown> = {}) => ({
  organization,
  name: 'Nairobi Jazz Night',
  starts_at: inDays(7),
  ends_at: new Date(Date.now() + 7 * 86_400_000 + 7_200_000).toISOString(),
  ...fields,
});

export async function makeEvent(t: TestServer, tenant: Tenant, organization: string, fields: Record<string, unknown> = {}) {
  const res = await t.http().post('/v1/organizer/events').set(sk(tenant)).send(eventBody(organization, fields));
  return expectStatus(res, 201).data as { id: string; slug: string; status: string; capacity: number | null };
}

export async function makeTicketType(t: TestServer, tenant: Tenant, event: string, fields: Record<string, unknown> = {}) {
  const res = await t.http().post(`/v1/organizer/events/${event}/ticket_types`).set(sk(tenant)).send({ name: 'Regular', pricing_mode: 'fixed', price: 150_000, ...fields });
  return expectStatus(res, 201).data as { id: string; quantity: number | null };
}

/** An event with one ticket type, published. */
export async function makePublishedEvent(t: TestServer, tenant: Tenant, organization: string, fields: Record<string, unknown> = {}, ticket: Record<string, unknown> = {}) {
  const event = await makeEvent(t, tenant, organization, fields);
  const ticketType = await makeTicketType(t, tenant, event.id, ticket);
  expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/publish`).set(sk(tenant)), 200);
  return { event, ticketType };
}

/** The capacity bucket row, read straight from the database. */
export const bucket = (t: TestServer, id: string) =>
  t.ctx.db.selectFrom('capacity_buckets').selectAll().where('id', '=', id).executeTakeFirst();

/** A person signed in as a member of organization `org` with `role`: their access token and the tenant header. */
export async function signedInMember(t: TestServer, tenant: Tenant, org: string, role: string) {
  const phone = newPhone();
  expectStatus(await t.http().post(`/v1/organizations/${org}/members`).set(sk(tenant)).send({ phone, role }), 201);
  advance(t, 61_000);
  const session = await signInByPhone(t, tenant, phone);
  return { ...bearer(session.access_token), 'X-Tenant-Code': tenant.tenant.code };
}
