import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../databases';
import { ENCRYPTION_KEY, OPERATOR_TOKEN } from '../harness';
import { runServerProcess, type ServerProcess } from '../process';
import { Receiver } from './receiver';

/** Events of the burst: every live stream created answers `201` only once its event is committed. */
const BURST = 60;
const RECOVERY_MS = 60_000;
/** How long the receiver takes to answer until the restart. */
const SLOW_MS = 5_000;

const json = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

describe('a server killed mid-burst', () => {
  let name: string | undefined;
  const processes: ServerProcess[] = [];
  const receiver = new Receiver();
  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    await receiver.close();
    if (name) await dropTestDatabase(name);
  });

  it('delivers every committed event within 60 s of its restart, none lost', async () => {
    name = await createTestDatabase();
    const env = { DATABASE_URL: databaseUrl(name), SVC_OPERATOR_TOKEN: OPERATOR_TOKEN, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, SVC_RATE_LIMIT_PUBLIC: '100000' };
    // The receiver is slow, so deliveries are in flight (their jobs active, their slots leased) when the process dies.
    await receiver.start();
    receiver.answer(() => ({ status: 200, delayMs: SLOW_MS }));
    const first = runServerProcess(env);
    processes.push(first);
    const url = await first.url;
    const created = await fetch(`${url}/v1/operator/tenants`, { method: 'POST', headers: json(OPERATOR_TOKEN), body: JSON.stringify({ name: 'Crash' }) });
    const { data } = (await created.json()) as { data: { tenant: { id: string }; keys: { test: { secret: string } } } };
    const sk = data.keys.test.secret;
    const endpoint = await fetch(`${url}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: json(sk),
      body: JSON.stringify({ url: receiver.url('/crash'), enabled_events: ['streams.live_stream.created'] }),
    });
    expect(endpoint.status).toBe(201);

    // The burst: creates go out a few at a time; the process is killed once deliveries are under way.
    const acknowledged: string[] = [];
    const burst = (async () => {
      for (let i = 0; i < BURST; i += 4) {
        const answers = await Promise.allSettled(
          Array.from({ length: 4 }, () => fetch(`${url}/v1/streams/live_streams`, { method: 'POST', headers: json(sk), body: '{}' })),
        );
        for (const a of answers) if (a.status === 'fulfilled' && a.value.status === 201) acknowledged.push(((await a.value.json()) as { data: { id: string } }).data.id);
      }
    })().catch(() => {});
    await receiver.waitFor(5, 20_000);
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    await first.exited;
    await burst;
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = runServerProcess(env);
    processes.push(second);
    await second.url;
    const restartedAt = Date.now();
    receiver.answer(() => ({ status: 200 }));

    const db = new pg.Client({ connectionString: databaseUrl(name) });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; subject: string }>(
        `select id, subject from event_log where tenant_id = $1 and type = 'streams.live_stream.created'`,
        [data.tenant.id],
      );
      const committed = rows.map((r) => r.id);
      // No acknowledged write lost its event.
      for (const id of acknowledged) expect(rows.map((r) => r.subject)).toContain(id);
      // The kill caught deliveries in flight: received, not answered yet.
      expect(receiver.received.some((r) => r.at < killedAt && r.at + SLOW_MS > killedAt)).toBe(true);

      // Delivered: the receiver got it and the server recorded its 2xx (it records only after the answer).
      const undelivered = async () => {
        const { rows: done } = await db.query<{ event_id: string }>(`select event_id from webhook_deliveries where event_id = any($1) and state = 'succeeded'`, [committed]);
        const succeeded = new Set(done.map((d) => d.event_id));
        const received = new Set(receiver.received.map((r) => r.headers['svc-event-id'] as string));
        return committed.filter((id) => !succeeded.has(id) || !received.has(id));
      };
      let missing = await undelivered();
      while (missing.length > 0 && Date.now() - restartedAt < RECOVERY_MS) {
        await new Promise((r) => setTimeout(r, 500));
        missing = await undelivered();
      }
      const seconds = Math.round((Date.now() - restartedAt) / 1000);
      expect(missing, `${missing.length} of ${committed.length} events undelivered ${seconds} s after the restart`).toEqual([]);
    } finally {
      await db.end();
    }
  }, 120_000);
});
