import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc } from '@svc/sdk-node';
import type { Ticket } from '@svc/sdk-browser';
import { startServer, type RunningServer } from '@svc/server/testing';
import { capturedCode, goLive, listen, newPhone, publishShow, refund, scanAtDoor, setUpTenant, signInOrganizer, SHOW_EVENTS, type TenantSetUp } from '../src/live-show';
import { playerServer } from '../src/player-server';
import { showServer, type ShowServer } from '../src/show-server';

// The live show, each step through the SDKs against the reference server; the fan's part in Chromium on the
// event page (player/show.html) and the server's real checkout page.
let api: RunningServer;
let keys: { secret: string; publishable: string };
let svc: Svc;
let receiver: ShowServer;
let playerUrl: string;
let tenantSiteUrl: string;
let browser: Browser;
let page: Page;
const servers: Server[] = [];
const run = `t${Date.now().toString(36)}`;
const pageErrors: string[] = [];

// What each step hands to the next.
let setUp: TenantSetUp;
let organizer: Svc;
let show: Awaited<ReturnType<typeof publishShow>>;
let orderCode: string;
let tickets: Ticket[];

beforeAll(async () => {
  api = await startServer();
  keys = (await api.createTenant('Live show')).keys.test;
  svc = new Svc({ apiKey: keys.secret, baseUrl: api.url });
  receiver = showServer({ publishableKey: keys.publishable, apiBaseUrl: api.url });
  const tenantSite = await listen(receiver.app);
  const player = await listen(playerServer(tenantSite.url));
  servers.push(tenantSite.server, player.server);
  playerUrl = player.url;
  tenantSiteUrl = tenantSite.url;
  setUp = await setUpTenant(svc, `${tenantSite.url}/webhooks`, run);
  receiver.webhookSecret = setUp.webhookSecret;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
  // The page's clock is driven by the test, so a heartbeat 30 s away (the spec's interval) comes when the test says.
  await page.clock.install();
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, 90_000);
afterAll(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  await api?.stop();
});

const text = (selector: string) => page.textContent(selector);

describe('the live show, step by step, through the SDKs against the reference server', () => {
  it('0. the tenant sets up: the organizer is an invited member of the organization; the stream is idle', () => {
    expect(setUp.member).toMatchObject({ phone: setUp.organizerPhone, role: 'admin', status: 'invited' });
    expect(setUp.stream.status).toBe('idle');
    expect(setUp.webhookSecret).toMatch(/^whsec_/);
  });

  it('1. the organizer signs in with a phone code and, as that member, publishes the event with a ticket type on the stream', async () => {
    organizer = await signInOrganizer({ apiKey: keys.secret, publishableKey: keys.publishable, apiBaseUrl: api.url }, svc, setUp.organizerPhone);
    show = await publishShow(organizer, setUp, run);
    expect(show.event).toMatchObject({ status: 'published', live_stream: setUp.stream.id, organization: setUp.organization.id });
    expect(show.ticketType).toMatchObject({ name: 'Regular', price: 150_000 });
    // Signed in, the member is active; their calls went with their token, so a member's limits apply to them.
    const members = (await svc.organizations.listMembers(setUp.organization.id)).data;
    expect(members.find((m) => m.id === setUp.member.id)).toMatchObject({ status: 'active' });
    await expect(organizer.streams.liveStreams.create({})).rejects.toMatchObject({ status: 403 });
  });

  it('2. the fan signs in with a phone code, books two tickets and pays in the checkout page with the magic card', async () => {
    const phone = newPhone();
    await page.goto(`${playerUrl}/show?event=${show.event.slug}&stream=${setUp.stream.id}`);
    await expect.poll(() => text('#event'), { timeout: 10_000 }).toBe(show.event.name);
    await page.waitForSelector('#sign-in:not([hidden])');
    await page.fill('#phone', phone);
    await page.click('#send-code');
    await expect.poll(() => text('#step'), { timeout: 10_000 }).toBe('code sent');
    await page.fill('#code', await capturedCode(svc, phone));
    await page.click('#verify');
    await page.waitForSelector('#book:not([hidden])');
    await page.fill('#guest-email', `guest-${run}@example.com`);
    await page.click('#book-two');

    // The server's checkout simulator, in test mode; the magic card pays and sends the fan back.
    await page.waitForURL(`${api.url}/checkout/**`);
    await page.waitForSelector('#checkout:not([hidden])');
    await page.fill('#card-number', '4242 4242 4242 4242');
    await page.click('#pay-card');
    await page.waitForURL(/outcome=succeeded/, { timeout: 20_000 });
    orderCode = new URL(page.url()).searchParams.get('code')!;
    const [order] = (await organizer.orders.list({ event: show.event.id })).data;
    expect(order).toMatchObject({ code: orderCode, status: 'paid', amount_paid: 300_000 });
  });

  it('3. the fan holds both tickets, valid, with their secrets for the door', async () => {
    await page.waitForSelector('#watch:not([hidden])');
    await expect.poll(() => text('#tickets'), { timeout: 10_000 }).toBe(`${orderCode} valid, ${orderCode} valid`);
    tickets = await page.evaluate(() => (window as unknown as { tickets: Ticket[] }).tickets);
    expect(tickets).toHaveLength(2);
    for (const ticket of tickets) expect(ticket).toMatchObject({ status: 'valid', order_code: orderCode, secret: expect.any(String) });
  });

  it('4. the stream goes live through the test helpers', async () => {
    const live = await goLive(svc, setUp.stream.id);
    expect(live.status).toBe('active');
    expect((await svc.streams.liveStreams.retrieve(setUp.stream.id)).status).toBe('active');
  });

  it('5. the fan watches: a playback session opened with the identity customer token, and a heartbeat', async () => {
    await page.click('#play');
    await expect.poll(() => text('#status'), { timeout: 20_000 }).toBe('playing');
    expect(await text('#link')).toMatch(new RegExp(`^${api.url}/v1/streams/playback/pb_\\w+\\.m3u8\\?token=`));
    const fanCustomer = await page.evaluate(() => (window as unknown as { playbackSession: { current: { customer: string } } }).playbackSession.current.customer);
    // The entitlement the paid ticket granted is the fan's own.
    const entitlements = await svc.access.entitlements.list({ customer: fanCustomer });
    expect(entitlements.data.map((e) => [e.source, e.source_ref, e.status])).toEqual([['ticket', orderCode, 'active']]);
    await page.clock.runFor(30_000);
    await expect.poll(() => text('#beats'), { timeout: 15_000 }).toBe('1');
    expect(await text('#status')).toBe('playing');
  });

  it('6. the organizer scans a ticket at the door: in once, then already_redeemed', async () => {
    const secret = tickets[0]!.secret!;
    expect(await scanAtDoor(organizer, show.event.slug, secret)).toMatchObject({ status: 'ok', reason: null, ticket: { id: tickets[0]!.id } });
    expect(await scanAtDoor(organizer, show.event.slug, secret)).toMatchObject({ status: 'error', reason: 'already_redeemed' });
  });

  it("7. the organizer refunds the order: the fan's session ends at its next heartbeat", async () => {
    const [order] = (await organizer.orders.list({ event: show.event.id })).data;
    expect(await refund(organizer, order!.id)).toMatchObject({ status: 'succeeded', amount: 300_000 });
    expect(await text('#status')).toBe('playing');
    await page.clock.runFor(30_000);
    await expect.poll(() => text('#status'), { timeout: 15_000 }).toBe('ended: entitlement_inactive');
    expect(pageErrors).toEqual([]);
  });

  it("the tenant's server verified a delivery of each step's events, and refused none", async () => {
    const expected = [
      'events.event.published',
      'events.order.created',
      'events.order.paid',
      'access.entitlement.granted',
      'streams.live_stream.active',
      'payments.refund.succeeded',
      'events.order.refunded',
      'access.entitlement.revoked',
    ];
    const types = () => receiver.verified.map((e) => e.type);
    for (const type of expected) await expect.poll(types, { timeout: 30_000, interval: 250 }).toContain(type);
    // Every type subscribed to is one of the show's groups.
    for (const type of types()) expect(SHOW_EVENTS.some((p) => type.startsWith(p.slice(0, -1)))).toBe(true);
    expect(receiver.refused).toEqual([]);

    // A forged delivery is refused and does not count.
    const forged = await fetch(`${tenantSiteUrl}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: '{"id":"evt_forged","type":"events.order.paid"}',
    });
    expect(forged.status).toBe(400);
    expect(receiver.refused).toEqual(['no_matching_signature']);
    expect(receiver.verified.map((e) => e.id)).not.toContain('evt_forged');
  }, 60_000);
});
