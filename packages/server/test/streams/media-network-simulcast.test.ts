import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { busyTenant, client, expectStatus } from './media-fixtures';
import { publish, run, useMediaTestServer, waitFor } from './media-network-fixtures';

const m = useMediaTestServer();
let sk: string;
beforeAll(async () => {
  sk = (await busyTenant(m.t, 'Media simulcast')).keys.live.secret;
});

/** An address of this machine that is not loopback: the media network does not relay back to loopback. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const freePort = (host: string) =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Whether some process listens on TCP `port` (IPv4), from /proc/net/tcp: state 0A is LISTEN. */
const listening = (port: number) =>
  readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .some((line) => {
      const [, local, , state] = line.trim().split(/\s+/);
      return state === '0A' && local?.endsWith(`:${port.toString(16).toUpperCase().padStart(4, '0')}`);
    });

describe('media network simulcast', () => {
  it('marks a target back on loopback errored', async () => {
    const s = expectStatus(
      await client(m.t, sk).post('/v1/streams/live_streams', { simulcast_targets: [{ url: 'rtmp://127.0.0.1:1935/live', stream_key: 'k' }] }),
      201,
    ).data;
    expect(s.simulcast_targets[0]).toMatchObject({ status: 'errored' });
    expect(s.simulcast_targets[0].error).toMatch(/does not relay back/);
  });

  it.skipIf(!ownAddress)('relays the live input to each active target with ffmpeg, without transcoding', async () => {
    // The target is ffmpeg itself, listening as an RTMP server and keeping what it receives.
    const port = await freePort(ownAddress!);
    const out = join(m.dir, 'simulcast.flv');
    const target = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-listen', '1', '-i', `rtmp://${ownAddress}:${port}/app/target-key`, '-c', 'copy', out]);
    const received = new Promise<number | null>((r) => target.once('exit', r));
    // A probe connection would be taken as ffmpeg's one client: read the kernel's table of listening sockets instead.
    await expect.poll(() => listening(port), { timeout: 10_000 }).toBe(true);
    const s = expectStatus(
      await client(m.t, sk).post('/v1/streams/live_streams', { simulcast_targets: [{ url: `rtmp://${ownAddress}:${port}/app`, stream_key: 'target-key' }] }),
      201,
    ).data;
    expect(s.simulcast_targets[0].status).toBe('active');
    const encoder = publish(m.media.rtmpUrl, s.ingest.stream_key, 6);
    await waitFor(async () => expectStatus(await client(m.t, sk).get(`/v1/streams/live_streams/${s.id}`), 200).data.status, (x) => x === 'active');
    await encoder.exited;
    expect(await received).toBe(0);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width:format=duration', '-of', 'json', out]);
    const probed = JSON.parse(stdout) as { streams: { codec_name: string; width?: number }[]; format: { duration: string } };
    expect(probed.streams.map((x) => x.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probed.streams.find((x) => x.codec_name === 'h264')!.width).toBe(320);
    expect(Number(probed.format.duration)).toBeGreaterThan(2);
  }, 60_000);
});
