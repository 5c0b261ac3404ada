import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, databaseUrl } from '../databases';
import { runServerProcess } from '../process';
import { publish, waitFor } from './media-network-fixtures';

const OPERATOR = `op_${'m'.repeat(40)}`;
const database = `svc_media_proc_${process.pid}`;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-media-proc-'));
const base = { DATABASE_URL: databaseUrl(database), SVC_DATA_DIR: dataDir, SVC_OPERATOR_TOKEN: OPERATOR, SVC_MEDIA_RTMP_PORT: '0' };
beforeAll(() => admin((c) => c.query(`CREATE DATABASE ${database}`)));
afterAll(async () => {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  rmSync(dataDir, { recursive: true, force: true });
});

/** A live-mode stream creation with a new tenant's live secret key. */
async function liveStream(url: string): Promise<Response & { key?: string }> {
  const tenant = await fetch(`${url}/v1/operator/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Proc' }),
  });
  const { data } = (await tenant.json()) as { data: { keys: { live: { secret: string } } } };
  const res: Response & { key?: string } = await fetch(`${url}/v1/streams/live_streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${data.keys.live.secret}`, 'content-type': 'application/json' },
    body: '{}',
  });
  res.key = data.keys.live.secret;
  return res;
}

const nginxOf = () => {
  try {
    return execFileSync('pgrep', ['-f', `nginx: master process .*${dataDir}`]).toString().trim();
  } catch {
    return '';
  }
};

describe('the server process and its media network', () => {
  it('says in one line that the media network is off when ffmpeg is missing, and live mode answers 409 as before', async () => {
    const server = runServerProcess({ ...base, SVC_MEDIA_NETWORK: 'auto', PATH: '/nonexistent' });
    const url = await server.url;
    const lines = server.output().split('\n').filter((l) => l.includes('media network'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('media network off: ffmpeg, ffprobe not installed');
    const res = await liveStream(url);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('video_network_not_configured');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('runs nginx when the binaries are present, makes media the live network, and stops a stale nginx after SIGKILL', async () => {
    const first = runServerProcess({ ...base, SVC_MEDIA_NETWORK: 'auto' });
    const url = await first.url;
    expect(first.output()).toMatch(/"rtmp_url":"rtmp:\/\/127\.0\.0\.1:\d+\/live".*media network running/);
    const res = await liveStream(url);
    expect(res.status).toBe(201);
    const stream = ((await res.json()) as { data: { id: string; provider: string; ingest: { rtmp_url: string; stream_key: string } } }).data;
    expect(stream.provider).toBe('media');
    // The media directory sits in the data directory: nginx's workers must reach it to write HLS.
    const encoder = publish(stream.ingest.rtmp_url, stream.ingest.stream_key, 4);
    const status = () => fetch(`${url}/v1/streams/live_streams/${stream.id}`, { headers: { authorization: `Bearer ${res.key}` } }).then(async (r) => ((await r.json()) as { data: { status: string } }).data.status);
    await waitFor(status, (s) => s === 'active');
    await encoder.exited;
    const stale = nginxOf();
    expect(stale).not.toBe('');

    first.child.kill('SIGKILL');
    await first.exited;
    const second = runServerProcess({ ...base, SVC_MEDIA_NETWORK: 'auto' });
    await second.url;
    expect(second.output()).toContain('stopping an nginx left running by an earlier run');
    expect(nginxOf()).not.toBe(stale);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(nginxOf()).toBe('');
  }, 60_000);

  it('refuses a bad media configuration at start, listing each problem', async () => {
    const bad = runServerProcess({ ...base, SVC_MEDIA_RTMP_PORT: 'rtmp', SVC_MEDIA_PUBLIC_RTMP_URL: 'http://media.example.com/live' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('SVC_MEDIA_RTMP_PORT');
    expect(bad.output()).toContain('SVC_MEDIA_PUBLIC_RTMP_URL must be an rtmp:// or rtmps:// URL');
  }, 30_000);
});
