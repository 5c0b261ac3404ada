import type { Database, Executor } from '../../../db/database';
import { ApiError } from '../../../core/errors';
import type { Scope } from '../../../core/scope';
import type { SecretBox } from '../../../core/secret-box';
import { AccountNetworks } from './external/account-networks';
import { MEDIA_PROVIDER } from './media/media-network';
import { SimulatedVideoNetwork } from './simulated-network';
import { VideoNetworkRejection, VideoNetworkStorageExhausted, type LocalHls, type NetworkPlayback, type VideoNetwork } from './video-network';

/** The network every test-mode object uses. */
export const TEST_MODE_NETWORK = 'simulated';

/**
 * The video networks this server can use, by provider name. Objects keep the name of the network that made
 * them (`provider`) and are always served by it; new objects go to the network chosen for their scope.
 */
export class VideoNetworks {
  private readonly networks = new Map<string, VideoNetwork>();
  /** Tenants' own video accounts (provider configurations), when the server has a database to find them in. */
  accounts: AccountNetworks | null = null;
  /** Live mode's network for tenants whose operator chose none (the server's own media network, when it runs). */
  defaultLiveNetwork: string | undefined;
  /** HLS this process serves for networks it does not run: the media network's, from the bucket, on API processes. */
  private readonly storedHls = new Map<string, LocalHls>();
  /** Stand-ins that sign and address the playback of networks running on another machine (the media network's). */
  private readonly elsewhere = new Map<string, () => Promise<NetworkPlayback>>();

  constructor(networks: VideoNetwork[]) {
    for (const n of networks) this.use(n);
  }

  static forServer(baseUrl: string, store?: { db: Database; secrets: SecretBox }): VideoNetworks {
    const networks = new VideoNetworks([new SimulatedVideoNetwork(baseUrl)]);
    if (store) {
      networks.accounts = new AccountNetworks(store.db, store.secrets, baseUrl);
      networks.use(networks.accounts);
    }
    return networks;
  }

  /** Adds a network, or replaces the one of the same name (tests put a failing `simulated` network in). */
  use(network: VideoNetwork): void {
    this.networks.set(network.provider, network);
  }

  serveStoredHls(provider: string, hls: LocalHls): void {
    this.storedHls.set(provider, hls);
  }

  runsElsewhere(provider: string, playback: () => Promise<NetworkPlayback>): void {
    this.elsewhere.set(provider, playback);
  }

  /**
   * What makes `provider`'s signing keys and player addresses: the network when it runs here, else its stand-in, so
   * any API process opens sessions and makes links for objects of a network another process runs.
   */
  async playbackOf(provider: string): Promise<NetworkPlayback> {
    const network = this.networks.get(provider);
    if (network) return network;
    const standIn = this.elsewhere.get(provider);
    return standIn ? standIn() : this.byProvider(provider);
  }

  /**
   * Where the playback routes read `provider`'s HLS: the network's own when it runs here (`undefined` for one that
   * serves its media itself), else its copy in the bucket; `null` when this process can serve none of it.
   */
  hlsOf(provider: string): LocalHls | undefined | null {
    const network = this.networks.get(provider);
    if (network) return network.localHls;
    return this.storedHls.get(provider) ?? null;
  }

  get names(): string[] {
    return [...this.networks.keys()];
  }

  /** The network that made an existing object. */
  byProvider(provider: string): VideoNetwork {
    const network = this.networks.get(provider);
    if (!network) throw new Error(`video network '${provider}' is not available on this server`);
    return network;
  }

  /**
   * The network for a new object: test mode always uses the simulated network; live mode uses the one the
   * environment's settings chose (a video account, or `media`), else the one the operator chose for the tenant
   * (`video.live_network`), else the default, and refuses clearly when there is none.
   */
  async forNewObject(db: Executor, scope: Scope): Promise<VideoNetwork> {
    if (!scope.livemode) return this.byProvider(TEST_MODE_NETWORK);
    const own = await this.accounts?.forScope(db, scope);
    if (own) return own;
    const settings = await db
      .selectFrom('stream_settings')
      .select('live_network')
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .executeTakeFirst();
    if (settings?.live_network === MEDIA_PROVIDER) {
      // Chosen while the media network ran; a server started without it refuses rather than use another network.
      if (!this.networks.has(MEDIA_PROVIDER)) {
        throw ApiError.of('video_network_not_configured', {
          message: 'The stream settings chose `media`, the media network, which this server does not run now.',
        });
      }
      return this.byProvider(MEDIA_PROVIDER);
    }
    const tenant = await db
      .selectFrom('tenants')
      .select('video_live_network')
      .where('id', '=', scope.tenantId)
      .executeTakeFirst();
    const name = tenant?.video_live_network ?? this.defaultLiveNetwork;
    if (!name || !this.networks.has(name)) {
      throw ApiError.of('video_network_not_configured', {
        message: 'Live mode has no video network for this tenant yet; the operator sets `video.live_network` on the tenant.',
      });
    }
    return this.byProvider(name);
  }
}

/**
 * Runs a network call and turns its failures into API errors: a refusal is `422 provider_rejected` (nothing
 * is created), anything else `502 provider_unavailable` (retry with backoff).
 */
export async function callNetwork<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof VideoNetworkRejection) {
      throw ApiError.of('provider_rejected', { message: err.message, param: err.param });
    }
    if (err instanceof VideoNetworkStorageExhausted) throw ApiError.of('provider_storage_exhausted', { message: err.message });
    if (err instanceof ApiError) throw err;
    throw ApiError.of('provider_unavailable', {
      message: `The video network failed: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
