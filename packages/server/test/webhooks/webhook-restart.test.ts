import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { verifyWebhook } from '@svc/webhook-verify';
import { bearer, useTestServer, type TestServer } from '../harness';
import { Receiver } from './receiver';
import { createEndpoint, emit, startWorker } from './webhook-helpers';

const t = useTestServer();
let r: Receiver;
beforeAll(async () => {
  r = await new Receiver().start();
});
afterAll(async () => {
  await r.close();
});

describe('a committed event survives the server stopping before delivery', () => {
  it('is delivered by the next worker that starts', async () => {
    const { tenant, keys } = await t.tenant();
    const endpoint = await createEndpoint(t, keys.test.secret, { url: r.url(), enabled_events: ['*'] });
    // The API process commits an event and its job, then dies: no worker is running.
    const viaApi = await t.http().post(`/v1/webhook_endpoints/${endpoint.id}/test`).set(bearer(keys.test.secret));
    expect(viaApi.status).toBe(202);
    const [viaService] = await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.asset.ready');
    // No worker runs in this process: both jobs wait in the queue, undelivered.
    expect(r.received).toHaveLength(0);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'deliver-webhook' and state = 'created'`.execute(t.ctx.db);
    expect(rows[0]!.n).toBe(2);

    // A new process starts its worker: both are delivered, signed.
    const w = await startWorker(t);
    try {
      await r.waitFor(2);
      const ids = r.received.map((x) => x.headers['svc-event-id']).sort();
      expect(ids).toEqual([viaApi.body.data.id, viaService!.id].sort());
      for (const x of r.received) await verifyWebhook(x.body, x.headers['svc-signature'] as string, endpoint.secret);
    } finally {
      await w.stop();
    }
  });

  it('a delivery whose worker died mid-attempt is attempted again (at least once)', async () => {
    const { tenant, keys } = await t.tenant();
    await createEndpoint(t, keys.test.secret, { url: r.url('/again'), enabled_events: ['*'] });
    const [event] = await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.asset.ready');
    // Simulate a worker that took the slot and vanished: the lease is stale and the job lost.
    await t.ctx.db
      .updateTable('webhook_deliveries')
      .set({ leased_until: new Date(Date.now() - 1_000), queued_at: new Date(Date.now() - 2 * 3_600_000) })
      .where('event_id', '=', event!.id)
      .execute();
    await sql`delete from pgboss.job where name = 'deliver-webhook'`.execute(t.ctx.db);
    const before = r.received.length;
    const w = await startWorker(t);
    try {
      await r.waitFor(before + 1);
      expect(r.received.at(-1)!.headers['svc-event-id']).toBe(event!.id);
      expect(r.received.at(-1)!.path).toBe('/again');
    } finally {
      await w.stop();
    }
  });
});
