import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestServer, useTestServer } from '../harness';
import type { HostResolver } from '../../src/core/outbound/url-policy';
import { Receiver } from './receiver';
import { attemptsOf, createEndpoint, emit, eventually, startWorker } from './webhook-helpers';

const t = useTestServer();
let r: Receiver;
beforeAll(async () => {
  r = await new Receiver().start();
});
afterAll(async () => {
  await r.close();
});

/** DNS as a table; anything else does not resolve. */
const dns =
  (table: Record<string, string[]>): HostResolver =>
  async (host) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** The endpoint's one delivery attempt, once it is made. */
async function oneAttempt(key: string, endpointId: string) {
  const [attempt] = await eventually(async () => {
    const list = await attemptsOf(t, key, endpointId);
    expect(list).toHaveLength(1);
    return list;
  });
  return attempt;
}

const create = (key: string, url: string) => t.http().post('/v1/webhook_endpoints').set(bearer(key)).send({ url, enabled_events: ['*'] });

describe('live-mode URL rules', () => {
  it.each([
    ['http://hooks.example.com/x', 'https_required'],
    ['https://127.0.0.1/x', 'loopback_address'],
    ['https://localhost/x', 'loopback_address'],
    ['https://[::1]/x', 'loopback_address'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback_address'],
    ['https://10.0.0.5/x', 'private_address'],
    ['https://172.20.1.1/x', 'private_address'],
    ['https://192.168.0.10/x', 'private_address'],
    ['https://169.254.169.254/latest/meta-data', 'private_address'],
    ['https://100.100.100.100/x', 'private_address'],
    ['https://0.0.0.0/x', 'private_address'],
    ['https://[fd00::1]/x', 'private_address'],
    ['https://[fe80::1]/x', 'private_address'],
    ['https://internal.example.com/x', 'private_address'],
    ['https://mixed.example.com/x', 'private_address'],
    ['https://nxdomain.example.com/x', 'unresolvable_host'],
    ['https://user:pass@hooks.example.com/x', 'credentials_in_url'],
  ])('refuses %s (%s)', async (url, reason) => {
    t.ctx.resolveHost = dns({
      localhost: ['127.0.0.1', '::1'],
      'hooks.example.com': ['93.184.216.34'],
      'internal.example.com': ['10.1.2.3'],
      'mixed.example.com': ['93.184.216.34', '192.168.1.1'],
    });
    const { keys } = await t.tenant();
    const res = await create(keys.live.secret, url);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'webhook_url_not_allowed', param: 'url', details: { reason } });
  });

  it('accepts https to a public address, and checks a changed URL again', async () => {
    t.ctx.resolveHost = dns({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::'] });
    const { keys } = await t.tenant();
    const ok = await create(keys.live.secret, 'https://hooks.example.com/svc');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.livemode).toBe(true);
    const patched = await t.http().patch(`/v1/webhook_endpoints/${ok.body.data.id}`).set(bearer(keys.live.secret)).send({ url: 'https://10.0.0.1/x' });
    expect(patched.status).toBe(422);
    expect(patched.body.error.code).toBe('webhook_url_not_allowed');
  });

  it('test mode takes http and loopback, but not private networks', async () => {
    t.ctx.resolveHost = dns({ localhost: ['127.0.0.1'] });
    const { keys } = await t.tenant();
    expect((await create(keys.test.secret, 'http://localhost:3000/hooks')).status).toBe(201);
    expect((await create(keys.test.secret, 'http://127.0.0.1:3000/hooks')).status).toBe(201);
    expect((await create(keys.test.secret, 'http://[::1]:3000/hooks')).status).toBe(201);
    expect((await create(keys.test.secret, 'http://192.168.1.20/hooks')).body.error.code).toBe('webhook_url_not_allowed');
    expect((await create(keys.test.secret, 'http://169.254.169.254/latest')).body.error.code).toBe('webhook_url_not_allowed');
  });
});

describe('test-mode private addresses', () => {
  it('keeps the status and latency of an attempt to a loopback receiver, never its body', async () => {
    r.answer(() => ({ status: 200, body: 'secret local service answer' }));
    const { tenant, keys } = await t.tenant();
    const endpoint = await createEndpoint(t, keys.test.secret, { url: `http://127.0.0.1:${r.port}/local`, enabled_events: ['*'] });
    const w = await startWorker(t);
    try {
      await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.asset.ready');
      const attempt = await oneAttempt(keys.test.secret, endpoint.id);
      expect(attempt).toMatchObject({ succeeded: true, status_code: 200, response_body: null });
      expect(typeof attempt.latency_ms).toBe('number');
    } finally {
      await w.stop();
    }
  });

  it('SVC_WEBHOOKS_PRIVATE_IN_TEST=deny refuses loopback in test mode, at creation and at delivery', async () => {
    const denying = await createTestServer({ SVC_WEBHOOKS_PRIVATE_IN_TEST: 'deny' });
    try {
      denying.ctx.resolveHost = dns({ localhost: ['127.0.0.1'], 'hooks.example.com': ['93.184.216.34'] });
      const { keys } = await denying.tenant();
      for (const url of ['http://127.0.0.1:3000/x', 'http://localhost:3000/x', 'http://[::1]:3000/x', 'http://0x7f000001/x', 'http://[::ffff:127.0.0.1]/x']) {
        const res = await denying.http().post('/v1/webhook_endpoints').set(bearer(keys.test.secret)).send({ url, enabled_events: ['*'] });
        expect(res.status, url).toBe(422);
        expect(res.body.error).toMatchObject({ code: 'webhook_url_not_allowed', details: { reason: 'loopback_address' } });
      }
      const ok = await denying.http().post('/v1/webhook_endpoints').set(bearer(keys.test.secret)).send({ url: 'http://hooks.example.com/x', enabled_events: ['*'] });
      expect(ok.status).toBe(201);
    } finally {
      await denying.close();
    }
    // At delivery: an endpoint created while loopback was allowed is not reached once it is denied.
    t.ctx.resolveHost = dns({ 'flip.example.com': ['127.0.0.1'] });
    const { tenant, keys } = await t.tenant();
    const endpoint = await createEndpoint(t, keys.test.secret, { url: `http://flip.example.com:${r.port}/x`, enabled_events: ['*'] });
    const before = r.connections;
    const w = await startWorker(t, { privateInTest: 'deny', resolveHost: dns({ 'flip.example.com': ['127.0.0.1'] }) });
    try {
      await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.asset.ready');
      const attempt = await oneAttempt(keys.test.secret, endpoint.id);
      expect(attempt).toMatchObject({ succeeded: false, status_code: null, error: expect.stringMatching(/^url_not_allowed: .*SVC_WEBHOOKS_PRIVATE_IN_TEST/) });
      expect(r.connections).toBe(before);
    } finally {
      await w.stop();
    }
  });
});

describe('at delivery time', () => {
  it('refuses a host that resolved to a public address at creation and to a private one now (DNS rebinding)', async () => {
    t.ctx.resolveHost = dns({ 'rebind.example.com': ['93.184.216.34'] });
    const { tenant, keys } = await t.tenant();
    const endpoint = await createEndpoint(t, keys.live.secret, { url: `https://rebind.example.com:${r.port}/hook`, enabled_events: ['*'] });
    const connectionsBefore = r.connections;
    const w = await startWorker(t, { resolveHost: dns({ 'rebind.example.com': ['127.0.0.1'] }) });
    try {
      await emit(t, { tenantId: tenant.id, livemode: true }, 'streams.asset.ready');
      const attempt = await oneAttempt(keys.live.secret, endpoint.id);
      expect(attempt).toMatchObject({ succeeded: false, status_code: null, error: expect.stringMatching(/^url_not_allowed: .*loopback/) });
      expect(r.connections).toBe(connectionsBefore);
    } finally {
      await w.stop();
    }
  });

  it('connects to the address it checked, never resolving the name again', async () => {
    // `pinned.invalid` exists only in the injected DNS: a second, system lookup would fail.
    t.ctx.resolveHost = dns({ 'pinned.invalid': ['127.0.0.1'] });
    const { tenant, keys } = await t.tenant();
    await createEndpoint(t, keys.test.secret, { url: `http://pinned.invalid:${r.port}/pinned`, enabled_events: ['*'] });
    const w = await startWorker(t, { resolveHost: dns({ 'pinned.invalid': ['127.0.0.1'] }) });
    try {
      const before = r.received.length;
      await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.asset.ready');
      const received = await r.waitFor(before + 1);
      expect(received.at(-1)).toMatchObject({ path: '/pinned', headers: { host: `pinned.invalid:${r.port}` } });
    } finally {
      await w.stop();
    }
  });
});
