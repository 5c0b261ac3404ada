import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { client, createStream, expectError, expectStatus, setVideo, streamEvents } from './live-fixtures';
import { eventsOf, readyAsset } from './media-fixtures';
import { inOneHour, scopeOf, usePlaybackTenant } from './playback-fixtures';

// A player fetches playlists and segments in bursts; the public per-IP limit would get in the way here.
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const { tenant, api, play, playWith } = usePlaybackTenant(t);

describe('playback ids', () => {
  it('adds a playback id to a stream (signed by default) with an updated event, and deletes it', async () => {
    const stream = await createStream(t, tenant.key, { playback_policy: 'public' });
    const created = expectStatus(await api().post('/v1/streams/playback_ids', { resource: stream.id }), 201).data;
    expect(created).toMatchObject({ object: 'playback_id', policy: 'signed', resource: stream.id, livemode: false });
    expect(created.id).toMatch(/^pb_/);
    const shown = expectStatus(await api().get(`/v1/streams/live_streams/${stream.id}`), 200).data;
    expect(shown.playback_ids).toEqual([stream.playback_ids[0], { id: created.id, policy: 'signed' }]);
    let events = await streamEvents(t, tenant.id, stream.id);
    expect(events.at(-1)!.type).toBe('streams.live_stream.updated');
    expect(events.at(-1)!.data.previous_attributes).toEqual({ status: 'idle', playback_ids: stream.playback_ids });

    const removed = expectStatus(await api().delete(`/v1/streams/playback_ids/${created.id}`), 200).data;
    expect(removed.id).toBe(created.id);
    expectError(await api().delete(`/v1/streams/playback_ids/${created.id}`), 404, 'resource_not_found');
    expectError(await playWith(created.id), 404, 'resource_not_found');
    expect(expectStatus(await api().get(`/v1/streams/live_streams/${stream.id}`), 200).data.playback_ids).toEqual(stream.playback_ids);
    events = await streamEvents(t, tenant.id, stream.id);
    expect(events.at(-1)!.data.previous_attributes!.playback_ids).toHaveLength(2);
  });

  it('adds a public playback id to an asset, with streams.asset.updated', async () => {
    const asset = await readyAsset(t, tenant.key);
    const created = expectStatus(await api().post('/v1/streams/playback_ids', { resource: asset.id, policy: 'public' }), 201).data;
    expect(created).toMatchObject({ resource: asset.id, policy: 'public' });
    const events = await eventsOf(t, tenant.id, asset.id);
    expect(events.at(-1)!.type).toBe('streams.asset.updated');
    expect(expectStatus(await playWith(created.id), 200)).toBeDefined();
  });

  it('validates the body and refuses resources that are not the caller\'s', async () => {
    const other = await t.tenant('Other Playback');
    const foreign = await createStream(t, other.keys.test.secret);
    expectError(await api().post('/v1/streams/playback_ids', { resource: foreign.id }), 404, 'resource_not_found');
    const liveTwin = await createStream(t, tenant.key);
    expectError(await client(t, other.keys.live.secret).post('/v1/streams/playback_ids', { resource: liveTwin.id }), 404, 'resource_not_found');
    expectError(await api().post('/v1/streams/playback_ids', { resource: 'cus_01h455vb4pex5vsknk084sn02q' }), 404, 'resource_not_found', { param: 'resource' });
    expectError(await api().post('/v1/streams/playback_ids', { resource: liveTwin.id, policy: 'open' }), 422, 'validation_failed', { param: 'policy' });
    expectError(await api().post('/v1/streams/playback_ids', {}), 422, 'validation_failed', { param: 'resource' });
    const foreignPb = foreign.playback_ids[0].id;
    expectError(await api().delete(`/v1/streams/playback_ids/${foreignPb}`), 404, 'resource_not_found');
  });
});

describe('signing keys', () => {
  it('never passes the limit, even with creations at once', async () => {
    const { tenant, keys } = await t.tenant('Near Limit');
    await setVideo(t, tenant.id, { dedicated_environment: true });
    const k = client(t, keys.test.secret);
    const first = expectStatus(await k.post('/v1/streams/signing_keys'), 201).data;
    // Fill up to one below the limit by copying the first key's row.
    await t.ctx.db
      .insertInto('playback_signing_keys')
      .columns(['id', 'tenant_id', 'livemode', 'kind', 'provider', 'provider_ref', 'public_key_pem', 'fingerprint', 'private_key_sealed', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom(['playback_signing_keys', sql`generate_series(1, 998)`.as('g')])
          .select([
            sql<string>`'psk_copy' || g`.as('id'),
            'tenant_id', 'livemode', 'kind', 'provider', 'provider_ref', 'public_key_pem', 'fingerprint', 'private_key_sealed', 'created_at',
          ])
          .where('playback_signing_keys.id', '=', first.id),
      )
      .execute();
    const answers = await Promise.all(Array.from({ length: 4 }, () => k.post('/v1/streams/signing_keys')));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expectError(answers.find((a) => a.status === 409)!, 409, 'signing_key_limit_reached');
  });

  it('needs the tenant\'s own video environment: 409 dedicated_environment_required', async () => {
    const { keys } = await t.tenant('No Env');
    expectError(await client(t, keys.test.secret).post('/v1/streams/signing_keys'), 409, 'dedicated_environment_required');
    expect(expectStatus(await client(t, keys.test.secret).get('/v1/streams/signing_keys'), 200).data).toEqual([]);
  });

  it('creates an RSA key returning private_key once, keeps only the public key and fingerprint, lists and revokes', async () => {
    const { tenant, keys } = await t.tenant('Own Env');
    await setVideo(t, tenant.id, { dedicated_environment: true });
    const k = client(t, keys.test.secret);
    const created = expectStatus(await k.post('/v1/streams/signing_keys'), 201).data;
    expect(created).toMatchObject({ object: 'signing_key', status: 'active', livemode: false, revoked_at: null });
    expect(created.key_id).toBe(created.id);
    expect(created.id).toMatch(/^psk_/);
    expect(created.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(created.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const row = await t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.private_key_sealed).toBeNull();
    expect(JSON.stringify(row)).not.toContain(created.private_key.split('\n')[1]);
    const listed = expectStatus(await k.get('/v1/streams/signing_keys'), 200);
    expect(listed.data).toEqual([{ ...created, private_key: undefined }].map(({ private_key, ...rest }) => rest));
    expect(listed.meta.pagination).toMatchObject({ has_more: false });
    const revoked = expectStatus(await k.delete(`/v1/streams/signing_keys/${created.id}`), 200).data;
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    expect(revoked).not.toHaveProperty('private_key');
    expect(expectStatus(await k.delete(`/v1/streams/signing_keys/${created.id}`), 200).data.revoked_at).toBe(revoked.revoked_at);
    expectError(await k.delete('/v1/streams/signing_keys/psk_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    // The service's own key (made for signed links) is never listed or revocable by the tenant.
    const stream = await createStream(t, keys.test.secret);
    await createPlaybackLink(streamsDeps(t.ctx), scopeOf(tenant.id), stream.playback_ids[0].id, inOneHour());
    const system = await t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('kind', '=', 'system').where('tenant_id', '=', tenant.id).executeTakeFirstOrThrow();
    expect(expectStatus(await k.get('/v1/streams/signing_keys'), 200).data.map((x: any) => x.id)).toEqual([created.id]);
    expectError(await k.delete(`/v1/streams/signing_keys/${system.id}`), 404, 'resource_not_found');
  });

  it('allows at most 1,000 active keys per environment', async () => {
    const { tenant, keys } = await t.tenant('Many Keys');
    await setVideo(t, tenant.id, { dedicated_environment: true });
    const first = expectStatus(await client(t, keys.test.secret).post('/v1/streams/signing_keys'), 201).data;
    const row = await t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('playback_signing_keys')
      .values(Array.from({ length: 999 }, (_, i) => ({ ...row, id: `psk_01h455vb4pex5vsknk084s${String(i).padStart(4, '0')}`, created_at: new Date() })))
      .execute();
    expectError(await client(t, keys.test.secret).post('/v1/streams/signing_keys'), 409, 'signing_key_limit_reached');
    expectStatus(await client(t, keys.test.secret).delete(`/v1/streams/signing_keys/${first.id}`), 200);
    expectStatus(await client(t, keys.test.secret).post('/v1/streams/signing_keys'), 201);
    // The other environment counts on its own.
    await setVideo(t, tenant.id, { live_network: 'simulated' });
    expectStatus(await client(t, keys.live.secret).post('/v1/streams/signing_keys'), 201);
  });

  it('live mode without a network answers 409 video_network_not_configured', async () => {
    const { tenant, keys } = await t.tenant('Live Env');
    await setVideo(t, tenant.id, { dedicated_environment: true });
    expectError(await client(t, keys.live.secret).post('/v1/streams/signing_keys'), 409, 'video_network_not_configured');
  });
});
