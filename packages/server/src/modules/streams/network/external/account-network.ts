import { createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  VideoNetworkRejection,
  type AssetFromUrlInput,
  type ClipInput,
  type CreatedLiveInput,
  type CreatedNetworkAsset,
  type LiveInputSettings,
  type NetworkRecording,
  type NetworkSigningKey,
  type PlaybackUrlInput,
  type SimulcastTargetInput,
  type SimulcastTargetResult,
  type UploadUrlInput,
  type VideoNetwork,
} from '../video-network';
import { signingKeyObject, type AccountCredentials } from './account-credentials';
import { readInbound, type InboundNotice, type InboundRefusal } from './inbound-notices';
import { accountRef, parseAccountRef } from './account-refs';
import { videoStatus } from './provider-types';
import { deleteLiveInputs, liveInputResult, replaceLiveInput, RECORDING_RETENTION_DAYS, type LiveInputsContext } from './account-live-inputs';
import { ProviderApi, type ProviderApiOptions } from './provider-api';
import type { ProviderLiveInput, ProviderSigningKey, ProviderVideo } from './provider-types';

export const ACCOUNT_PROVIDER = 'cloudflare';

/** The longest file a direct upload takes, in seconds (the provider's upper bound). */
const MAX_UPLOAD_SECONDS = 21_600;


/** The simulated network's playback route form: this server checks the token, then sends the player on. */
export const servicePlaybackUrl = (baseUrl: string, { playbackId, token }: PlaybackUrlInput) => {
  const url = `${baseUrl}/v1/streams/playback/${playbackId}.m3u8`;
  return token ? `${url}?token=${encodeURIComponent(token)}` : url;
};

/**
 * The `VideoNetwork` of one tenant's own video account, through the provider's documented API. Every object
 * requires signed playback at the provider; this server lets a viewer in with its own playback token and
 * sends them on to the provider with a token it signs locally with the account's signing key.
 */
export class AccountVideoNetwork implements VideoNetwork {
  readonly provider = ACCOUNT_PROVIDER;
  private readonly api: ProviderApi;
  private readonly inputs: LiveInputsContext;
  private signingKey: KeyObject | undefined;

  constructor(
    readonly credentials: AccountCredentials,
    options: ProviderApiOptions,
    private readonly baseUrl: string,
    /** Schedules the deletion of a deleted live input's recordings (`videoRefs`) `afterSeconds` from now. */
    onInputDeleted?: (videoRefs: string[], afterSeconds: number) => Promise<void>,
  ) {
    this.api = new ProviderApi(credentials.accountId, credentials.apiToken, options);
    this.inputs = { api: this.api, ref: this.ref, onInputDeleted };
  }

  private readonly ref = (providerId: string) => accountRef(this.credentials.configId, providerId);

  /** The provider's id inside a reference of this account; another account's reference is a bug. */
  private id(ref: string): string {
    const { configId, providerId } = parseAccountRef(ref);
    if (configId !== this.credentials.configId) throw new Error(`reference ${ref} belongs to another account`);
    return providerId;
  }

  /** Proves the token works on the account's video and that the signing key is one of the account's. */
  async verifyCredentials(): Promise<void> {
    signingKeyObject(this.credentials.signingKey.pem);
    const keys = await this.api.account<ProviderSigningKey[]>('GET', '/stream/keys');
    if (!Array.isArray(keys) || !keys.some((k) => k.id === this.credentials.signingKey.id)) {
      throw new VideoNetworkRejection('The video account has no signing key with this `id`.', 'signing_key.id');
    }
  }

  /** One inbound delivery of this account, verified with its webhook secret or notification secret. */
  readInbound(headers: Record<string, string | string[] | undefined>, rawBody: Buffer, now: Date): InboundNotice | InboundRefusal {
    return readInbound(this.credentials, headers, rawBody, now);
  }

  private recording(settings: LiveInputSettings) {
    if (settings.audioOnly) {
      throw new VideoNetworkRejection('The video account takes H.264 video with AAC audio: audio-only streams are not offered.', 'audio_only');
    }
    return { mode: 'automatic', timeoutSeconds: settings.reconnectWindow, requireSignedURLs: true };
  }

  async createLiveInput(settings: LiveInputSettings): Promise<CreatedLiveInput> {
    const input = await this.api.account<ProviderLiveInput>('POST', '/stream/live_inputs', {
      recording: this.recording(settings),
      deleteRecordingAfterDays: RECORDING_RETENTION_DAYS,
      enabled: true,
    });
    return liveInputResult(this.inputs, input);
  }

  async updateLiveInput(providerRef: string, settings: LiveInputSettings): Promise<void> {
    await this.api.account('PUT', `/stream/live_inputs/${this.id(providerRef)}`, { recording: this.recording(settings) });
  }

  async deleteLiveInput(providerRef: string): Promise<void> {
    await deleteLiveInputs(this.inputs, this.id(providerRef));
  }

  async resetStreamKey(providerRef: string) {
    return replaceLiveInput(this.inputs, this.id(providerRef));
  }

  async setLiveInputEnabled(providerRef: string, enabled: boolean): Promise<void> {
    await this.api.account('PUT', `/stream/live_inputs/${this.id(providerRef)}`, { enabled });
  }

  async completeLiveInput(_providerRef: string): Promise<void> {
    // Nothing to call: the provider closes the recording on its own once the encoder is gone for its timeout.
  }

  async addSimulcastTarget(liveInputRef: string, target: SimulcastTargetInput): Promise<SimulcastTargetResult> {
    try {
      const output = await this.api.account<{ uid: string }>('POST', `/stream/live_inputs/${this.id(liveInputRef)}/outputs`, {
        url: target.url,
        streamKey: target.streamKey,
        enabled: true,
      });
      return { status: 'active', providerRef: this.ref(output.uid) };
    } catch (err) {
      if (err instanceof VideoNetworkRejection) return { status: 'errored', providerRef: null, error: err.message };
      throw err;
    }
  }

  async removeSimulcastTarget(liveInputRef: string, targetRef: string): Promise<void> {
    await this.api.account('DELETE', `/stream/live_inputs/${this.id(liveInputRef)}/outputs/${this.id(targetRef)}`);
  }

  private created(video: ProviderVideo): CreatedNetworkAsset {
    return { providerRef: this.ref(video.uid), status: 'preparing', duration: null };
  }

  async createAssetFromUrl(input: AssetFromUrlInput): Promise<CreatedNetworkAsset> {
    return this.created(await this.api.account<ProviderVideo>('POST', '/stream/copy', { url: input.url, requireSignedURLs: true }));
  }

  async deleteAsset(providerRef: string): Promise<void> {
    await this.api.account('DELETE', `/stream/${this.id(providerRef)}`);
  }

  async createUploadUrl(input: UploadUrlInput): Promise<{ providerRef: string; url: string }> {
    const origin = input.corsOrigin && input.corsOrigin !== '*' ? [new URL(input.corsOrigin).host] : [];
    const upload = await this.api.account<{ uid: string; uploadURL: string }>('POST', '/stream/direct_upload', {
      maxDurationSeconds: MAX_UPLOAD_SECONDS,
      requireSignedURLs: true,
      allowedOrigins: origin,
      meta: { upload: input.uploadId },
    });
    return { providerRef: this.ref(upload.uid), url: upload.uploadURL };
  }

  async createClip(input: ClipInput): Promise<CreatedNetworkAsset> {
    const video = await this.api.account<ProviderVideo>('POST', '/stream/clip', {
      clippedFromVideoUID: this.id(input.sourceRef),
      startTimeSeconds: Math.floor(input.startTime),
      endTimeSeconds: Math.ceil(input.endTime),
      requireSignedURLs: true,
    });
    return this.created(video);
  }

  /**
   * The recording of the broadcast that started at `broadcastStartedAt`: the input's first video made since
   * shortly before then. It is `ready` only once the provider closed it, after the encoder was gone for the
   * reconnect window, so clips are cut only after the show.
   */
  async getRecording(liveInputRef: string, broadcastStartedAt: Date | null): Promise<NetworkRecording | null> {
    if (!broadcastStartedAt) return null;
    const videos = await this.api.account<ProviderVideo[]>('GET', `/stream/live_inputs/${this.id(liveInputRef)}/videos`);
    const since = broadcastStartedAt.getTime() - 120_000;
    const video = (Array.isArray(videos) ? videos : [])
      .filter((v) => v.created && Date.parse(v.created) >= since)
      .sort((a, b) => Date.parse(a.created!) - Date.parse(b.created!))[0];
    if (!video) return null;
    return { providerRef: this.ref(video.uid), status: videoStatus(video), firstFrameAt: broadcastStartedAt, duration: Math.max(0, video.duration ?? 0) };
  }

  async createSigningKey(): Promise<NetworkSigningKey> {
    const key = await this.api.account<ProviderSigningKey>('POST', '/stream/keys', {});
    const privateKey = signingKeyObject(key.pem ?? '');
    return {
      providerRef: this.ref(key.id),
      publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
  }

  async deleteSigningKey(providerRef: string): Promise<void> {
    await this.api.account('DELETE', `/stream/keys/${this.id(providerRef)}`);
  }

  playbackUrl(input: PlaybackUrlInput): string {
    return servicePlaybackUrl(this.baseUrl, input);
  }

  /** The provider's HLS address with a token signed here: RS256, `kid` the account's key, `sub` the video. */
  async playbackRedirect(providerRef: string, expiresAt: Date): Promise<string> {
    this.signingKey ??= signingKeyObject(this.credentials.signingKey.pem);
    const kid = this.credentials.signingKey.id;
    const token = await new SignJWT({ kid })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setSubject(this.id(providerRef))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.signingKey);
    return `https://customer-${this.credentials.customerCode}.cloudflarestream.com/${token}/manifest/video.m3u8`;
  }
}
