import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestServer, type TestServer } from '../harness';
import { Receiver } from './receiver';
import { attemptsOf, createEndpoint, emit, eventually, startWorker, type RunningWorker } from './webhook-helpers';

const t = useTestServer();
let w: RunningWorker;
const receivers: Receiver[] = [];

beforeAll(async () => {
  w = await startWorker(t);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await w.stop();
});

async function setup(enabledEvents = ['*']) {
  const { tenant, keys } = await t.tenant();
  const r = await new Receiver().start();
  receivers.push(r);
  const endpoint = await createEndpoint(t, keys.test.secret, { url: r.url(), enabled_events: enabledEvents });
  return { tenant, key: keys.test.secret, r, endpoint, scope: { tenantId: tenant.id, livemode: false } };
}

const MIN = 60_000;
const H = 60 * MIN;

describe('retry schedule and disabling', () => {
  it('retries on the spec table until 72 h, then disables the endpoint, emits the event and records an email', async () => {
    const { tenant, key, r, endpoint, scope } = await setup(['streams.*']);
    const watcher = await new Receiver().start();
    receivers.push(watcher);
    await createEndpoint(t, key, { url: watcher.url(), enabled_events: ['platform.*'] });
    r.answer(() => ({ status: 503, body: 'down' }));
    const [event] = await emit(t, scope, 'streams.asset.errored');
    const attemptTimes: number[] = [];
    for (let n = 1; ; n++) {
      await r.waitFor(n);
      const latest = await eventually(async () => {
        const list = await attemptsOf(t, key, endpoint.id);
        expect(list).toHaveLength(n);
        return list[0]!;
      });
      expect(latest).toMatchObject({ attempt: n, event: event!.id, status_code: 503, succeeded: false });
      attemptTimes.push(Date.parse(latest.created_at as string));
      if (latest.next_attempt_at === null) break;
      // Jump the delivery clock to just past the next attempt.
      w.clock.advance(Date.parse(latest.next_attempt_at as string) - w.clock.now().getTime() + 1_000);
    }
    const waits = attemptTimes.slice(1).map((at, i) => at - attemptTimes[i]!);
    // Each wait is the table's (random fixed at 0.5, no jitter) plus the 1 s the test overshoots by.
    expect(waits).toEqual([MIN, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 12 * H, 12 * H, 12 * H, 12 * H].map((ms) => ms + 1_000));
    expect(attemptTimes.at(-1)! - attemptTimes[0]!).toBeLessThanOrEqual(72 * H);

    const [note] = await watcher.waitFor(1);
    expect(JSON.parse(note!.body)).toMatchObject({
      type: 'platform.webhook_endpoint.disabled',
      subject: endpoint.id,
      data: { object: { status: 'disabled', disabled_reason: 'failing' } },
    });
    const fetched = await t.http().get(`/v1/webhook_endpoints/${endpoint.id}`).set(bearer(key));
    expect(fetched.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
    const emails = await t.ctx.db.selectFrom('email_outbox').selectAll().where('tenant_id', '=', tenant.id).execute();
    expect(emails.map((e) => e.template)).toEqual(['webhook_endpoint_disabled']);
    const failed = await t.http().get(`/v1/events?delivery_success=false&type=streams.*`).set(bearer(key));
    expect(failed.body.data.map((e: { id: string }) => e.id)).toEqual([event!.id]);
  });

  it('a success resets the failure streak; failing every delivery for 3 days disables the endpoint', async () => {
    const { key, r, endpoint, scope } = await setup(['streams.*']);
    const failingSince = async () =>
      (await t.ctx.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).failing_since;
    const attemptsReach = (n: number) => eventually(async () => expect(await attemptsOf(t, key, endpoint.id)).toHaveLength(n));
    r.answer(() => ({ status: 500 }));
    await emit(t, scope, 'streams.asset.ready');
    await attemptsReach(1);
    expect(await failingSince()).not.toBeNull();
    r.answer(() => ({ status: 200 }));
    await emit(t, scope, 'streams.asset.ready');
    await attemptsReach(2);
    expect(await failingSince()).toBeNull();

    // A new streak starts 73 h later (the first delivery's last retry fails then, the second event too).
    r.answer(() => ({ status: 500 }));
    w.clock.advance(73 * H);
    await emit(t, scope, 'streams.asset.ready');
    await attemptsReach(4);
    const status = async () => (await t.http().get(`/v1/webhook_endpoints/${endpoint.id}`).set(bearer(key))).body.data;
    expect(await status()).toMatchObject({ status: 'enabled' });

    // 73 h into that streak with no success: disabled.
    w.clock.advance(73 * H);
    await emit(t, scope, 'streams.asset.ready');
    await eventually(async () => expect(await status()).toMatchObject({ status: 'disabled', disabled_reason: 'failing' }));
  });

  it('re-enabling clears the failure streak', async () => {
    const { key, endpoint } = await setup();
    await t.http().patch(`/v1/webhook_endpoints/${endpoint.id}`).set(bearer(key)).send({ status: 'disabled' });
    const row = () => t.ctx.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('webhook_endpoints').set({ failing_since: new Date(0) }).where('id', '=', endpoint.id).execute();
    await t.http().patch(`/v1/webhook_endpoints/${endpoint.id}`).set(bearer(key)).send({ status: 'enabled' });
    expect((await row()).failing_since).toBeNull();
  });
});

describe('POST /v1/webhook_endpoints/{id}/replay', () => {
  it('re-sends listed events, or a time range filtered by enabled_events, with the same event ids', async () => {
    const { key, r, endpoint, scope } = await setup(['streams.asset.*']);
    const [a, b] = await emit(t, scope, 'streams.asset.ready', 2);
    await emit(t, scope, 'streams.live_stream.idle');
    await r.waitFor(2);
    const replay = (body: object) => t.http().post(`/v1/webhook_endpoints/${endpoint.id}/replay`).set(bearer(key)).send(body);

    const byId = await replay({ event_ids: [a!.id] });
    expect(byId.status, JSON.stringify(byId.body)).toBe(202);
    expect(byId.body.data).toEqual({ object: 'webhook_replay', webhook_endpoint: endpoint.id, event_count: 1 });
    await r.waitFor(3);
    expect(r.received[2]!.headers['svc-event-id']).toBe(a!.id);
    expect(JSON.parse(r.received[2]!.body)).toEqual(a);

    const range = await replay({ created_from: new Date(Date.now() - H).toISOString(), created_to: new Date(Date.now() + MIN).toISOString() });
    expect(range.body.data.event_count).toBe(2);
    await r.waitFor(5);
    expect(r.received.slice(3).map((x) => x.headers['svc-event-id']).sort()).toEqual([a!.id, b!.id].sort());
    const attempts = await eventually(async () => {
      const list = await attemptsOf(t, key, endpoint.id);
      expect(list).toHaveLength(5);
      return list;
    });
    expect(attempts.filter((x) => x.event === a!.id)).toHaveLength(3);
  });

  it('refuses unknown events, mixed or half forms, and events of another tenant', async () => {
    const { key, endpoint } = await setup();
    const other = await t.tenant('Other');
    const [foreign] = await emit(t, { tenantId: other.tenant.id, livemode: false }, 'streams.asset.ready');
    const replay = (body: object) => t.http().post(`/v1/webhook_endpoints/${endpoint.id}/replay`).set(bearer(key)).send(body);
    const missing = await replay({ event_ids: ['evt_01kz0000000000000000000000', foreign!.id] });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'resource_not_found', param: 'event_ids' });
    expect(missing.body.error.details.missing).toContain(foreign!.id);
    for (const body of [{}, { event_ids: ['evt_x'], created_from: new Date().toISOString() }, { created_from: new Date().toISOString() }, { event_ids: [] }]) {
      const res = await replay(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const backwards = await replay({ created_from: new Date().toISOString(), created_to: new Date(Date.now() - H).toISOString() });
    expect(backwards.status).toBe(422);
  });
});
