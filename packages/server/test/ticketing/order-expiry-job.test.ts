import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { expireOrder, orderExpiryJobs } from '../../src/modules/ticketing/orders/expire-orders.job';
import { jobOf, sendInTransaction } from '../../src/jobs/send-in-transaction';
import { bookingBody, bookOk, bucketsOf, seedEvent, sk } from './booking-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

beforeAll(async () => {
  for (const job of orderExpiryJobs(t.ctx)) t.ctx.jobs.register({ ...job, work: { pollingIntervalSeconds: 0.5 } });
  await t.ctx.jobs.start();
});

describe('the order expiry job', () => {
  it('expires a pending order whose hold has run out, and leaves one still held', async () => {
    const tenant = await t.tenant();
    const { event, ticketType } = await seedEvent(t, tenant, { ticketTypes: [{ price: 1000 }] });
    const due = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id))).booking;
    const held = (await bookOk(t, tenant, event.slug, bookingBody(ticketType.id))).booking;
    await t.ctx.db.updateTable('orders').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', due.id).execute();
    // Each booking's own job waits for its original expires_at; these run at once.
    await t.ctx.db.transaction().execute((trx) =>
      sendInTransaction(trx, [due, held].map((o) => jobOf(expireOrder, { tenant_id: tenant.tenant.id, livemode: false, order_id: o.id }))),
    );
    const until = Date.now() + 15_000;
    let status = 'pending';
    while (status === 'pending' && Date.now() < until) {
      status = expectStatus(await t.http().get(`/v1/orders/${due.id}`).set(sk(tenant)), 200).data.status;
      if (status === 'pending') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('expired');
    expect(expectStatus(await t.http().get(`/v1/orders/${held.id}`).set(sk(tenant)), 200).data.status).toBe('pending');
    expect((await bucketsOf(t, event.id))[`e:${event.id}`]).toMatchObject({ held: 1 });
  });
});
