import autocannon from 'autocannon';
import type { Result } from '../measure';
import { liveStream, openSessions, viewers } from './seed';
import { auth, ratio, RSS_LIMIT_MB, type Context, type Scenario } from './types';

/** Hostile connections, each sending the finding's body over and over. */
const ATTACKERS = 200;
/** `[[[…]]]` of 1 MB: 524,288 levels deep, the body that used to take the server down. */
const DEEP_BODY = '['.repeat(512 * 1024) + ']'.repeat(512 * 1024);
const VIEWERS = 200;
/** The attacker's address (a documentation one), told to the server through the trusted loopback proxy header. */
const ATTACKER_IP = '198.51.100.66';

/** The attack for `seconds`: its answers by status, and its latencies. */
function attack(url: string, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${url}/v1/status`, method: 'POST', connections: ATTACKERS, duration: seconds, headers: { 'content-type': 'application/json', 'x-forwarded-for': ATTACKER_IP }, body: DEEP_BODY },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/**
 * Hostile bodies: 200 connections post 1 MB of `[[[…]]]` without credentials, as fast as the server answers,
 * while viewers' heartbeats are measured. Every hostile body must be answered `400` (refused on its raw
 * bytes, unparsed), the server must stay under the memory ceiling and never restart, and heartbeats must keep
 * p99 ≤ 100 ms.
 */
export const hostile: Scenario = {
  name: 'hostile',
  run: async (ctx: Context, measure) => {
    const stream = await liveStream(ctx);
    const ids = await openSessions(ctx, stream.id, await viewers(ctx, 'hostile', VIEWERS, stream.id));
    const pid = ctx.svc.child.pid;
    let peak = ctx.svc.rssMb();
    const sampler = setInterval(() => (peak = Math.max(peak, ctx.svc.rssMb())), 200);
    // The attack covers the heartbeats' warm-up (2 s) and their measured run.
    const attacking = attack(ctx.svc.url, ctx.durationSeconds + 3);
    let n = 0;
    const beats = await measure(() => ({ method: 'POST', path: `/v1/access/sessions/${ids[n++ % ids.length]}/heartbeat`, headers: auth(ctx), body: '{}' }));
    const a = await attacking;
    clearInterval(sampler);
    const alive = ctx.svc.child.exitCode === null && ctx.svc.child.pid === pid;
    const answered400 = a['4xx'];
    const result: Result = {
      requestsPerSecond: Math.round(a.requests.average),
      p50Ms: a.latency.p50,
      p99Ms: a.latency.p99,
      maxMs: a.latency.max,
      errors: a.errors + a.timeouts,
      non2xx: a.non2xx,
      peakRssMb: Math.round(peak),
      total: a.requests.total,
      cpuUsPerRequest: 0,
      cpuPercent: 0,
      postgresCpuPercent: 0,
    };
    const heartbeatTarget = ratio(0, 100);
    return {
      results: [
        {
          name: `hostile: ${ATTACKERS} × 1 MB nested bodies`,
          result,
          target: {
            label: `all 400, RSS ≤ ${RSS_LIMIT_MB} MB, no restart`,
            met: (r) => alive && r.total > 0 && answered400 === r.total && r.errors === 0 && r.peakRssMb <= RSS_LIMIT_MB,
          },
          note: `${answered400} of ${a.requests.total} answered 4xx, ${a['2xx']} 2xx, ${a['5xx']} 5xx; server ${alive ? 'still running' : 'RESTARTED OR DIED'}`,
        },
        {
          name: 'heartbeat during hostile bodies',
          result: { ...beats, peakRssMb: Math.max(beats.peakRssMb, Math.round(peak)) },
          target: { label: 'p99 ≤ 100 ms', met: (r, x) => heartbeatTarget.met(r, x) },
        },
      ],
    };
  },
};
