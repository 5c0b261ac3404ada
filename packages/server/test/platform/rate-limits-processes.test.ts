import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';

/**
 * The public limit per client IP, in requests per second: low enough that twelve clients exceed it even on a
 * loaded machine, where a request through two processes and a shared bucket can take a few hundred milliseconds.
 */
const LIMIT = 10;
const RUN_MS = 3_000;
/** The run goes on past RUN_MS, to this bound, until the limit has refused requests in three seconds. */
const MAX_RUN_MS = 20_000;

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
    const refusedIn = new Map<number, number>();
    const started = Date.now();
    const done = () => {
      const elapsed = Date.now() - started;
      return elapsed >= MAX_RUN_MS || (elapsed >= RUN_MS && refusedIn.size >= 3);
    };
    const loop = async (url: string) => {
      while (!done()) {
        const res = await fetch(`${url}/v1/status`);
        await res.arrayBuffer();
        const second = Math.floor(Date.now() / 1000);
        const counts = res.status === 200 ? admitted : res.status === 429 ? refusedIn : undefined;
        if (!counts) throw new Error(`unexpected ${res.status}`);
        counts.set(second, (counts.get(second) ?? 0) + 1);
      }
    };
    await Promise.all(urls.flatMap((url) => Array.from({ length: 6 }, () => loop(url))));

    const total = [...admitted.values()].reduce((a, b) => a + b, 0);
    // Every second the run touched (the first and last only partly) could admit the limit once, not once per process.
    const windows = admitted.size;
    const seen = JSON.stringify({ admitted: [...admitted], refused: [...refusedIn] });
    expect(refusedIn.size, `the load went beyond the limit in three seconds: ${seen}`).toBeGreaterThanOrEqual(3);
    expect(total, `admitted ${total} in ${windows} windows: ${seen}`).toBeLessThanOrEqual(Math.floor(LIMIT * windows * 1.1));
    // And the limit is used, not merely refused: the seconds in the middle that refused requests admitted close to it.
    const seconds = [...admitted.keys()].sort((a, b) => a - b).slice(1, -1);
    for (const s of seconds.filter((s) => refusedIn.has(s))) expect(admitted.get(s), seen).toBeGreaterThanOrEqual(LIMIT * 0.5);
  }, 120_000);
});
