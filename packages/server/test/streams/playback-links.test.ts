import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { createPlaybackLink } from '../../src/modules/streams/playback-ids/playback-ids.service';
import { streamsDeps } from '../../src/modules/streams/streams-deps';
import { client, createStream, drive, expectError, expectStatus, setVideo } from './live-fixtures';
import { createAsset, readyAsset } from './media-fixtures';
import { inOneHour, pathOf, scopeOf, tokenWith, usePlaybackTenant } from './playback-fixtures';

// A player fetches playlists and segments in bursts; the public per-IP limit would get in the way here.
const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
const { tenant, api, play, playWith } = usePlaybackTenant(t);

describe('signed playback links and the simulated playback route', () => {
  it('signs RS256 links (kid, sub = playback id, aud v, exp) that verify and play through the whole HLS chain', async () => {
    const stream = await createStream(t, tenant.key);
    const pb = stream.playback_ids[0].id;
    const expiresAt = inOneHour();
    const link = await createPlaybackLink(streamsDeps(t.ctx), scopeOf(tenant.id), pb, expiresAt);
    expect(link.url).toMatch(new RegExp(`/v1/streams/playback/${pb}\\.m3u8\\?token=`));
    const header = decodeProtectedHeader(link.token!);
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.stringMatching(/^psk_/) });
    const claims = decodeJwt(link.token!);
    expect(claims).toMatchObject({ sub: pb, aud: 'v', exp: Math.floor(expiresAt.getTime() / 1000) });
    const signer = await t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('id', '=', header.kid!).executeTakeFirstOrThrow();
    expect(signer.kind).toBe('system');
    await expect(jwtVerify(link.token!, await importSPKI(signer.public_key_pem, 'RS256'), { audience: 'v', subject: pb })).resolves.toBeDefined();
    expect(link.expires_at).toBe(expiresAt.toISOString());

    const master = await play(pathOf(link.url));
    expect(master.status).toBe(200);
    expect(master.headers['content-type']).toMatch(/application\/vnd\.apple\.mpegurl/);
    expect(master.text).toMatch(/^#EXTM3U/);
    const mediaUri = master.text.split('\n').find((l) => l && !l.startsWith('#'))!;
    const mediaUrl = new URL(mediaUri, `http://svc${pathOf(link.url)}`);
    const media = await play(`${mediaUrl.pathname}${mediaUrl.search}`);
    expect(media.status).toBe(200);
    expect(media.text).toContain('#EXT-X-TARGETDURATION');
    expect(media.text).not.toContain('#EXT-X-ENDLIST');
    const segmentUri = media.text.split('\n').find((l) => l && !l.startsWith('#'))!;
    const segmentUrl = new URL(segmentUri, mediaUrl);
    const segment = await play(`${segmentUrl.pathname}${segmentUrl.search}`).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toMatch(/video\/mp2t/);
    expect((segment.body as Buffer).length % 188).toBe(0);
    expect((segment.body as Buffer)[0]).toBe(0x47);
    // The segment and media playlist check the token too.
    expectError(await play(segmentUrl.pathname), 401, 'invalid_playback_token');
    expectError(await play(mediaUrl.pathname), 401, 'invalid_playback_token');
  });

  it('answers 401 invalid_playback_token for missing, malformed, expired and wrong tokens', async () => {
    const stream = await createStream(t, tenant.key);
    const other = await createStream(t, tenant.key);
    const pb = stream.playback_ids[0].id;
    const deps = streamsDeps(t.ctx);
    const good = await createPlaybackLink(deps, scopeOf(tenant.id), pb, inOneHour());
    const kid = decodeProtectedHeader(good.token!).kid!;
    const reason = async (token: string | undefined) => {
      const res = await playWith(pb, token);
      expectError(res, 401, 'invalid_playback_token');
      return res.body.error.details.reason;
    };
    expect(await reason(undefined)).toBe('missing');
    expect(await reason('not-a-jwt')).toBe('malformed');
    // Expired: a link made for a time already past.
    const expired = await createPlaybackLink(deps, scopeOf(tenant.id), pb, new Date(Date.now() - 1000));
    expect(await reason(expired.token!)).toBe('token_expired');
    // A good token of another playback id.
    const otherLink = await createPlaybackLink(deps, scopeOf(tenant.id), other.playback_ids[0].id, inOneHour());
    expect(await reason(otherLink.token!)).toBe('invalid_claims');
    // Signed by a key that is not the one named in `kid`.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const exp = Math.floor(Date.now() / 1000) + 600;
    expect(await reason(await tokenWith(stranger, kid, { sub: pb, aud: 'v', exp }))).toBe('invalid_signature');
    expect(await reason(await tokenWith(stranger, 'psk_01h455vb4pex5vsknk084sn02q', { sub: pb, aud: 'v', exp }))).toBe('unknown_key');
    // Tampered payload.
    const [h, , sig] = good.token!.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: pb, aud: 'v', exp: exp + 99_999 })).toString('base64url');
    expect(await reason(`${h}.${forged}.${sig}`)).toBe('invalid_signature');
    // HS256 with the same kid is not an RS256 token.
    const hs = await new SignJWT({ sub: pb, aud: 'v', exp }).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode('x'.repeat(32)));
    expect(await reason(hs)).toBe('malformed');
    // Another tenant's service key does not open this tenant's playback id.
    const stranger2 = await t.tenant('Stranger');
    const theirs = await createStream(t, stranger2.keys.test.secret);
    const theirLink = await createPlaybackLink(deps, scopeOf(stranger2.tenant.id), theirs.playback_ids[0].id, inOneHour());
    const theirKid = decodeProtectedHeader(theirLink.token!).kid!;
    const system = await t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('id', '=', theirKid).executeTakeFirstOrThrow();
    const pem = t.ctx.secrets.decrypt(system.private_key_sealed!, `${system.id}:private_key`);
    expect(await reason(await tokenWith(pem, theirKid, { sub: pb, aud: 'v', exp }))).toBe('unknown_key');
    // And the good one plays.
    expect((await play(pathOf(good.url))).status).toBe(200);
  });

  it('accepts tokens the tenant signs with its own key (wrong aud or no exp refused), until the key is revoked', async () => {
    const { tenant, keys } = await t.tenant('Self Signer');
    await setVideo(t, tenant.id, { dedicated_environment: true });
    const k = client(t, keys.test.secret);
    const stream = await createStream(t, keys.test.secret);
    const pb = stream.playback_ids[0].id;
    const signing = expectStatus(await k.post('/v1/streams/signing_keys'), 201).data;
    const exp = Math.floor(Date.now() / 1000) + 600;
    const token = await tokenWith(signing.private_key, signing.key_id, { sub: pb, aud: 'v', exp });
    const res = await playWith(pb, token);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`${pb}/media.m3u8?token=`);
    const wrongAud = await playWith(pb, await tokenWith(signing.private_key, signing.key_id, { sub: pb, aud: 'svc', exp }));
    expect(wrongAud.body.error.details.reason).toBe('invalid_claims');
    const noExp = await playWith(pb, await tokenWith(signing.private_key, signing.key_id, { sub: pb, aud: 'v' }));
    expect(noExp.body.error.details.reason).toBe('invalid_claims');
    const past = await playWith(pb, await tokenWith(signing.private_key, signing.key_id, { sub: pb, aud: 'v', exp: exp - 1200 }));
    expect(past.body.error.details.reason).toBe('token_expired');
    expectStatus(await k.delete(`/v1/streams/signing_keys/${signing.id}`), 200);
    const after = await playWith(pb, token);
    expectError(after, 401, 'invalid_playback_token');
    expect(after.body.error.details.reason).toBe('key_revoked');
  });

  it('plays public playback ids without a token; refuses a disabled stream and an asset that is not ready with 409', async () => {
    const stream = await createStream(t, tenant.key, { playback_policy: 'public' });
    const pb = stream.playback_ids[0].id;
    const link = await createPlaybackLink(streamsDeps(t.ctx), scopeOf(tenant.id), pb, inOneHour());
    expect(link.token).toBeNull();
    expect((await play(pathOf(link.url))).status).toBe(200);
    await drive(t, tenant.key, stream.id, 'connected', 'active');
    expect((await playWith(pb)).status).toBe(200);
    expectStatus(await api().post(`/v1/streams/live_streams/${stream.id}/disable`), 200);
    expectError(await playWith(pb), 409, 'stream_disabled');
    await expect(createPlaybackLink(streamsDeps(t.ctx), scopeOf(tenant.id), pb, inOneHour())).rejects.toMatchObject({ code: 'stream_disabled' });
    expectStatus(await api().post(`/v1/streams/live_streams/${stream.id}/enable`), 200);
    expect((await playWith(pb)).status).toBe(200);

    const preparing = await createAsset(t, tenant.key, { playback_policy: 'public' });
    expectError(await playWith(preparing.playback_ids[0].id), 409, 'asset_not_ready');
    const ready = await readyAsset(t, tenant.key, 7, { playback_policy: 'public' });
    const vod = await play(`/v1/streams/playback/${ready.playback_ids[0].id}/media.m3u8`);
    expect(vod.status).toBe(200);
    expect(vod.text).toContain('#EXT-X-ENDLIST');
    expect(vod.text.match(/#EXTINF/g)).toHaveLength(4);
  });

  it('answers 404 for unknown playback ids and ids of another prefix', async () => {
    expectError(await playWith('pb_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
    expectError(await playWith('ls_01h455vb4pex5vsknk084sn02q'), 404, 'resource_not_found');
  });

  it('signs links for live-mode streams with the live environment\'s own key', async () => {
    const { tenant, keys } = await t.tenant('Live Links');
    await setVideo(t, tenant.id, { live_network: 'simulated' });
    const stream = expectStatus(await client(t, keys.live.secret).post('/v1/streams/live_streams', {}), 201).data;
    const pb = stream.playback_ids[0].id;
    const live = await createPlaybackLink(streamsDeps(t.ctx), scopeOf(tenant.id, true), pb, inOneHour());
    expect((await play(pathOf(live.url))).status).toBe(200);
    const testStream = await createStream(t, keys.test.secret);
    const testLink = await createPlaybackLink(streamsDeps(t.ctx), scopeOf(tenant.id), testStream.playback_ids[0].id, inOneHour());
    expect(decodeProtectedHeader(testLink.token!).kid).not.toBe(decodeProtectedHeader(live.token!).kid);
    // A test-mode key's token does not open a live playback id.
    const testPem = await t.ctx.db.selectFrom('playback_signing_keys').selectAll().where('id', '=', decodeProtectedHeader(testLink.token!).kid!).executeTakeFirstOrThrow();
    const pem = t.ctx.secrets.decrypt(testPem.private_key_sealed!, `${testPem.id}:private_key`);
    const cross = await playWith(pb, await tokenWith(pem, testPem.id, { sub: pb, aud: 'v', exp: Math.floor(Date.now() / 1000) + 60 }));
    expect(cross.body.error.details.reason).toBe('unknown_key');
  });
});
