// The live show, end to end, in test mode, each step through the SDKs against a running server:
// 0. setUpTenant       the tenant's server (secret key) registers its webhook receiver, creates the organization,
//                      invites the organizer as a member and creates the live stream;
// 1. signInOrganizer   the organizer signs in with the code sent to their phone; publishShow: as that member
//                      (their access token, not a key) they create the event on the stream, a ticket type, and publish;
// 2. signInFan         the fan signs in with the code sent to their phone; bookTwo: books two tickets as
//                      themselves; payInCheckout: pays in the checkout simulator with the magic test card;
// 3. fan.listTickets   the fan holds both tickets, valid;
// 4. goLive            the test helpers play the encoder: it connects, video flows, the stream is active;
// 5. watch             the fan's player opens a playback session with a customer token from the identity
//                      service (`POST /auth/v1/customer_token`) and heartbeats;
// 6. scanAtDoor        the organizer scans a ticket at the door; a second scan answers `already_redeemed`;
// 7. refund            the organizer refunds the order; the fan's session ends at its next heartbeat.
// All along, the tenant's server verifies every webhook (show-server.ts).
//
// Test mode captures the codes instead of sending them; the tenant's server reads them with the secret key.
// The fan's part runs here with the browser SDK in Node; test/live-show.test.ts runs it in Chromium on the
// event page (player/show.html), through the real checkout page.
//
//   SVC_API_KEY=sk_test_… SVC_PUBLISHABLE_KEY=pk_test_… pnpm --filter @svc/examples live-show
import { randomInt, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Svc } from '@svc/sdk-node';
import { SvcAuth, SvcBrowser, type PlaybackSession } from '@svc/sdk-browser';
import { showServer, type ShowServer } from './show-server';
import { env } from './env';

export interface LiveShowOptions {
  apiKey: string;
  publishableKey: string;
  apiBaseUrl: string;
  log?: (line: string) => void;
}

/** What the tenant's server (secret key) sets up: only a tenant can. */
export type TenantSetUp = Awaited<ReturnType<typeof setUpTenant>>;

/** A phone number of the test range, new for each person of a run. */
export const newPhone = () => `+2547${String(randomInt(10_000_000, 99_999_999))}`;

/** The event types the receiver subscribes to, each of which the show sends. */
export const SHOW_EVENTS = ['events.event.*', 'events.order.*', 'payments.refund.*', 'access.entitlement.*', 'streams.live_stream.*'];

/** 0. The tenant's server: the webhook endpoint, the organization with its organizer invited, the stream. */
export async function setUpTenant(svc: Svc, webhookUrl: string, run: string) {
  const endpoint = await svc.webhookEndpoints.create({ url: webhookUrl, enabled_events: SHOW_EVENTS });
  const organization = await svc.organizations.create({ name: 'Sauti Events', handle: `sauti_${run}`, kind: 'brand' });
  const organizerPhone = newPhone();
  const member = await svc.organizations.createMember(organization.id, { phone: organizerPhone, role: 'admin' });
  // Streams are the tenant's: members do not create them.
  const stream = await svc.streams.liveStreams.create({ metadata: { show: `jazz-night-${run}` } });
  return { webhookSecret: endpoint.secret!, organization, member, organizerPhone, stream };
}

/** The last sign-in code sent to `to` (a phone or an email): test mode captures messages, the secret key reads them. */
export async function capturedCode(svc: Svc, to: string): Promise<string> {
  const [message] = (await svc.identity.messages.list({ to, template: 'otp_code', limit: 1 })).data;
  const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error(`no sign-in code captured for ${to}`);
  return code;
}

/**
 * 1a. The organizer signs in on their own tools with the code sent to their phone, and from then on calls the
 * API as that member: their access token (refreshed by `auth`) and the tenant it belongs to.
 */
export async function signInOrganizer(options: LiveShowOptions, svc: Svc, phone: string): Promise<Svc> {
  const auth = new SvcAuth({ publishableKey: options.publishableKey, baseUrl: options.apiBaseUrl });
  await auth.requestCode({ phone });
  const session = await auth.verifyCode({ phone, code: await capturedCode(svc, phone) });
  return new Svc({
    accessToken: () => auth.getAccessToken(),
    tenant: session.user.tenant,
    baseUrl: options.apiBaseUrl,
  });
}

/** 1b. As the member: the event on the stream, its ticket type, published. */
export async function publishShow(organizer: Svc, setUp: Pick<TenantSetUp, 'organization' | 'stream'>, run: string) {
  const startsAt = new Date(Date.now() + 2 * 3600_000);
  const event = await organizer.events.create({
    organization: setUp.organization.id,
    name: `Jazz Night ${run}`,
    starts_at: startsAt.toISOString(),
    ends_at: new Date(startsAt.getTime() + 3 * 3600_000).toISOString(),
    capacity: 300,
    live_stream: setUp.stream.id,
  });
  const ticketType = await organizer.events.ticketTypes.create(event.id, { name: 'Regular', pricing_mode: 'fixed', price: 150_000, stream_limits: { max_devices: 2 } });
  const published = await organizer.events.publish(event.id);
  return { event: published, ticketType };
}

/** 2a. The fan signs in on the event's page with the code sent to their phone. */
export async function signInFan(fan: SvcBrowser, svc: Svc, phone: string) {
  await fan.auth.requestCode({ phone });
  return fan.auth.verifyCode({ phone, code: await capturedCode(svc, phone) });
}

/**
 * 2b. Signed in, the fan books two tickets as themselves: one for them (no email of its own, so it is the
 * fan's, with the stream) and one for a guest. `payment` is the checkout page to send them to.
 */
export async function bookTwo(fan: SvcBrowser, slug: string, ticketTypeId: string, guestEmail: string, redirectUrl: string) {
  const payload = await fan.bookingPayload(slug, { ticket_id: ticketTypeId, quantity: 2 });
  if (!payload.bookable) throw new Error(`not bookable: ${payload.bookable_reason?.code}`);
  const booked = await fan.book(slug, {
    ticket_id: ticketTypeId,
    quantity: 2,
    buyer_name: 'Wanjiru K',
    attendees: [
      { first_name: 'Wanjiru', last_name: 'K' },
      { first_name: 'Otieno', last_name: 'O', email: guestEmail },
    ],
    redirect_url: redirectUrl,
  });
  if (typeof booked.payment !== 'string') throw new Error('a priced booking has a checkout');
  return { order: booked.booking, checkoutUrl: booked.payment };
}

/** 2c. What the checkout page sends when the fan pays with the magic test card (a page goes there: `redirectToCheckout`). */
export async function payInCheckout(checkoutUrl: string) {
  const url = new URL(checkoutUrl);
  const id = url.pathname.split('/').pop()!;
  const response = await fetch(`${url.origin}/v1/checkout/sessions/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'card', card_number: '4242424242424242' }),
  });
  const body = (await response.json()) as { data?: { payment: { status: string } } };
  if (!response.ok || body.data?.payment.status !== 'succeeded') throw new Error(`payment refused: ${JSON.stringify(body)}`);
}

/** 4. The encoder connects and video flows (test helpers, test mode only): the stream is `active`. */
export async function goLive(svc: Svc, streamId: string) {
  await svc.streams.liveStreamTestHelpers.simulate(streamId, { event: 'connected' });
  return svc.streams.liveStreamTestHelpers.simulate(streamId, { event: 'active' });
}

/** 5. The fan's player: a session on the stream (the customer token comes from `fan.auth.customerToken()`), and its first heartbeat. */
export async function watch(fan: SvcBrowser, streamId: string, deviceId: string) {
  const session = await fan.openPlayback({ resource: streamId, deviceId });
  const beat = await new Promise<PlaybackSession['current']>((resolve) => session.on('heartbeat', resolve));
  return { session, beat };
}

/** 6. At the door, the organizer's scanner: the ticket's secret (the fan's QR code) checks them in once. */
export function scanAtDoor(organizer: Svc, eventSlug: string, secret: string) {
  return organizer.checkins.scan(eventSlug, { secret, type: 'entry' });
}

/** 7. The organizer refunds the order in full: the tickets are void and the stream's access revoked. */
export function refund(organizer: Svc, orderId: string) {
  return organizer.orders.refunds.create(orderId, { reason: 'show moved' }, { idempotencyKey: `refund-${orderId}` });
}

/** Waits until the receiver has verified an event of each type (deliveries are asynchronous). */
export async function deliveries(server: ShowServer, types: string[], timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  const missing = () => types.filter((t) => !server.verified.some((e) => e.type === t));
  while (missing().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  if (missing().length) throw new Error(`no verified delivery of ${missing().join(', ')}`);
  return server.verified.map((e) => e.type);
}

/** Starts an Express app on a free local port. */
export const listen = (app: { listen: (port: number, host: string, cb: () => void) => Server }) =>
  new Promise<{ url: string; server: Server }>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }));
  });

/** The whole show, the fan's part with the browser SDK in Node. */
export async function liveShow(options: LiveShowOptions) {
  const log = options.log ?? (() => {});
  const run = randomUUID().slice(0, 8);
  const svc = new Svc({ apiKey: options.apiKey, baseUrl: options.apiBaseUrl });
  const receiver = showServer({ publishableKey: options.publishableKey, apiBaseUrl: options.apiBaseUrl });
  const { url, server } = await listen(receiver.app);
  try {
    const setUp = await setUpTenant(svc, `${url}/webhooks`, run);
    receiver.webhookSecret = setUp.webhookSecret;
    log(`tenant: organization ${setUp.organization.handle}, organizer ${setUp.member.id} invited, stream ${setUp.stream.id}`);

    const organizer = await signInOrganizer(options, svc, setUp.organizerPhone);
    const { event, ticketType } = await publishShow(organizer, setUp, run);
    log(`organizer: event ${event.slug} ${event.status}, ticket type ${ticketType.id}`);

    const fan = new SvcBrowser({ publishableKey: options.publishableKey, baseUrl: options.apiBaseUrl });
    await signInFan(fan, svc, newPhone());
    const { order, checkoutUrl } = await bookTwo(fan, event.slug, ticketType.id, `guest-${run}@example.com`, 'https://shop.example.com/thanks');
    await payInCheckout(checkoutUrl);
    log(`fan: order ${order.code} ${(await organizer.orders.retrieve(order.id)).status}`);

    const tickets = await fan.listTickets();
    log(`fan: ${tickets.length} tickets, ${tickets.map((t) => t.status).join(', ')}`);

    const live = await goLive(svc, setUp.stream.id);
    log(`tenant: stream ${live.status}`);

    const { session, beat } = await watch(fan, setUp.stream.id, `phone-${run}`);
    log(`fan: playing ${session.link}, heartbeat: ${beat.state}`);

    const secret = tickets[0]!.secret!;
    const scans = [await scanAtDoor(organizer, event.slug, secret), await scanAtDoor(organizer, event.slug, secret)];
    log(`organizer: door scans ${scans.map((s) => s.reason ?? s.status).join(', ')}`);

    const refunded = await refund(organizer, order.id);
    const ended = await new Promise<string>((resolve) => session.on('ended', ({ reason }) => resolve(reason)));
    log(`organizer: refund ${refunded.status}; fan: session ended, ${ended}`);

    const types = await deliveries(receiver, ['events.order.paid', 'streams.live_stream.active', 'events.order.refunded', 'access.entitlement.revoked']);
    log(`tenant: ${types.length} webhooks verified, ${receiver.refused.length} refused`);
    return { event, order, tickets, scans, refunded, ended, webhooks: receiver };
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await liveShow({
    apiKey: env('SVC_API_KEY'),
    publishableKey: env('SVC_PUBLISHABLE_KEY'),
    apiBaseUrl: env('SVC_BASE_URL', 'http://127.0.0.1:4000'),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write('live show: done\n');
}
