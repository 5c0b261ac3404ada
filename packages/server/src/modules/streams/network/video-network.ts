import type { Readable } from 'node:stream';
import type { JobType } from '../../../jobs/job-definition';
/**
 * The one interface Streams uses to talk to a video network. The service stores everything the API shows
 * (status, settings, encrypted keys); a network holds the media. `simulated` is the only network so far:
 * every test-mode object uses it, and an operator may choose it for a tenant's live mode. A real network
 * adapter implements this same interface later; nothing outside `network/` may branch on the provider name.
 *
 * Methods throw `VideoNetworkRejection` when the network refuses what was asked (answered `422
 * provider_rejected`); any other error is a network fault (`502 provider_unavailable`).
 */

export type LatencyMode = 'low' | 'standard';
export type PlaybackPolicy = 'signed' | 'public';

/** Ingest addresses a network offers; `null` where it does not offer the capability. Secrets are separate. */
export interface IngestAddresses {
  rtmp_url: string;
  rtmp_backup_url: string | null;
  srt_url: string | null;
  whip_url: string | null;
}

export interface LiveInputSettings {
  latencyMode: LatencyMode;
  reconnectWindow: number;
  audioOnly: boolean;
}

export interface CreatedLiveInput {
  /** The network's own id for the live input; not a secret. */
  providerRef: string;
  /** Secret: stored encrypted, shown only in the stream's own API responses. */
  streamKey: string;
  /** Secret, or `null` when SRT needs none or is not offered. */
  srtPassphrase: string | null;
  ingest: IngestAddresses;
}

/** A live input made in place of another: its reference, its addresses, and its simulcast targets' new references. */
export interface ReplacedLiveInput {
  providerRef: string;
  ingest: IngestAddresses;
  /** Old target reference → new one. */
  simulcastRefs: Record<string, string>;
}

export interface SimulcastTargetInput {
  url: string;
  streamKey: string;
}

/** A simulcast target the network rejected still exists on the stream with `status: errored`. */
export type SimulcastTargetResult =
  | { status: 'active'; providerRef: string }
  | { status: 'errored'; providerRef: null; error: string };

export interface AssetFromUrlInput {
  url: string;
  playbackPolicy: PlaybackPolicy;
  generatedSubtitles: string | null;
}

export interface CreatedNetworkAsset {
  providerRef: string;
  /** `ready` when the network finished at once (the simulated network's clips); otherwise it reports later. */
  status: 'preparing' | 'ready';
  /** Seconds, known once ready. */
  duration: number | null;
}

export interface UploadUrlInput {
  /** The service's own upload id; the simulated network points the one-time URL at this server. */
  uploadId: string;
  corsOrigin: string | null;
}

export interface ClipInput {
  /** The network's id of the asset or recording to cut. */
  sourceRef: string;
  startTime: number;
  endTime: number;
}

/** A recording of a live input's broadcast, as an asset of the network. */
export interface NetworkRecording {
  providerRef: string;
  status: 'preparing' | 'ready' | 'errored';
  /** Clock time of the first frame. */
  firstFrameAt: Date;
  /** Seconds recorded so far (or in all, once the broadcast ended). */
  duration: number;
}

/** A key pair for RS256 playback tokens. The private key leaves the service once and is not kept for tenant keys. */
export interface NetworkSigningKey {
  providerRef: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

export interface PlaybackUrlInput {
  playbackId: string;
  /** RS256 token for signed playback ids; `null` for public ones. */
  token: string | null;
}

/** HLS a network wrote to this server's disk, which the playback routes serve (the media network). */
export interface LocalHls {
  /** The media playlist, segment URIs as `<n>.ts`; `null` when nothing was written yet. */
  playlist(kind: 'live' | 'vod', providerRef: string): Promise<string | null>;
  /** Segment `n`, or `null` when it is gone (outside the DVR window) or never was. */
  segment(kind: 'live' | 'vod', providerRef: string, n: number): Promise<Buffer | null>;
}

export class VideoNetworkRejection extends Error {
  constructor(
    message: string,
    /** The request field at fault, when there is one. */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'VideoNetworkRejection';
  }
}

/** The video account has no storage left for what was asked (answered `409 provider_storage_exhausted`). */
export class VideoNetworkStorageExhausted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VideoNetworkStorageExhausted';
  }
}

export interface VideoNetwork {
  /** The read-only `provider` value on streams and assets. */
  readonly provider: string;
  /**
   * True for a network that reports nothing by itself: the service plays its part, finishing a `preparing`
   * asset after `SVC_SIMULATED_ASSET_DELAY_MS` (a real network sends a webhook instead).
   */
  readonly simulatesProcessing?: boolean;
  /**
   * A network that prepares assets on this server (the media network): the job sent in the transaction that
   * leaves an asset `preparing` with something to prepare ({tenant_id, livemode, asset_id}).
   */
  readonly processingJob?: JobType<{ tenant_id: string; livemode: boolean; asset_id: string }>;

  /** Set by networks whose HLS this server serves from its own disk. */
  readonly localHls?: LocalHls;

  // Live inputs
  createLiveInput(settings: LiveInputSettings): Promise<CreatedLiveInput>;
  updateLiveInput(providerRef: string, settings: LiveInputSettings): Promise<void>;
  deleteLiveInput(providerRef: string): Promise<void>;
  /**
   * A new stream key (and SRT passphrase); the old one stops working at once. A network that cannot replace
   * a key in place replaces the live input and says so in `replacement`.
   */
  resetStreamKey(providerRef: string): Promise<{ streamKey: string; srtPassphrase: string | null; replacement?: ReplacedLiveInput }>;
  /** Refuses or accepts the encoder at the network's edge; `disabled` inputs take no video. */
  setLiveInputEnabled(providerRef: string, enabled: boolean): Promise<void>;
  /** Ends the broadcast now instead of waiting for the reconnect window. */
  completeLiveInput(providerRef: string): Promise<void>;

  // Simulcast
  addSimulcastTarget(liveInputRef: string, target: SimulcastTargetInput): Promise<SimulcastTargetResult>;
  removeSimulcastTarget(liveInputRef: string, targetRef: string): Promise<void>;

  // Assets, uploads, clips
  createAssetFromUrl(input: AssetFromUrlInput): Promise<CreatedNetworkAsset>;
  deleteAsset(providerRef: string): Promise<void>;
  /** A one-time URL the browser `PUT`s the file to. Secret: never in events or logs. */
  createUploadUrl(input: UploadUrlInput): Promise<{ providerRef: string; url: string }>;
  /**
   * A network that keeps uploaded files itself (the media network, on its object store): takes the file `PUT` to
   * an upload, at most `maxBytes` of it (`413 body_too_large`), and answers the bytes received.
   */
  receiveUploadFile?(providerUploadId: string, body: Readable, maxBytes: number): Promise<number>;
  createClip(input: ClipInput): Promise<CreatedNetworkAsset>;

  // Recordings
  /** The recording of the live input's current or last broadcast, or `null` when there is none yet. */
  getRecording(liveInputRef: string, broadcastStartedAt: Date | null): Promise<NetworkRecording | null>;

  // Playback
  createSigningKey(): Promise<NetworkSigningKey>;
  deleteSigningKey(providerRef: string): Promise<void>;
  /** The HLS address a player opens for a playback id. */
  playbackUrl(input: PlaybackUrlInput): string;
  /**
   * For a network that serves the media itself: where this server's playback route sends a player it let in,
   * for the network's object `providerRef` (a signed address, made without a call per viewer).
   */
  playbackRedirect?(providerRef: string, expiresAt: Date): Promise<string>;
}

/** What makes a network's signing keys and player addresses: the network, or its stand-in where it runs elsewhere. */
export type NetworkPlayback = Pick<VideoNetwork, 'createSigningKey' | 'playbackUrl'>;
