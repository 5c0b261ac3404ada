// A fixed number of requests sent at once (the ticket rush, the payment confirmations): unlike `measure`, which
// runs for a duration, each answer is kept so the scenario can check every one of them.
import { Agent, request } from 'node:http';
import type { Result } from './measure';
import { postgresCpu, postgresCpuSince, type Running } from './processes';

export interface BurstRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Answer {
  status: number;
  /** The parsed JSON body, or undefined when the request failed on the client side. */
  body: any;
  /** A client-side failure (connection reset, timeout): counted in `errors`. */
  error?: string;
  ms: number;
  /** When the answer came, in ms from the start of the burst. */
  at: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0);

export function send(agent: Agent, base: string, r: BurstRequest): Promise<{ status: number; text: string }> {
  const body = r.body === undefined ? undefined : JSON.stringify(r.body);
  return new Promise((resolve, reject) => {
    const req = request(base + r.path, { agent, method: r.method, headers: { 'content-type': 'application/json', ...r.headers }, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends `requests` over `connections` kept-alive connections, as fast as the server answers, sampling its CPU
 * and memory as `measure` does. Non-2xx answers are counted in `non2xx`; the scenario judges them.
 */
export async function burst(server: Running, connections: number, requests: BurstRequest[]): Promise<{ result: Result; answers: Answer[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const answers: Answer[] = new Array(requests.length);
  let peak = server.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
  const cpuBefore = server.cpuSeconds();
  const postgresBefore = postgresCpu();
  const started = performance.now();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(connections, requests.length) }, async () => {
        while (next < requests.length) {
          const i = next++;
          const r = requests[i]!;
          const t0 = performance.now();
          try {
            const { status, text } = await send(agent, server.url, r);
            answers[i] = { status, body: text ? JSON.parse(text) : undefined, ms: performance.now() - t0, at: performance.now() - started };
          } catch (err) {
            answers[i] = { status: 0, body: undefined, error: err instanceof Error ? err.message : String(err), ms: performance.now() - t0, at: performance.now() - started };
          }
        }
      }),
    );
  } finally {
    clearInterval(sampler);
    agent.destroy();
  }
  return { result: resultOf(server, answers, { started, peak, cpuBefore, postgresBefore }), answers };
}

/** The figures of requests sent and answered since `since.started` (a burst, or a paced run). */
export function resultOf(server: Running, answers: Answer[], since: { started: number; peak: number; cpuBefore: number; postgresBefore: ReturnType<typeof postgresCpu> }): Result {
  const elapsed = (performance.now() - since.started) / 1000;
  const cpu = server.cpuSeconds() - since.cpuBefore;
  const postgresSeconds = postgresCpuSince(since.postgresBefore);
  const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(answers.length / elapsed),
    p50Ms: Math.round(percentile(sorted, 50)),
    p99Ms: Math.round(percentile(sorted, 99)),
    maxMs: Math.round(sorted.at(-1) ?? 0),
    errors: answers.filter((a) => a.error).length,
    non2xx: answers.filter((a) => !a.error && (a.status < 200 || a.status >= 300)).length,
    peakRssMb: Math.round(Math.max(since.peak, server.rssMb())),
    total: answers.length,
    cpuUsPerRequest: Math.round((cpu * 1e6) / answers.length),
    cpuPercent: Math.round((cpu / elapsed) * 100),
    postgresCpuPercent: Math.round((postgresSeconds / elapsed) * 100),
  };
}
