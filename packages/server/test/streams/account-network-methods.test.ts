import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountVideoNetwork } from '../../src/modules/streams/network/external/account-network';
import { DEFAULT_API_OPTIONS, ProviderFault } from '../../src/modules/streams/network/external/provider-api';
import { VideoNetworkRejection, VideoNetworkStorageExhausted } from '../../src/modules/streams/network/video-network';
import { FakeVideoAccount } from './fake-video-account';

const fake = new FakeVideoAccount();
let network: AccountVideoNetwork;
const deleted: { refs: string[]; after: number }[] = [];
beforeAll(async () => {
  await fake.start();
  network = new AccountVideoNetwork(
    {
      configId: 'mpc_test',
      accountId: fake.accountId,
      customerCode: 'code',
      apiToken: fake.token,
      signingKey: { id: fake.signingKey.id, pem: fake.signingKey.pem },
      webhookSecret: 'w',
      notificationSecret: 'n',
    },
    { ...DEFAULT_API_OPTIONS, baseUrl: fake.url, backoffMs: 1 },
    'http://svc.test',
    async (refs, after) => void deleted.push({ refs, after }),
  );
});
afterAll(() => fake.stop());

const settings = { latencyMode: 'low' as const, reconnectWindow: 60, audioOnly: false };
const refuse = (message = 'Refused by the account') => fake.failures.push({ status: 400, errors: [{ code: 10005, message }] });
const outage = (times = 1, status = 500) => {
  for (let i = 0; i < times; i++) fake.failures.push({ status, errors: [{ code: 1000, message: 'internal' }] });
};
const uid = (ref: string) => ref.split(':')[1]!;

async function input() {
  return network.createLiveInput(settings);
}

/** Each method: what it does on the account when all is well, then a refusal and an outage. */
describe('every VideoNetwork method against the account API', () => {
  it('createLiveInput', async () => {
    const created = await input();
    expect(created.providerRef).toMatch(/^mpc_test:[0-9a-f]{32}$/);
    refuse();
    await expect(input()).rejects.toBeInstanceOf(VideoNetworkRejection);
    outage();
    await expect(input()).rejects.toBeInstanceOf(ProviderFault);
    fake.storageExhausted = true;
    await expect(input()).rejects.toBeInstanceOf(VideoNetworkStorageExhausted);
    fake.storageExhausted = false;
  });

  it('updateLiveInput, setLiveInputEnabled, completeLiveInput', async () => {
    const { providerRef } = await input();
    await network.updateLiveInput(providerRef, { ...settings, reconnectWindow: 30 });
    expect(fake.liveInputs.get(uid(providerRef)).recording.timeoutSeconds).toBe(30);
    await network.setLiveInputEnabled(providerRef, false);
    expect(fake.liveInputs.get(uid(providerRef)).enabled).toBe(false);
    await network.completeLiveInput(providerRef);
    await expect(network.updateLiveInput(providerRef, { ...settings, audioOnly: true })).rejects.toBeInstanceOf(VideoNetworkRejection);
    await expect(network.setLiveInputEnabled('mpc_test:0000', true)).rejects.toBeInstanceOf(VideoNetworkRejection);
    outage(3);
    await expect(network.setLiveInputEnabled(providerRef, true)).rejects.toBeInstanceOf(ProviderFault);
    outage(2, 503);
    await network.setLiveInputEnabled(providerRef, true);
    expect(fake.liveInputs.get(uid(providerRef)).enabled).toBe(true);
  });

  it('resetStreamKey replaces the input: same settings and outputs, the old one disabled and kept', async () => {
    const { providerRef, streamKey } = await input();
    const out = await network.addSimulcastTarget(providerRef, { url: 'rtmp://x.example.com/app', streamKey: 'yt' });
    const rec = fake.addRecording(uid(providerRef));
    await expect(network.resetStreamKey(providerRef)).rejects.toBeInstanceOf(VideoNetworkRejection);
    fake.finishVideo(rec.uid, 30);
    const fresh = await network.resetStreamKey(providerRef);
    expect(fresh.streamKey).not.toBe(streamKey);
    const next = fake.liveInputs.get(uid(fresh.replacement.providerRef));
    expect(next).toMatchObject({ enabled: true, meta: { previousInputs: [uid(providerRef)] }, recording: { timeoutSeconds: 60 } });
    expect(fresh.replacement.ingest.rtmp_url).toBe('rtmps://live.fake-account.invalid:443/live');
    expect(Object.keys(fresh.replacement.simulcastRefs)).toEqual([out.status === 'active' ? out.providerRef : '']);
    expect([...next.outputs.values()].map((o: any) => o.streamKey)).toEqual(['yt']);
    expect(fake.liveInputs.get(uid(providerRef)).enabled).toBe(false);

    // Deleting the stream later deletes both inputs, and both inputs' recordings.
    const again = fake.addRecording(uid(fresh.replacement.providerRef));
    await network.deleteLiveInput(fresh.replacement.providerRef);
    expect(fake.liveInputs.has(uid(providerRef))).toBe(false);
    expect(deleted.at(-1)!.refs.sort()).toEqual([`mpc_test:${again.uid}`, `mpc_test:${rec.uid}`].sort());
    const another = await input();
    outage(3);
    await expect(network.resetStreamKey(another.providerRef)).rejects.toBeInstanceOf(ProviderFault);
  });

  it('deleteLiveInput, with its recordings queued for later', async () => {
    const { providerRef } = await input();
    const rec = fake.addRecording(uid(providerRef));
    await network.deleteLiveInput(providerRef);
    expect(fake.liveInputs.has(uid(providerRef))).toBe(false);
    expect(deleted.at(-1)).toEqual({ refs: [`mpc_test:${rec.uid}`], after: 120 });
    await network.deleteLiveInput(providerRef); // already gone: done
    const other = await input();
    outage(3);
    await expect(network.deleteLiveInput(other.providerRef)).rejects.toBeInstanceOf(ProviderFault);
  });

  it('addSimulcastTarget and removeSimulcastTarget', async () => {
    const { providerRef } = await input();
    const added = await network.addSimulcastTarget(providerRef, { url: 'rtmp://x.example.com/app', streamKey: 'k' });
    expect(added.status).toBe('active');
    refuse('Output limit reached');
    expect(await network.addSimulcastTarget(providerRef, { url: 'rtmp://y.example.com/app', streamKey: 'k' })).toEqual({
      status: 'errored',
      providerRef: null,
      error: 'The video account refused the request: Output limit reached',
    });
    outage();
    await expect(network.addSimulcastTarget(providerRef, { url: 'rtmp://z.example.com/app', streamKey: 'k' })).rejects.toBeInstanceOf(ProviderFault);
    if (added.status === 'active') await network.removeSimulcastTarget(providerRef, added.providerRef);
    expect(fake.liveInputs.get(uid(providerRef)).outputs.size).toBe(0);
    outage(3);
    await expect(network.removeSimulcastTarget(providerRef, 'mpc_test:abc')).rejects.toBeInstanceOf(ProviderFault);
  });

  it('createAssetFromUrl, deleteAsset, createUploadUrl', async () => {
    const asset = await network.createAssetFromUrl({ url: 'https://m.example.com/a.mp4', playbackPolicy: 'signed', generatedSubtitles: null });
    expect(asset).toEqual({ providerRef: expect.stringMatching(/^mpc_test:/), status: 'preparing', duration: null });
    await network.deleteAsset(asset.providerRef);
    expect(fake.videos.has(uid(asset.providerRef))).toBe(false);
    const upload = await network.createUploadUrl({ uploadId: 'upl_1', corsOrigin: null });
    expect(upload.url).toBe(`https://upload.fake-account.invalid/${uid(upload.providerRef)}`);
    refuse();
    await expect(network.createAssetFromUrl({ url: 'https://m.example.com/b.mp4', playbackPolicy: 'signed', generatedSubtitles: null })).rejects.toBeInstanceOf(VideoNetworkRejection);
    outage();
    await expect(network.createUploadUrl({ uploadId: 'upl_2', corsOrigin: '*' })).rejects.toBeInstanceOf(ProviderFault);
    outage(3);
    await expect(network.deleteAsset(upload.providerRef)).rejects.toBeInstanceOf(ProviderFault);
  });

  it('getRecording and createClip: ready only once the account closed the recording', async () => {
    const { providerRef } = await input();
    const started = new Date();
    expect(await network.getRecording(providerRef, started)).toBeNull();
    const rec = fake.addRecording(uid(providerRef), started);
    expect(await network.getRecording(providerRef, started)).toMatchObject({ providerRef: `mpc_test:${rec.uid}`, status: 'preparing' });
    await expect(network.createClip({ sourceRef: `mpc_test:${rec.uid}`, startTime: 1, endTime: 5 })).rejects.toBeInstanceOf(VideoNetworkRejection);
    fake.finishVideo(rec.uid, 90);
    expect(await network.getRecording(providerRef, started)).toMatchObject({ status: 'ready', duration: 90, firstFrameAt: started });
    const clip = await network.createClip({ sourceRef: `mpc_test:${rec.uid}`, startTime: 1.5, endTime: 5.2 });
    expect(clip.status).toBe('preparing');
    expect(fake.requestsTo('POST', '/stream/clip').at(-1)!.body).toEqual({ clippedFromVideoUID: rec.uid, startTimeSeconds: 1, endTimeSeconds: 6, requireSignedURLs: true });
    outage(3);
    await expect(network.getRecording(providerRef, started)).rejects.toBeInstanceOf(ProviderFault);
  });

  it('createSigningKey, deleteSigningKey, and credentials', async () => {
    const key = await network.createSigningKey();
    expect(key.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    expect(fake.keys.has(uid(key.providerRef))).toBe(true);
    await network.deleteSigningKey(key.providerRef);
    expect(fake.keys.has(uid(key.providerRef))).toBe(false);
    outage();
    await expect(network.createSigningKey()).rejects.toBeInstanceOf(ProviderFault);
    await network.verifyCredentials();
    outage(3);
    await expect(network.verifyCredentials()).rejects.toBeInstanceOf(ProviderFault);
  });

  it('a timeout or an unreachable API is a fault', async () => {
    const down = new AccountVideoNetwork(network.credentials, { ...DEFAULT_API_OPTIONS, baseUrl: 'http://127.0.0.1:9', attempts: 1 }, 'http://svc.test');
    await expect(down.verifyCredentials()).rejects.toBeInstanceOf(ProviderFault);
  });
});
