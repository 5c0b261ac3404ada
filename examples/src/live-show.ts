// The live show, end to end, through the SDKs against a running server (test mode):
// 1. the organizer (a secret key, on the tenant's server) creates an organization, a live stream, an event that
//    the stream belongs to, a ticket type, and publishes the event;
// 2. a buyer (the browser SDK with the publishable key) reads the event, books two tickets and pays in the
//    checkout simulator with the magic test card;
// 3. the attendee signs in with the code sent to their email (captured in test mode, read with the secret key),
//    lists their tickets and opens a playback session on the event's stream with the ticket's entitlement.
//
//   SVC_API_KEY=sk_test_… SVC_PUBLISHABLE_KEY=pk_test_… pnpm --filter @svc/examples live-show
import { randomUUID } from 'node:crypto';
import { Svc } from '@svc/sdk-node';
import { SvcBrowser, type PlaybackSession, type Ticket } from '@svc/sdk-browser';
import { env } from './env';

export interface LiveShowOptions {
  apiKey: string;
  publishableKey: string;
  apiBaseUrl: string;
  log?: (line: string) => void;
}

export interface LiveShow {
  event: { id: string; slug: string; status: string };
  order: { id: string; code: string; status: string };
  tickets: Ticket[];
  session: PlaybackSession;
}

/** What the checkout page's script does when the buyer pays: the simulator's public route, with the magic card. */
async function payInCheckout(checkoutUrl: string, apiBaseUrl: string) {
  const id = new URL(checkoutUrl).pathname.split('/').pop()!;
  const response = await fetch(`${apiBaseUrl}/v1/checkout/sessions/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'card', card_number: '4242424242424242' }),
  });
  const body = (await response.json()) as { data?: { payment: { status: string } }; error?: { code: string } };
  if (!response.ok || body.data?.payment.status !== 'succeeded') throw new Error(`payment refused: ${JSON.stringify(body)}`);
}

/** The organizer's part, on the tenant's server: the event, its ticket type and its stream, published. */
export async function organize(svc: Svc, run: string) {
  const organization = await svc.organizations.create({ name: 'Sauti Events', handle: `sauti_${run}`, kind: 'brand' });
  const stream = await svc.streams.liveStreams.create({ metadata: { show: 'jazz-night' } });
  const startsAt = new Date(Date.now() + 2 * 3600_000);
  const event = await svc.events.create({
    organization: organization.id,
    name: `Jazz Night ${run}`,
    starts_at: startsAt.toISOString(),
    ends_at: new Date(startsAt.getTime() + 3 * 3600_000).toISOString(),
    capacity: 300,
    live_stream: stream.id,
  });
  const ticketType = await svc.events.ticketTypes.create(event.id, { name: 'Regular', pricing_mode: 'fixed', price: 150_000, stream_limits: { max_devices: 2 } });
  await svc.events.publish(event.id);
  return { event, ticketType, stream };
}

/** The sign-in code sent to `email`: test mode captures messages, and the secret key reads them. */
export async function capturedCode(svc: Svc, email: string): Promise<string> {
  const [message] = (await svc.identity.messages.list({ to: email, template: 'otp_code', limit: 1 })).data;
  const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error('no sign-in code captured');
  return code;
}

export async function liveShow(options: LiveShowOptions): Promise<LiveShow> {
  const log = options.log ?? (() => {});
  const run = randomUUID().slice(0, 8);

  // 1. The organizer.
  const svc = new Svc({ apiKey: options.apiKey, baseUrl: options.apiBaseUrl });
  const { event, ticketType, stream } = await organize(svc, run);
  log(`organizer: event ${event.slug} published, ticket type ${ticketType.id}, stream ${stream.id}`);

  // 2. The buyer, on the event's page.
  const buyer = new SvcBrowser({ publishableKey: options.publishableKey, baseUrl: options.apiBaseUrl });
  const shown = await buyer.getEvent(event.slug);
  const payload = await buyer.bookingPayload(shown.slug, { ticket_id: ticketType.id, quantity: 2 });
  if (!payload.bookable) throw new Error(`not bookable: ${payload.bookable_reason?.code}`);
  const attendeeEmail = `fan-${run}@example.com`;
  const booked = await buyer.book(shown.slug, {
    ticket_id: ticketType.id,
    quantity: 2,
    buyer_name: 'Wanjiru K',
    buyer_email: attendeeEmail,
    attendees: [
      { first_name: 'Wanjiru', last_name: 'K', email: attendeeEmail },
      { first_name: 'Otieno', last_name: 'O', email: `guest-${run}@example.com` },
    ],
    redirect_url: 'https://shop.example.com/thanks',
  });
  if (typeof booked.payment !== 'string') throw new Error('a priced booking has a checkout');
  log(`buyer: order ${booked.booking.code} pending, paying at ${booked.payment}`);
  // A page would `buyer.redirectToCheckout(booked)`; here the card goes in as the checkout page sends it.
  await payInCheckout(booked.payment, options.apiBaseUrl);
  const order = await svc.orders.retrieve(booked.booking.id);
  log(`organizer: order ${order.code} ${order.status}`);

  // 3. The attendee signs in with the code from their email (test mode captures it), sees the tickets and plays.
  const attendee = new SvcBrowser({ publishableKey: options.publishableKey, baseUrl: options.apiBaseUrl });
  await attendee.auth.requestCode({ email: attendeeEmail });
  await attendee.auth.verifyCode({ email: attendeeEmail, code: await capturedCode(svc, attendeeEmail) });
  const tickets = await attendee.listTickets();
  log(`attendee: ${tickets.length} ticket(s), ${tickets.map((t) => t.status).join(', ')}`);
  const session = await attendee.openPlayback({ resource: stream.id, deviceId: `phone-${run}` });
  log(`attendee: playing ${session.link}`);
  return { event: { id: event.id, slug: event.slug, status: 'published' }, order, tickets, session };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const show = await liveShow({
    apiKey: env('SVC_API_KEY'),
    publishableKey: env('SVC_PUBLISHABLE_KEY'),
    apiBaseUrl: env('SVC_BASE_URL', 'http://127.0.0.1:4000'),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  await show.session.end();
  process.stdout.write('live show: done\n');
}
