import { randomBytes } from 'node:crypto';
import { makeLocalSigningKey } from './local-signing-key';
import { isIP } from 'node:net';
import { randomToken } from '../../../core/ids';
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
} from './video-network';


/** Hosts under the reserved `.invalid` TLD: documented ingest addresses that no encoder can reach by mistake. */
const INGEST_HOST = 'simulated.invalid';

const ref = (kind: string) => `sim_${kind}_${randomBytes(10).toString('hex')}`;

/** Loopback, private and link-local targets cannot be reached from a network's edge. */
function unreachableHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.invalid')) return true;
  if (isIP(host) === 4) return /^(10|127|0)\.|^192\.168\.|^169\.254\.|^172\.(1[6-9]|2\d|3[01])\./.test(host);
  if (isIP(host) === 6) return host === '::1' || /^f[cd]|^fe80/.test(host);
  return false;
}

/**
 * A video network that takes no video: it hands out ingest addresses and keys, keeps nothing, and leaves the
 * stream's state to the test helpers, which drive the same state machine a real network's webhooks would.
 * Its rules, which tests rely on (and docs/streams.md lists):
 * - low latency is not offered for audio-only inputs (`422 provider_rejected`);
 * - audio-only inputs get no WHIP address (WHIP here carries video);
 * - simulcast targets on loopback, private, link-local or `.invalid` hosts are rejected (`status: errored`);
 * - clips and recordings are ready at once; assets from a URL stay `preparing` until reported ready;
 * - playback URLs point at this server's test playback route.
 */
export class SimulatedVideoNetwork implements VideoNetwork {
  readonly provider = 'simulated';
  readonly simulatesProcessing = true;

  constructor(private readonly baseUrl: string) {}

  private checkSettings(settings: LiveInputSettings): void {
    if (settings.audioOnly && settings.latencyMode === 'low') {
      throw new VideoNetworkRejection(
        'The simulated network does not offer low latency for audio-only streams; use `latency_mode: standard`.',
        'latency_mode',
      );
    }
  }

  async createLiveInput(settings: LiveInputSettings): Promise<CreatedLiveInput> {
    this.checkSettings(settings);
    const providerRef = ref('li');
    return {
      providerRef,
      streamKey: randomToken(32),
      srtPassphrase: randomToken(24),
      ingest: {
        rtmp_url: `rtmps://rtmp.${INGEST_HOST}:443/live`,
        rtmp_backup_url: `rtmps://rtmp-backup.${INGEST_HOST}:443/live`,
        srt_url: `srt://srt.${INGEST_HOST}:778?streamid=${providerRef}`,
        whip_url: settings.audioOnly ? null : `https://whip.${INGEST_HOST}/live/${providerRef}/whip`,
      },
    };
  }

  async updateLiveInput(_providerRef: string, settings: LiveInputSettings): Promise<void> {
    this.checkSettings(settings);
  }

  async deleteLiveInput(_providerRef: string): Promise<void> {}

  async resetStreamKey(_providerRef: string): Promise<{ streamKey: string; srtPassphrase: string | null }> {
    return { streamKey: randomToken(32), srtPassphrase: randomToken(24) };
  }

  async setLiveInputEnabled(_providerRef: string, _enabled: boolean): Promise<void> {}

  async completeLiveInput(_providerRef: string): Promise<void> {}

  async addSimulcastTarget(_liveInputRef: string, target: SimulcastTargetInput): Promise<SimulcastTargetResult> {
    const url = new URL(target.url);
    if (unreachableHost(url.hostname)) {
      return { status: 'errored', providerRef: null, error: `The network cannot reach ${url.hostname}.` };
    }
    return { status: 'active', providerRef: ref('sct') };
  }

  async removeSimulcastTarget(_liveInputRef: string, _targetRef: string): Promise<void> {}

  async createAssetFromUrl(_input: AssetFromUrlInput): Promise<CreatedNetworkAsset> {
    return { providerRef: ref('ast'), status: 'preparing', duration: null };
  }

  async deleteAsset(_providerRef: string): Promise<void> {}

  async createUploadUrl(input: UploadUrlInput): Promise<{ providerRef: string; url: string }> {
    // The token rides in the query string: request logs keep only the path. The ref is not the secret.
    const token = randomToken(40);
    return { providerRef: ref('upl'), url: `${this.baseUrl}/v1/streams/uploads/${input.uploadId}/file?token=${token}` };
  }

  async createClip(input: ClipInput): Promise<CreatedNetworkAsset> {
    return { providerRef: ref('clip'), status: 'ready', duration: input.endTime - input.startTime };
  }

  async getRecording(liveInputRef: string, broadcastStartedAt: Date | null): Promise<NetworkRecording | null> {
    if (!broadcastStartedAt) return null;
    return {
      providerRef: `sim_rec_${liveInputRef.slice(7)}_${broadcastStartedAt.getTime()}`,
      status: 'ready',
      firstFrameAt: broadcastStartedAt,
      duration: Math.max(0, (Date.now() - broadcastStartedAt.getTime()) / 1000),
    };
  }

  async createSigningKey(): Promise<NetworkSigningKey> {
    return makeLocalSigningKey(ref('key'));
  }

  async deleteSigningKey(_providerRef: string): Promise<void> {}

  playbackUrl({ playbackId, token }: PlaybackUrlInput): string {
    const url = `${this.baseUrl}/v1/streams/playback/${playbackId}.m3u8`;
    return token ? `${url}?token=${encodeURIComponent(token)}` : url;
  }
}
