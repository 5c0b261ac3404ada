import { call, SvcBrowserError, uuid } from './http';
import { PlaybackSession } from './playback-session';
import { SvcAuth, type TokenStorage } from './auth';
import type { AccessSession, PlaybackResource } from './types';

export interface SvcBrowserOptions {
  /** `pk_live_…` or `pk_test_…`. */
  publishableKey: string;
  /**
   * The tenant's own endpoint that signs a customer token for the signed-in viewer. Omitted: the person signed
   * in with `auth` gets one from the identity service (`auth.customerToken()`).
   */
  getCustomerToken?: () => Promise<string>;
  /** Where `auth` keeps the session; memory by default. */
  authStorage?: TokenStorage;
  baseUrl?: string;
  /** How often the player gets the newest link; default 5 minutes. */
  linkRefreshMs?: number;
}

/** The Svc API as a player page uses it: a publishable key plus the viewer's customer token. */
export class SvcBrowser {
  private token: string | undefined;
  private readonly baseUrl: string;

  constructor(private readonly options: SvcBrowserOptions) {
    if (!options.publishableKey?.startsWith('pk_')) throw new Error('SvcBrowser: publishableKey must be a pk_ key');
    this.baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  }

  private authClient: SvcAuth | undefined;

  /** Identity sign-in for this page's tenant: codes, sessions, sign-out, `onChange`. */
  get auth(): SvcAuth {
    this.authClient ??= new SvcAuth({ publishableKey: this.options.publishableKey, baseUrl: this.baseUrl, storage: this.options.authStorage });
    return this.authClient;
  }

  private async refreshToken(): Promise<string> {
    this.token = await (this.options.getCustomerToken ?? (() => this.auth.customerToken()))();
    return this.token;
  }

  /** Opens an access session on a stream or asset and keeps it alive until it ends. */
  async openPlayback(args: { resource: PlaybackResource; deviceId: string }): Promise<PlaybackSession> {
    // One key for this open, kept when it is sent again with a fresh token.
    const idempotencyKey = uuid();
    const open = async () =>
      call<AccessSession>(this.baseUrl, this.options.publishableKey, {
        method: 'POST',
        path: '/v1/access/sessions',
        token: this.token ?? (await this.refreshToken()),
        body: { resource: args.resource, device_id: args.deviceId },
        idempotencyKey,
      });
    let session: AccessSession;
    try {
      session = await open();
    } catch (e) {
      if (!(e instanceof SvcBrowserError && e.code === 'invalid_customer_token')) throw e;
      await this.refreshToken();
      session = await open();
    }
    return new PlaybackSession(session, {
      baseUrl: this.baseUrl,
      publishableKey: this.options.publishableKey,
      token: () => this.token!,
      refreshToken: () => this.refreshToken(),
      linkRefreshMs: this.options.linkRefreshMs ?? 300_000,
    });
  }
}
