import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc } from '@svc/sdk-node';
import { startServer, type RunningServer } from '@svc/server/testing';
import { playerApp } from '../src/player-server';
import { webhookApp } from '../src/webhook-receiver';

let api: RunningServer;
let keys: Awaited<ReturnType<RunningServer['createTenant']>>['keys'];
const servers: Server[] = [];

const listen = (app: { listen: (port: number, host: string, cb: () => void) => Server }) =>
  new Promise<string>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    servers.push(server);
  });

beforeAll(async () => {
  api = await startServer();
  ({ keys } = await api.createTenant('Examples'));
}, 60_000);
afterAll(async () => {
  for (const s of servers) s.close();
  await api?.stop();
});

describe('the player page example in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 30_000);
  afterAll(() => browser?.close());

  it('opens a playback session from another origin and gets a signed link, then ends it', async () => {
    const { app, stream } = await playerApp({ apiKey: keys.test.secret, publishableKey: keys.test.publishable, apiBaseUrl: api.url });
    const page = await browser.newPage();
    await page.goto(await listen(app));
    await expect.poll(() => page.textContent('#status'), { timeout: 15_000 }).toBe('playing');
    const link = await page.textContent('#link');
    expect(link).toContain(`${api.url}/v1/streams/playback/`);
    expect(link).toContain('token=');

    const sessionId = await page.evaluate(() => (window as any).playbackSession.id as string);
    expect(sessionId).toMatch(/^as_/);
    await page.evaluate(() => (window as any).playbackSession.end());
    await expect.poll(() => page.textContent('#status')).toBe('ended: client');
    const afterEnd = await fetch(`${api.url}/v1/access/sessions/${sessionId}/heartbeat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.test.secret}` },
    });
    expect(afterEnd.status).toBe(403);
    expect((await afterEnd.json()).error.code).toBe('session_ended');
    expect(stream.id).toMatch(/^ls_/);
    await page.close();
  }, 40_000);
});

describe('the webhook receiver example', () => {
  it('receives, verifies and dedupes the events of a new stream', async () => {
    const svc = new Svc({ apiKey: keys.test.secret, baseUrl: api.url });
    let secret = '';
    const received: string[] = [];
    const url = await listen(webhookApp(svc, () => secret, (event) => received.push(event.type)));
    const endpoint = await svc.webhookEndpoints.create({ url: `${url}/webhooks`, enabled_events: ['streams.live_stream.*'] });
    secret = endpoint.secret!;
    await svc.streams.liveStreams.create({ metadata: { from: 'example-test' } });
    await expect.poll(() => received, { timeout: 20_000 }).toContain('streams.live_stream.created');

    const forged = await fetch(`${url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: '{"id":"evt_forged","type":"streams.live_stream.deleted"}',
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toBe('no_matching_signature');
    expect(received).not.toContain('streams.live_stream.deleted');
  }, 40_000);
});
