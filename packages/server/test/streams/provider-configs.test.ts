import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { configBody, FakeVideoAccount, useFakeAccountApi } from './account-fixtures';
import { busyTenant, client, expectError, expectStatus, type Keys } from './media-fixtures';

const t = useTestServer();
const fake = new FakeVideoAccount();
let keys: Keys;
beforeAll(async () => {
  await fake.start();
  useFakeAccountApi(t, fake);
  keys = (await busyTenant(t, 'Own Account Co')).keys;
});
afterAll(() => fake.stop());

const live = () => client(t, keys.live.secret);

describe('POST /v1/streams/provider_configs', () => {
  it('checks the credentials on the account, answers 201 with an mpc_ id and the inbound URL, and no secret', async () => {
    const before = fake.received.length;
    const res = await live().post('/v1/streams/provider_configs', configBody(fake));
    const config = expectStatus(res, 201).data;
    expect(config).toMatchObject({
      object: 'provider_config',
      livemode: true,
      provider: 'cloudflare',
      account_id: fake.accountId,
      customer_code: 'abc123code',
      signing_key: { id: fake.signingKey.id },
    });
    expect(config.id).toMatch(/^mpc_[0-9a-z]{26}$/);
    expect(config.webhook_url).toBe(`${t.ctx.config.baseUrl}/api/v1/providers/cloudflare/webhooks/${config.id}`);
    const text = JSON.stringify(res.body);
    for (const secret of [fake.token, fake.signingKey.pem, 'whsec-of-the-account', 'notification-channel-secret']) expect(text).not.toContain(secret);
    const checks = fake.received.slice(before);
    expect(checks.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /accounts/${fake.accountId}/stream/keys`]);
    expect(checks[0]!.authorization).toBe(`Bearer ${fake.token}`);
  });

  it('keeps every secret encrypted at rest', async () => {
    const config = expectStatus(await live().post('/v1/streams/provider_configs', configBody(fake)), 201).data;
    const row = await t.ctx.db.selectFrom('provider_configs').selectAll().where('id', '=', config.id).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    for (const secret of [fake.token, fake.signingKey.pem, 'whsec-of-the-account', 'notification-channel-secret']) expect(stored).not.toContain(secret);
    expect(row.secrets_sealed).toMatch(/^v1\./);
  });

  it('answers 422 provider_rejected for a token the account refuses, and keeps nothing', async () => {
    const count = async () => (await t.ctx.db.selectFrom('provider_configs').select('id').execute()).length;
    const n = await count();
    expectError(await live().post('/v1/streams/provider_configs', configBody(fake, { api_token: 'wrong-token' })), 422, 'provider_rejected');
    expectError(await live().post('/v1/streams/provider_configs', configBody(fake, { account_id: 'other-account' })), 422, 'provider_rejected');
    expect(await count()).toBe(n);
  });

  it('refuses a signing key the account does not have, or a pem that is not an RSA key', async () => {
    expectError(await live().post('/v1/streams/provider_configs', configBody(fake, { signing_key: { id: 'nope', pem: fake.signingKey.pem } })), 422, 'provider_rejected', { param: 'signing_key.id' });
    expectError(await live().post('/v1/streams/provider_configs', configBody(fake, { signing_key: { id: fake.signingKey.id, pem: 'bm90IGEga2V5' } })), 422, 'provider_rejected', { param: 'signing_key.pem' });
  });

  it('answers 502 provider_unavailable when the account API fails, after retrying a safe request', async () => {
    const before = fake.received.length;
    for (let i = 0; i < 3; i++) fake.failures.push({ status: 503, errors: [{ code: 1000, message: 'down' }] });
    expectError(await live().post('/v1/streams/provider_configs', configBody(fake)), 502, 'provider_unavailable');
    expect(fake.received.length - before).toBe(3);
    fake.failures.push({ status: 500, errors: [] });
    expectStatus(await live().post('/v1/streams/provider_configs', configBody(fake)), 201);
  });

  it('refuses a provider this server does not speak, and missing fields', async () => {
    expectError(await live().post('/v1/streams/provider_configs', configBody(fake, { provider: 'other' })), 422, 'validation_failed', { param: 'provider' });
    const { webhook_secret: _w, ...partial } = configBody(fake);
    expectError(await live().post('/v1/streams/provider_configs', partial), 422, 'validation_failed');
  });

  it('takes a restricted key with platform:write, not one with streams:write only', async () => {
    const make = async (scopes: string[]) =>
      expectStatus(await live().post('/v1/keys', { type: 'restricted', scopes }), 201).data.secret as string;
    const platform = await make(['platform:write']);
    expectStatus(await client(t, platform).post('/v1/streams/provider_configs', configBody(fake)), 201);
    const reader = await make(['platform:read']);
    expectStatus(await client(t, reader).get('/v1/streams/provider_configs'), 200);
    expectError(await client(t, reader).post('/v1/streams/provider_configs', configBody(fake)), 403, 'missing_scope');
    const streams = await make(['streams:write']);
    expectError(await client(t, streams).post('/v1/streams/provider_configs', configBody(fake)), 403, 'missing_scope');
  });
});

describe('GET, PATCH, DELETE /v1/streams/provider_configs/{id}', () => {
  it('reads, lists, rotates a secret (checked again) and deletes', async () => {
    const config = expectStatus(await live().post('/v1/streams/provider_configs', configBody(fake)), 201).data;
    expect(expectStatus(await live().get(`/v1/streams/provider_configs/${config.id}`), 200).data).toEqual(config);
    const list = expectStatus(await live().get('/v1/streams/provider_configs?limit=100'), 200);
    expect(list.data.map((c: any) => c.id)).toContain(config.id);

    expectError(await live().patch(`/v1/streams/provider_configs/${config.id}`, { api_token: 'revoked-token' }), 422, 'provider_rejected');
    const rotated = expectStatus(await live().patch(`/v1/streams/provider_configs/${config.id}`, { webhook_secret: 'a-new-secret' }), 200).data;
    expect(rotated.id).toBe(config.id);
    expect(JSON.stringify(rotated)).not.toContain('a-new-secret');

    expectStatus(await live().delete(`/v1/streams/provider_configs/${config.id}`), 200);
    expectError(await live().get(`/v1/streams/provider_configs/${config.id}`), 404, 'resource_not_found');
  });

  it('keeps configurations per environment and per tenant', async () => {
    const config = expectStatus(await live().post('/v1/streams/provider_configs', configBody(fake)), 201).data;
    expectError(await client(t, keys.test.secret).get(`/v1/streams/provider_configs/${config.id}`), 404, 'resource_not_found');
    const other = (await busyTenant(t, 'Other Co')).keys;
    expectError(await client(t, other.live.secret).get(`/v1/streams/provider_configs/${config.id}`), 404, 'resource_not_found');
    expectError(await client(t, other.live.secret).delete(`/v1/streams/provider_configs/${config.id}`), 404, 'resource_not_found');
    const theirs = expectStatus(await client(t, other.live.secret).get('/v1/streams/provider_configs'), 200).data;
    expect(theirs).toEqual([]);
  });
});

describe('/v1/streams/settings', () => {
  it('starts standard, chooses a configuration of the environment, and refuses one it cannot see', async () => {
    const { keys: own } = await busyTenant(t, 'Settings Co');
    const api = client(t, own.live.secret);
    expect(expectStatus(await api.get('/v1/streams/settings'), 200).data).toEqual({ object: 'stream_settings', livemode: true, live_network: 'standard', updated_at: null });
    const config = expectStatus(await api.post('/v1/streams/provider_configs', configBody(fake)), 201).data;
    const chosen = expectStatus(await api.patch('/v1/streams/settings', { live_network: config.id }), 200).data;
    expect(chosen).toMatchObject({ live_network: config.id, livemode: true });
    expectError(await api.delete(`/v1/streams/provider_configs/${config.id}`), 409, 'provider_config_in_use');

    const foreign = expectStatus(await client(t, keys.live.secret).post('/v1/streams/provider_configs', configBody(fake)), 201).data;
    expectError(await api.patch('/v1/streams/settings', { live_network: foreign.id }), 404, 'resource_not_found', { param: 'live_network' });
    expectError(await api.patch('/v1/streams/settings', { live_network: 'media-server' }), 422, 'validation_failed');
    expectError(await client(t, own.test.secret).patch('/v1/streams/settings', { live_network: config.id }), 422, 'validation_failed', { param: 'live_network' });

    const stream = expectStatus(await api.post('/v1/streams/live_streams', {}), 201).data;
    expectStatus(await api.patch('/v1/streams/settings', { live_network: 'standard' }), 200);
    // Objects made on the account keep it in use.
    expectError(await api.delete(`/v1/streams/provider_configs/${config.id}`), 409, 'provider_config_in_use');
    expectStatus(await api.delete(`/v1/streams/live_streams/${stream.id}`), 200);
    expectStatus(await api.delete(`/v1/streams/provider_configs/${config.id}`), 200);
  });
});
