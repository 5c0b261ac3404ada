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
});
