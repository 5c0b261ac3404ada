// Requests sent at a fixed offered rate, each on its own schedule whatever the server answers (a provider's
// callbacks do not wait for each other): what a provider sees of the service's answers at that rate.
import { Agent } from 'node:http';
import { resultOf, send, type Answer, type BurstRequest } from './burst';
import type { Result } from './measure';
import { postgresCpu, type Running } from './processes';

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
      const wait = started + (i * 1000) / rate - performance.now();
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
  return { answers, result: resultOf(server, answers, { started, peak, cpuBefore, postgresBefore }) };
}
