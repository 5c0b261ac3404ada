import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createTestServer, type TestServer } from '../harness';
import { busyTenant, client } from './media-fixtures';
import { mediaProcessingJob } from '../../src/modules/streams/network/media/media-processing.job';
import { startMediaNetwork, type RunningMediaNetwork } from '../../src/modules/streams/network/media/start-media-network';
import { reconnectWindowJob, sweepReconnectWindows } from '../../src/modules/streams/live-streams/reconnect-window.job';
import { streamsDeps } from '../../src/modules/streams/streams-deps';

export const run = promisify(execFile);

export interface MediaTestServer {
  t: TestServer;
  url: string;
  media: RunningMediaNetwork;
  dir: string;
  /** What the media network logged (debug and up), one JSON line each. */
  logs: string[];
}

/**
 * The real app listening on a free loopback port, with its own nginx on another free port and a temporary
 * media directory, and the job workers the media network needs (reconnect windows, packaging). `env` is read
 * when the server starts (after the file's earlier `beforeAll`s, such as a storage server's).
 */
export function useMediaTestServer(env: () => Record<string, string> = () => ({})): MediaTestServer {
  const state = {} as MediaTestServer & { http: Server };
  beforeAll(async () => {
    state.dir = mkdtempSync(join(tmpdir(), 'svc-media-'));
    state.t = await createTestServer({ SVC_MEDIA_RTMP_PORT: '0', SVC_MEDIA_DIR: state.dir, SVC_RATE_LIMIT_PUBLIC: '100000', ...env() });
    state.http = createServer(state.t.app);
    await new Promise<void>((r) => state.http.listen(0, '127.0.0.1', r));
    const { port } = state.http.address() as { port: number };
    state.url = `http://127.0.0.1:${port}`;
    state.t.ctx.config.baseUrl = state.url;
    state.t.ctx.jobs.register(reconnectWindowJob(streamsDeps(state.t.ctx)));
    state.t.ctx.jobs.register(mediaProcessingJob(state.t.ctx));
    await state.t.ctx.jobs.start();
    state.logs = [];
    state.t.ctx.log = process.env.MEDIA_TEST_LOG
      ? pino({ level: process.env.MEDIA_TEST_LOG })
      : pino({ level: 'debug' }, { write: (line: string) => void state.logs.push(line) });
    const media = await startMediaNetwork(state.t.ctx, state.url);
    if (!media) throw new Error('the media network did not start: are nginx, libnginx-mod-rtmp and ffmpeg installed?');
    state.media = media;
  });
  afterAll(async () => {
    await state.media?.stop();
    state.http?.closeAllConnections();
    await new Promise((r) => state.http?.close(r));
    await state.t?.close();
    rmSync(state.dir, { recursive: true, force: true });
  });
  return new Proxy(state, { get: (target, prop) => Reflect.get(target, prop) });
}

export interface Publisher {
  child: ChildProcess;
  /** Resolves with ffmpeg's exit code. */
  exited: Promise<number | null>;
  stderr: () => string;
}

/** ffmpeg's test pattern (and a tone) published to `rtmpUrl/key` for `seconds`, light on CPU. */
export function publish(rtmpUrl: string, key: string, seconds: number): Publisher {
  const child = spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
    '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15',
    '-c:a', 'aac', '-b:a', '64k',
    '-f', 'flv', `${rtmpUrl}/${key}`,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, exited, stderr: () => err };
}

/** Polls `read` until `done` holds, or fails after `ms`. */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - start > ms) throw new Error(`timed out waiting; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A short MP4 made with ffmpeg (about a second of test pattern). */
export async function makeMp4(dir: string): Promise<string> {
  const path = join(dir, 'clip.mp4');
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '1',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path]);
  return path;
}

/** A file's tenant on the media network server, with a client on its live secret key; `id` is set before the tests run. */
export function useMediaNetworkTenant(m: MediaTestServer, name: string) {
  const tenant = { id: '', sk: '' };
  beforeAll(async () => {
    const { keys, tenant: made } = await busyTenant(m.t, name);
    tenant.sk = keys.live.secret;
    tenant.id = made.id;
  });
  return { tenant, api: () => client(m.t, tenant.sk) };
}

/** Sweeps reconnect windows with the clock 61 s ahead, so a window of 60 s has passed. */
export async function sweepAfterReconnectWindow(m: MediaTestServer) {
  m.t.ctx.clock = () => new Date(Date.now() + 61_000);
  try {
    await sweepReconnectWindows(streamsDeps(m.t.ctx));
  } finally {
    m.t.ctx.clock = undefined;
  }
}
