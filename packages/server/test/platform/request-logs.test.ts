import { describe, expect, it } from 'vitest';
import { purgeRequestLogs } from '../../src/modules/platform/request-logs/request-logs.repository';
import { bearer, useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { orgMember, staffMember, type Tenant } from '../creators/creators-fixtures';

const t = useTestServer();
const sk = (tenant: Tenant) => bearer(tenant.keys.test.secret);

/** Rows are written after the answer, in group commits: wait for the one a request left. */
async function logged(tenant: Tenant, requestId: string) {
  for (let i = 0; i < 100; i++) {
    const res = await t.http().get(`/v1/request_logs/${requestId}`).set(sk(tenant));
    if (res.status === 200) return res.body.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${requestId} was never logged`);
}

describe('the request log', () => {
  it('keeps a failed request with its key, status, latency and error body, never the query string', async () => {
    const tenant = await t.tenant();
    const res = await t.http().get('/v1/keys/key_01jz0000000000000000000000?token=secret-value').set(sk(tenant));
    expect(res.status).toBe(404);
    const entry = await logged(tenant, res.headers['request-id']);
    expect(entry).toMatchObject({
      id: res.headers['request-id'],
      object: 'request_log',
      livemode: false,
      method: 'GET',
      path: '/v1/keys/key_01jz0000000000000000000000',
      status: 404,
      user: null,
      error: { code: 'resource_not_found', request_id: res.headers['request-id'] },
    });
    expect(entry.api_key).toMatch(/^key_/);
    expect(entry.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(entry)).not.toContain('secret-value');
  });

  it('filters by status, status class, path and method, newest first', async () => {
    const tenant = await t.tenant();
    const ok = await t.http().get('/v1/keys').set(sk(tenant));
    const bad = await t.http().post('/v1/keys').set(sk(tenant)).send({ type: 'restricted' });
    expect(bad.status).toBe(422);
    await logged(tenant, ok.headers['request-id']);
    await logged(tenant, bad.headers['request-id']);
    const errors = expectStatus(await t.http().get('/v1/request_logs').query({ status: 'errors' }).set(sk(tenant)), 200).data;
    expect(errors.map((r: { id: string }) => r.id)).toContain(bad.headers['request-id']);
    expect(errors.every((r: { status: number }) => r.status >= 400)).toBe(true);
    const fours = expectStatus(await t.http().get('/v1/request_logs').query({ status: '4xx', method: 'POST', path: '/v1/keys' }).set(sk(tenant)), 200).data;
    expect(fours.map((r: { id: string }) => r.id)).toEqual([bad.headers['request-id']]);
    const exact = expectStatus(await t.http().get('/v1/request_logs').query({ status: '200', path: '/v1/keys' }).set(sk(tenant)), 200).data;
    expect(exact.map((r: { id: string }) => r.id)).toContain(ok.headers['request-id']);
    const all = expectStatus(await t.http().get('/v1/request_logs').set(sk(tenant)), 200).data;
    const ids = all.map((r: { id: string }) => r.id);
    expect(ids.indexOf(bad.headers['request-id'])).toBeLessThan(ids.indexOf(ok.headers['request-id']));
    expect((await t.http().get('/v1/request_logs').query({ status: 'nope' }).set(sk(tenant))).body.error.param).toBe('status');
  });

  it('answers 404 for an unknown request, another tenant\'s, or the other environment\'s', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const res = await t.http().get('/v1/keys').set(sk(a));
    await logged(a, res.headers['request-id']);
    expectError(await t.http().get(`/v1/request_logs/${res.headers['request-id']}`).set(sk(b)), 404, 'resource_not_found');
    expectError(await t.http().get(`/v1/request_logs/${res.headers['request-id']}`).set(bearer(a.keys.live.secret)), 404, 'resource_not_found');
    expectError(await t.http().get('/v1/request_logs/req_01jz0000000000000000000000').set(sk(a)), 404, 'resource_not_found');
    const listed = expectStatus(await t.http().get('/v1/request_logs').set(sk(b)), 200).data;
    expect(listed.map((r: { id: string }) => r.id)).not.toContain(res.headers['request-id']);
  });

  it('purges rows past retention', async () => {
    const tenant = await t.tenant();
    const res = await t.http().get('/v1/keys').set(sk(tenant));
    await logged(tenant, res.headers['request-id']);
    await t.ctx.db.updateTable('request_logs').set({ created_at: new Date(Date.now() - 31 * 86_400_000) }).where('id', '=', res.headers['request-id']).execute();
    expectError(await t.http().get(`/v1/request_logs/${res.headers['request-id']}`).set(sk(tenant)), 404, 'resource_not_found');
    expect(await purgeRequestLogs(t.ctx.db, 30)).toBeGreaterThanOrEqual(1);
    const left = await t.ctx.db.selectFrom('request_logs').select('id').where('id', '=', res.headers['request-id']).executeTakeFirst();
    expect(left).toBeUndefined();
  });
});

describe('developers in the console', () => {
  it('lets an owner manage keys with their access token, in the environment Svc-Environment names', async () => {
    const tenant = await t.tenant();
    const owner = await staffMember(t, tenant, 'owner');
    const made = expectStatus(await t.http().post('/v1/keys').set(owner.auth).send({ type: 'secret', name: 'CI' }), 201).data;
    expect(made).toMatchObject({ type: 'secret', livemode: false, created_by: null });
    expect(made.secret).toMatch(/^sk_test_/);
    const rolled = expectStatus(await t.http().post(`/v1/keys/${made.id}/roll`).set(owner.auth).send({}), 200).data;
    expect(rolled.secret).toMatch(/^sk_test_/);
    expectStatus(await t.http().delete(`/v1/keys/${rolled.id}`).set(owner.auth), 200);
    const live = expectStatus(await t.http().post('/v1/keys').set(owner.auth).set('Svc-Environment', 'live').send({ type: 'publishable' }), 201).data;
    expect(live).toMatchObject({ livemode: true });
    const liveKeys = expectStatus(await t.http().get('/v1/keys').set(owner.auth).set('Svc-Environment', 'live'), 200).data;
    expect(liveKeys.map((k: { id: string }) => k.id)).toContain(live.id);
    const logs = expectStatus(await t.http().get('/v1/request_logs').query({ path: '/v1/keys' }).set(owner.auth).set('Svc-Environment', 'live'), 200).data;
    expect(logs.every((r: { livemode: boolean }) => r.livemode)).toBe(true);
    expectError(await t.http().get('/v1/keys').set(owner.auth).set('Svc-Environment', 'staging'), 400, 'invalid_request', { param: 'Svc-Environment' });
  });

  it('refuses roles without developers:write, and organization members choosing the environment', async () => {
    const tenant = await t.tenant();
    const viewer = await staffMember(t, tenant, 'viewer');
    expectStatus(await t.http().get('/v1/keys').set(viewer.auth), 200);
    expectStatus(await t.http().get('/v1/request_logs').set(viewer.auth), 200);
    expectError(await t.http().post('/v1/keys').set(viewer.auth).send({ type: 'secret' }), 403, 'missing_permission');
    const org = expectStatus(await t.http().post('/v1/organizations').set(sk(tenant)).send({ name: 'KICC', handle: 'kicc', kind: 'venue' }), 201).data;
    const door = await orgMember(t, tenant, org.id, 'checkin');
    expectError(await t.http().get('/v1/organizer/events').set(door.auth).set('Svc-Environment', 'live'), 403, 'missing_permission');
    expectError(await t.http().get('/v1/keys').set(door.auth), 403, 'missing_permission');
  });
});
