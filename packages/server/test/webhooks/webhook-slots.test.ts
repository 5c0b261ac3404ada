import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverWebhooks } from '../../src/modules/webhooks/deliver-webhook.job';
import { WebhookWorker } from '../../src/modules/webhooks/webhook-worker';
import { useTestServer } from '../harness';
import { Receiver } from './receiver';
import { createEndpoint, emit } from './webhook-helpers';

/**
 * A job's deliveries whose endpoint has every slot in use wait in the job for the next slot this process frees,
 * and lease it then; slots held elsewhere (another process) are looked at again until a second has passed,
 * after which the delivery is queued again. No worker runs here: the test calls the job's work directly.
 */
const t = useTestServer();
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function endpointWithDeliveries(count: number, delayMs: number) {
  const { tenant, keys } = await t.tenant();
  const r = await new Receiver().start();
  receivers.push(r);
  r.answer(() => ({ status: 200, delayMs }));
  const endpoint = await createEndpoint(t, keys.test.secret, { url: r.url(), enabled_events: ['streams.asset.created'] });
  await emit(t, { tenantId: tenant.id, livemode: false }, 'streams.asset.created', count);
  const rows = await t.ctx.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).orderBy('created_at').execute();
  return { r, ids: rows.map((d) => d.id) };
}

const deliveryJobs = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from pgboss.job where name = 'deliver-webhook'`.execute(t.ctx.db)).rows[0]!.n);

const stateOf = async (ids: string[]) =>
  (await t.ctx.db.selectFrom('webhook_deliveries').select('state').where('id', 'in', ids).execute()).map((d) => d.state);

const worker = () => new WebhookWorker({ db: t.ctx.db, secrets: t.ctx.secrets, log: pino({ level: 'silent' }), logsBodyFrom: () => true });

describe('an endpoint whose slots are all in use', () => {
  it('gets the next delivery as soon as one of its attempts ends, in the same job, never more than 10 at once', async () => {
    // Two and a half times the slots: each slot is used again as it frees, more than once.
    const { r, ids } = await endpointWithDeliveries(25, 200);
    const jobsBefore = await deliveryJobs();
    await deliverWebhooks(worker().deps, ids);
    expect(r.received).toHaveLength(25);
    expect(r.maxInFlight).toBe(10);
    expect(await stateOf(ids)).toEqual(Array(25).fill('succeeded'));
    // Nothing was queued again for later.
    expect(await deliveryJobs()).toBe(jobsBefore);
  });

  it('waits for a slot held by another process, then queues the delivery again for a second later', async () => {
    const { r, ids } = await endpointWithDeliveries(11, 0);
    // Another process holds all ten slots with ten of these deliveries.
    await t.ctx.db
      .updateTable('webhook_deliveries')
      .set({ leased_until: sql<Date>`now() + interval '30 seconds'` })
      .where('id', 'in', ids.slice(0, 10))
      .execute();
    const jobsBefore = await deliveryJobs();
    const started = Date.now();
    await deliverWebhooks(worker().deps, [ids[10]!]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(r.received).toHaveLength(0);
    expect(await stateOf([ids[10]!])).toEqual(['queued']);
    const requeued = await sql<{ data: { deliveryIds: string[] }; delayed: boolean }>`
      select data, start_after > now() as delayed from pgboss.job where name = 'deliver-webhook' order by created_on desc limit 1`.execute(t.ctx.db);
    expect(await deliveryJobs()).toBe(jobsBefore + 1);
    expect(requeued.rows[0]).toEqual({ data: { deliveryIds: [ids[10]] }, delayed: true });
  });
});
