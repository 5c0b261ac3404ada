import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database';
import { useTestServer } from '../harness';

const t = useTestServer();

describe('prepared statements', () => {
  const open: Array<{ destroy: () => Promise<void> }> = [];
  afterAll(async () => {
    for (const db of open) await db.destroy();
  });

  it('prepares a statement the third time it runs, and runs it unnamed after a migration changed its table', async () => {
    // One connection, so every run meets the statement it prepared.
    const { db } = createDatabase(t.databaseUrl, 1);
    open.push(db);
    await sql`create table prepared_probe (id integer primary key, name text)`.execute(db);
    await sql`insert into prepared_probe values (1, 'a')`.execute(db);
    const read = () => sql<Record<string, unknown>>`select * from prepared_probe where id = ${1}`.execute(db);
    const prepared = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${'select * from prepared_probe%'}`.execute(db)).rows[0]!.n;
    // Run unnamed twice, then prepared from the third run on.
    for (let i = 0; i < 2; i++) expect((await read()).rows).toEqual([{ id: 1, name: 'a' }]);
    expect(await prepared()).toBe(0);
    expect((await read()).rows).toEqual([{ id: 1, name: 'a' }]);
    expect(await prepared()).toBe(1);

    await sql`alter table prepared_probe add column extra text default 'x'`.execute(db);
    // PostgreSQL refuses the prepared statement once; the connection then runs it unnamed.
    await expect(read()).rejects.toMatchObject({ code: '0A000' });
    expect((await read()).rows).toEqual([{ id: 1, name: 'a', extra: 'x' }]);
    expect((await read()).rows).toEqual([{ id: 1, name: 'a', extra: 'x' }]);
  });

  /** A pool of one connection whose socket writes are counted. */
  function countingDatabase() {
    const { db, pool } = createDatabase(t.databaseUrl, 1);
    open.push(db);
    const counter = { writes: 0 };
    pool.on('connect', (client) => {
      const stream = (client as unknown as { connection: { stream: Record<'_write' | '_writev', (...a: unknown[]) => unknown> } }).connection.stream;
      for (const method of ['_write', '_writev'] as const) {
        const original = stream[method].bind(stream);
        stream[method] = (...a: unknown[]) => {
          counter.writes++;
          return original(...a);
        };
      }
    });
    return { db, counter };
  }

  it("writes a transaction's begin together with its first statement", async () => {
    const { db, counter } = countingDatabase();
    await sql`select 1`.execute(db);
    const before = counter.writes;
    const answer = await db.transaction().execute(async (trx) => (await sql<{ n: number }>`select ${41}::int + 1 as n`.execute(trx)).rows);
    expect(answer).toEqual([{ n: 42 }]);
    // begin with the select, then commit: two writes, not three.
    expect(counter.writes - before).toBe(2);
    const status = await sql<{ open: boolean }>`select pg_current_xact_id_if_assigned() is not null as open`.execute(db);
    expect(status.rows).toEqual([{ open: false }]);
  });

  it('keeps transactions whole: a failing statement undoes the ones before it, and the connection goes on', async () => {
    const { db } = createDatabase(t.databaseUrl, 1);
    open.push(db);
    await sql`create table if not exists begin_probe (id integer primary key)`.execute(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into begin_probe values (${1})`.execute(trx);
        await sql`insert into begin_probe values (${1})`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // A transaction given up before its first statement leaves nothing open on the connection either.
    await expect(
      db.transaction().execute(async () => {
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await sql`insert into begin_probe values (${2})`.execute(db);
    // Seen from another connection: only the row written outside the failed transactions, committed.
    const { db: other } = createDatabase(t.databaseUrl, 1);
    open.push(other);
    expect((await sql<{ id: number }>`select id from begin_probe order by id`.execute(other)).rows).toEqual([{ id: 2 }]);
    for (let i = 0; i < 20; i++) {
      const n = await db.transaction().execute(async (trx) => (await sql<{ n: number }>`select ${i}::int as n`.execute(trx)).rows[0]!.n);
      expect(n).toBe(i);
    }
  });
});
