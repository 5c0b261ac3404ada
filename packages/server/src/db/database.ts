import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { InListsAsArraysPlugin } from './in-lists';
import { preparingClient } from './prepared-statements';
import { pgConnection } from './session-target';
import type { DB } from './schema';

export type Database = Kysely<DB>;
/** Repository functions take either, so the service decides where the transaction starts. */
export type Executor = Kysely<DB> | Transaction<DB>;

// Keep bigint and numeric columns as JS numbers where they fit; counts come back as strings otherwise.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * `connectionString` may name several hosts (`pgConnection`). `prepare: false` for a transaction-mode pooler (PgBouncer before 1.21 keeps no prepared statement across
 * transactions, which may run on different server connections): statements then run unnamed.
 */
export function createDatabase(connectionString: string, max = 10, options: { prepare?: boolean } = {}): { db: Database; pool: pg.Pool } {
  const pool = new pg.Pool({ ...pgConnection(connectionString, options.prepare === false ? pg.Client : preparingClient()), max });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a client checked out between two queries (a transaction's), when its server goes away (a failover): the
  // query running or sent next fails with the error, the request answers 5xx, and the pool drops the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new InListsAsArraysPlugin()] }), pool };
}
