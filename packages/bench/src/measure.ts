import autocannon from 'autocannon';
import { postgresCpu, postgresCpuSince, type Running } from './processes';

export interface Load {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Builds each request; called for every request sent. */
  request: () => { method: 'GET' | 'POST' | 'DELETE' | 'PATCH'; path: string; headers?: Record<string, string>; body?: string };
}

export interface Result {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  non2xx: number;
  peakRssMb: number;
  total: number;
  /** The server's CPU time per request served (all its threads: JavaScript, GC, I/O), in µs. */
  cpuUsPerRequest: number;
  /** The server's CPU use during the run, in % of one core. */
  cpuPercent: number;
  /** PostgreSQL's CPU use during the run (all its processes), in % of one core. */
  postgresCpuPercent: number;
}

function run(load: Load, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        connections: load.connections,
        duration: seconds,
        requests: [
          {
            setupRequest: (req) => {
              const r = load.request();
              return { ...req, method: r.method, path: r.path, headers: { 'content-type': 'application/json', ...r.headers }, body: r.body };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/** A warm-up run that is thrown away, then the measured run, sampling the server's memory meanwhile. */
export async function measure(load: Load, server: Running, warmupSeconds = 2): Promise<Result> {
  if (warmupSeconds > 0) await run(load, warmupSeconds);
  let peak = server.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
  const cpuBefore = server.cpuSeconds();
  const postgresBefore = postgresCpu();
  const started = performance.now();
  try {
    const r = await run(load, load.durationSeconds);
    const cpu = server.cpuSeconds() - cpuBefore;
    const postgresSeconds = postgresCpuSince(postgresBefore);
    const elapsed = (performance.now() - started) / 1000;
    return {
      requestsPerSecond: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      maxMs: r.latency.max,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      peakRssMb: Math.round(Math.max(peak, server.rssMb())),
      total: r.requests.total,
      cpuUsPerRequest: r.requests.total > 0 ? Math.round((cpu * 1e6) / r.requests.total) : 0,
      cpuPercent: Math.round((cpu / elapsed) * 100),
      postgresCpuPercent: Math.round((postgresSeconds / elapsed) * 100),
    };
  } finally {
    clearInterval(sampler);
  }
}
