// Requests sent at a fixed offered rate, each on its own schedule whatever the server answers (a provider's
// callbacks do not wait for each other): what a provider sees of the service's answers at that rate.
import { Agent, request } from 'node:http';
import type { Answer, BurstRequest } from './burst';
import type { Result } from './measure';
import { postgresCpu, postgresCpuSince, type Running } from './processes';

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0);

function send(agent: Agent, base: string, r: BurstRequest): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(base + r.path, { agent, method: r.method, headers: { 'content-type': 'application/json', ...r.headers }, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(r.body === undefined ? undefined : JSON.stringify(r.body));
  });
}

/** Sends request `i` at `i / rate` seconds after the start, over up to 200 kept-alive connections. */
export async function paced(server: Running, rate: number, requests: BurstRequest[]): Promise<{ result: Result; answers: Answer[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 200 });
  const answers: Answer[] = new Array(requests.length);
  let peak = server.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
  const cpuBefore = server.cpuSeconds();
  const postgresBefore = postgresCpu();
  const started = performance.now();
  const sent: Promise<void>[] = [];
  try {
    for (let i = 0; i < requests.length; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const t0 = performance.now();
      sent.push(
        send(agent, server.url, requests[i]!).then(
          ({ status, text }) => void (answers[i] = { status, body: text ? JSON.parse(text) : undefined, ms: performance.now() - t0, at: performance.now() - started }),
          (err) => void (answers[i] = { status: 0, body: undefined, error: err instanceof Error ? err.message : String(err), ms: performance.now() - t0, at: performance.now() - started }),
        ),
      );
    }
    await Promise.all(sent);
  } finally {
    clearInterval(sampler);
    agent.destroy();
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = server.cpuSeconds() - cpuBefore;
  const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
  return {
    answers,
    result: {
      requestsPerSecond: Math.round(requests.length / elapsed),
      p50Ms: Math.round(percentile(sorted, 50)),
      p99Ms: Math.round(percentile(sorted, 99)),
      maxMs: Math.round(sorted.at(-1) ?? 0),
      errors: answers.filter((a) => a.error).length,
      non2xx: answers.filter((a) => !a.error && (a.status < 200 || a.status >= 300)).length,
      peakRssMb: Math.round(Math.max(peak, server.rssMb())),
      total: requests.length,
      cpuUsPerRequest: Math.round((cpu * 1e6) / requests.length),
      cpuPercent: Math.round((cpu / elapsed) * 100),
      postgresCpuPercent: Math.round((postgresCpuSince(postgresBefore) / elapsed) * 100),
    },
  };
}
