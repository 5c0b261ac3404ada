import { randomBytes } from 'node:crypto';
import { makeLocalSigningKey } from '../local-signing-key';
import type { Database, Executor } from '../../../../db/database';
import type { SecretBox } from '../../../../core/secret-box';
import type { Scope } from '../../../../core/scope';
import type {
  AssetFromUrlInput,
  ClipInput,
  CreatedLiveInput,
  CreatedNetworkAsset,
  LiveInputSettings,
  NetworkRecording,
  NetworkSigningKey,
  PlaybackUrlInput,
  SimulcastTargetInput,
  SimulcastTargetResult,
  UploadUrlInput,
  VideoNetwork,
} from '../video-network';
import type { AccountCredentials } from './account-credentials';
import { ACCOUNT_PROVIDER, AccountVideoNetwork, servicePlaybackUrl } from './account-network';
import { parseAccountRef } from './account-refs';
import { DEFAULT_API_OPTIONS, type ProviderApiOptions } from './provider-api';
import { z } from 'zod';
import { defineJob } from '../../../../jobs/job-definition';
import { jobOf, sendInTransaction } from '../../../../jobs/send-in-transaction';

/** The job that deletes a deleted live input's recordings on its account, and their assets here. */
export const deleteOwnAccountRecordingsJobType = defineJob({
  name: 'streams-delete-own-account-recordings',
  version: 1,
  payload: z.object({ tenant_id: z.string(), livemode: z.boolean(), provider: z.string(), video_refs: z.array(z.string()) }),
  retry: { limit: 2 },
});
export type DeleteOwnAccountRecordingsJob = z.infer<typeof deleteOwnAccountRecordingsJobType.payload>;


/** The providers a tenant's own account may be on. */
export const ACCOUNT_PROVIDERS: readonly string[] = [ACCOUNT_PROVIDER];

/** Loaded accounts are kept this long, so a secret rotated on another process is picked up within it. */
const CACHE_MS = 30_000;

/** The sealed secrets of a provider configuration, bound to its id. */
export const secretsContext = (configId: string) => `${configId}:secrets`;

export type SealedSecrets = Pick<AccountCredentials, 'apiToken' | 'webhookSecret' | 'notificationSecret'> & { signingKeyPem: string };

const unreachable = (what: string) => new Error(`${what} on an own account is reached through the settings' chosen network`);

/**
 * Every tenant's own accounts, as one network under the provider's name: each object's reference names the
 * account that made it (`<mpc_id>:<id>`), so calls about existing objects go to that account's credentials.
 * New objects come from `forScope`, the account the environment's settings chose.
 */
export class AccountNetworks implements VideoNetwork {
  readonly provider = ACCOUNT_PROVIDER;
  private readonly loaded = new Map<string, { network: AccountVideoNetwork; at: number }>();

  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
    private readonly baseUrl: string,
    /** Tests point the API at a local fake of it. */
    public apiOptions: ProviderApiOptions = DEFAULT_API_OPTIONS,
  ) {}

  /** A network for credentials not stored yet (checking them before a configuration is saved). */
  networkFor(credentials: AccountCredentials, scope?: Scope): AccountVideoNetwork {
    const onInputDeleted = scope
      ? async (videoRefs: string[], afterSeconds: number) => {
          const data: DeleteOwnAccountRecordingsJob = { tenant_id: scope.tenantId, livemode: scope.livemode, provider: this.provider, video_refs: videoRefs };
          await this.db.transaction().execute((trx) => sendInTransaction(trx, [jobOf(deleteOwnAccountRecordingsJobType, data, afterSeconds)]));
        }
      : undefined;
    return new AccountVideoNetwork(credentials, this.apiOptions, this.baseUrl, onInputDeleted);
  }

  /** Drops a configuration this process changed or deleted. */
  forget(configId: string): void {
    this.loaded.delete(configId);
  }

  /** The account of a configuration, or `undefined` when it no longer exists. */
  async account(configId: string, db: Executor = this.db): Promise<AccountVideoNetwork | undefined> {
    const hit = this.loaded.get(configId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.network;
    const row = await db.selectFrom('provider_configs').selectAll().where('id', '=', configId).executeTakeFirst();
    if (!row) return undefined;
    const sealed = JSON.parse(this.secrets.decrypt(row.secrets_sealed, secretsContext(row.id))) as SealedSecrets;
    const network = this.networkFor(
      {
        configId: row.id,
        accountId: row.account_id,
        customerCode: row.customer_code,
        apiToken: sealed.apiToken,
        signingKey: { id: row.signing_key_id, pem: sealed.signingKeyPem },
        webhookSecret: sealed.webhookSecret,
        notificationSecret: sealed.notificationSecret,
      },
      { tenantId: row.tenant_id, livemode: row.livemode },
    );
    this.loaded.set(configId, { network, at: Date.now() });
    return network;
  }

  /** The account the scope's settings chose for new live-mode objects, or `null` for the standard network. */
  async forScope(db: Executor, scope: Scope): Promise<AccountVideoNetwork | null> {
    if (!scope.livemode) return null;
    const settings = await db
      .selectFrom('stream_settings')
      .select('provider_config_id')
      .where('tenant_id', '=', scope.tenantId)
      .where('livemode', '=', scope.livemode)
      .executeTakeFirst();
    if (!settings?.provider_config_id) return null;
    return (await this.account(settings.provider_config_id, db)) ?? null;
  }

  private async owner(ref: string): Promise<AccountVideoNetwork> {
    const { configId } = parseAccountRef(ref);
    const network = await this.account(configId);
    if (!network) throw new Error(`the video account of ${configId} is no longer configured`);
    return network;
  }

  async createLiveInput(_settings: LiveInputSettings): Promise<CreatedLiveInput> {
    throw unreachable('createLiveInput');
  }
  async updateLiveInput(ref: string, settings: LiveInputSettings): Promise<void> {
    return (await this.owner(ref)).updateLiveInput(ref, settings);
  }
  async deleteLiveInput(ref: string): Promise<void> {
    return (await this.owner(ref)).deleteLiveInput(ref);
  }
  async resetStreamKey(ref: string) {
    return (await this.owner(ref)).resetStreamKey(ref);
  }
  async setLiveInputEnabled(ref: string, enabled: boolean): Promise<void> {
    return (await this.owner(ref)).setLiveInputEnabled(ref, enabled);
  }
  async completeLiveInput(ref: string): Promise<void> {
    return (await this.owner(ref)).completeLiveInput(ref);
  }
  async addSimulcastTarget(ref: string, target: SimulcastTargetInput): Promise<SimulcastTargetResult> {
    return (await this.owner(ref)).addSimulcastTarget(ref, target);
  }
  async removeSimulcastTarget(ref: string, targetRef: string): Promise<void> {
    return (await this.owner(ref)).removeSimulcastTarget(ref, targetRef);
  }
  async createAssetFromUrl(_input: AssetFromUrlInput): Promise<CreatedNetworkAsset> {
    throw unreachable('createAssetFromUrl');
  }
  async deleteAsset(ref: string): Promise<void> {
    return (await this.owner(ref)).deleteAsset(ref);
  }
  async createUploadUrl(_input: UploadUrlInput): Promise<{ providerRef: string; url: string }> {
    throw unreachable('createUploadUrl');
  }
  async createClip(input: ClipInput): Promise<CreatedNetworkAsset> {
    return (await this.owner(input.sourceRef)).createClip(input);
  }
  async getRecording(ref: string, broadcastStartedAt: Date | null): Promise<NetworkRecording | null> {
    return (await this.owner(ref)).getRecording(ref, broadcastStartedAt);
  }

  /**
   * The service's own key for the tokens of its playback route (not the tenant's caller keys, which
   * `forScope(...).createSigningKey()` makes on the account): made here, never on the account.
   */
  async createSigningKey(): Promise<NetworkSigningKey> {
    return makeLocalSigningKey(`service_${randomBytes(10).toString('hex')}`);
  }
  async deleteSigningKey(ref: string): Promise<void> {
    if (ref.startsWith('service_')) return;
    return (await this.owner(ref)).deleteSigningKey(ref);
  }

  playbackUrl(input: PlaybackUrlInput): string {
    return servicePlaybackUrl(this.baseUrl, input);
  }
  async playbackRedirect(ref: string, expiresAt: Date): Promise<string> {
    return (await this.owner(ref)).playbackRedirect(ref, expiresAt);
  }
}
