import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { classifyAddress } from '../../../../core/outbound/url-policy';
import { ApiError } from '../../../../core/errors';
import { randomToken } from '../../../../core/ids';
import { defineJob } from '../../../../jobs/job-definition';
import { z } from 'zod';
import {
  VideoNetworkRejection,
  type AssetFromUrlInput,
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
import type { ObjectStore } from '../../../../core/storage/object-store';
import { ASSETS, INGEST_APP, MEDIA_APP, UPLOADS, type MediaLayout } from './media-layout';
import { storeUpload } from './upload-store';
import { MediaHls } from './media-hls';
import { makeMediaSigningKey, mediaPlaybackUrl } from './media-address';
import { SimulcastRelays } from './relays';


export const MEDIA_PROVIDER = 'media';
/** Packages this network's assets (recordings, uploads, URLs) with ffmpeg; the payload names the asset. */
export const mediaProcessAssetJobType = defineJob({
  name: 'streams-media-process-asset',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), asset_id: z.string() }),
  retry: { limit: 2 },
});

export const newRef = (kind: 'li' | 'as' | 'up' | 'sc' | 'rc') => `m${kind}_${randomBytes(10).toString('hex')}`;

/** A stream key names its live input, so `on_publish` finds the stream without a search: `<ref>.<secret>`. */
export const newStreamKey = (ref: string) => `${ref}.${randomToken(40)}`;
export const refOfStreamKey = (key: string) => /^(mli_[0-9a-f]{20})\.[A-Za-z0-9]{40}$/.exec(key)?.[1];

export interface MediaNetworkOptions {
  layout: MediaLayout;
  store: ObjectStore;
  /** The address encoders are shown (`ingest.rtmp_url`). */
  rtmpUrl: string;
  /** Port of nginx's RTMP listener, for the loopback relays. */
  rtmpPort: number;
  baseUrl: string;
  /** Secret nginx's callbacks carry; random per process. */
  hookSecret: string;
  ffmpeg: string;
  ffprobe: string;
  log: Logger;
}

/**
 * The service's own media network: nginx-rtmp takes RTMP, writes live HLS and FLV recordings; ffmpeg relays
 * simulcast and packages recordings and files; the Svc server serves HLS itself behind playback tokens. It
 * reports on its own: `on_publish` callbacks drive the stream states and a job finishes assets.
 */
export class MediaVideoNetwork implements VideoNetwork {
  readonly provider = MEDIA_PROVIDER;
  readonly processingJob = mediaProcessAssetJobType;
  readonly relays: SimulcastRelays;
  readonly localHls: MediaHls;
  /** Where uploads (`uploads/<ref>`) and packaged HLS (`assets/<ref>/…`) are kept: the media directory or a bucket. */
  readonly store: ObjectStore;
  /** nginx's client id of the encoder publishing each live input now. */
  readonly publishers = new Map<string, string>();
  /** Set by housekeeping when `SVC_MEDIA_DIR` uses more than its bound: new encoders and uploads are refused. */
  diskFull = false;

  constructor(readonly options: MediaNetworkOptions) {
    this.store = options.store;
    this.localHls = new MediaHls(options.store, options.layout.live);
    this.relays = new SimulcastRelays(options.ffmpeg, (ref) => this.loopbackUrl(ref), options.log);
    this.relays.onRetry = (ref, target) => {
      if (this.publishers.has(ref)) this.relays.start(ref, target);
    };
  }

  get layout(): MediaLayout {
    return this.options.layout;
  }

  /** Where nginx relays an authorised ingest, and where simulcast relays read it. */
  loopbackUrl(ref: string): string {
    return `rtmp://127.0.0.1:${this.options.rtmpPort}/${MEDIA_APP}/${ref}`;
  }

  async createLiveInput(_settings: LiveInputSettings): Promise<CreatedLiveInput> {
    const providerRef = newRef('li');
    return {
      providerRef,
      streamKey: newStreamKey(providerRef),
      srtPassphrase: null,
      ingest: { rtmp_url: this.options.rtmpUrl, rtmp_backup_url: null, srt_url: null, whip_url: null },
    };
  }

  async updateLiveInput(): Promise<void> {}

  async deleteLiveInput(providerRef: string): Promise<void> {
    await this.dropPublisher(providerRef);
  }

  /** The old key stops working because the service checks the new one; the encoder using it is dropped now. */
  async resetStreamKey(providerRef: string): Promise<{ streamKey: string; srtPassphrase: string | null }> {
    await this.dropPublisher(providerRef);
    return { streamKey: newStreamKey(providerRef), srtPassphrase: null };
  }

  async setLiveInputEnabled(providerRef: string, enabled: boolean): Promise<void> {
    if (!enabled) await this.dropPublisher(providerRef);
  }

  async completeLiveInput(providerRef: string): Promise<void> {
    await this.dropPublisher(providerRef);
  }

  /** Asks nginx's control module to close the encoder's connection; `on_publish_done` follows. */
  async dropPublisher(providerRef: string): Promise<void> {
    const clientId = this.publishers.get(providerRef);
    // The map entry stays until nginx's `on_publish_done` arrives, which moves the stream on.
    if (!clientId) return;
    this.relays.stopInput(providerRef);
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { socketPath: join(this.layout.nginx, 'control.sock'), path: `/control/drop/publisher?app=${INGEST_APP}&clientid=${encodeURIComponent(clientId)}` },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`nginx control answered ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  async addSimulcastTarget(liveInputRef: string, target: SimulcastTargetInput): Promise<SimulcastTargetResult> {
    const url = new URL(target.url);
    if (url.protocol !== 'rtmp:' && url.protocol !== 'rtmps:') {
      return { status: 'errored', providerRef: null, error: 'The media network relays to rtmp:// and rtmps:// targets only.' };
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost') || classifyAddress(host) === 'loopback') {
      return { status: 'errored', providerRef: null, error: `The media network does not relay back to ${url.hostname}.` };
    }
    const ref = newRef('sc');
    if (this.publishers.has(liveInputRef)) this.relays.start(liveInputRef, { ref, url: target.url, streamKey: target.streamKey });
    return { status: 'active', providerRef: ref };
  }

  async removeSimulcastTarget(_liveInputRef: string, targetRef: string): Promise<void> {
    this.relays.stopTarget(targetRef);
  }

  async createAssetFromUrl(_input: AssetFromUrlInput): Promise<CreatedNetworkAsset> {
    return { providerRef: newRef('as'), status: 'preparing', duration: null };
  }

  /** The packaged HLS goes with the asset. */
  async deleteAsset(providerRef: string): Promise<void> {
    if (!/^m(as|up|rc)_[0-9a-f_]+$/.test(providerRef)) return;
    await this.store.deletePrefix(`${ASSETS}/${providerRef}/`);
    await this.store.delete(`${UPLOADS}/${providerRef}`);
  }

  async createUploadUrl(input: UploadUrlInput): Promise<{ providerRef: string; url: string }> {
    if (this.diskFull) throw ApiError.of('provider_storage_exhausted', { message: 'The media network has no disk space left for uploads.' });
    const token = randomToken(40);
    return { providerRef: newRef('up'), url: `${this.options.baseUrl}/v1/streams/uploads/${input.uploadId}/file?token=${token}` };
  }

  /** The file lands in scratch space first (counted, cut at `maxBytes`), then in the store under `uploads/`. */
  async receiveUploadFile(providerUploadId: string, body: Readable, maxBytes: number): Promise<number> {
    if (!/^mup_[0-9a-f]{20}$/.test(providerUploadId)) throw new Error('not an upload of the media network');
    if (this.diskFull) throw ApiError.of('provider_storage_exhausted', { message: 'The media network has no disk space left for this file.' });
    const scratch = join(this.layout.work, `${providerUploadId}.part`);
    try {
      const received = await storeUpload(body, scratch, maxBytes);
      await this.store.putFile(`${UPLOADS}/${providerUploadId}`, scratch).catch((err: Error) => {
        this.options.log.error({ err: err.message, storage: this.store.description }, 'media network: an upload could not be stored');
        // The upload stays waiting: the same URL may be sent again.
        throw ApiError.of('provider_unavailable', { message: 'The media storage cannot be reached; send the file again shortly.' });
      });
      return received;
    } finally {
      await rm(scratch, { force: true });
    }
  }

  async createClip(): Promise<CreatedNetworkAsset> {
    throw new VideoNetworkRejection("Clips are not offered on the service's own media network; play the recording asset instead.");
  }

  /** The recording is packaged by the processing job once the broadcast ended, so it is `preparing` until then. */
  async getRecording(liveInputRef: string, broadcastStartedAt: Date | null): Promise<NetworkRecording | null> {
    if (!broadcastStartedAt) return null;
    return {
      providerRef: `mrc_${liveInputRef.slice(4)}_${broadcastStartedAt.getTime()}`,
      status: 'preparing',
      firstFrameAt: broadcastStartedAt,
      duration: Math.max(0, (Date.now() - broadcastStartedAt.getTime()) / 1000),
    };
  }

  createSigningKey(): Promise<NetworkSigningKey> {
    return makeMediaSigningKey();
  }

  async deleteSigningKey(): Promise<void> {}

  playbackUrl(input: PlaybackUrlInput): string {
    return mediaPlaybackUrl(this.options.baseUrl, input);
  }
}
