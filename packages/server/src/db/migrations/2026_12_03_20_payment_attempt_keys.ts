import { type Kysely, sql } from 'kysely';

/**
 * A live checkout's `Idempotency-Key` is kept on the attempt it started, unique per checkout session, so a
 * retried `pay` answers the same attempt instead of prompting the phone twice. The index on the session also
 * serves the "prompt still in progress" check and the session's latest payment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments add column idempotency_key text`.execute(db);
  await sql`create unique index payments_session_idempotency on payments (checkout_session_id, idempotency_key) where idempotency_key is not null`.execute(db);
  await sql`create index payments_session_created on payments (checkout_session_id, created_at) where checkout_session_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index payments_session_created`.execute(db);
  await sql`drop index payments_session_idempotency`.execute(db);
  await sql`alter table payments drop column idempotency_key`.execute(db);
}
