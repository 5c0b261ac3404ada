import { call, SvcBrowserError, uuid } from './http';
import { PlaybackSession } from './playback-session';
import { SvcAuth, type TokenStorage } from './auth';
import type { AccessSession, BookingPayload, BookingRequest, BookingResult, PlaybackResource, PublicEvent, Ticket } from './types';

const query = (q: Record<string, string | number | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
};
const seg = encodeURIComponent;

/**
 * Where this page's visitor came from, counted with the event's page view: the page's `utm_source`, else the
 * referring site's host when it is another site. Only the host of a referrer is sent, never its path.
 */
function visitSource(): string | undefined {
  if (typeof location === 'undefined') return undefined;
  const utm = new URLSearchParams(location.search).get('utm_source')?.trim();
  if (utm) return utm.slice(0, 100);
  const from = typeof document === 'undefined' ? '' : document.referrer;
  if (!from) return undefined;
  try {
    const host = new URL(from).hostname;
    return host && host !== location.hostname ? host : undefined;
  } catch {
    return undefined;
  }
}

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

  private get<T>(path: string): Promise<T> {
    return call<T>(this.baseUrl, this.options.publishableKey, { method: 'GET', path });
  }

  /** The published ticketed events, newest first (one page of up to `limit`). */
  listEvents(args: { organization?: string; limit?: number } = {}): Promise<PublicEvent[]> {
    return this.get(`/v1/events${query({ ...args, limit: args.limit ?? 20 })}`);
  }

  /**
   * A published event by its slug: ticket types with prices, sale windows and availability. The read counts a
   * page view, with its traffic source: by default the page's `utm_source` or the referring site; `source: null`
   * sends none (the view counts as `direct`).
   */
  getEvent(slug: string, options: { source?: string | null } = {}): Promise<PublicEvent> {
    const source = options.source === undefined ? visitSource() : (options.source ?? undefined);
    return this.get(`/v1/events/${seg(slug)}${query({ source })}`);
  }

  /** What `book()` needs for this ticket type and quantity, and whether it can be booked now (`bookable_reason`). */
  bookingPayload(event: string, args: { ticket_id: string; quantity: number; event_slot_id?: string }): Promise<BookingPayload> {
    return this.get(`/v1/events/${seg(event)}/book/payload${query(args)}`);
  }

  /**
   * Holds the seats and creates the order. `payment` is the checkout URL to send the buyer to
   * (`redirectToCheckout`), or `[]` when nothing is due now. Sold out: `SvcBrowserError` with `code: 'sold_out'`.
   * Signed in with `auth`, the person books as themselves (their access token instead of the publishable key):
   * the order is theirs, and so are the tickets of attendees given without an email of their own.
   */
  async book(event: string, body: BookingRequest): Promise<BookingResult> {
    const token = await this.auth.getAccessToken();
    const path = `/v1/events/${seg(event)}/book`;
    if (token) return call<BookingResult>(this.baseUrl, null, { method: 'POST', path, body, token, idempotencyKey: uuid() });
    return call<BookingResult>(this.baseUrl, this.options.publishableKey, { method: 'POST', path, body, idempotencyKey: uuid() });
  }

  /** Sends the page to the booking's checkout; answers `false` (and stays) when nothing is due. */
  redirectToCheckout(result: BookingResult): boolean {
    if (typeof result.payment !== 'string') return false;
    location.assign(result.payment);
    return true;
  }

  /** The signed-in person's tickets (as attendee or buyer), newest first, with their secrets; signed out: `401`. */
  async listTickets(args: { limit?: number } = {}): Promise<Ticket[]> {
    const token = await this.auth.getAccessToken();
    if (!token) throw new SvcBrowserError(401, 'invalid_access_token', 'Not signed in.');
    return call<Ticket[]>(this.baseUrl, null, { method: 'GET', path: `/v1/attendee/tickets${query({ limit: args.limit ?? 100 })}`, token });
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
