import { sql, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema';
import { queueDueMessages } from '../../src/modules/messaging/delivery/deliver-message';
import { leaseSlots, queueDueDeliveries } from '../../src/modules/webhooks/webhook-deliveries.repository';
import { endAllLapsedSessions } from '../../src/modules/access/sessions/sessions.repository';
import { findDueExpiries } from '../../src/modules/access/entitlements/entitlements.repository';
import { findExpiredReconnectWindows } from '../../src/modules/streams/live-streams/live-streams.repository';
import { duePendingOrders } from '../../src/modules/ticketing/orders/orders.repository';
import { useTestServer } from '../harness';

const t = useTestServer();

/**
 * The sweeps run every second or minute for as long as the server runs, over tables that only grow. Each finds
 * its work through a partial index of the open rows; a statement prepared and planned once for any parameters
 * (after its fifth run on a connection) must still use that index, or each run reads every row ever written.
 */
describe('sweeps read the open rows through their partial indexes', () => {
  const sweeps: Array<[table: string, sweep: (trx: Transaction<DB>, now: Date) => Promise<unknown>]> = [
    ['messages', (trx, now) => queueDueMessages(trx, now, 200)],
    ['webhook_deliveries', (trx, now) => queueDueDeliveries(trx, now, 100)],
    ['access_sessions', (trx, now) => endAllLapsedSessions(trx, now)],
    ['entitlements', (trx, now) => findDueExpiries(trx, now)],
    ['live_streams', (trx, now) => findExpiredReconnectWindows(trx, now)],
    ['orders', (trx, now) => duePendingOrders(trx, now, 100)],
  ];

  it.each(sweeps)('%s', async (table, sweep) => {
    const scans = await t.ctx.db.transaction().execute(async (trx) => {
      // Past the fifth run a connection plans a prepared statement once for any parameters.
      for (let i = 0; i < 8; i++) await sweep(trx, new Date());
      const { rows } = await sql<{ seq_scan: string; idx_scan: string | null }>`
        select seq_scan, idx_scan from pg_stat_xact_user_tables where relname = ${table}`.execute(trx);
      return rows[0]!;
    });
    expect(Number(scans.seq_scan)).toBe(0);
    expect(Number(scans.idx_scan)).toBeGreaterThan(0);
  });
});

/**
 * A PL/pgSQL function keeps its statements' plans for the connection's life. One planned after statistics were
 * gathered on a table of a page or less, where a scan costs least, must still look rows up through the index.
 */
describe('functions look their rows up through indexes, whatever the table held when planned', () => {
  it('lease_webhook_slots', async () => {
    await sql`analyze webhook_deliveries`.execute(t.ctx.db);
    const scans = await t.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 8; i++) expect(await leaseSlots(trx as never, [{ id: `whd_${i}`, endpoint_id: 'we_none' }], 10, 30)).toEqual([]);
      const { rows } = await sql<{ seq_scan: string }>`
        select seq_scan from pg_stat_xact_user_tables where relname = 'webhook_deliveries'`.execute(trx);
      return rows[0]!;
    });
    expect(Number(scans.seq_scan)).toBe(0);
  });
});
