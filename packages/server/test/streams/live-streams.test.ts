import { describe, expect, it } from 'vitest';
import type { LiveInputSettings } from '../../src/modules/streams/network/video-network';
import { useTestServer } from '../harness';
import { client, createStream, expectError, expectStatus, streamEvents, useLiveTenant } from './live-fixtures';

const t = useTestServer();
const { tenant, api } = useLiveTenant(t, 'Live Co');

describe('POST /v1/streams/live_streams', () => {
  it('creates a stream with the spec defaults, ingest, a signed playback id and a created event', async () => {
    const stream = await createStream(t, tenant.key);
    expect(stream).toMatchObject({
      object: 'live_stream',
      livemode: false,
      status: 'idle',
      provider: 'simulated',
      latency_mode: 'low',
      reconnect_window: 60,
      audio_only: false,
      playback_policy: 'signed',
      simulcast_targets: [],
      external_id: null,
      metadata: {},
      sequence: 1,
      health: { status: 'healthy', network: 'simulated', reason: null },
    });
    expect(stream.id).toMatch(/^ls_/);
    expect(stream.playback_ids).toEqual([{ id: expect.stringMatching(/^pb_/), policy: 'signed' }]);
    expect(stream.ingest).toEqual({
      rtmp_url: expect.stringMatching(/^rtmps:\/\//),
      rtmp_backup_url: expect.stringMatching(/^rtmps:\/\//),
      srt_url: expect.stringMatching(/^srt:\/\//),
      whip_url: expect.stringMatching(/^https:\/\//),
      stream_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      srt_passphrase: expect.any(String),
    });
    const [created] = await streamEvents(t, tenant.id, stream.id);
    expect(created!.type).toBe('streams.live_stream.created');
    expect(created!.data.previous_attributes).toBeNull();
    expect(created!.data.object.status).toBe('idle');
  });

  it('takes every optional field', async () => {
    const stream = await createStream(t, tenant.key, {
      latency_mode: 'standard',
      reconnect_window: 1800,
      audio_only: true,
      playback_policy: 'public',
      external_id: 'show-1',
      metadata: { show: 'late night' },
    });
    expect(stream).toMatchObject({
      latency_mode: 'standard',
      reconnect_window: 1800,
      audio_only: true,
      playback_policy: 'public',
      external_id: 'show-1',
      metadata: { show: 'late night' },
    });
    expect(stream.playback_ids).toEqual([{ id: expect.any(String), policy: 'public' }]);
    // The simulated network offers no WHIP for audio-only streams: a `null` ingest field means "not offered".
    expect(stream.ingest.whip_url).toBeNull();
  });

  it('stores the stream key sealed, never in plain text', async () => {
    const stream = await createStream(t, tenant.key);
    const row = await t.ctx.db.selectFrom('live_streams').selectAll().where('id', '=', stream.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(stream.ingest.stream_key);
    expect(JSON.stringify(row)).not.toContain(stream.ingest.srt_passphrase);
    expect(row.stream_key_sealed).toMatch(/^v1\./);
  });

  it.each([
    [{ reconnect_window: -1 }, 'reconnect_window'],
    [{ reconnect_window: 1801 }, 'reconnect_window'],
    [{ reconnect_window: 1.5 }, 'reconnect_window'],
    [{ latency_mode: 'ultra' }, 'latency_mode'],
    [{ playback_policy: 'private' }, 'playback_policy'],
    [{ audio_only: 'yes' }, 'audio_only'],
    [{ external_id: '' }, 'external_id'],
    [{ external_id: 'x'.repeat(256) }, 'external_id'],
    [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
    [{ metadata: { ['k'.repeat(41)]: 'v' } }, `metadata.${'k'.repeat(41)}`],
    [{ metadata: { k: 'v'.repeat(501) } }, 'metadata.k'],
    [{ simulcast_targets: [{ url: 'https://example.com/live', stream_key: 'k' }] }, 'simulcast_targets.0.url'],
    [{ simulcast_targets: [{ url: 'rtmp://example.com/live' }] }, 'simulcast_targets.0.stream_key'],
    [{ simulcast_targets: Array.from({ length: 7 }, () => ({ url: 'rtmp://example.com/live', stream_key: 'k' })) }, 'simulcast_targets'],
  ])('refuses %j with 422 validation_failed', async (body, param) => {
    expectError(await api().post('/v1/streams/live_streams', body), 422, 'validation_failed', { param: param });
  });

  it('accepts the limits themselves: window 0 and 1800, 6 targets, 50 metadata keys of 40/500 characters', async () => {
    expect((await createStream(t, tenant.key, { reconnect_window: 0 })).reconnect_window).toBe(0);
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)]));
    const targets = Array.from({ length: 6 }, (_, i) => ({ url: `rtmps://live${i}.example.com/app`, stream_key: `key-${i}` }));
    const stream = await createStream(t, tenant.key, { reconnect_window: 1800, metadata, simulcast_targets: targets });
    expect(Object.keys(stream.metadata)).toHaveLength(50);
    expect(stream.simulcast_targets).toHaveLength(6);
  });

  it('keeps simulcast targets the network rejects, with status errored, and never returns their keys', async () => {
    const stream = await createStream(t, tenant.key, {
      simulcast_targets: [
        { url: 'rtmps://live.example.com/app', stream_key: 'target-key-ok' },
        { url: 'rtmp://127.0.0.1/app', stream_key: 'target-key-bad' },
      ],
    });
    expect(stream.simulcast_targets).toEqual([
      expect.objectContaining({ object: 'simulcast_target', url: 'rtmps://live.example.com/app', status: 'active', error: null }),
      expect.objectContaining({ url: 'rtmp://127.0.0.1/app', status: 'errored', error: expect.stringContaining('127.0.0.1') }),
    ]);
    expect(JSON.stringify(stream)).not.toContain('target-key');
    const rows = await t.ctx.db.selectFrom('simulcast_targets').selectAll().where('live_stream_id', '=', stream.id).execute();
    expect(JSON.stringify(rows)).not.toContain('target-key');
  });

  it('answers 422 provider_rejected and creates nothing when the network refuses a capability', async () => {
    const before = await t.ctx.db.selectFrom('live_streams').select('id').execute();
    const res = await api().post('/v1/streams/live_streams', { audio_only: true, latency_mode: 'low' });
    expectError(res, 422, 'provider_rejected', { param: 'latency_mode' });
    expect(await t.ctx.db.selectFrom('live_streams').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses a taken external_id with 409, and frees it when the stream is deleted', async () => {
    const first = await createStream(t, tenant.key, { external_id: 'unique-1' });
    expectError(await api().post('/v1/streams/live_streams', { external_id: 'unique-1' }), 409, 'external_id_taken', { param: 'external_id' });
    expectStatus(await api().delete(`/v1/streams/live_streams/${first.id}`), 200);
    expect((await createStream(t, tenant.key, { external_id: 'unique-1' })).external_id).toBe('unique-1');
  });

  it('replays the same response for a repeated Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': 'create-stream-1' };
    const a = expectStatus(await api().post('/v1/streams/live_streams', { metadata: { a: '1' } }, headers), 201);
    const b = await api().post('/v1/streams/live_streams', { metadata: { a: '1' } }, headers);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.data.id).toBe(a.data.id);
  });
});

describe('reads', () => {
  it('gets by id and by external id; unknown or foreign ids are 404', async () => {
    const stream = await createStream(t, tenant.key, { external_id: 'read-me' });
    expect(expectStatus(await api().get(`/v1/streams/live_streams/${stream.id}`), 200).data).toEqual(stream);
    expect(expectStatus(await api().get('/v1/streams/live_streams/external/read-me'), 200).data.id).toBe(stream.id);
    expectError(await api().get('/v1/streams/live_streams/ls_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    expectError(await api().get('/v1/streams/live_streams/ast_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    expectError(await api().get('/v1/streams/live_streams/external/nope'), 404, 'resource_not_found');
  });

  it('lists newest first with cursor pagination and filters by external_id and metadata', async () => {
    const { keys } = await t.tenant('Lister');
    const k = keys.test.secret;
    const a = await createStream(t, k, { metadata: { tier: 'gold' } });
    const b = await createStream(t, k, { metadata: { tier: 'silver' }, external_id: 'b' });
    const c = await createStream(t, k, { metadata: { tier: 'gold' } });
    const page1 = expectStatus(await client(t, k).get('/v1/streams/live_streams?limit=2'), 200);
    expect(page1.data.map((s: any) => s.id)).toEqual([c.id, b.id]);
    expect(page1.meta.pagination).toMatchObject({ limit: 2, has_more: true });
    const page2 = expectStatus(await client(t, k).get(`/v1/streams/live_streams?limit=2&cursor=${page1.meta.pagination.next_cursor}`), 200);
    expect(page2.data.map((s: any) => s.id)).toEqual([a.id]);
    expect(page2.meta.pagination.has_more).toBe(false);
    const gold = expectStatus(await client(t, k).get('/v1/streams/live_streams?metadata[tier]=gold'), 200);
    expect(gold.data.map((s: any) => s.id)).toEqual([c.id, a.id]);
    const byExternal = expectStatus(await client(t, k).get('/v1/streams/live_streams?external_id=b'), 200);
    expect(byExternal.data.map((s: any) => s.id)).toEqual([b.id]);
    expect(page1.data[0].ingest.stream_key).toBe(c.ingest.stream_key);
  });

  it('lists each stream exactly as it is retrieved: simulcast targets and playback ids in order, keys unsealed', async () => {
    const { keys } = await t.tenant('Shown alike');
    const k = keys.test.secret;
    const plain = await createStream(t, k, { metadata: { tier: 'gold' } });
    const rich = await createStream(t, k, {
      metadata: { tier: 'gold' },
      simulcast_targets: [
        { url: 'rtmps://live.example.com/app', stream_key: 'target-key-1' },
        { url: 'rtmp://127.0.0.1/app', stream_key: 'target-key-2' },
      ],
    });
    expectStatus(await client(t, k).post('/v1/streams/playback_ids', { resource: rich.id, policy: 'public' }), 201);
    // A page reads each stream as JSON written by PostgreSQL, a retrieve as columns: the same instant either way,
    // microseconds included.
    await t.ctx.db
      .updateTable('live_streams')
      .set({ external_id: 'rich-1', updated_at: '2026-11-24 01:02:03.456789+00' })
      .where('id', '=', rich.id)
      .execute();
    const listed = expectStatus(await client(t, k).get('/v1/streams/live_streams?metadata[tier]=gold'), 200).data;
    for (const s of [rich, plain]) {
      const retrieved = expectStatus(await client(t, k).get(`/v1/streams/live_streams/${s.id}`), 200).data;
      expect(listed.find((l: any) => l.id === s.id)).toEqual(retrieved);
    }
    const shown = listed.find((l: any) => l.id === rich.id);
    expect(shown).toMatchObject({ external_id: 'rich-1', updated_at: '2026-11-24T01:02:03.456Z', sequence: expect.any(Number) });
    expect(shown.simulcast_targets).toHaveLength(2);
    expect(shown.playback_ids.map((p: any) => p.policy)).toEqual(['signed', 'public']);
    expect(listed.find((l: any) => l.id === plain.id).simulcast_targets).toEqual([]);
    expect(JSON.stringify(listed)).not.toContain('target-key');
  });

  it('refuses any expand[] path (live streams have nothing to expand)', async () => {
    const stream = await createStream(t, tenant.key);
    expectError(await api().get(`/v1/streams/live_streams/${stream.id}?expand[]=playback_ids`), 400, 'invalid_expand_path', { param: 'playback_ids' });
    expectError(await api().get('/v1/streams/live_streams?expand[]=x'), 400, 'invalid_expand_path', { param: 'x' });
  });
});
