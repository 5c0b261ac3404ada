import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { startCdn } from '../../../server/test/kit/nginx-cdn';
import { Api, pool } from '../api';
import type { Result } from '../measure';
import { postgresCpu, postgresCpuSince, type Running } from '../processes';
import type { Context, Scenario } from './types';

/** What one viewer asks per second: a playlist and a segment every 2 s fragment, a heartbeat every 30 s. */
const MEDIA_PER_VIEWER = 1;
const HEARTBEATS_PER_VIEWER = 1 / 30;
/** A segment that takes longer than its own length to arrive stalls the player. */
const STALL_MS = 2000;

interface Viewer {
  session: string;
  playlist: string;
  segment: string;
}

/** A live-mode stream fed by ffmpeg's test pattern through the media network, until a segment is served. */
async function publishedStream(api: Api): Promise<{ id: string; encoder: ChildProcess }> {
  const { data: stream } = await api.call('POST', '/v1/streams/live_streams', {});
  const encoder = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '50', '-b:v', '1000k', '-f', 'flv', `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`], { stdio: 'ignore' });
  return { id: stream.id, encoder };
}

/** Each viewer's entitlement and session, and the playlist and current segment its signed link names. */
async function seedViewers(api: Api, base: string, streamId: string, count: number): Promise<Viewer[]> {
  const viewers: Viewer[] = new Array(count);
  await pool(Array.from({ length: count }, (_, i) => i), 25, async (i) => {
    const customer = `viewer-${i}`;
    await api.call('POST', '/v1/access/entitlements', { customer, resource: { type: 'ls', id: streamId } }, { 'idempotency-key': randomUUID() });
    const { data } = await api.call('POST', '/v1/access/sessions', { resource: streamId, customer, device_id: `device-${i}` });
    const master = new URL(data.grant.sources[0].url);
    const token = encodeURIComponent(master.searchParams.get('token')!);
    const root = master.pathname.replace(/\.m3u8$/, '');
    viewers[i] = { session: data.id, playlist: `${root}/media.m3u8?token=${token}`, segment: `${root}/SEGMENT?token=${token}` };
  });
  let playlist = '';
  for (let i = 0; i < 120 && !/segments\/\d+\.ts/.test(playlist); i++) {
    await new Promise((r) => setTimeout(r, 500));
    playlist = await (await fetch(`${base}${viewers[0]!.playlist}`)).text();
  }
  const segment = /segments\/\d+\.ts/.exec(playlist)?.[0];
  if (!segment) throw new Error(`viewers: the live stream served no segment within a minute:\n${playlist.slice(0, 500)}`);
  return viewers.map((v) => ({ ...v, segment: v.segment.replace('SEGMENT', segment) }));
}

/** A fixed offered rate for the run's length, as viewers would send it, whatever the server answers. */
function offered(url: string, rate: number, seconds: number, next: () => { path: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url,
        connections: Math.max(1, Math.min(200, Math.ceil(rate / 20))),
        overallRate: Math.max(1, Math.round(rate)),
        duration: seconds,
        requests: [
          {
            setupRequest: (req) => {
              const r = next();
              return { ...req, method: r.method ?? 'GET', path: r.path, headers: { ...req.headers, ...r.headers }, body: r.body };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

const resultOf = (r: autocannon.Result, svc: Running, cpu: number, postgres: number, seconds: number): Result => ({
  requestsPerSecond: Math.round(r.requests.average),
  p50Ms: r.latency.p50,
  p99Ms: r.latency.p99,
  maxMs: r.latency.max,
  errors: r.errors + r.timeouts,
  non2xx: r.non2xx,
  peakRssMb: Math.round(svc.rssMb()),
  total: r.requests.total,
  cpuUsPerRequest: r.requests.total > 0 ? Math.round((cpu * 1e6) / r.requests.total) : 0,
  cpuPercent: Math.round((cpu / seconds) * 100),
  postgresCpuPercent: Math.round((postgres / seconds) * 100),
});

/**
 * 10,000 viewers of one live show at their real rates: each fetches its own signed media playlist and the current
 * segment through the documented nginx CDN edge (docs/cdn), every 2 s, and heartbeats its session every 30 s to
 * the server. The offered load is fixed; what the machine holds is the share of it served without errors and
 * within a segment's length (p99), in viewers. `BENCH_VIEWERS` sets the count (10,000).
 */
export const viewers10k: Scenario = {
  name: 'viewers',
  run: async (ctx) => {
    const count = Number(process.env.BENCH_VIEWERS ?? 10_000);
    const { data: tenant } = await ctx.operator.call('POST', '/v1/operator/tenants', { name: 'Bench viewers' });
    await ctx.operator.call('PATCH', `/v1/operator/tenants/${tenant.tenant.id}`, { rate_limits: { secret: 100_000, publishable: 100_000 } });
    const api = new Api(ctx.svc.url, `Bearer ${tenant.keys.live.secret}`);
    const stream = await publishedStream(api);
    const cdn = await startCdn(new URL(ctx.svc.url).host);
    try {
      const list = await seedViewers(api, ctx.svc.url, stream.id, count);
      let m = 0;
      let h = 0;
      const media = () => {
        const v = list[Math.floor(m / 2) % list.length]!;
        return { path: m++ % 2 === 0 ? v.playlist : v.segment };
      };
      const heartbeat = () => ({ method: 'POST' as const, path: `/v1/access/sessions/${list[h++ % list.length]!.session}/heartbeat`, headers: { authorization: `Bearer ${tenant.keys.live.secret}`, 'content-type': 'application/json' }, body: '{}' });
      const seconds = ctx.durationSeconds;
      const cpuBefore = ctx.svc.cpuSeconds();
      const pgBefore = postgresCpu();
      const [edge, beats] = await Promise.all([
        offered(cdn.url, count * MEDIA_PER_VIEWER, seconds, media),
        offered(ctx.svc.url, count * HEARTBEATS_PER_VIEWER, seconds, heartbeat),
      ]);
      const cpu = ctx.svc.cpuSeconds() - cpuBefore;
      const postgres = postgresCpuSince(pgBefore);
      const held = (r: autocannon.Result, perViewer: number) =>
        r.errors + r.timeouts + r.non2xx === 0 && r.latency.p99 <= STALL_MS ? Math.min(count, Math.floor(r.requests.average / perViewer)) : 0;
      const holds = Math.min(held(edge, MEDIA_PER_VIEWER), held(beats, HEARTBEATS_PER_VIEWER));
      const n = count.toLocaleString('en');
      return {
        results: [
          { name: `viewers (${n}): playlists and segments through the CDN`, result: resultOf(edge, ctx.svc, cpu, postgres, seconds), note: `offered ${count * MEDIA_PER_VIEWER}/s` },
          { name: `viewers (${n}): heartbeats`, result: resultOf(beats, ctx.svc, cpu, postgres, seconds), note: `offered ${Math.round(count * HEARTBEATS_PER_VIEWER)}/s` },
        ],
        notes: [
          `Viewers: ${n} offered (${count * MEDIA_PER_VIEWER} playlist and segment requests/s through the CDN, ${Math.round(count * HEARTBEATS_PER_VIEWER)} heartbeats/s); ` +
            `the machine held ${holds.toLocaleString('en')} (served without errors, p99 within a ${STALL_MS / 1000} s segment). The server's CPU row is the whole run's, shared by both rows.`,
        ],
      };
    } finally {
      stream.encoder.kill('SIGTERM');
      await cdn.stop();
    }
  },
};
