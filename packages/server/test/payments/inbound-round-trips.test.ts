import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/core/context';
import { createDatabase } from '../../src/db/database';
import { receiveNotification } from '../../src/modules/payments/inbound/receive-notification';
import { until } from '../kit/fakes/fake-provider';
import { mpesaConfig, pendingMpesaPayment, useMpesaServer } from './inbound-fixtures';
import { applyInbox, inboxOf, paymentRow } from './inbound-kit';

const { t, mpesaFake } = useMpesaServer();

/** The context over a pool of its own whose every statement (BEGIN and COMMIT too) is counted. */
function counted(ctx: AppContext) {
  const { db, pool } = createDatabase(ctx.config.DATABASE_URL!, 1);
  const seen: string[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text: string };
      seen.push(typeof first === 'string' ? first : first.text);
      return query(...args);
    };
  });
  return { ctx: { ...ctx, db } as AppContext, seen, close: () => db.destroy() };
}

describe('the M-Pesa callback answer path', () => {
  it('checks the address and records the callback with its job in two statements; a repeat takes two and records nothing', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id);
    await until(() => mpesaFake.deliveries.some((d) => d.url === p.callbackUrl && d.status !== null));
    const delivery = mpesaFake.deliveries.find((d) => d.url === p.callbackUrl)!;
    // The callback as if it came now, to a fresh inbox.
    await t.ctx.db.deleteFrom('payment_notifications').where('provider_config_id', '=', config.id).execute();
    const token = new URL(p.callbackUrl).pathname.split('/').pop()!;
    const call = { providerType: 'mpesa', configId: config.id, token, headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(delivery.body), ip: '127.0.0.1' };

    const c = counted(t.ctx);
    try {
      await receiveNotification(c.ctx, call); // the pool's first connection reads PostgreSQL's settings once
      await t.ctx.db.deleteFrom('payment_notifications').where('provider_config_id', '=', config.id).execute();
      c.seen.length = 0;
      expect(await receiveNotification(c.ctx, call)).toBe('recorded');
      expect(c.seen).toHaveLength(2);
      c.seen.length = 0;
      expect(await receiveNotification(c.ctx, call)).toBe('duplicate');
      expect(c.seen).toHaveLength(2);
    } finally {
      await c.close();
    }

    const [row] = await inboxOf(t, config.id);
    const jobs = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'payments-apply-notification' and data->>'id' = ${String(row!.id)}`.execute(t.ctx.db);
    expect(jobs.rows[0]!.n).toBe(1);
    expect(await applyInbox(t, config.id)).toEqual(['succeeded']);
    expect((await paymentRow(t, p.payment.id)).status).toBe('succeeded');
  });
});
