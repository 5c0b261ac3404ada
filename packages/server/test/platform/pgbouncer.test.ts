import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { startPgBouncer, type RunningPgBouncer } from '../pgbouncer';
import { runServerProcess, type ServerProcess } from '../process';
import { Receiver } from '../webhooks/receiver';

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

describe('the server behind PgBouncer in transaction mode', () => {
  let name: string | undefined;
  let bouncer: RunningPgBouncer | undefined;
  let server: ServerProcess | undefined;
  const receiver = new Receiver();
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await bouncer?.stop();
    await receiver.close();
    if (name) await dropTestDatabase(name);
  });

  it('serves the API through it, with LISTEN/NOTIFY and the job queue on the direct connection', async () => {
    name = await createTestDatabase();
    bouncer = await startPgBouncer(3);
    await receiver.start();
    server = runServerProcess({
      DATABASE_URL: bouncer.through(databaseUrl(name)),
      DATABASE_DIRECT_URL: databaseUrl(name),
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      SVC_RATE_LIMIT_PUBLIC: '100000',
    });
    const url = await server.url;
    const call = async (method: string, path: string, key: string, body?: object, extra: Record<string, string> = {}) => {
      const res = await fetch(`${url}${path}`, { method, headers: { ...headers(key), ...extra }, body: body && JSON.stringify(body) });
      const json = (await res.json()) as { data: any };
      expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
      return json.data;
    };

    const { tenant, keys } = await call('POST', '/v1/operator/tenants', OPERATOR_TOKEN, { name: 'Pooled' });
    await call('PATCH', `/v1/operator/tenants/${tenant.id}`, OPERATOR_TOKEN, { rate_limits: { secret: 100_000, publishable: 100_000 } });
    const sk = keys.test.secret as string;
    await call('POST', '/v1/webhook_endpoints', sk, { url: receiver.url('/pooled'), enabled_events: ['streams.live_stream.created'] });

    // Many transactions at once over a pool of 3 server connections: each statement runs again and again, on any of them.
    const streams = await Promise.all(
      Array.from({ length: 24 }, (_, i) => call('POST', '/v1/streams/live_streams', sk, { external_id: `pooled-${i}` }, { 'idempotency-key': randomUUID() })),
    );
    const replayKey = randomUUID();
    const first = await call('POST', '/v1/streams/live_streams', sk, {}, { 'idempotency-key': replayKey });
    expect((await call('POST', '/v1/streams/live_streams', sk, {}, { 'idempotency-key': replayKey })).id).toBe(first.id);
    await Promise.all(streams.map((s) => call('GET', `/v1/streams/live_streams/${s.id}`, sk)));
    await Promise.all(streams.map((s) => call('PATCH', `/v1/streams/live_streams/${s.id}`, sk, { metadata: { pooled: 'yes' } })));
    expect(await call('GET', '/v1/streams/live_streams?limit=100&metadata[pooled]=yes', sk)).toHaveLength(24);
    const stream = streams[0];
    const sessions = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await call('POST', '/v1/access/entitlements', sk, { customer: `viewer-${i}`, resource: { type: 'ls', id: stream.id }, source: 'tenant_grant' }, { 'idempotency-key': randomUUID() });
        return call('POST', '/v1/access/sessions', sk, { customer: `viewer-${i}`, resource: stream.id, device_id: `d-${i}` });
      }),
    );
    await Promise.all(sessions.map((s) => call('POST', `/v1/access/sessions/${s.id}/heartbeat`, sk, { customer: s.customer })));
    // A revoked key is refused at once: the revocation's NOTIFY reached this process's LISTEN connection.
    const restricted = await call('POST', '/v1/keys', sk, { type: 'restricted', name: 'r', scopes: ['streams:read'] });
    await call('GET', '/v1/streams/live_streams', restricted.secret);
    await call('DELETE', `/v1/keys/${restricted.id}`, sk);
    expect((await fetch(`${url}/v1/streams/live_streams`, { headers: headers(restricted.secret) })).status).toBe(401);

    // Deliveries went through pg-boss on the direct connection.
    await receiver.waitFor(25, 30_000);
    expect(await bouncer.transactions(name)).toBeGreaterThan(100);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
