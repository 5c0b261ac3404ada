import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { startCdn, type RunningCdn } from '../kit/nginx-cdn';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { createAsset, expectError, readyAsset } from './media-fixtures';
import { drive, createStream, useLiveTenant } from './live-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
const { tenant, api } = useLiveTenant(t, 'CDN viewers');
/** What reached the origin, by route. */
const origin = { playlist: 0, segment: 0, check: 0 };
let server: Server;
let cdn: RunningCdn;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url!.split('?')[0]!;
    if (path.endsWith('/check')) origin.check++;
    else if (path.endsWith('.ts')) origin.segment++;
    else if (path.endsWith('.m3u8')) origin.playlist++;
    t.app(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cdn = await startCdn(`127.0.0.1:${(server.address() as { port: number }).port}`);
});
afterAll(async () => {
  await cdn?.stop();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

const edge = (path: string) => fetch(`${cdn.url}${path}`);
const link = async (playbackId: string, ms = 600_000) =>
  (await createPlaybackLink(streamsDeps(t.ctx), { tenantId: tenant.id, livemode: false }, playbackId, new Date(Date.now() + ms))).token!;
const tampered = (token: string) => `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;

async function signedAsset() {
  const asset = await readyAsset(t, tenant.key, 30, { playback_policy: 'signed' });
  return asset.playback_ids[0].id as string;
}

describe('cache headers a CDN can honour', () => {
  it('marks segments immutable, on-demand playlists a minute and live playlists one second', async () => {
    const pb = await signedAsset();
    const token = await link(pb);
    const playlist = await t.http().get(`/v1/streams/playback/${pb}/media.m3u8?token=${token}`);
    expect(playlist.headers['cache-control']).toBe('public, max-age=60');
    const segment = await t.http().get(`/v1/streams/playback/${pb}/segments/0.ts?token=${token}`);
    expect(segment.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const stream = await createStream(t, tenant.key, { playback_policy: 'public' });
    await drive(t, tenant.key, stream.id, 'connected', 'active');
    const live = await t.http().get(`/v1/streams/playback/${stream.playback_ids[0].id}/media.m3u8`);
    expect(live.status).toBe(200);
    expect(live.headers['cache-control']).toBe('public, max-age=1');
    const liveSegment = await t.http().get(`/v1/streams/playback/${stream.playback_ids[0].id}/segments/1.ts`);
    expect(liveSegment.headers['cache-control']).toBe('public, max-age=3600, immutable');
  });
});

describe('the edge check (GET /v1/streams/playback/:id/check)', () => {
  it('answers 204 for a good token, kept at most 5 s and never past the token', async () => {
    const pb = await signedAsset();
    const ok = await t.http().get(`/v1/streams/playback/${pb}/check?token=${await link(pb)}`);
    expect(ok.status).toBe(204);
    expect(ok.headers['cache-control']).toBe('public, max-age=5');
    const soon = await t.http().get(`/v1/streams/playback/${pb}/check?token=${await link(pb, 2_500)}`);
    expect(soon.status).toBe(204);
    expect(soon.headers['cache-control']).toMatch(/^(public, max-age=[12]|no-store)$/);
  });

  it('refuses a missing, bad or other playback id\'s token (401), an unknown id (404), an asset not ready (409)', async () => {
    const pb = await signedAsset();
    const other = await signedAsset();
    expectError(await t.http().get(`/v1/streams/playback/${pb}/check`), 401, 'invalid_playback_token');
    expectError(await t.http().get(`/v1/streams/playback/${pb}/check?token=${tampered(await link(pb))}`), 401, 'invalid_playback_token');
    expectError(await t.http().get(`/v1/streams/playback/${pb}/check?token=${await link(other)}`), 401, 'invalid_playback_token');
    expectError(await t.http().get('/v1/streams/playback/nope_000/check'), 404, 'resource_not_found');
    const preparing = await createAsset(t, tenant.key, { playback_policy: 'public' });
    expectError(await t.http().get(`/v1/streams/playback/${preparing.playback_ids[0].id}/check`), 409, 'asset_not_ready');
  });

  it('does not open another tenant\'s playback id with this tenant\'s token', async () => {
    const stranger = await t.tenant('Stranger');
    const theirs = await readyAsset(t, stranger.keys.test.secret, 30, { playback_policy: 'signed' });
    const mine = await signedAsset();
    expectError(await t.http().get(`/v1/streams/playback/${theirs.playback_ids[0].id}/check?token=${await link(mine)}`), 401, 'invalid_playback_token');
  });
});

describe('nginx proxy_cache in front of the HLS routes, as a CDN', () => {
  it('serves a crowd from its cache, checks every token, and refuses a bad one even on a cached segment', async () => {
    const pb = await signedAsset();
    // Each viewer's token differs (tokens of one expiry second are the same bytes).
    const viewers = await Promise.all(Array.from({ length: 10 }, (_, i) => link(pb, 600_000 + i * 1000)));
    expect(new Set(viewers).size).toBe(viewers.length);
    const before = { ...origin };

    // The first viewer fills the cache; the others are served from it.
    const first = await edge(`/v1/streams/playback/${pb}/media.m3u8?token=${viewers[0]}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    const segments = (await first.text()).split('\n').filter((l) => l.startsWith('segments/')).slice(0, 4);
    expect(segments.length).toBe(4);
    const statuses: string[] = [];
    for (const token of viewers) {
      for (const s of segments) {
        const res = await edge(`/v1/streams/playback/${pb}/${s.replace(/\?token=.*$/, '')}?token=${token}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
        statuses.push(res.headers.get('x-cache-status')!);
      }
    }
    const again = await edge(`/v1/streams/playback/${pb}/media.m3u8?token=${viewers[0]}`);
    expect(again.headers.get('x-cache-status')).toBe('HIT');

    const requests = statuses.length;
    const hits = statuses.filter((s) => s === 'HIT').length;
    const reached = origin.segment - before.segment;
    const checks = origin.check - before.check;
    console.log(`CDN: ${requests} segment requests by ${viewers.length} viewers, ${hits} cache hits, ${reached} reached the origin; ${checks} edge checks reached the origin`);
    expect(reached).toBe(segments.length);
    expect(hits).toBe(requests - segments.length);
    // One check per viewer's token, kept for its few seconds: the origin sees a check, not a download, per viewer.
    expect(checks).toBeLessThanOrEqual(viewers.length + 1);

    // A cached segment, asked for with a bad token, with none, or with another asset's: refused at the edge.
    const cached = `/v1/streams/playback/${pb}/${segments[0]!.replace(/\?token=.*$/, '')}`;
    const otherToken = await link(await signedAsset());
    for (const bad of [`?token=${tampered(viewers[0]!)}`, '', `?token=${otherToken}`]) {
      const res = await edge(`${cached}${bad}`);
      expect(res.status).toBe(401);
      expect(res.headers.get('x-cache-status')).toBeNull();
    }
    expect(origin.segment - before.segment).toBe(segments.length);

    // Anything the check answers with neither yes nor no goes to the origin, which answers its own error.
    expect((await edge('/v1/streams/playback/nope_000/segments/0.ts')).status).toBe(404);
  });
});
