import { Emitter } from './emitter';
import { call, SvcBrowserError, SvcNetworkError } from './http';
import type { AccessSession, PlaybackGrant } from './types';

export interface PlaybackEvents {
  /** A link for the player: on open, about every 5 minutes with the newest grant, and on failover. */
  link: { url: string; provider: string; source: number; reason: 'opened' | 'refreshed' | 'failover' };
  heartbeat: AccessSession;
  /** The session is over; `reason` is the server's (`replaced_by_newer_session`, `missed_heartbeats`, …) or `client`. */
  ended: { reason: string };
  /** A heartbeat failed for a reason that may pass (network, 5xx, 429); the session keeps trying. */
  error: SvcBrowserError | SvcNetworkError;
}

export interface SessionContext {
  baseUrl: string;
  publishableKey: string;
  token: () => string;
  refreshToken: () => Promise<string>;
  linkRefreshMs: number;
}

const TRANSIENT = (e: unknown) => e instanceof SvcNetworkError || (e instanceof SvcBrowserError && (e.status === 429 || e.status >= 500));

/** An open playback session: heartbeats, link refresh, failover across sources and a clean end. */
export class PlaybackSession extends Emitter<PlaybackEvents> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private source = 0;
  private errors: number[] = [];
  private lastLinkAt = 0;
  private failures = 0;
  private over = false;
  private readonly onPageHide = () => this.endOnUnload();
  /** The newest grant; an ended session answers none, and the last one stays. */
  private grant: PlaybackGrant;

  constructor(
    private session: AccessSession,
    private readonly ctx: SessionContext,
  ) {
    super();
    if (!session.grant) throw new Error('SvcBrowser: the session was opened without a grant');
    this.grant = session.grant;
    if (typeof addEventListener === 'function') addEventListener('pagehide', this.onPageHide);
    // The first link goes out once the caller had the chance to listen.
    setTimeout(() => this.emitLink('opened'), 0);
    this.schedule(this.session.heartbeat_interval * 1000);
  }

  get id(): string {
    return this.session.id;
  }

  /** The newest session state from the server. */
  get current(): AccessSession {
    return this.session;
  }

  get ended(): boolean {
    return this.over;
  }

  /** The link the player should be on now. */
  get link(): string | undefined {
    return this.grant.sources[this.source]?.url;
  }

  /** The player reports a fatal error; enough of them within the window moves it to the next source. */
  reportError(): void {
    const { max_errors, window_seconds } = this.grant.failover;
    const now = Date.now();
    this.errors = [...this.errors.filter((t) => now - t < window_seconds * 1000), now];
    if (this.errors.length >= max_errors && this.source + 1 < this.grant.sources.length) {
      this.source += 1;
      this.errors = [];
      this.emitLink('failover');
    }
  }

  /** Ends the session on the server (reason `client`). */
  async end(): Promise<void> {
    if (this.over) return;
    this.finish('client');
    await this.request('DELETE', `/v1/access/sessions/${this.session.id}`).catch(() => {});
  }

  private emitLink(reason: PlaybackEvents['link']['reason']): void {
    const s = this.grant.sources[this.source];
    if (!s || this.over) return;
    this.lastLinkAt = Date.now();
    this.emit('link', { url: s.url, provider: s.provider, source: this.source, reason });
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (!this.over) this.timer = setTimeout(() => void this.beat(), ms);
  }

  private request(method: 'POST' | 'DELETE', path: string, keepalive = false) {
    const { baseUrl, publishableKey, token } = this.ctx;
    return call<AccessSession>(baseUrl, publishableKey, { method, path, token: token(), body: method === 'POST' ? {} : undefined, keepalive });
  }

  private async heartbeat(): Promise<AccessSession> {
    const path = `/v1/access/sessions/${this.session.id}/heartbeat`;
    try {
      return await this.request('POST', path);
    } catch (e) {
      // An expired customer token: fetch a new one once and try again.
      if (!(e instanceof SvcBrowserError && e.code === 'invalid_customer_token')) throw e;
      await this.ctx.refreshToken();
      return this.request('POST', path);
    }
  }

  private async beat(): Promise<void> {
    if (this.over) return;
    const interval = this.session.heartbeat_interval * 1000;
    try {
      this.session = await this.heartbeat();
      if (this.session.grant) this.grant = this.session.grant;
      this.failures = 0;
      if (this.over) return;
      this.emit('heartbeat', this.session);
      if (Date.now() - this.lastLinkAt >= this.ctx.linkRefreshMs) this.emitLink('refreshed');
      this.schedule(this.session.heartbeat_interval * 1000);
    } catch (e) {
      if (this.over) return;
      if (TRANSIENT(e)) {
        this.emit('error', e as SvcBrowserError | SvcNetworkError);
        // Back off 1 s, 2 s, 4 s … but never wait longer than a heartbeat interval.
        this.schedule(Math.min(1000 * 2 ** this.failures++, interval));
        return;
      }
      // `session_ended` says why in `details.reason`; any other refusal is named by its code.
      const reason = e instanceof SvcBrowserError ? (e.code === 'session_ended' ? String(e.details?.reason ?? e.code) : e.code) : 'unknown';
      this.finish(reason);
    }
  }

  private finish(reason: string): void {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.timer);
    if (typeof removeEventListener === 'function') removeEventListener('pagehide', this.onPageHide);
    this.emit('ended', { reason });
  }

  /** On page unload only a `keepalive` request still leaves the page. */
  private endOnUnload(): void {
    if (this.over) return;
    this.finish('client');
    void this.request('DELETE', `/v1/access/sessions/${this.session.id}`, true).catch(() => {});
  }
}
