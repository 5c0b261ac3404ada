import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';

const t = useTestServer();

/**
 * A batch's statements have one text whatever the batch's size: `in (…)` goes to PostgreSQL as `= any($1)`, so
 * the statement is prepared and planned once instead of once per list length.
 */
describe('in lists', () => {
  it('are sent as one array parameter, the same text for any length', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `ord_${i}`);
    const of = (n: number) => t.ctx.db.selectFrom('orders').select('id').where('id', 'in', ids(n)).compile();
    expect(of(2).sql).toBe(of(7).sql);
    expect(of(2).sql).toContain('"id" = any($1)');
    expect(of(7).parameters).toEqual([ids(7)]);
    const notIn = t.ctx.db.selectFrom('orders').select('id').where('status', 'not in', ['paid', 'refunded']).compile();
    expect(notIn.sql).toContain('"status" <> all($1)');
    // A subquery is left as it is.
    const sub = t.ctx.db.selectFrom('tickets').select('id').where('order_id', 'in', (eb) => eb.selectFrom('orders').select('id')).compile();
    expect(sub.sql).toContain('"order_id" in (select');
  });

  it('select the same rows as the lists did, for text and uuid columns, in and not in, empty or not', async () => {
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`create temporary table in_lists (id text primary key, n integer not null, u uuid not null) on commit drop`.execute(trx);
      const made = (
        await sql<{ id: string; n: number; u: string }>`insert into in_lists select 'r' || i, i, gen_random_uuid() from generate_series(1, 6) as i returning *`.execute(trx)
      ).rows;
      const table = () => (trx as unknown as typeof t.ctx.db).selectFrom('in_lists' as 'orders').select(sql<string>`id`.as('id')).orderBy(sql`n`);
      const ids = async (q: ReturnType<typeof table>) => (await q.execute()).map((r) => r.id);
      expect(await ids(table().where(sql`id`, 'in', ['r2', 'r5', 'nope']))).toEqual(['r2', 'r5']);
      expect(await ids(table().where(sql`n`, 'not in', [1, 2, 3]))).toEqual(['r4', 'r5', 'r6']);
      expect(await ids(table().where(sql`u`, 'in', [made[0]!.u, made[3]!.u]))).toEqual(['r1', 'r4']);
      expect(await ids(table().where(sql`id`, 'in', []))).toEqual([]);
      expect(await ids(table().where(sql`id`, 'not in', []))).toHaveLength(6);
    });
  });
});
