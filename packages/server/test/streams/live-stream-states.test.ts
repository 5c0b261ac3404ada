import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useTestServer, type TestServer } from '../harness';
import { reconnectWindowJob, sweepReconnectWindows } from '../../src/modules/streams/live-streams/reconnect-window.job';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { createTenant } from '../../src/modules/platform/tenants/tenants.service';
import { client, createStream, drive, expectError, expectStatus, simulate, streamEvents } from './live-fixtures';

const t = useTestServer();
let tenantId: string;
let key: string;
beforeAll(async () => {
  // The reconnect window is a real pg-boss job here.
  t.ctx.jobs.register(reconnectWindowJob(streamsDeps(t.ctx)));
  await t.ctx.jobs.start();
  // The state table drives one key through a few hundred requests, faster than the default plan's 100 a second.
  const created = await createTenant(t.ctx.db, { name: 'States', rate_limits: { secret: 1000 } });
  tenantId = created.tenant.id;
  key = created.keys.test.secret;
});

const action = (id: string, verb: string) => client(t, key).post(`/v1/streams/live_streams/${id}/${verb}`);

/** The last event about a stream: its type, the status it shows and the status before. */
async function lastEvent(id: string) {
  const e = (await streamEvents(t, tenantId, id)).at(-1)!;
  return { type: e.type, status: e.data.object.status, previous: e.data.previous_attributes?.status, sequence: e.data.object.sequence };
}

describe('state table, driven by the test helper', () => {
  it('(any) encoder connects → connecting, event updated with status connecting', async () => {
    const s = await createStream(t, key);
    expect((await drive(t, key, s.id, 'connected')).status).toBe('connecting');
    expect(await lastEvent(s.id)).toEqual({ type: 'streams.live_stream.updated', status: 'connecting', previous: 'idle', sequence: 2 });
    // From active and disconnected too: an encoder that comes back.
    await drive(t, key, s.id, 'active');
    expect((await drive(t, key, s.id, 'connected')).status).toBe('connecting');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.updated', previous: 'active' });
    await drive(t, key, s.id, 'active', 'disconnected');
    expect((await drive(t, key, s.id, 'connected')).status).toBe('connecting');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.updated', previous: 'disconnected' });
  });

  it('connecting → video flows → active, event active', async () => {
    const s = await createStream(t, key);
    expect((await drive(t, key, s.id, 'connected', 'active')).status).toBe('active');
    expect(await lastEvent(s.id)).toEqual({ type: 'streams.live_stream.active', status: 'active', previous: 'connecting', sequence: 3 });
  });

  it('active → encoder drops → disconnected, event disconnected, and the broadcast stays open', async () => {
    const s = await createStream(t, key, { reconnect_window: 600 });
    expect((await drive(t, key, s.id, 'connected', 'active', 'disconnected')).status).toBe('disconnected');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.disconnected', status: 'disconnected', previous: 'active' });
    const row = await t.ctx.db.selectFrom('live_streams').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(row.reconnect_deadline!.getTime() - row.disconnected_at!.getTime()).toBe(600_000);
  });

  it.each(['connecting', 'active', 'disconnected'])('(broadcast: %s) → broadcast ends → idle, event idle', async (from) => {
    const s = await createStream(t, key);
    const path = { connecting: ['connected'], active: ['connected', 'active'], disconnected: ['connected', 'active', 'disconnected'] }[from]!;
    await drive(t, key, s.id, ...path);
    expect((await drive(t, key, s.id, 'idle')).status).toBe('idle');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.idle', status: 'idle', previous: from });
  });

  it.each(['idle', 'connecting', 'active', 'disconnected'])('(any: %s) → disable → disabled, refusing the encoder', async (from) => {
    const s = await createStream(t, key);
    const path = { idle: [], connecting: ['connected'], active: ['connected', 'active'], disconnected: ['connected', 'active', 'disconnected'] }[from]!;
    await drive(t, key, s.id, ...path);
    expect(expectStatus(await action(s.id, 'disable'), 200).data.status).toBe('disabled');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.updated', status: 'disabled', previous: from });
    expectError(await simulate(t, key, s.id, { event: 'connected' }), 409, 'stream_disabled');
    expectError(await simulate(t, key, s.id, { event: 'active' }), 409, 'stream_disabled');
    // Disabling again changes nothing and emits nothing.
    const count = (await streamEvents(t, tenantId, s.id)).length;
    expect(expectStatus(await action(s.id, 'disable'), 200).data.status).toBe('disabled');
    expect(await streamEvents(t, tenantId, s.id)).toHaveLength(count);
  });

  it('disabled → enable → idle: the stream takes video again', async () => {
    const s = await createStream(t, key);
    await action(s.id, 'disable');
    expect(expectStatus(await action(s.id, 'enable'), 200).data.status).toBe('idle');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.updated', status: 'idle', previous: 'disabled' });
    expect((await drive(t, key, s.id, 'connected')).status).toBe('connecting');
    // Enabling a stream that is not disabled changes nothing.
    const count = (await streamEvents(t, tenantId, s.id)).length;
    expect(expectStatus(await action(s.id, 'enable'), 200).data.status).toBe('connecting');
    expect(await streamEvents(t, tenantId, s.id)).toHaveLength(count);
  });

  it.each(['connecting', 'active', 'disconnected'])('(broadcast: %s) → complete → idle at once, event idle', async (from) => {
    const s = await createStream(t, key, { reconnect_window: 1800 });
    const path = { connecting: ['connected'], active: ['connected', 'active'], disconnected: ['connected', 'active', 'disconnected'] }[from]!;
    await drive(t, key, s.id, ...path);
    expect(expectStatus(await action(s.id, 'complete'), 200).data.status).toBe('idle');
    expect(await lastEvent(s.id)).toMatchObject({ type: 'streams.live_stream.idle', status: 'idle', previous: from });
    const row = await t.ctx.db.selectFrom('live_streams').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(row.reconnect_deadline).toBeNull();
  });

  it('complete without a broadcast changes nothing', async () => {
    const s = await createStream(t, key);
    expect(expectStatus(await action(s.id, 'complete'), 200).data.status).toBe('idle');
    await action(s.id, 'disable');
    expect(expectStatus(await action(s.id, 'complete'), 200).data.status).toBe('disabled');
    expect((await streamEvents(t, tenantId, s.id)).map((e) => e.type)).toEqual(['streams.live_stream.created', 'streams.live_stream.updated']);
  });

  it('idle with a test-mode key stays idle: the simulated stream takes no video by itself', async () => {
    const s = await createStream(t, key, { reconnect_window: 0 });
    await sweepReconnectWindows(streamsDeps(t.ctx));
    expect((await sql<{ n: number }>`select count(*)::int as n from pgboss.job where data::text like ${`%${s.id}%`}`.execute(t.ctx.db)).rows[0]!.n).toBe(0);
    expect(expectStatus(await client(t, key).get(`/v1/streams/live_streams/${s.id}`), 200).data.status).toBe('idle');
    expect((await streamEvents(t, tenantId, s.id)).map((e) => e.type)).toEqual(['streams.live_stream.created']);
  });

  it('refuses moves the table does not have with 409 invalid_state_transition', async () => {
    const s = await createStream(t, key);
    expectError(await simulate(t, key, s.id, { event: 'active' }), 409, 'invalid_state_transition');
    expectError(await simulate(t, key, s.id, { event: 'disconnected' }), 409, 'invalid_state_transition');
    await drive(t, key, s.id, 'connected');
    const res = await simulate(t, key, s.id, { event: 'disconnected' });
    expectError(res, 409, 'invalid_state_transition');
    expect(res.body.error.details).toEqual({ status: 'connecting', event: 'disconnected' });
    // Reports of what already is are taken without a change or an event.
    const count = (await streamEvents(t, tenantId, s.id)).length;
    await drive(t, key, s.id, 'connected');
    expect(await streamEvents(t, tenantId, s.id)).toHaveLength(count);
  });

  it('unhealthy and recovered change health, not status, with health in the events', async () => {
    const s = await createStream(t, key);
    await drive(t, key, s.id, 'connected', 'active');
    const sick = expectStatus(await simulate(t, key, s.id, { event: 'unhealthy', reason: 'Packet loss at the primary ingest' }), 200).data;
    expect(sick.status).toBe('active');
    expect(sick.health).toMatchObject({ status: 'unhealthy', network: 'simulated', reason: 'Packet loss at the primary ingest' });
    let events = await streamEvents(t, tenantId, s.id);
    expect(events.at(-1)!.type).toBe('streams.live_stream.unhealthy');
    expect(events.at(-1)!.data.object.health).toMatchObject({ status: 'unhealthy', reason: 'Packet loss at the primary ingest' });
    expect(events.at(-1)!.data.previous_attributes).toMatchObject({ status: 'active', health: { status: 'healthy' } });
    const well = expectStatus(await simulate(t, key, s.id, { event: 'recovered' }), 200).data;
    expect(well).toMatchObject({ status: 'active', health: { status: 'healthy', reason: null } });
    events = await streamEvents(t, tenantId, s.id);
    expect(events.at(-1)!.type).toBe('streams.live_stream.recovered');
    expect(events.at(-1)!.data.previous_attributes).toMatchObject({ status: 'active', health: { status: 'unhealthy' } });
    // Recovered while healthy: nothing to report.
    await simulate(t, key, s.id, { event: 'recovered' });
    expect(await streamEvents(t, tenantId, s.id)).toHaveLength(events.length);
  });

  it('checks the presented stream key on every report', async () => {
    const s = await createStream(t, key);
    expectError(await simulate(t, key, s.id, { event: 'connected', stream_key: 'wrong' }), 409, 'stream_key_rejected', { param: 'stream_key' });
    expect(expectStatus(await simulate(t, key, s.id, { event: 'connected', stream_key: s.ingest.stream_key }), 200).data.status).toBe('connecting');
    expectError(await simulate(t, key, s.id, { event: 'active', stream_key: 'wrong' }), 409, 'stream_key_rejected');
  });

  it('validates the helper body', async () => {
    const s = await createStream(t, key);
    expectError(await simulate(t, key, s.id, { event: 'exploded' }), 422, 'validation_failed', { param: 'event' });
    expectError(await client(t, key).post(`/v1/test_helpers/live_streams/${s.id}/simulate`, {}), 422, 'validation_failed', { param: 'event' });
    expectError(await simulate(t, key, 'ls_01h455vb4pex5vsknk084sn02q', { event: 'connected' }), 404, 'resource_not_found');
  });

  it('gives every event a growing sequence and previous_attributes.status, so receivers can order them', async () => {
    const s = await createStream(t, key);
    await drive(t, key, s.id, 'connected', 'active', 'unhealthy', 'recovered', 'disconnected', 'connected', 'active', 'idle');
    const events = await streamEvents(t, tenantId, s.id);
    expect(events).toHaveLength(9);
    for (const e of events.slice(1)) expect(e.data.previous_attributes).toHaveProperty('status');
    // Delivered out of order, the events still sort back into the stream's history by sequence.
    const shuffled = [events[4]!, events[0]!, events[8]!, events[2]!, events[6]!, events[1]!, events[7]!, events[3]!, events[5]!];
    const history = shuffled.sort((a, b) => a.data.object.sequence - b.data.object.sequence).map((e) => e.type.split('.').at(-1));
    expect(history).toEqual(['created', 'updated', 'active', 'unhealthy', 'recovered', 'disconnected', 'updated', 'active', 'idle']);
    expect(expectStatus(await client(t, key).get(`/v1/streams/live_streams/${s.id}`), 200).data.sequence).toBe(events.length);
  });
});

describe('reconnect window', () => {
  it('ends the broadcast through the job when the window passes without reconnection', async () => {
    const s = await createStream(t, key, { reconnect_window: 1 });
    await drive(t, key, s.id, 'connected', 'active', 'disconnected');
    let status = 'disconnected';
    for (let i = 0; i < 40 && status !== 'idle'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = expectStatus(await client(t, key).get(`/v1/streams/live_streams/${s.id}`), 200).data.status;
    }
    expect(status).toBe('idle');
    const last = (await streamEvents(t, tenantId, s.id)).at(-1)!;
    expect(last.type).toBe('streams.live_stream.idle');
    expect(last.data.previous_attributes).toEqual({ status: 'disconnected' });
    expect(last.request).toBeNull();
  });

  it('with window 0 the broadcast ends as soon as the job runs', async () => {
    const s = await createStream(t, key, { reconnect_window: 0 });
    await drive(t, key, s.id, 'connected', 'active', 'disconnected');
    let status = 'disconnected';
    for (let i = 0; i < 40 && status !== 'idle'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = expectStatus(await client(t, key).get(`/v1/streams/live_streams/${s.id}`), 200).data.status;
    }
    expect(status).toBe('idle');
  });

  it('follows the clock: nothing before the deadline, idle after; a reconnect inside the window keeps the broadcast', async () => {
    const { tenant, keys } = await t.tenant('Clocked');
    const k = keys.test.secret;
    // In the past, so streams of other tests (deadlines in real time) are not due on this clock.
    const t0 = new Date(Date.now() - 86_400_000);
    let now = t0;
    t.ctx.clock = () => now;
    const statusOf = async (id: string) => expectStatus(await client(t, k).get(`/v1/streams/live_streams/${id}`), 200).data.status;
    try {
      const deps = streamsDeps(t.ctx);
      const a = await createStream(t, k, { reconnect_window: 60 });
      const b = await createStream(t, k, { reconnect_window: 60 });
      await drive(t, k, a.id, 'connected', 'active', 'disconnected');
      await drive(t, k, b.id, 'connected', 'active', 'disconnected');
      now = new Date(t0.getTime() + 59_000);
      await drive(t, k, b.id, 'connected');
      await sweepReconnectWindows(deps);
      expect(await statusOf(a.id)).toBe('disconnected');
      now = new Date(t0.getTime() + 60_000);
      await sweepReconnectWindows(deps);
      expect(await statusOf(a.id)).toBe('idle');
      expect(await statusOf(b.id)).toBe('connecting');
      expect(await sweepReconnectWindows(deps)).toBe(0);
      const idle = (await streamEvents(t, tenant.id, a.id)).at(-1)!;
      expect(idle.type).toBe('streams.live_stream.idle');
    } finally {
      delete t.ctx.clock;
    }
  });
});

describe('test helper access', () => {
  it('refuses live keys with 403 live_mode_unavailable, restricted and publishable keys with 403 insufficient_permissions', async () => {
    const { tenant, keys } = await t.tenant('Helper Access');
    const s = await createStream(t, keys.test.secret);
    expectError(await simulate(t, keys.live.secret, s.id, { event: 'connected' }), 403, 'live_mode_unavailable');
    const restricted = expectStatus(
      await client(t, keys.test.secret).post('/v1/keys', { type: 'restricted', scopes: ['streams:write'] }),
      201,
    ).data.secret;
    expectError(await simulate(t, restricted, s.id, { event: 'connected' }), 403, 'insufficient_permissions');
    const pub = await t.http().post(`/v1/test_helpers/live_streams/${s.id}/simulate`).set('Svc-Publishable-Key', keys.test.publishable).send({ event: 'connected' });
    expectError(pub, 403, 'insufficient_permissions');
    expect(tenant.id).toBeTruthy();
  });
});
