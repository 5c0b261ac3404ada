import { Emitter } from './emitter';
import { SvcBrowserError, SvcNetworkError } from './http';

/** A signed-in person's session, as `/auth/v1/verify` and `/auth/v1/token` answer it. */
export interface AuthSession {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  /** Unix seconds. */
  expires_at: number;
  refresh_token: string;
  user: { id: string; phone: string | null; email: string | null; customer: string; tenant: string; livemode: boolean };
}

/** Where the session is kept: memory by default; `localStorage`, IndexedDB or a cookie store can stand in. */
export interface TokenStorage {
  get(): AuthSession | null | Promise<AuthSession | null>;
  set(session: AuthSession): void | Promise<void>;
  clear(): void | Promise<void>;
}

export class MemoryTokenStorage implements TokenStorage {
  private session: AuthSession | null = null;
  get = () => this.session;
  set = (session: AuthSession) => void (this.session = session);
  clear = () => void (this.session = null);
}

export type Destination = { phone: string; email?: never } | { email: string; phone?: never };

export interface SvcAuthOptions {
  /** `pk_…`: names the tenant and environment to sign in to. */
  publishableKey: string;
  baseUrl?: string;
  storage?: TokenStorage;
  /** Refresh this long before the access token expires; default 60 s. */
  refreshMarginMs?: number;
}

type AuthEvents = { change: AuthSession | null };

/**
 * Identity sign-in for a page: request a code, verify it, sign out, and an access token that is refreshed
 * before it expires, with one refresh in flight however many calls wait on it (each refresh token works once).
 */
export class SvcAuth extends Emitter<AuthEvents> {
  private readonly baseUrl: string;
  private readonly storage: TokenStorage;
  private refreshing: Promise<AuthSession | null> | null = null;

  constructor(private readonly options: SvcAuthOptions) {
    super();
    this.baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
    this.storage = options.storage ?? new MemoryTokenStorage();
  }

  private async post<T>(path: string, body: unknown, token?: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.baseUrl + path, {
        method: 'POST',
        headers: {
          'Svc-Publishable-Key': this.options.publishableKey,
          'Content-Type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new SvcNetworkError(e);
    }
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const e = json.error ?? {};
      throw new SvcBrowserError(response.status, e.code ?? `http_${response.status}`, e.message ?? response.statusText, e.details ?? null, e.request_id ?? null);
    }
    return json.data as T;
  }

  /** Calls `listener` with the session after every sign-in, refresh and sign-out (`null`). Answers an unsubscribe. */
  onChange(listener: (session: AuthSession | null) => void): () => void {
    return this.on('change', listener);
  }

  /** Sends a 6-digit code by SMS (default for a phone), WhatsApp, or email. */
  requestCode(to: Destination & { channel?: 'sms' | 'whatsapp' | 'email' }) {
    return this.post<{ channel: string; expires_at: string; resend_after: string }>('/auth/v1/otp', to);
  }

  /** Exchanges the code for a session, kept in the storage. */
  async verifyCode(args: Destination & { code: string }): Promise<AuthSession> {
    return this.setSession(await this.post<AuthSession>('/auth/v1/verify', args));
  }

  /** Keeps a session got elsewhere, e.g. from the URL fragment after an email link or OpenID Connect sign-in. */
  async setSession(session: AuthSession): Promise<AuthSession> {
    await this.storage.set(session);
    this.emit('change', session);
    return session;
  }

  /** The session in a redirect's fragment (`#access_token=…&refresh_token=…`), or `null`. */
  static sessionFromFragment(hash: string): Pick<AuthSession, 'access_token' | 'refresh_token' | 'expires_at'> | null {
    const p = new URLSearchParams(hash.replace(/^#/, ''));
    const access = p.get('access_token');
    const refresh = p.get('refresh_token');
    return access && refresh ? { access_token: access, refresh_token: refresh, expires_at: Number(p.get('expires_at')) } : null;
  }

  /** The current session, refreshed first when its access token expires within the margin; `null` when signed out. */
  async getSession(): Promise<AuthSession | null> {
    const session = await this.storage.get();
    if (!session) return null;
    const margin = this.options.refreshMarginMs ?? 60_000;
    if (session.expires_at * 1000 - Date.now() > margin) return session;
    return this.refresh();
  }

  async getAccessToken(): Promise<string | null> {
    return (await this.getSession())?.access_token ?? null;
  }

  /** One refresh at a time: every caller waiting meanwhile gets the same answer. A refused refresh signs out. */
  refresh(): Promise<AuthSession | null> {
    this.refreshing ??= (async () => {
      try {
        const current = await this.storage.get();
        if (!current) return null;
        try {
          return await this.setSession(await this.post<AuthSession>('/auth/v1/token', { grant_type: 'refresh_token', refresh_token: current.refresh_token }));
        } catch (e) {
          if (e instanceof SvcBrowserError && e.status === 401) {
            await this.storage.clear();
            this.emit('change', null);
            return null;
          }
          throw e;
        }
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** Ends this session (or, with `global`, every session of the person here) and forgets it. */
  async signOut(options: { scope?: 'local' | 'global' } = {}): Promise<void> {
    const token = await this.getAccessToken();
    try {
      if (token) await this.post<void>('/auth/v1/logout', { scope: options.scope ?? 'local' }, token);
    } finally {
      await this.storage.clear();
      this.emit('change', null);
    }
  }

  /** A customer token for the signed-in person, to open playback sessions from this page. */
  async customerToken(): Promise<string> {
    const token = await this.getAccessToken();
    if (!token) throw new SvcBrowserError(401, 'invalid_access_token', 'Not signed in.');
    return (await this.post<{ token: string; expires_at: string }>('/auth/v1/customer_token', undefined, token)).token;
  }
}
