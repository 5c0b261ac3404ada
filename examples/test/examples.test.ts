import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@svc/server/testing';
import { playerServer } from '../src/player-server';
import { tenantServer, type TenantServer } from '../src/tenant-server';
import { Svc } from '@svc/sdk-node';
import { capturedCode, organize } from '../src/live-show';

let api: RunningServer;
let tenant: TenantServer;
let tenantUrl: string;
let playerUrl: string;
let browser: Browser;
let svc: Svc;
const servers: Server[] = [];

const listen = (app: { listen: (port: number, host: string, cb: () => void) => Server }) =>
  new Promise<string>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    servers.push(server);
  });

const post = (path: string, body: object) =>
  fetch(`${tenantUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  api = await startServer();
  const { keys } = await api.createTenant('Examples');
  svc = new Svc({ apiKey: keys.test.secret, baseUrl: api.url });
  tenant = tenantServer({ apiKey: keys.test.secret, publishableKey: keys.test.publishable, apiBaseUrl: api.url });
  tenantUrl = await listen(tenant.app);
  await tenant.setUp(tenantUrl);
  playerUrl = await listen(playerServer(tenantUrl));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  await api?.stop();
});

describe('tenant server and player page, in Chromium against the reference server', () => {
  it('buys, plays with heartbeats, and ends the session when the tenant refunds', async () => {
    const page = await browser.newPage();
    await page.goto(playerUrl);
    await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toBe('playing');
    expect(await page.textContent('#link')).toMatch(new RegExp(`^${api.url}/v1/streams/playback/pb_\\w+\\.m3u8\\?token=`));

    // Sessions heartbeat every 30 seconds (the spec's interval).
    await expect.poll(() => page.textContent('#beats'), { timeout: 45_000, interval: 1000 }).toBe('1');

    expect((await (await post('/refund', { viewer: 'viewer-42' })).json()).status).toBe('revoked');
    await expect.poll(() => page.textContent('#status'), { timeout: 45_000, interval: 1000 }).toBe('ended: entitlement_inactive');

    // The tenant server saw the grant and the revoke through verified webhooks, once each.
    const types = tenant.received.map((e) => e.type);
    expect(types.filter((t) => t === 'access.entitlement.granted')).toHaveLength(1);
    expect(types).toContain('access.entitlement.revoked');
    expect(types).toContain('streams.live_stream.created');
    await page.close();
  }, 120_000);

  it('runs the live show: the organizer publishes, the fan books and pays in the checkout page, signs in and plays until a refund', async () => {
    const { event, stream } = await organize(svc, 'chromium');
    const fan = 'fan-chromium@example.com';
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${playerUrl}/show?event=${event.slug}&stream=${stream.id}`);
    await page.waitForSelector('#book:not([hidden])');
    expect(await page.textContent('#event')).toBe(event.name);
    await page.fill('#buyer-email', fan);
    await page.click('#book-two');

    // The server's checkout simulator, in test mode; the magic card pays and sends the fan back.
    await page.waitForURL(`${api.url}/checkout/**`);
    await page.waitForSelector('#checkout:not([hidden])');
    await page.fill('#card-number', '4242 4242 4242 4242');
    await page.click('#pay-card');
    await page.waitForURL(/outcome=succeeded/, { timeout: 20_000 });
    await page.waitForSelector('#sign-in:not([hidden])');

    await page.fill('#email', fan);
    await page.click('#send-code');
    await expect.poll(() => page.textContent('#step'), { timeout: 10_000 }).toBe('code sent');
    await page.fill('#code', await capturedCode(svc, fan));
    await page.click('#verify');
    await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toBe('playing');
    // The fan bought both tickets and is the first attendee: they see both.
    expect(await page.textContent('#tickets')).toMatch(/^([A-Z0-9]{8}) valid, \1 valid$/);
    expect(await page.textContent('#link')).toMatch(new RegExp(`^${api.url}/v1/streams/playback/pb_\\w+\\.m3u8\\?token=`));
    expect(errors).toEqual([]);

    // The tenant's server heard of the paid order and the ticket's entitlement through verified webhooks.
    await expect.poll(() => tenant.received.map((e) => e.type), { timeout: 30_000, interval: 500 }).toContain('events.order.paid');
    const granted = tenant.received.filter((e) => e.type === 'access.entitlement.granted').map((e) => (e.data.object as { source: string }).source);
    expect(granted).toContain('ticket');

    // The organizer refunds the order in full: the fan's player stops at its next heartbeat.
    const [order] = (await svc.orders.list({ event: event.id })).data;
    const refund = await svc.orders.refunds.create(order!.id, { reason: 'show moved' }, { idempotencyKey: `refund-${order!.id}` });
    expect(refund).toMatchObject({ status: 'succeeded', amount: order!.amount_paid });
    await expect.poll(() => page.textContent('#status'), { timeout: 45_000, interval: 1000 }).toBe('ended: entitlement_inactive');
    await expect.poll(() => tenant.received.map((e) => e.type), { timeout: 30_000, interval: 500 }).toContain('events.order.refunded');
    await page.close();
  }, 120_000);

  it('refuses a forged webhook', async () => {
    const forged = await fetch(`${tenantUrl}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: '{"id":"evt_forged","type":"access.entitlement.revoked"}',
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toBe('no_matching_signature');
    expect(tenant.received.map((e) => e.id)).not.toContain('evt_forged');
  });
});
