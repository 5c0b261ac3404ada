import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@svc/server/testing';
import { playerServer } from '../src/player-server';
import { tenantServer } from '../src/tenant-server';

// The reference server runs its own media network (nginx-rtmp and ffmpeg, installed by CI); live mode uses it.
let api: RunningServer;
let playerUrl: string;
let browser: Browser;
let encoder: ChildProcess | undefined;
const servers: Server[] = [];

const listen = (app: { listen: (port: number, host: string, cb: () => void) => Server }) =>
  new Promise<string>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    servers.push(server);
  });

beforeAll(async () => {
  api = await startServer();
  const { keys } = await api.createTenant('Live examples');
  const tenant = tenantServer({ apiKey: keys.live.secret, publishableKey: keys.live.publishable, apiBaseUrl: api.url });
  const tenantUrl = await listen(tenant.app);
  await tenant.setUp(tenantUrl, { webhooks: false });
  const { streamId } = (await (await fetch(`${tenantUrl}/config`)).json()) as { streamId: string };
  const stream = (await (await fetch(`${api.url}/v1/streams/live_streams/${streamId}`, { headers: { authorization: `Bearer ${keys.live.secret}` } })).json()) as {
    data: { provider: string; ingest: { rtmp_url: string; stream_key: string } };
  };
  if (stream.data.provider !== 'media') throw new Error(`live mode uses '${stream.data.provider}', not the media network: is nginx-rtmp installed?`);
  // The broadcaster: ffmpeg's test pattern, light on CPU.
  encoder = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '60',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k',
    '-f', 'flv', `${stream.data.ingest.rtmp_url}/${stream.data.ingest.stream_key}`], { stdio: 'ignore' });
  playerUrl = await listen(playerServer(tenantUrl));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
}, 90_000);
afterAll(async () => {
  encoder?.kill('SIGTERM');
  await browser?.close();
  for (const s of servers) s.close();
  await api?.stop();
});

describe('the live player page, in Chromium, on the media network', () => {
  it('plays the live stream with hls.js through a playback session opened with a customer token', async () => {
    const page = await browser.newPage();
    await page.goto(`${playerUrl}/live`);
    await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toBe('playing');
    // The session's link is the signed HLS of this server; the video element plays the test pattern.
    const link = await page.evaluate(() => (window as unknown as { playbackSession: { link: string } }).playbackSession.link);
    expect(link).toMatch(new RegExp(`^${api.url}/v1/streams/playback/pb_\\w+\\.m3u8\\?token=`));
    await expect.poll(() => page.textContent('#video-status'), { timeout: 45_000, interval: 500 }).toBe('playing 320x240');
    await expect.poll(async () => Number(await page.textContent('#time')), { timeout: 30_000, interval: 500 }).toBeGreaterThan(2);
    await page.close();
  }, 120_000);
});
