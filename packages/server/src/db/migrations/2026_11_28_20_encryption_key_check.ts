import { type Kysely, sql } from 'kysely';

/**
 * One value sealed with the encryption key the database's secrets are sealed with, written at the first start
 * (`checkEncryptionKey`): a server started with another key refuses to start rather than fail every request that
 * opens a secret.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table encryption_key_check (
      id boolean primary key default true check (id),
      sealed text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table encryption_key_check`.execute(db);
}
