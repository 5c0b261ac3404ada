import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../harness';
import { createStream, grant } from '../access/access-fixtures';
import { attendeesOfOrder, secretOf } from '../ticketing/attendees-fixtures';
import { bookingBody, pk, seedEvent, sk } from '../ticketing/booking-fixtures';
import { paidBooking } from '../ticketing/payments-fixtures';
import { Receiver } from '../webhooks/receiver';
import { call, startScaleOut, type ScaleOut } from './scale-out-fixtures';

/**
 * Two API processes on one port (`SVC_ROLE=api SVC_WORKERS=2`) and one worker process, on one database through
 * PgBouncer: what a load balancer in front of several machines sees. Each rule that must hold across processes
 * is checked with requests spread over both API processes; the caches that must be invalidated within a bound
 * (`CACHE_BOUND_MS`, docs/self-hosting.md) are warmed on both first.
 */

const PUBLIC_LIMIT = 30;
const CACHE_BOUND_MS = 2000;

let s: ScaleOut;
let api: string;

beforeAll(async () => {
  s = await startScaleOut(PUBLIC_LIMIT);
  api = s.apiUrl;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

/** Calls `probe` on fresh connections until `refused` holds for four in a row (both processes, twice); the time it took. */
async function timeUntilRefusedEverywhere(probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  let streak = 0;
  while (streak < 4) {
    if (Date.now() - started > 10_000) throw new Error('still admitted after 10 s');
    streak = (await probe()) ? streak + 1 : 0;
  }
  return Date.now() - started;
}

describe('two API processes and a worker on one database, through PgBouncer', () => {
  it('serves from both API processes on one port; the worker answers its health checks', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const live = await call(api, 'GET', '/health/live');
      expect(live.body).toMatchObject({ status: 'alive', role: 'api' });
      pids.add(live.body.pid);
    }
    expect(pids.size).toBe(2);
    expect((await call(await s.worker.url, 'GET', '/health/ready')).body).toMatchObject({ status: 'ready', role: 'worker' });
  });

  it('counts the public rate limit once across both processes', async () => {
    const admitted = new Map<number, number>();
    let refused = 0;
    const until = Date.now() + 2_200;
    const loop = async () => {
      while (Date.now() < until) {
        const res = await call(api, 'GET', '/v1/status');
        const second = Math.floor(Date.now() / 1000);
        if (res.status === 200) admitted.set(second, (admitted.get(second) ?? 0) + 1);
        else if (res.status === 429) refused++;
        else throw new Error(`unexpected ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, loop));
    expect(refused).toBeGreaterThan(0);
    for (const [second, n] of admitted) expect(n, `second ${second}`).toBeLessThanOrEqual(Math.floor(PUBLIC_LIMIT * 1.1));
  });

  it('answers one idempotency key once, whichever process gets each try', async () => {
    const tenant = await s.t.tenant('Idem');
    const key = randomUUID();
    const tries = await Promise.all(
      Array.from({ length: 6 }, () => call(api, 'POST', '/v1/keys', { ...sk(tenant), 'idempotency-key': key }, { type: 'secret' })),
    );
    const created = tries.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    // A try that arrives while the first is running is told so (409); none creates a second key.
    for (const r of tries) expect([201, 409]).toContain(r.status);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    const keys = await s.t.ctx.db.selectFrom('api_keys').select('id').where('tenant_id', '=', tenant.tenant.id).execute();
    expect(keys).toHaveLength(5);
  });

  it('sells the last tickets of a rush once', async () => {
    const tenant = await s.t.tenant('Rush');
    const { event, ticketType } = await seedEvent(s.t, tenant, { ticketTypes: [{ price: 1000, quantity: 3 }] });
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(api, 'POST', `/v1/events/${event.slug}/book`, pk(tenant), bookingBody(ticketType.id, 1))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    for (const a of answers) expect([201, 409]).toContain(a.status);
  });

  it('admits a ticket scanned at once at both processes exactly once', async () => {
    const tenant = await s.t.tenant('Door');
    const paid = await paidBooking(s.t, tenant, { starts_at: new Date(Date.now() - 3600_000), ends_at: new Date(Date.now() + 3600_000) });
    const [ticket] = await attendeesOfOrder(s.t, paid.booking.id);
    const secret = await secretOf(s.t, ticket!.id);
    const scans = await Promise.all(
      Array.from({ length: 6 }, () => call(api, 'POST', `/v1/organizer/events/${paid.event.slug}/checkins`, sk(tenant), { secret, type: 'entry' })),
    );
    expect(scans.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(scans.filter((r) => r.body.data.status === 'ok')).toHaveLength(1);
  });

  it('opens one session under a one-session limit, whichever process each viewer reaches', async () => {
    const tenant = await s.t.tenant('Sessions');
    const secret = tenant.keys.test.secret;
    const stream = await createStream(s.t, secret);
    await grant(s.t, secret, { customer: 'viewer-1', resource: { type: 'ls', id: stream.id }, limits: { max_concurrent_sessions: 1, concurrency_policy: 'reject_new' } });
    const opens = await Promise.all(
      ['tv', 'phone', 'laptop', 'tablet'].map((device) =>
        call(api, 'POST', '/v1/access/sessions', bearer(secret), { resource: stream.id, customer: 'viewer-1', device_id: device }),
      ),
    );
    expect(opens.filter((o) => o.status === 201)).toHaveLength(1);
    // The others are refused as over the limit (409), not as errors.
    for (const o of opens) if (o.status !== 201) expect(o.status).toBe(409);
  });

  it(`refuses a revoked key and a revoked entitlement on both processes within ${CACHE_BOUND_MS} ms`, async () => {
    const tenant = await s.t.tenant('Caches');
    const root = tenant.keys.test.secret;
    const key = (await s.t.http().post('/v1/keys').set(bearer(root)).send({ type: 'secret' })).body.data;
    for (let i = 0; i < 4; i++) expect((await call(api, 'GET', '/v1/keys', bearer(key.secret))).status).toBe(200);
    expect((await s.t.http().delete(`/v1/keys/${key.id}`).set(bearer(root))).status).toBe(200);
    const keyMs = await timeUntilRefusedEverywhere(async () => (await call(api, 'GET', '/v1/keys', bearer(key.secret))).status === 401);
    expect(keyMs).toBeLessThan(CACHE_BOUND_MS);

    const stream = await createStream(s.t, root);
    const entitlement = await grant(s.t, root, { customer: 'viewer-2', resource: { type: 'ls', id: stream.id } });
    const check = () => call(api, 'POST', '/v1/access/check', bearer(root), { customer: 'viewer-2', resource: { type: 'ls', id: stream.id } });
    for (let i = 0; i < 4; i++) expect((await check()).body.data.allowed).toBe(true);
    expect((await s.t.http().delete(`/v1/access/entitlements/${entitlement.id}`).set(bearer(root))).status).toBe(200);
    const entitlementMs = await timeUntilRefusedEverywhere(async () => (await check()).body.data.allowed === false);
    expect(entitlementMs).toBeLessThan(CACHE_BOUND_MS);
  });

  it('delivers each webhook once per attempt, from the worker', async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      const tenant = await s.t.tenant('Hooks');
      const secret = tenant.keys.test.secret;
      const endpoint = await call(api, 'POST', '/v1/webhook_endpoints', bearer(secret), { url: receiver.url('/scale'), enabled_events: ['streams.live_stream.created'] });
      expect(endpoint.status).toBe(201);
      const created = await Promise.all(Array.from({ length: 16 }, () => call(api, 'POST', '/v1/streams/live_streams', bearer(secret), {})));
      expect(created.map((c) => c.status)).toEqual(Array(16).fill(201));
      await receiver.waitFor(16, 30_000);
      // Room for a second delivery of any event, which must not come.
      await new Promise((r) => setTimeout(r, 2_000));
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(16);
      expect(new Set(ids).size).toBe(16);
    } finally {
      await receiver.close();
    }
  });
});
