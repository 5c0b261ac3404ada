import type { Logger } from 'pino';

/** Latencies are counted in whole milliseconds up to this bound; slower requests share the last bucket. */
const MAX_MS = 10_000;

interface RouteTally {
  count: number;
  /** By status class (`2xx`, `4xx`, …); `aborted` when the client left before the answer was sent. */
  status: Record<string, number>;
  /** Requests by latency in whole milliseconds (index = ms; the last holds everything slower). */
  latency: Uint32Array;
  max: number;
}

/** The latency under which `fraction` of the counted requests finished, in ms. */
function percentile(t: RouteTally, fraction: number): number {
  const rank = Math.ceil(t.count * fraction);
  let seen = 0;
  for (let ms = 0; ms < t.latency.length; ms++) {
    seen += t.latency[ms]!;
    if (seen >= rank) return ms === MAX_MS ? t.max : ms;
  }
  return t.max;
}

/**
 * Requests of frequent routes counted per interval, by route: how many, by status class, and their latency
 * percentiles. Counting is a few array writes per request, whatever the log level.
 */
export class RequestSummary {
  private routes = new Map<string, RouteTally>();

  add(route: string, status: number, ms: number): void {
    let t = this.routes.get(route);
    if (!t) {
      t = { count: 0, status: {}, latency: new Uint32Array(MAX_MS + 1), max: 0 };
      this.routes.set(route, t);
    }
    const cls = status === 0 ? 'aborted' : `${Math.floor(status / 100)}xx`;
    t.count += 1;
    t.status[cls] = (t.status[cls] ?? 0) + 1;
    t.latency[Math.min(Math.max(0, Math.round(ms)), MAX_MS)]! += 1;
    if (ms > t.max) t.max = ms;
  }

  /** One `requests summary` line per route counted since the last flush (none when nothing came), then starts over. */
  flush(log: Logger, intervalSeconds: number): void {
    const routes = this.routes;
    if (routes.size === 0) return;
    this.routes = new Map();
    for (const [route, t] of routes) {
      log.info(
        {
          route,
          interval_s: intervalSeconds,
          count: t.count,
          status: t.status,
          latency_ms: { p50: percentile(t, 0.5), p90: percentile(t, 0.9), p99: percentile(t, 0.99), max: t.max },
        },
        'requests summary',
      );
    }
  }
}
