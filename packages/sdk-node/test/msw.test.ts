import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, RateLimitError, Svc, SvcOperator, type SvcError } from '../src';
import { createSvcMock } from '../src/msw';

const mock = createSvcMock({ baseUrl: 'https://api.svc.test' });
const server = setupServer(...mock.handlers);
const svc = new Svc({ apiKey: 'sk_test_mockmockmockmock', baseUrl: 'https://api.svc.test', maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('msw mocks from the contract', () => {
  it('keeps state: create, get, list, update, delete', async () => {
    const created = await svc.keys.create({ type: 'restricted', scopes: ['streams:read'], name: 'Mocked', metadata: { team: 'a' } });
    expect(created.id).toMatch(/^key_/);
    expect(created).toMatchObject({ object: 'api_key', type: 'restricted', scopes: ['streams:read'], name: 'Mocked' });
    expect(created.secret).toBeTruthy();

    const read = await svc.keys.retrieve({ id: created.id });
    expect(read).toMatchObject({ id: created.id, name: 'Mocked' });
    expect(read.secret).toBeUndefined();

    await svc.keys.create({ type: 'publishable' });
    const page = await svc.keys.list({ per_page: 10 });
    expect(page.data.map((k) => k.type)).toEqual(['publishable', 'restricted']);

    const revoked = await svc.keys.revoke({ id: created.id });
    expect(revoked.status).toBe('revoked');
    expect((await svc.keys.retrieve({ id: created.id })).status).toBe('revoked');
  });

  it('keeps streams, entitlements and sessions like the server', async () => {
    const stream = await svc.streams.liveStreams.create({ metadata: { show: 'a' } });
    expect(stream.id).toMatch(/^ls_/);
    expect((await svc.streams.liveStreams.retrieve({ id: stream.id })).metadata).toEqual({ show: 'a' });
    const streams = [];
    for await (const s of svc.streams.liveStreams.list({ limit: 10 })) streams.push(s.id);
    expect(streams).toEqual([stream.id]);
    await svc.streams.liveStreams.delete({ id: stream.id });
    await expect(svc.streams.liveStreams.retrieve({ id: stream.id })).rejects.toMatchObject({ status: 404 });

    const entitlement = await svc.access.entitlements.grant(
      { customer: 'viewer-1', resource: { type: 'ls', id: stream.id }, source_ref: 'pay_1' },
      { idempotencyKey: 'pay_1' },
    );
    expect(entitlement).toMatchObject({ object: 'entitlement', customer: 'viewer-1', status: 'active' });
    expect((await svc.access.entitlements.revoke({ id: entitlement.id })).status).toBe('revoked');

    const session = await svc.access.sessions.open({ resource: stream.id, customer: 'viewer-1', device_id: 'tv' });
    expect(session).toMatchObject({ object: 'access_session', device_id: 'tv', state: 'active' });
    expect((await svc.access.sessions.end({ id: session.id })).state).toBe('ended');
  });

  it('pages with cursors and filters by metadata like the server, over seeded objects', async () => {
    const operator = new SvcOperator({ operatorToken: 'op_mock', baseUrl: 'https://api.svc.test' });
    for (let i = 0; i < 5; i++) mock.seed('operator.retrieveTenant', { name: `T${i}`, metadata: { batch: i < 4 ? 'x' : 'y' } });
    const names: string[] = [];
    for await (const t of operator.operator.listTenants({ limit: 2, metadata: { batch: 'x' } })) names.push(t.name);
    expect(names).toEqual(['T3', 'T2', 'T1', 'T0']);
  });

  it('answers 404 for an unknown id and validates requests against the contract', async () => {
    await expect(svc.keys.retrieve({ id: 'key_nope' })).rejects.toMatchObject({ status: 404, code: 'resource_not_found' });
    const invalid = (await svc.keys.create({ type: 'nonsense' as 'secret' }).catch((e) => e)) as SvcError;
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid.code).toBe('validation_failed');
    expect(invalid.details).toHaveProperty('type');
  });

  it('forces any catalogued error on a route, a given number of times', async () => {
    mock.forceError('keys.create', 'rate_limited', { times: 2 });
    await expect(svc.keys.create({ type: 'publishable' })).rejects.toBeInstanceOf(RateLimitError);
    await expect(svc.keys.create({ type: 'publishable' })).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    await expect(svc.keys.create({ type: 'publishable' })).resolves.toMatchObject({ type: 'publishable' });

    mock.forceError('keys.list', 'product_not_enabled');
    await expect(svc.keys.list()).rejects.toMatchObject({ status: 403, type: 'permission_error', code: 'product_not_enabled' });
  });

  it('lets the SDK retry through a forced transient error', async () => {
    const retrying = new Svc({ apiKey: 'sk_test_mockmockmockmock', baseUrl: 'https://api.svc.test', maxRetries: 2 });
    mock.forceError('keys.create', 'service_unavailable');
    await expect(retrying.keys.create({ type: 'publishable' })).resolves.toMatchObject({ object: 'api_key' });
  });

  it('refuses a call without credentials', async () => {
    const res = await fetch('https://api.svc.test/v1/keys');
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('api_key_missing');
  });
});
