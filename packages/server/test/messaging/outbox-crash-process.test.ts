import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';
import { AT_API_KEY, AT_USERNAME, africasTalkingFake } from './fakes/africas-talking-fake';

const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const LEASE_SECONDS = 5;

describe('a server killed mid-send', () => {
  let name: string | undefined;
  const processes: ServerProcess[] = [];
  // The provider never answers the first request: the process dies while it waits.
  let calls = 0;
  const fake = africasTalkingFake();
  const answer = fake.handler;
  fake.handler = (req) => (++calls === 1 ? 'hang' : answer(req));
  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    await fake.stop();
    if (name) await dropTestDatabase(name);
  });

  it('sends the message after the restart, once', async () => {
    name = await createTestDatabase();
    await fake.start();
    const env = {
      DATABASE_URL: databaseUrl(name),
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      AFRICASTALKING_USERNAME: AT_USERNAME,
      AFRICASTALKING_API_KEY: AT_API_KEY,
      AFRICASTALKING_API_URL: fake.url,
      SVC_MESSAGES_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    const first = runServerProcess(env);
    processes.push(first);
    const url = await first.url;
    const created = await fetch(`${url}/v1/operator/tenants`, { method: 'POST', headers: json(OPERATOR_TOKEN), body: JSON.stringify({ name: 'Crash' }) });
    const { data } = (await created.json()) as { data: { keys: { live: { secret: string } } } };
    const sk = data.keys.live.secret;
    const phone = '+254712000777';
    const invited = await fetch(`${url}/v1/members`, { method: 'POST', headers: json(sk), body: JSON.stringify({ phone, role: 'viewer' }) });
    expect(invited.status).toBe(201);

    // The first process takes the message and calls the provider, which does not answer; then it dies.
    const deadline = Date.now() + 20_000;
    while (fake.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests).toHaveLength(1);
    first.child.kill('SIGKILL');
    await first.exited;

    const db = new pg.Client({ connectionString: databaseUrl(name) });
    await db.connect();
    try {
      const status = async () => (await db.query<{ status: string; attempts: number }>(`select status, attempts from messages where "to" = $1`, [phone])).rows[0]!;
      expect(await status()).toEqual({ status: 'sending', attempts: 1 });

      const second = runServerProcess(env);
      processes.push(second);
      await second.url;
      const until = Date.now() + 30_000;
      while ((await status()).status !== 'sent' && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(await status()).toEqual({ status: 'sent', attempts: 2 });
      // Two requests reached the provider and one was answered: the dead process's never was. (Its job, which the
      // queue retries later, finds the message sent and does nothing: see the concurrent-jobs test in outbox.test.ts.)
      const sent = () => fake.requests.filter((r) => new URLSearchParams(r.body).get('to') === phone).length;
      expect(sent()).toBe(2);
      const { rows } = await db.query<{ provider_id: string }>(`select provider_id from messages where "to" = $1`, [phone]);
      expect(rows[0]!.provider_id).toMatch(/^ATXid_/);
    } finally {
      await db.end();
    }
  }, 90_000);
});
