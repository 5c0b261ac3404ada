import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';

/** The public limit per client IP, in requests per second. */
const LIMIT = 40;
const RUN_MS = 3_000;

describe('rate limits across processes on one database', () => {
  let name: string | undefined;
  const processes: ServerProcess[] = [];
  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    if (name) await dropTestDatabase(name);
  });

  it(`admit at most the limit plus 10 % in total, whichever process is asked`, async () => {
    name = await createTestDatabase();
    const env = {
      DATABASE_URL: databaseUrl(name),
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      SVC_RATE_LIMIT_PUBLIC: String(LIMIT),
      LOG_LEVEL: 'info',
    };
    // One after the other: the first migrates the database.
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      processes.push(runServerProcess(env));
      urls.push(await processes[i]!.url);
    }
    expect(new Set(urls).size).toBe(2);

    // Both processes are asked as fast as they answer, from one client IP: one bucket.
    const admitted = new Map<number, number>();
    let refused = 0;
    const until = Date.now() + RUN_MS;
    const loop = async (url: string) => {
      while (Date.now() < until) {
        const res = await fetch(`${url}/v1/status`);
        await res.arrayBuffer();
        const second = Math.floor(Date.now() / 1000);
        if (res.status === 200) admitted.set(second, (admitted.get(second) ?? 0) + 1);
        else if (res.status === 429) refused++;
        else throw new Error(`unexpected ${res.status}`);
      }
    };
    await Promise.all(urls.flatMap((url) => Array.from({ length: 6 }, () => loop(url))));

    const total = [...admitted.values()].reduce((a, b) => a + b, 0);
    // Every second the run touched (the first and last only partly) could admit the limit once, not once per process.
    const windows = admitted.size;
    expect(refused, 'the load went beyond the limit').toBeGreaterThan(0);
    expect(total, `admitted ${total} in ${windows} windows: ${JSON.stringify([...admitted])}`).toBeLessThanOrEqual(Math.floor(LIMIT * windows * 1.1));
    // And the limit is used, not merely refused: the full seconds in the middle admit close to it.
    const full = [...admitted.entries()].sort(([a], [b]) => a - b).slice(1, -1).map(([, n]) => n);
    for (const n of full) expect(n).toBeGreaterThanOrEqual(LIMIT * 0.5);
  }, 90_000);
});
