import { describe, expect, it } from 'vitest';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { signIn, staffMember, type Tenant } from '../creators/creators-fixtures';

const t = useTestServer();
const sk = (tenant: Tenant) => bearer(tenant.keys.test.secret);
const URL_ = 'http://127.0.0.1:4999/hooks';

describe('webhooks and the event log in the console', () => {
  it('lets an owner manage endpoints, send a test event, replay it and read the log with their token', async () => {
    const tenant = await t.tenant();
    const owner = await staffMember(t, tenant, 'owner');
    const endpoint = expectStatus(await t.http().post('/v1/webhook_endpoints').set(owner.auth).send({ url: URL_, enabled_events: ['*'] }), 201).data;
    expect(endpoint.secret).toMatch(/^whsec_/);
    const sent = expectStatus(await t.http().post(`/v1/webhook_endpoints/${endpoint.id}/test`).set(owner.auth), 202).data;
    const log = expectStatus(await t.http().get('/v1/events').set(owner.auth), 200).data;
    expect(log.map((e: { id: string }) => e.id)).toContain(sent.id);
    expectStatus(await t.http().get(`/v1/events/${sent.id}`).set(owner.auth), 200);
    const replay = expectStatus(await t.http().post(`/v1/webhook_endpoints/${endpoint.id}/replay`).set(owner.auth).send({ event_ids: [sent.id] }), 202).data;
    expect(replay).toMatchObject({ object: 'webhook_replay' });
    expectStatus(await t.http().get(`/v1/webhook_endpoints/${endpoint.id}/attempts`).set(owner.auth), 200);
    const disabled = expectStatus(await t.http().patch(`/v1/webhook_endpoints/${endpoint.id}`).set(owner.auth).send({ status: 'disabled' }), 200).data;
    expect(disabled.status).toBe('disabled');
    // The other environment's endpoints are not these.
    const live = expectStatus(await t.http().get('/v1/webhook_endpoints').set(owner.auth).set('Svc-Environment', 'live'), 200).data;
    expect(live).toEqual([]);
    // Another tenant's key does not see them.
    const other = await t.tenant();
    expectError(await t.http().get(`/v1/webhook_endpoints/${endpoint.id}`).set(sk(other)), 404, 'resource_not_found');
  });

  it('lets a viewer read but not write, and refuses a buyer\'s token on the log', async () => {
    const tenant = await t.tenant();
    const viewer = await staffMember(t, tenant, 'viewer');
    expectStatus(await t.http().get('/v1/webhook_endpoints').set(viewer.auth), 200);
    expectStatus(await t.http().get('/v1/events').set(viewer.auth), 200);
    expectError(await t.http().post('/v1/webhook_endpoints').set(viewer.auth).send({ url: URL_, enabled_events: ['*'] }), 403, 'missing_permission');
    const buyer = await signIn(t, tenant);
    expectError(await t.http().get('/v1/events').set(buyer.auth), 403, 'missing_permission');
    expectError(await t.http().get('/v1/webhook_endpoints').set(buyer.auth), 403, 'missing_permission');
  });
});
