import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { creatorFanbase, signIn, sk, subscribeTo, tier } from './fanbases-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });

describe('subscriptions with their customer', () => {
  it('inlines the customer with expand[]=customer on the list and on retrieve, refuses another path, and keeps other tenants out', async () => {
    const tenant = await t.tenant();
    const { fanbase } = await creatorFanbase(t, tenant, 'subx.one');
    const gold = await tier(t, tenant, fanbase.id, { name: 'Gold', price: 50_000, interval: 'month' });
    const fan = await signIn(t, tenant);
    expectStatus(await t.http().patch(`/v1/customers/${fan.customer}`).set(sk(tenant)).send({ name: 'Achieng Otieno', email: 'achieng@example.test' }), 200);
    const sub = expectStatus(await subscribeTo(t, fan.auth, 'subx.one', { tier: gold.id }), 201).data;

    const plain = expectStatus(await t.http().get('/v1/subscriptions').query({ fanbase: fanbase.id }).set(sk(tenant)), 200).data;
    expect(plain.map((s: { id: string; customer: string }) => [s.id, s.customer])).toEqual([[sub.id, fan.customer]]);

    const listed = expectStatus(await t.http().get('/v1/subscriptions').query({ fanbase: fanbase.id, 'expand[]': 'customer' }).set(sk(tenant)), 200).data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: sub.id, tier: gold.id });
    expect(listed[0].customer).toMatchObject({ id: fan.customer, object: 'customer', name: 'Achieng Otieno', email: 'achieng@example.test', phone: fan.phone });

    const one = expectStatus(await t.http().get(`/v1/subscriptions/${sub.id}`).query({ 'expand[]': 'customer' }).set(sk(tenant)), 200).data;
    expect(one.customer).toMatchObject({ id: fan.customer, name: 'Achieng Otieno', phone: fan.phone });
    expect(expectStatus(await t.http().get(`/v1/subscriptions/${sub.id}`).set(sk(tenant)), 200).data.customer).toBe(fan.customer);

    expectError(await t.http().get('/v1/subscriptions').query({ 'expand[]': 'tier' }).set(sk(tenant)), 400, 'invalid_expand_path', { param: 'tier' });
    expectError(await t.http().get(`/v1/subscriptions/${sub.id}`).query({ 'expand[]': 'customer.person' }).set(sk(tenant)), 400, 'invalid_expand_path');
    // A bad path is refused before anything is looked up.
    expectError(await t.http().get('/v1/subscriptions/sub_missing').query({ 'expand[]': 'tier' }).set(sk(tenant)), 400, 'invalid_expand_path', { param: 'tier' });

    const other = await t.tenant();
    expectError(await t.http().get(`/v1/subscriptions/${sub.id}`).query({ 'expand[]': 'customer' }).set(sk(other)), 404, 'resource_not_found');
    expect(expectStatus(await t.http().get('/v1/subscriptions').query({ 'expand[]': 'customer' }).set(sk(other)), 200).data).toEqual([]);
  });
});
