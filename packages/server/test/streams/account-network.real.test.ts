import { createPublicKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountVideoNetwork } from '../../src/modules/streams/network/external/account-network';
import { signingKeyObject } from '../../src/modules/streams/network/external/account-credentials';
import { DEFAULT_API_OPTIONS } from '../../src/modules/streams/network/external/provider-api';
import { VideoNetworkRejection } from '../../src/modules/streams/network/video-network';

/**
 * The adapter against the real provider, opt-in: it creates and deletes objects in the account given by
 *   SVC_CF_ACCOUNT_ID, SVC_CF_API_TOKEN, SVC_CF_CUSTOMER_CODE, SVC_CF_SIGNING_KEY_ID, SVC_CF_SIGNING_KEY_PEM
 * and, for the copy of a file, SVC_CF_VIDEO_URL (a public video file). Connect and disconnect need an
 * encoder, so notifications are proven against the local fake only.
 */
const env = process.env;
const REQUIRED = ['SVC_CF_ACCOUNT_ID', 'SVC_CF_API_TOKEN', 'SVC_CF_CUSTOMER_CODE', 'SVC_CF_SIGNING_KEY_ID', 'SVC_CF_SIGNING_KEY_PEM'];
const missing = REQUIRED.filter((name) => !env[name]);
const enabled = missing.length === 0;

if (!enabled) it.skip(`real video account suite skipped: set ${missing.join(', ')} to run it`, () => {});

describe.runIf(enabled)('the adapter on the real video account', () => {
  const network = (token = env.SVC_CF_API_TOKEN!) =>
    new AccountVideoNetwork(
      {
        configId: 'mpc_real',
        accountId: env.SVC_CF_ACCOUNT_ID!,
        customerCode: env.SVC_CF_CUSTOMER_CODE!,
        apiToken: token,
        signingKey: { id: env.SVC_CF_SIGNING_KEY_ID!, pem: env.SVC_CF_SIGNING_KEY_PEM! },
        webhookSecret: 'unused',
        notificationSecret: 'unused',
      },
      DEFAULT_API_OPTIONS,
      'http://127.0.0.1:4000',
    );
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined);
  });

  it('checks credentials, and refuses a bad token', async () => {
    await network().verifyCredentials();
    await expect(network('not-a-token').verifyCredentials()).rejects.toBeInstanceOf(VideoNetworkRejection);
  });

  it('creates, updates, disables, simulcasts and deletes a live input', async () => {
    const n = network();
    const input = await n.createLiveInput({ latencyMode: 'low', reconnectWindow: 60, audioOnly: false });
    cleanup.push(() => n.deleteLiveInput(input.providerRef));
    expect(input.ingest.rtmp_url).toMatch(/^rtmps:\/\//);
    expect(input.streamKey.length).toBeGreaterThan(10);
    await n.updateLiveInput(input.providerRef, { latencyMode: 'low', reconnectWindow: 120, audioOnly: false });
    await n.setLiveInputEnabled(input.providerRef, false);
    await n.setLiveInputEnabled(input.providerRef, true);
    const target = await n.addSimulcastTarget(input.providerRef, { url: 'rtmps://a.rtmp.youtube.com/live2', streamKey: 'svc-test' });
    expect(target.status).toBe('active');
    if (target.status === 'active') await n.removeSimulcastTarget(input.providerRef, target.providerRef);
    expect(await n.getRecording(input.providerRef, new Date())).toBeNull();
    await n.deleteLiveInput(input.providerRef);
  });

  it('hands out a direct upload URL and deletes its video', async () => {
    const n = network();
    const upload = await n.createUploadUrl({ uploadId: 'upl_real', corsOrigin: 'https://app.example.com' });
    expect(upload.url).toMatch(/^https:\/\//);
    await n.deleteAsset(upload.providerRef);
  });

  it.runIf(Boolean(env.SVC_CF_VIDEO_URL))('copies a video from a URL and deletes it', async () => {
    const n = network();
    const asset = await n.createAssetFromUrl({ url: env.SVC_CF_VIDEO_URL!, playbackPolicy: 'signed', generatedSubtitles: null });
    expect(asset.status).toBe('preparing');
    await n.deleteAsset(asset.providerRef);
  });

  it('makes and deletes a signing key; playback tokens verify with the tenant key', async () => {
    const n = network();
    const key = await n.createSigningKey();
    await n.deleteSigningKey(key.providerRef);
    const url = await n.playbackRedirect('mpc_real:0123456789abcdef0123456789abcdef', new Date(Date.now() + 60_000));
    const token = url.split('/')[3]!;
    await jwtVerify(token, createPublicKey(signingKeyObject(env.SVC_CF_SIGNING_KEY_PEM!)));
  });
});
