import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@svc/server/testing';
import { playerServer } from '../src/player-server';
import { tenantServer, type TenantServer } from '../src/tenant-server';

let api: RunningServer;
let tenant: TenantServer;
let tenantUrl: string;
let playerUrl: string;
let browser: Browser;
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
