import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { sk, type Tenant } from '../ticketing/booking-fixtures';
import { makeOrganization, signedInMember } from '../ticketing/catalogue-fixtures';
import { card, pay, pendingBooking, sessionOf } from '../ticketing/payments-fixtures';
import { newOrder, testKinds } from './order-kinds-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const kinds = testKinds();
beforeAll(() => kinds.register());

const keyWith = async (tenant: Tenant, scopes: string[]) =>
  bearer(expectStatus(await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted', scopes }), 201).data.secret as string);

const listIds = async (headers: Record<string, string>, query: Record<string, string> = {}) =>
  (expectStatus(await t.http().get('/v1/orders').query(query).set(headers), 200).data as { id: string }[]).map((o) => o.id).sort();

/** One order of each kind: the ticket order in its event's organization, the others in `org`. */
async function ordersOfEveryKind(tenant: Tenant) {
  const org = (await makeOrganization(t, tenant)).id;
  const ticket = (await pendingBooking(t, tenant)).booking.id as string;
  const product = (await newOrder(t, tenant, org)).order.id;
  const subscription = (await newOrder(t, tenant, org, { kind: 'subscription', subscriptionId: 'sub_x', amountShipping: 0, lineItems: [{ description: 'Gold, monthly', quantity: 1, unitAmount: 900 }] })).order.id;
  return { org, ticket, product, subscription };
}

describe('who sees which orders', () => {
  it('a secret key sees every kind; kind and organization filter the list', async () => {
    const tenant = await t.tenant();
    const o = await ordersOfEveryKind(tenant);
    expect(await listIds(sk(tenant))).toEqual([o.ticket, o.product, o.subscription].sort());
    expect(await listIds(sk(tenant), { kind: 'product' })).toEqual([o.product]);
    expect(await listIds(sk(tenant), { kind: 'subscription' })).toEqual([o.subscription]);
    expect(await listIds(sk(tenant), { organization: o.org })).toEqual([o.product, o.subscription].sort());
    expect(await listIds(sk(tenant), { organization: o.org, kind: 'ticket' })).toEqual([]);
    expectError(await t.http().get('/v1/orders').query({ kind: 'merch' }).set(sk(tenant)), 422, 'validation_failed');
  });

  it('a restricted key sees the kinds its scopes cover and acts with the kind\'s write scope', async () => {
    const tenant = await t.tenant();
    const o = await ordersOfEveryKind(tenant);
    const events = await keyWith(tenant, ['events:read']);
    const commerce = await keyWith(tenant, ['commerce:read']);
    const fanbases = await keyWith(tenant, ['fanbases:write']);
    const both = await keyWith(tenant, ['events:read', 'commerce:read']);
    expect(await listIds(events)).toEqual([o.ticket]);
    expect(await listIds(commerce)).toEqual([o.product]);
    expect(await listIds(fanbases)).toEqual([o.subscription]);
    expect(await listIds(both)).toEqual([o.ticket, o.product].sort());
    expect(await listIds(events, { kind: 'product' })).toEqual([]);

    expectStatus(await t.http().get(`/v1/orders/${o.product}`).set(commerce), 200);
    expect(expectError(await t.http().get(`/v1/orders/${o.product}`).set(events), 403, 'missing_scope').details).toMatchObject({ required_scope: 'commerce:read' });
    expectError(await t.http().get(`/v1/orders/${o.ticket}`).set(commerce), 403, 'missing_scope');
    expectError(await t.http().get(`/v1/orders/${o.product}/refunds`).set(events), 403, 'missing_scope');
    expectError(await t.http().get('/v1/orders').set(await keyWith(tenant, ['streams:read'])), 403, 'missing_scope');

    // Cancelling needs the kind's write scope.
    expectError(await t.http().post(`/v1/orders/${o.product}/cancel`).set(commerce), 403, 'missing_scope');
    expect(expectError(await t.http().post(`/v1/orders/${o.product}/cancel`).set(fanbases), 403, 'missing_scope').details).toMatchObject({ required_scope: 'commerce:write' });
    expect(expectStatus(await t.http().post(`/v1/orders/${o.subscription}/cancel`).set(fanbases), 200).data).toMatchObject({ status: 'cancelled', kind: 'subscription' });
    const commerceWrite = await keyWith(tenant, ['commerce:write']);
    expectStatus(await t.http().post(`/v1/orders/${o.product}/cancel`).set(commerceWrite), 200);
  });

  it('refunds follow the order\'s kind too', async () => {
    const tenant = await t.tenant();
    const org = (await makeOrganization(t, tenant)).id;
    const o = await newOrder(t, tenant, org);
    expectStatus(await pay(t, sessionOf(o.checkoutUrl!), card('4242424242424242')), 200);
    const refund = (headers: Record<string, string>, key: string) => t.http().post(`/v1/orders/${o.order.id}/refunds`).set(headers).set('Idempotency-Key', key).send({ amount: 100 });
    expect(expectError(await refund(await keyWith(tenant, ['events:write']), 'events'), 403, 'missing_scope').details).toMatchObject({ required_scope: 'commerce:write' });
    expectStatus(await refund(await keyWith(tenant, ['commerce:write']), 'commerce'), 201);
  });

  it('a member sees the kinds their role covers in their organization', async () => {
    const tenant = await t.tenant();
    const o = await ordersOfEveryKind(tenant);
    const viewer = await signedInMember(t, tenant, o.org, 'viewer');
    const checkin = await signedInMember(t, tenant, o.org, 'checkin');
    // The ticket order belongs to another organization; the viewer's role covers products and subscriptions in theirs.
    expect(await listIds(viewer)).toEqual([o.product, o.subscription].sort());
    expect(await listIds(checkin)).toEqual([]);
    expectStatus(await t.http().get(`/v1/orders/${o.product}`).set(viewer), 200);
    expectError(await t.http().get(`/v1/orders/${o.product}`).set(checkin), 403, 'missing_permission');
    expectError(await t.http().get(`/v1/orders/${o.ticket}`).set(viewer), 403, 'missing_permission');
    expectError(await t.http().post(`/v1/orders/${o.product}/cancel`).set(viewer), 403, 'missing_permission');
    const manager = await signedInMember(t, tenant, o.org, 'manager');
    expectStatus(await t.http().post(`/v1/orders/${o.product}/cancel`).set(manager), 200);
  });
});
