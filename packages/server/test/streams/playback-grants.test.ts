import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../harness';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { client, createStream, expectError, expectStatus } from './live-fixtures';

let t: TestServer;
let key: string;
let tenantId: string;
beforeAll(async () => {
  t = await createTestServer({ SVC_RATE_LIMIT_PUBLIC: '100000' });
  const created = await t.tenant('Grants');
  key = created.keys.test.secret;
  tenantId = created.tenant.id;
});
afterAll(() => t.close());

const base = (url: string) => {
  const u = new URL(url);
  return { path: u.pathname.replace(/\.m3u8$/, ''), token: u.searchParams.get('token')! };
};

describe('segments of a link checked by a playlist request are served from memory', () => {
  it('serves segments without a new check for 30 s after the playlist, then checks again', async () => {
    const s = await createStream(t, key);
    const signed = s.playback_ids.find((p: { policy: string }) => p.policy === 'signed').id as string;
    const link = await createPlaybackLink(streamsDeps(t.ctx), { tenantId, livemode: false }, signed, new Date(Date.now() + 3_600_000));
    const { path, token } = base(link.url);
    const q = `?token=${encodeURIComponent(token)}`;
    expect((await t.http().get(`${path}/media.m3u8${q}`)).status).toBe(200);

    // The stream is disabled: playlists refuse at once; a segment of the link just checked still plays.
    expectStatus(await client(t, key).post(`/v1/streams/live_streams/${s.id}/disable`), 200);
    expectError(await t.http().get(`${path}/media.m3u8${q}`), 409, 'stream_disabled');
    expect((await t.http().get(`${path}/segments/7.ts${q}`)).status).toBe(200);
    // Another link (here: none) is always checked in full.
    expectError(await t.http().get(`${path}/segments/7.ts`), 401, 'invalid_playback_token');

    // Past the 30 seconds the segment is checked again, and refused.
    t.ctx.clock = () => new Date(Date.now() + 31_000);
    try {
      expectError(await t.http().get(`${path}/segments/7.ts${q}`), 409, 'stream_disabled');
    } finally {
      t.ctx.clock = undefined;
    }
  });
});
