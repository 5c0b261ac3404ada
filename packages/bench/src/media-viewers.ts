/**
 * How many HLS viewers of one live stream the media network serves on this machine: a server process with its
 * own nginx, ffmpeg's test pattern published to a live-mode stream, a viewer's signed link from a playback
 * session, then autocannon on the link's media playlist and on one segment, each for a few seconds.
 * A viewer fetches one playlist and one segment per fragment (2 s), so viewers = 2 / (1/playlists + 1/segments)
 * per second. Loopback only; run by hand (`pnpm --filter @svc/bench exec tsx src/media-viewers.ts`).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ROOT } from './processes';

const ADMIN = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.SECONDS ?? 8);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const operator = `op_${randomBytes(20).toString('hex')}`;
const database = `svc_media_bench_${randomBytes(4).toString('hex')}`;

async function sql(text: string) {
  const c = new pg.Client({ connectionString: ADMIN });
  await c.connect();
  await c.query(text);
  await c.end();
}

const json = async (res: Response) => ((await res.json()) as { data: any }).data;

async function main() {
  await sql(`CREATE DATABASE ${database}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-media-bench-'));
  const url = new URL(ADMIN);
  url.pathname = `/${database}`;
  const server = spawn(process.execPath, ['--max-old-space-size=512', '--import', 'tsx', 'src/boot/main.ts'], {
    cwd: join(ROOT, 'packages/server'),
    env: { ...process.env, DATABASE_URL: url.toString(), PORT: '0', SVC_DATA_DIR: dataDir, SVC_OPERATOR_TOKEN: operator, SVC_MEDIA_RTMP_PORT: '0', LOG_LEVEL: 'info', SVC_RATE_LIMIT_PUBLIC: '1000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const base = await new Promise<string>((resolve) => server.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /"url":"(http:[^"]+)","msg":"listening"/.exec(out);
      if (m) resolve(m[1]!);
  }));
  const post = (path: string, key: string, body: object) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomBytes(8).toString('hex') }, body: JSON.stringify(body) });
  const tenant = await json(await post('/v1/operator/tenants', operator, { name: 'Bench', rate_limits: { secret: 100000, publishable: 100000 } }));
  const sk = tenant.keys.live.secret as string;
  const stream = await json(await post('/v1/streams/live_streams', sk, {}));
  const encoder = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '25', '-b:v', '1000k', '-f', 'flv', `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  await post('/v1/access/entitlements', sk, { customer: 'viewer', resource: { type: 'ls', id: stream.id } });
  const session = await json(await post('/v1/access/sessions', sk, { resource: stream.id, customer: 'viewer', device_id: 'bench' }));
  const master = new URL(session.grant.sources[0].url);
  const token = master.searchParams.get('token')!;
  const mediaPath = `${master.pathname.replace(/\.m3u8$/, '')}/media.m3u8?token=${encodeURIComponent(token)}`;
  let playlist = '';
  for (let i = 0; i < 60 && !/segments\/\d+\.ts/.test(playlist); i++) {
    await new Promise((r) => setTimeout(r, 500));
    playlist = await (await fetch(`${base}${mediaPath}`)).text();
  }
  const segmentPath = `${master.pathname.replace(/\.m3u8$/, '')}/${playlist.split('\n').find((l) => l.startsWith('segments/'))}`;
  const probe = await fetch(`${base}${segmentPath}`);
  if (probe.status !== 200) throw new Error(`the segment answered ${probe.status}: ${await probe.text()}`);
  const run = (path: string) => autocannon({ url: `${base}${path}`, connections: CONNECTIONS, duration: SECONDS });
  const pl = await run(mediaPath);
  const seg = await run(segmentPath);
  const segmentBytes = seg.throughput.average / Math.max(1, seg.requests.average);
  const viewers = 2 / (1 / pl.requests.average + 1 / seg.requests.average);
  const report = {
    playlists_per_s: Math.round(pl.requests.average),
    playlist_p99_ms: pl.latency.p99,
    segments_per_s: Math.round(seg.requests.average),
    segment_p99_ms: seg.latency.p99,
    segment_kb: Math.round(segmentBytes / 1024),
    errors: pl.errors + pl.non2xx + seg.errors + seg.non2xx,
    viewers_cpu_bound: Math.round(viewers),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  encoder.kill('SIGTERM');
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await sql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
